package baseline

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/roleprint/roleprint/sv"
)

// CharNgramOptions are the character n-gram features that "tfidf" and
// both channels of "ngram-metric" count: one struct squashed into both
// options structs, so the keys and defaults are written once (and
// "ngram-metric" does not get tfidf's "pool" and "topic_mask", which mean
// something else there).
type CharNgramOptions struct {
	// MinN is the shortest character n-gram, in runes. Default 2.
	MinN int `opt:"ngram_min" json:"ngram_min"`
	// MaxN is the longest character n-gram, in runes. Default 4.
	MaxN int `opt:"ngram_max" json:"ngram_max"`
	// MaxFeatures keeps the n-grams with the highest document frequency.
	// Default 20000.
	MaxFeatures int `opt:"max_features" json:"max_features"`
	// MinDF drops n-grams found in fewer training texts. Default 2.
	MinDF int `opt:"min_df" json:"min_df"`
	// Lowercase folds case before counting. Default false, because
	// capitalisation is part of a speaker's style.
	Lowercase bool `opt:"lowercase" json:"lowercase"`
	// SublinearTF weighs a count c as 1+ln(c) instead of c. Default true.
	SublinearTF bool `opt:"sublinear_tf" json:"sublinear_tf"`
	// Center makes Fit record the mean TF-IDF vector of the training texts
	// and Encode subtract it, so cosines compare what is distinctive about
	// each text rather than the n-grams every text shares (with raw
	// vectors, long sets look alike whoever speaks). Default true.
	Center bool `opt:"center" json:"center"`
}

// DefaultCharNgramOptions returns the n-gram defaults of "tfidf" and
// "ngram-metric" (the only place they are written).
func DefaultCharNgramOptions() CharNgramOptions {
	return CharNgramOptions{MinN: 2, MaxN: 4, MaxFeatures: 20000, MinDF: 2, SublinearTF: true, Center: true}
}

// TFIDFOptions configures the "tfidf" encoder; DefaultTFIDFOptions gives
// every default. Keys are the `--set` settings (`roleprint config tfidf`).
type TFIDFOptions struct {
	// CharNgramOptions are the n-gram features (keys ngram_min, ngram_max,
	// max_features, min_df, lowercase, sublinear_tf, center).
	CharNgramOptions
	// Pool is how a set is embedded: "mean" of its utterances' vectors (the
	// paper's hierarchical pooling) or "doc", the TF-IDF vector of its
	// concatenated text. Default "mean".
	Pool string `opt:"pool" json:"pool"`
	// TopicMask > 0 distorts every text before counting n-grams: words
	// outside the TopicMask most frequent words of the training texts
	// become shapes ('*' per lower-case letter, '^' per upper-case one, '#'
	// per digit; Stamatatos 2017), so the n-grams keep style and lose
	// topic. Default 0: no masking.
	TopicMask int `opt:"topic_mask" json:"topic_mask"`
	// CenterBy is what a set vector is centred on (with center, pool
	// "mean"): "global", the mean of all training texts, or "source" /
	// "corpus", the mean of the training texts of one source ("friends",
	// "shakespeare/hamlet") or corpus ("shakespeare"), so the n-grams a
	// whole show shares cancel and what is left is a speaker's deviation
	// from his show. A set's group is the one whose training mean (or the
	// global mean, the fallback for a source never seen in training) is
	// nearest its raw vector by cosine: no metadata of test sets is read.
	// Needs the runner's FitSources; plain Fit centres globally. Default
	// "global".
	CenterBy string `opt:"center_by" json:"center_by"`
	// GlobalWeight > 0, with center_by source or corpus, puts the globally
	// centred set vector beside the group-centred one, each L2-normalised
	// and scaled by the square root of its weight (GlobalWeight and 1), so
	// a cosine is the weighted mean of the two: show identity (what the
	// Base level rewards) and the speaker's deviation from his show (what
	// Hard needs). Default 0: the group-centred vector alone.
	GlobalWeight float64 `opt:"global_weight" json:"global_weight"`
}

// DefaultTFIDFOptions returns the "tfidf" row's defaults (the only place
// they are written, with DefaultCharNgramOptions).
func DefaultTFIDFOptions() TFIDFOptions {
	return TFIDFOptions{CharNgramOptions: DefaultCharNgramOptions(), Pool: "mean", CenterBy: centerGlobal}
}

// Validate checks the options (errors name the setting).
func (o TFIDFOptions) Validate() error {
	switch {
	case o.MinN < 1:
		return fmt.Errorf("tfidf: ngram_min %d: must be at least 1", o.MinN)
	case o.MaxN < o.MinN:
		return fmt.Errorf("tfidf: ngram_max %d < ngram_min %d", o.MaxN, o.MinN)
	case o.MaxFeatures < 1:
		return fmt.Errorf("tfidf: max_features %d: must be at least 1", o.MaxFeatures)
	case o.MinDF < 1:
		return fmt.Errorf("tfidf: min_df %d: must be at least 1", o.MinDF)
	case o.TopicMask < 0:
		return fmt.Errorf("tfidf: topic_mask %d: must be 0 (off) or more", o.TopicMask)
	case o.Pool != "mean" && o.Pool != "doc":
		return fmt.Errorf("tfidf: pool %q: expected mean or doc", o.Pool)
	case o.CenterBy != centerGlobal && o.CenterBy != centerSource && o.CenterBy != centerCorpus:
		return fmt.Errorf("tfidf: center_by %q: expected global, source or corpus", o.CenterBy)
	case o.GlobalWeight < 0:
		return fmt.Errorf("tfidf: global_weight %g: must be 0 (off) or more", o.GlobalWeight)
	case o.CenterBy != centerGlobal && (!o.Center || o.Pool != "mean"):
		return fmt.Errorf("tfidf: center_by %q needs center=true and pool=mean", o.CenterBy)
	}
	return nil
}

// tfidfEncoder embeds text as the L2-normalised TF-IDF vector of its
// character n-grams. Fit builds the vocabulary and the smoothed IDF,
// ln((1+N)/(1+df))+1 with N training texts (scikit-learn's formula), from
// the training split; Encode before Fit is an error. Text is padded with
// one space on each side and runs of white space are collapsed, so word
// boundaries appear in the n-grams.
type tfidfEncoder struct {
	opts  TFIDFOptions
	vocab map[string]int32
	idf   []float32
	mean  []float32 // training mean; nil when not centring
	// groups are the per-source (or per-corpus) training means of
	// center_by; nil when centring globally.
	groups *groupMeans
	mask   *topicMask // nil without TopicMask
	// words makes the features word unigrams instead of character n-grams
	// (ngram-metric's word channel; not a tfidf setting).
	words bool
}

// NewTFIDF returns a "tfidf" encoder: an sv.Fitter and an sv.SetEncoder
// (mean pooling done sparsely, or with Pool "doc" one document per
// set).
func NewTFIDF(opts TFIDFOptions) (sv.Fitter, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	e := &tfidfEncoder{opts: opts}
	if opts.Pool == "doc" {
		return &tfidfDocEncoder{e}, nil
	}
	return e, nil
}

// Name is "tfidf".
func (e *tfidfEncoder) Name() string { return "tfidf" }

// Dim is the fitted vocabulary's size (at most MaxFeatures; MaxFeatures
// before Fit).
func (e *tfidfEncoder) Dim() int {
	if e.idf != nil {
		if e.groups != nil && e.opts.GlobalWeight > 0 {
			return 2 * len(e.idf)
		}
		return len(e.idf)
	}
	return e.opts.MaxFeatures
}

// normalizeText pads with spaces, collapses white space and optionally
// folds case.
func (e *tfidfEncoder) normalizeText(t string) string {
	if e.mask != nil {
		t = e.mask.apply(t)
	}
	if e.opts.Lowercase {
		t = strings.ToLower(t)
	}
	return " " + strings.Join(strings.Fields(t), " ") + " "
}

// ngrams calls fn with every character n-gram of t (MinN..MaxN runes); the
// strings share t's memory.
func (e *tfidfEncoder) ngrams(t string, fn func(g string)) {
	if e.words {
		nbWords(t, fn)
		return
	}
	starts := make([]int, 0, len(t)+1)
	for i := range t {
		starts = append(starts, i)
	}
	starts = append(starts, len(t))
	nr := len(starts) - 1
	for i := 0; i < nr; i++ {
		for n := e.opts.MinN; n <= e.opts.MaxN && i+n <= nr; n++ {
			fn(t[starts[i]:starts[i+n]])
		}
	}
}

// Fit builds the vocabulary (the MaxFeatures n-grams with the highest
// document frequency among those in at least MinDF texts; ties broken
// alphabetically) and the IDF weights.
func (e *tfidfEncoder) Fit(ctx context.Context, texts []string) error {
	if e.opts.CenterBy != centerGlobal {
		// Centring by source needs each text's source (FitSources); a caller
		// that fits on texts alone (a verifier bundle saved without sources,
		// pair rescoring) would silently centre globally and score otherwise
		// than the run did.
		return fmt.Errorf("tfidf: center_by=%s needs the training texts' sources (sv.SourceFitter); this caller fits on texts alone, use center_by=global here", e.opts.CenterBy)
	}
	return e.fitTexts(ctx, texts)
}

// fitTexts fits the vocabulary, document frequencies and global mean on
// texts (Fit without the centring check; FitSources adds the group means).
func (e *tfidfEncoder) fitTexts(ctx context.Context, texts []string) error {
	if len(texts) == 0 {
		return fmt.Errorf("tfidf: fit: no training texts")
	}
	e.mask, e.groups = nil, nil
	if e.opts.TopicMask > 0 {
		m, err := fitTopicMask(ctx, texts, e.opts.TopicMask)
		if err != nil {
			return err
		}
		e.mask = m
	}
	df := map[string]int32{}
	last := map[string]int32{}
	for i, t := range texts {
		if i%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		doc := int32(i + 1)
		e.ngrams(e.normalizeText(t), func(g string) {
			if last[g] != doc {
				if _, ok := last[g]; !ok {
					g = strings.Clone(g)
				}
				last[g] = doc
				df[g]++
			}
		})
	}
	type gd struct {
		g  string
		df int32
	}
	var keep []gd
	for g, d := range df {
		if int(d) >= e.opts.MinDF {
			keep = append(keep, gd{g, d})
		}
	}
	sort.Slice(keep, func(i, j int) bool {
		if keep[i].df != keep[j].df {
			return keep[i].df > keep[j].df
		}
		return keep[i].g < keep[j].g
	})
	if len(keep) > e.opts.MaxFeatures {
		keep = keep[:e.opts.MaxFeatures]
	}
	if len(keep) == 0 {
		return fmt.Errorf("tfidf: fit: no n-gram occurs in %d or more of the %d training texts", e.opts.MinDF, len(texts))
	}
	// Vocabulary in alphabetical order: stable dimensions for inspection.
	sort.Slice(keep, func(i, j int) bool { return keep[i].g < keep[j].g })
	e.vocab = make(map[string]int32, len(keep))
	e.idf = make([]float32, len(keep))
	n := float64(len(texts))
	for i, k := range keep {
		e.vocab[k.g] = int32(i)
		e.idf[i] = float32(math.Log((1+n)/(1+float64(k.df))) + 1)
	}
	e.mean = nil
	if e.opts.Center {
		sum := make([]float64, len(e.idf))
		counts := map[int32]float64{}
		for i, t := range texts {
			if i%4096 == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			e.sparse(t, counts, func(d int32, x float64) { sum[d] += x })
		}
		e.mean = make([]float32, len(sum))
		for d, x := range sum {
			e.mean[d] = float32(x / n)
		}
	}
	return nil
}

// Vocabulary returns the fitted n-grams by dimension (nil before Fit).
func (e *tfidfEncoder) Vocabulary() []string {
	if e.vocab == nil {
		return nil
	}
	out := make([]string, len(e.vocab))
	for g, i := range e.vocab {
		out[i] = g
	}
	return out
}

// sparse calls fn with the non-zero dimensions of the L2-normalised
// TF-IDF vector of one text (counts is scratch space).
func (e *tfidfEncoder) sparse(t string, counts map[int32]float64, fn func(d int32, x float64)) {
	if !utf8.ValidString(t) {
		t = strings.ToValidUTF8(t, "\uFFFD")
	}
	clear(counts)
	e.ngrams(e.normalizeText(t), func(g string) {
		if i, ok := e.vocab[g]; ok {
			counts[i]++
		}
	})
	// The norm is summed in index order: in map order its last bits would
	// change from one call to the next, and with them a document's scores
	// (a resumed run must give the table of a run in one go).
	keys := slices.Sorted(maps.Keys(counts))
	var norm float64
	for _, i := range keys {
		c := counts[i]
		if e.opts.SublinearTF {
			c = 1 + math.Log(c)
		}
		x := c * float64(e.idf[i])
		counts[i] = x
		norm += x * x
	}
	if norm == 0 {
		return
	}
	s := 1 / math.Sqrt(norm)
	for _, i := range keys {
		fn(i, counts[i]*s)
	}
}

// vector returns the TF-IDF vector of one text, centred when fitted so.
func (e *tfidfEncoder) vector(t string, counts map[int32]float64) []float32 {
	if e.groups != nil {
		raw := make([]float64, len(e.idf))
		e.sparse(t, counts, func(d int32, x float64) { raw[d] = x })
		return e.groups.center(raw, e.mean, e.opts.GlobalWeight)
	}
	v := make([]float32, len(e.idf))
	if e.mean != nil {
		for d, m := range e.mean {
			v[d] = -m
		}
	}
	e.sparse(t, counts, func(d int32, x float64) { v[d] += float32(x) })
	return v
}

// Encode returns each text's TF-IDF vector (centred when fitted so); it
// is an error before Fit.
func (e *tfidfEncoder) Encode(ctx context.Context, texts []string, progress sv.Progress) ([][]float32, error) {
	if e.vocab == nil {
		return nil, errTFIDFUnfitted
	}
	counts := map[int32]float64{}
	return encodeTexts(ctx, texts, progress, func(t string) []float32 { return e.vector(t, counts) })
}

// errTFIDFUnfitted is returned by Encode and EncodeSets before Fit.
var errTFIDFUnfitted = fmt.Errorf("tfidf: Encode before Fit (the vocabulary is fitted on training texts)")

// EncodeSets embeds each set as the mean of its utterances' TF-IDF
// vectors minus the training mean: exactly what sv.EmbedSets' mean pooling
// of Encode would give, but summed sparsely (a text has a few hundred
// n-grams among MaxFeatures), which is several times faster and allocates
// one dense vector per set instead of one per utterance.
func (e *tfidfEncoder) EncodeSets(ctx context.Context, sets [][]string, progress sv.Progress) ([][]float32, error) {
	if e.vocab == nil {
		return nil, errTFIDFUnfitted
	}
	counts := map[int32]float64{}
	out := make([][]float32, len(sets))
	for i, texts := range sets {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			progress.Report(i, len(sets))
		}
		sum := make([]float64, len(e.idf))
		for _, t := range texts {
			e.sparse(t, counts, func(d int32, x float64) { sum[d] += x })
		}
		inv := 1 / float64(max(len(texts), 1))
		for d := range sum {
			sum[d] *= inv
		}
		if e.groups != nil {
			out[i] = e.groups.center(sum, e.mean, e.opts.GlobalWeight)
			continue
		}
		v := make([]float32, len(sum))
		for d, x := range sum {
			if e.mean != nil {
				x -= float64(e.mean[d])
			}
			v[d] = float32(x)
		}
		out[i] = v
	}
	progress.Report(len(sets), len(sets))
	return out, nil
}

// tfidfDocEncoder is "tfidf" with pool=doc: a set is one document.
type tfidfDocEncoder struct{ *tfidfEncoder }

// EncodeSets embeds each set as the TF-IDF vector of its texts joined by
// newlines (minus the training mean when centring).
func (e *tfidfDocEncoder) EncodeSets(ctx context.Context, sets [][]string, progress sv.Progress) ([][]float32, error) {
	joined := make([]string, len(sets))
	for i, s := range sets {
		joined[i] = strings.Join(s, "\n")
	}
	return e.Encode(ctx, joined, progress)
}

// Describe gives the n-gram range, vocabulary size and options.
func (e *tfidfEncoder) Describe() string {
	o := e.opts
	s := fmt.Sprintf("character %d–%d-grams, %d features (min_df %d), sublinear_tf %v, lowercase %v, centred %v, document pooling %v",
		o.MinN, o.MaxN, e.Dim(), o.MinDF, o.SublinearTF, o.Lowercase, o.Center, o.Pool == "doc")
	if o.CenterBy != centerGlobal {
		s += fmt.Sprintf(", centred on the nearest %s training mean", o.CenterBy)
		if o.GlobalWeight > 0 {
			s += fmt.Sprintf(" beside the globally centred vector (weight %g)", o.GlobalWeight)
		}
	}
	if o.TopicMask > 0 {
		s += fmt.Sprintf(", topic-masked text (all but the %d most frequent training words as shapes)", o.TopicMask)
	}
	return s
}
