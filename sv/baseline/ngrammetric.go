package baseline

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/roleprint/roleprint/sv"
)

// NameNgramMetric is the learned metric over character n-gram style
// features; its fine-tuned row is "ngram-metric_ft".
const NameNgramMetric = "ngram-metric"

// NgramMetricOptions configures "ngram-metric": one TF-IDF character
// n-gram channel exactly like the "tfidf" row, optionally a second channel
// of the same n-grams over topic-masked text, and per-feature weights
// fine-tuned with the paper's contrastive loss on a round's training
// pairs. All settings are in this one struct (keys: `roleprint config
// ngram-metric`); DefaultNgramMetricOptions gives the defaults (measured
// best on the shared corpora, see docs/training.md), NgramMetricFromSettings
// applies encoder settings with internal/options.
type NgramMetricOptions struct {
	// CharNgramOptions are the character n-gram features of both channels
	// (keys ngram_min, ngram_max, max_features, min_df, lowercase,
	// sublinear_tf, center): the "tfidf" row's, with its defaults, so the
	// untrained char channel is tfidf bit for bit. The char channel is
	// never topic-masked and always mean-pooled.
	CharNgramOptions
	// TopicMask > 0 adds the masked channel: the same n-grams over text in
	// which every word outside the TopicMask most frequent training words
	// is replaced by its shape (Stamatatos 2017; tfidf's topic_mask for
	// that channel only). 0 means the char channel only. Default 300.
	TopicMask int `opt:"topic_mask" json:"topic_mask"`
	// MaskedWeight is the masked channel's weight in the set similarity,
	// (cos_char + MaskedWeight·cos_masked)/(1 + MaskedWeight). Default 1.
	MaskedWeight float64 `opt:"masked_weight" json:"masked_weight"`
	// WordWeight > 0 adds the word channel: TF-IDF over lower-cased word
	// unigrams (at most max_features words in min_df texts), with this
	// weight in the set similarity. Default 0 (none).
	WordWeight float64 `opt:"word_weight" json:"word_weight"`
	// GlobalWeight > 0, with center_by=corpus, adds the global channel: the
	// char channel's n-grams centred on the global training mean (as with
	// center_by=global), trained beside the corpus-centred channels, with
	// this weight in the set similarity. Default 0 (none).
	GlobalWeight float64 `opt:"global_weight" json:"global_weight"`
	// Rank > 0 adds the projection channel: a trained d×Rank projection of
	// the char channel's vectors, initialised at random. Default 0 (none).
	Rank int `opt:"rank" json:"rank"`
	// RankWeight is the projection channel's weight in the set similarity
	// (with Rank > 0). Default 1.
	RankWeight float64 `opt:"rank_weight" json:"rank_weight"`
	// CenterBy is what each channel's set vectors are centred on:
	// "global", the mean of all training texts (tfidf's centring), or
	// "corpus", the mean of the training texts of the set's corpus, so the
	// n-grams a whole show shares cancel and what is left, and trained, is
	// a speaker's deviation from his show (what the Hard level asks). A
	// set's corpus is predicted by a word-unigram naive Bayes model fitted
	// on the training texts' corpora (no metadata of a test set is read).
	// Needs the runner's FitSources (plain Fit is an error); not with
	// rank > 0. Default "global".
	CenterBy string `opt:"center_by" json:"center_by"`
	// GroupWeight, with center_by=corpus, adds the group channel: the
	// one-hot of the set's predicted corpus (or, with group_temperature,
	// the source model's posterior), with this weight in the set
	// similarity, so two sets of one show score GroupWeight/Σβ higher
	// than two of different shows (which the Base level rewards and the
	// centring takes out of the n-gram channels). Default 0 (none).
	GroupWeight float64 `opt:"group_weight" json:"group_weight"`
	// GroupTemperature > 0 makes the group channel soft: a set's vector is
	// the source model's posterior over corpora from its mean per-word
	// log-likelihood times this temperature (unit-normalised), so a set
	// the model cannot place, as text of an unseen corpus, is not sent
	// wholesale to one show. 0 is the one-hot of the predicted corpus.
	// Default 0.
	GroupTemperature float64 `opt:"group_temperature" json:"group_temperature"`
	// Cohort > 0, with center_by=corpus, scores pairs by s-norm: each
	// set's style cosine is normalised by the mean and deviation of its
	// cosines to a cohort of Cohort training sets of its own predicted
	// corpus, chosen when training (ngrammetric_cohort.go; measured in
	// docs/training.md). 0 scores by the cosine. Default 0.
	Cohort int `opt:"cohort" json:"cohort,omitempty"`
	// CohortGroupWeight is the weight, under cohort > 0, of the two sets'
	// group-channel dot product added to their s-norm (what tells two
	// shows apart at the Base level). Default 4.
	CohortGroupWeight float64 `opt:"cohort_group_weight" json:"cohort_group_weight,omitempty"`
	// CohortTop > 0 makes the s-norm adaptive (AS-norm; Matějka et al.
	// 2017): a set's μ and σ come from its CohortTop highest cosines to
	// the cohort instead of all of them, so a set is put on the scale of
	// the sets it is most like. 0 uses the whole cohort. Default 0.
	CohortTop int `opt:"cohort_top" json:"cohort_top,omitempty"`
	// AdaptScore is how an adapted encoder with a cohort scores pairs:
	// "snorm", against chunks of the adaptation texts
	// (ngrammetric_adapt_cohort.go), or "cosine", the style cosine
	// without normalisation. Default "snorm".
	AdaptScore string `opt:"adapt_score" json:"adapt_score,omitempty"`
	// AdaptPool is how an adapted encoder embeds a set: "mean", the mean
	// of its texts' TF-IDF vectors (the paper's hierarchical pooling,
	// what training uses), or "doc", its texts counted as documents of a
	// set's size (the training cohort's mean, 12 without a cohort; a
	// longer set is the mean of its documents' vectors), centred on the mean document of the
	// adaptation texts cut the same way (ngrammetric_adapt_doc.go). In a
	// document each line weighs by its length instead of a one-word reply
	// weighing as much as a speech, which ranks the Hard pairs of shows
	// held out of training better (docs/training.md). Default "mean".
	AdaptPool string `opt:"adapt_pool" json:"adapt_pool,omitempty"`
	// AdaptChannels is what an adapted encoder scores with: "all" its
	// channels, each with its trained weight β, or "char", the character
	// n-gram channel alone (the topic-masked and word channels then
	// count for nothing). Documents of a show held out of training rank
	// Hard pairs better by their character n-grams alone
	// (docs/training.md). Default "all".
	AdaptChannels string `opt:"adapt_channels" json:"adapt_channels,omitempty"`
	// AdaptKeep is the share of each trained per-feature weight an
	// adapted encoder keeps (Adapt): an n-gram's weight becomes
	// 1 + AdaptKeep·(w − 1), so 1 keeps the trained weights and 0 scores
	// the new domain with the untrained ones (weights learned on other
	// shows partly encode which show a text is from). Default 0: on
	// shows held out of training the untrained weights transfer better
	// (docs/training.md, "Transfer to unseen corpora": TBBT Hard AUC
	// 60.02 against 57.70, ChatHaruhi's separation 81.26 against 80.81).
	AdaptKeep float64 `opt:"adapt_keep" json:"adapt_keep"`
	// WeightBy is what a trained weight belongs to: "feature", one weight
	// per n-gram (tied to the training shows' vocabulary), or
	// "descriptor", one weight per descriptor class (feature kind, length
	// and document-frequency bucket on the texts fitted on), so an adapted
	// encoder recomputes the classes on a new domain and keeps every
	// trained weight (ngrammetric_descriptor.go; adapt_keep applies to
	// per-feature weights only). Default "feature".
	WeightBy string `opt:"weight_by" json:"weight_by,omitempty"`
	// DescriptorBuckets is the number of document-frequency buckets of
	// weight_by=descriptor (equal shares of a channel's features by IDF
	// rank). Default 10.
	DescriptorBuckets int `opt:"descriptor_buckets" json:"descriptor_buckets,omitempty"`
	// DescriptorFit is, with weight_by=descriptor, what the class
	// weights are trained on: "union", the features fitted on every
	// training text (the encoder's own), or "corpus", each training
	// corpus's features fitted, centred and classed on that corpus's
	// texts alone, as an adapted encoder sees a new show, with the pairs
	// within it (ngrammetric_descriptor_corpus.go). Default "union".
	DescriptorFit string `opt:"descriptor_fit" json:"descriptor_fit,omitempty"`
	// BalanceCorpora, with descriptor_fit=corpus, weights each training
	// corpus's pairs in the loss by N/(K·N_k) (N pairs in all, K corpora,
	// N_k of corpus k), so every corpus counts as much as the others
	// whatever its size. Default false: every pair counts alike.
	BalanceCorpora bool `opt:"balance_corpora" json:"balance_corpora,omitempty"`
	// Epochs is the most training epochs over the training pairs; the
	// epoch kept is the one with the best dev AUC (the untrained weights
	// count as epoch 0). 0 keeps the untrained weights. Default 8.
	Epochs int `opt:"epochs" json:"epochs"`
	// Patience stops training after this many epochs without a better dev
	// AUC (0 counts as 1). Default 2.
	Patience int `opt:"patience" json:"patience"`
	// BatchSize is the number of training pairs per Adam step (0 means
	// 256). Default 256.
	BatchSize int `opt:"batch_size" json:"batch_size"`
	// LearningRate is Adam's step size on the feature weights. Default
	// 0.02.
	LearningRate float64 `opt:"lr" json:"lr"`
	// Margin is the contrastive loss's margin m in y·d + (1−y)·max(0, m−d),
	// d = 1 − cos. Default 1, not the paper's 0.5: with centred TF-IDF
	// vectors most negatives already have cos < 0.5, so a margin of 0.5
	// lets them contribute nothing (measured in docs/training.md:
	// Unseen-Unseen Hard 52.1 with 0.5, 59.3 with 1).
	Margin float64 `opt:"margin" json:"margin"`
	// HardWeight multiplies the loss of Hard and Harder training negatives
	// (same source; Base negatives come from another source). Default 1,
	// the paper's unweighted loss.
	HardWeight float64 `opt:"hard_weight" json:"hard_weight"`
	// DevByLevel chooses the epoch by the mean over negative kinds (Base,
	// Hard, Harder) of the dev AUC of all dev positives against that
	// kind's dev negatives, instead of the AUC of all dev pairs. Default
	// false.
	DevByLevel bool `opt:"dev_by_level" json:"dev_by_level"`
	// Decay pulls every weight toward 1 (tfidf) with an L2 penalty
	// Decay/2·(w−1)² per feature. Default 0.
	Decay float64 `opt:"decay" json:"decay"`
	// Threads is how many goroutines compute a batch's gradient (0 =
	// GOMAXPROCS). Results do not depend on it. Default 0.
	Threads int `opt:"threads" json:"threads"`
	// Weights is a trained weights file, or a training folder holding
	// checkpoints/ngram-metric.json, applied after Fit (the GoMLX
	// encoders' key; `reproduce` sets it to the row's checkpoints for the
	// verifier bundle; Train, if run, starts from them). Default "": none.
	Weights string `opt:"weights" json:"weights,omitempty"`
}

// DefaultNgramMetricOptions returns the defaults of "ngram-metric".
func DefaultNgramMetricOptions() NgramMetricOptions {
	return NgramMetricOptions{
		CharNgramOptions:  DefaultCharNgramOptions(),
		TopicMask:         300,
		MaskedWeight:      1,
		RankWeight:        1,
		Epochs:            8,
		Patience:          2,
		BatchSize:         256,
		LearningRate:      0.02,
		Margin:            1,
		HardWeight:        1,
		Decay:             0,
		CenterBy:          centerGlobal,
		CohortGroupWeight: 4,
		AdaptKeep:         0,
		WeightBy:          weightByFeature,
		DescriptorBuckets: 10,
		DescriptorFit:     descriptorFitUnion,
		AdaptScore:        adaptScoreSNorm,
		AdaptPool:         adaptPoolMean,
		AdaptChannels:     adaptChannelsAll,
	}
}

// tfidf returns the TF-IDF options of a channel masked with K words (0:
// the char channel).
func (o NgramMetricOptions) tfidf(mask int) TFIDFOptions {
	t := DefaultTFIDFOptions()
	t.CharNgramOptions, t.TopicMask = o.CharNgramOptions, mask
	return t
}

// metricChannel is one feature channel: fitted TF-IDF features and their
// weights.
type metricChannel struct {
	name string // "char", "masked", "word" or "global"
	tf   *tfidfEncoder
	// global keeps the channel centred on the global mean under
	// center_by=corpus (the "global" channel).
	global bool
	beta   float64   // weight in the mixed cosine
	w      []float32 // per-feature weights (1 = tfidf)
	// class and theta are, with weight_by=descriptor, each feature's
	// descriptor class and each class's weight (w[i] = theta[class[i]]);
	// nil otherwise.
	class []int32
	theta []float32
}

// ngramMetric is the "ngram-metric" encoder: an sv.Fitter (the TF-IDF
// vocabularies), sv.Trainable (the feature weights) and sv.SetEncoder.
type ngramMetric struct {
	opts    NgramMetricOptions
	seed    int64
	workDir string
	logf    func(string, ...any)
	chans   []*metricChannel
	proj    *projChannel // nil without Rank
	// groups is the per-corpus centring of center_by=corpus, set by
	// FitSources; nil when centring globally.
	groups *metricGroups
	// target is the per-channel centring mean set by Adapt; nil when
	// centring as trained. trainedW holds the trained weights by n-gram
	// (per channel) once Adapt has refitted the vocabularies.
	target   [][]float64
	trainedW []map[string]float32
	// pending are weights read from a file at construction, applied (and
	// checked against the refitted vocabularies) by Fit.
	pending *metricFile
	// cohort is the s-norm cohort of cohort > 0, chosen by Train or read
	// with the weights; nil otherwise.
	cohort *metricCohort
	// adaptCohort is the s-norm cohort Adapt draws from the adaptation
	// texts, used instead of cohort while adapted, and adaptG the corpus
	// term's profile product every adapted pair gets
	// (ngrammetric_adapt_cohort.go); nil and 0 otherwise.
	adaptCohort *metricCohort
	adaptG      float64
	trained     string // training summary for Describe
	// bestEpoch and devAUC are the kept epoch and its dev score.
	bestEpoch int
	devAUC    float64
	// curve is the dev AUC before training and after each epoch
	// (ngrammetric_inspect.go).
	curve []NgramMetricEpoch
}

// NewNgramMetric returns an untrained "ngram-metric" encoder; seed fixes
// the training order, workDir (may be empty) receives the trained
// weights (workDir/checkpoints/ngram-metric.json) for verifier bundles.
func NewNgramMetric(opts NgramMetricOptions, seed int64, workDir string, logf func(string, ...any)) (sv.Fitter, error) {
	if opts.MaskedWeight < 0 || opts.Epochs < 0 || opts.Patience < 0 || opts.BatchSize < 0 || opts.LearningRate < 0 || opts.Margin < 0 || opts.Decay < 0 || opts.HardWeight < 0 || opts.Rank < 0 || opts.RankWeight < 0 || opts.TopicMask < 0 || opts.WordWeight < 0 || opts.GlobalWeight < 0 || opts.Cohort < 0 || opts.CohortGroupWeight < 0 {
		return nil, fmt.Errorf("%s: negative setting in %+v", NameNgramMetric, opts)
	}
	switch {
	case opts.CenterBy != centerGlobal && opts.CenterBy != centerCorpus:
		return nil, fmt.Errorf("%s: center_by %q: expected global or corpus", NameNgramMetric, opts.CenterBy)
	case opts.GroupTemperature < 0:
		return nil, fmt.Errorf("%s: group_temperature %g: must be 0 (one-hot) or more", NameNgramMetric, opts.GroupTemperature)
	case opts.GroupWeight < 0:
		return nil, fmt.Errorf("%s: group_weight %g: must be 0 (off) or more", NameNgramMetric, opts.GroupWeight)
	case opts.GroupWeight > 0 && opts.CenterBy != centerCorpus:
		return nil, fmt.Errorf("%s: group_weight %g needs center_by=corpus", NameNgramMetric, opts.GroupWeight)
	case opts.GlobalWeight > 0 && opts.CenterBy != centerCorpus:
		return nil, fmt.Errorf("%s: global_weight %g needs center_by=corpus (with center_by=global every channel is globally centred)", NameNgramMetric, opts.GlobalWeight)
	case opts.Rank > 0 && opts.CenterBy != centerGlobal:
		return nil, fmt.Errorf("%s: rank %d needs center_by=global", NameNgramMetric, opts.Rank)
	case opts.Cohort > 0 && opts.CenterBy != centerCorpus:
		return nil, fmt.Errorf("%s: cohort %d needs center_by=corpus (the cohort is drawn per predicted corpus)", NameNgramMetric, opts.Cohort)
	case opts.WeightBy != "" && opts.WeightBy != weightByFeature && opts.WeightBy != weightByDescriptor:
		return nil, fmt.Errorf("%s: weight_by %q: expected feature or descriptor", NameNgramMetric, opts.WeightBy)
	case opts.WeightBy == weightByDescriptor && opts.DescriptorBuckets < 1:
		return nil, fmt.Errorf("%s: descriptor_buckets %d: want at least 1", NameNgramMetric, opts.DescriptorBuckets)
	case opts.DescriptorFit != "" && opts.DescriptorFit != descriptorFitUnion && opts.DescriptorFit != descriptorFitCorpus:
		return nil, fmt.Errorf("%s: descriptor_fit %q: expected union or corpus", NameNgramMetric, opts.DescriptorFit)
	case opts.AdaptScore != "" && opts.AdaptScore != adaptScoreSNorm && opts.AdaptScore != adaptScoreCosine:
		return nil, fmt.Errorf("%s: adapt_score %q: expected snorm or cosine", NameNgramMetric, opts.AdaptScore)
	case opts.AdaptPool != "" && opts.AdaptPool != adaptPoolMean && opts.AdaptPool != adaptPoolDoc:
		return nil, fmt.Errorf("%s: adapt_pool %q: expected mean or doc", NameNgramMetric, opts.AdaptPool)
	case opts.AdaptChannels != "" && opts.AdaptChannels != adaptChannelsAll && opts.AdaptChannels != adaptChannelsChar:
		return nil, fmt.Errorf("%s: adapt_channels %q: expected all or char", NameNgramMetric, opts.AdaptChannels)
	case opts.DescriptorFit == descriptorFitCorpus && opts.WeightBy != weightByDescriptor:
		return nil, fmt.Errorf("%s: descriptor_fit=corpus needs weight_by=descriptor (it says what the descriptor class weights are trained on)", NameNgramMetric)
	case opts.BalanceCorpora && opts.DescriptorFit != descriptorFitCorpus:
		return nil, fmt.Errorf("%s: balance_corpora needs descriptor_fit=corpus (it weights the corpora of that training)", NameNgramMetric)
	case opts.CohortTop < 0:
		return nil, fmt.Errorf("%s: cohort_top %d: must be 0 (the whole cohort) or more", NameNgramMetric, opts.CohortTop)
	case opts.WeightBy == weightByDescriptor && opts.Rank > 0:
		return nil, fmt.Errorf("%s: weight_by=descriptor does not go with rank %d (the projection is tied to the training vocabulary)", NameNgramMetric, opts.Rank)
	case !opts.Center && opts.CenterBy != centerGlobal:
		return nil, fmt.Errorf("%s: center_by %q needs center=true", NameNgramMetric, opts.CenterBy)
	}
	if opts.BatchSize == 0 {
		opts.BatchSize = 256
	}
	if opts.Patience == 0 {
		opts.Patience = 1
	}
	e := &ngramMetric{opts: opts, seed: seed, workDir: workDir, logf: logf}
	add := func(name string, mask int, beta float64) error {
		f, err := NewTFIDF(opts.tfidf(mask))
		if err != nil {
			return fmt.Errorf("%s: %w", NameNgramMetric, err)
		}
		tf := f.(*tfidfEncoder)
		tf.words = name == "word"
		e.chans = append(e.chans, &metricChannel{name: name, tf: tf, beta: beta, global: name == "global"})
		return nil
	}
	if err := add("char", 0, 1); err != nil {
		return nil, err
	}
	if opts.TopicMask > 0 && opts.MaskedWeight > 0 {
		if err := add("masked", opts.TopicMask, opts.MaskedWeight); err != nil {
			return nil, err
		}
	}
	if opts.WordWeight > 0 {
		if err := add("word", 0, opts.WordWeight); err != nil {
			return nil, err
		}
	}
	if opts.GlobalWeight > 0 {
		if err := add("global", 0, opts.GlobalWeight); err != nil {
			return nil, err
		}
	}
	if opts.Rank > 0 && opts.RankWeight > 0 {
		e.proj = &projChannel{rank: opts.Rank, beta: opts.RankWeight}
	}
	if opts.Cohort > 0 {
		return cohortMetric{e}, nil
	}
	return e, nil
}

// Name is "ngram-metric".
func (e *ngramMetric) Name() string { return NameNgramMetric }

// Dim is the sum of the channels' dimensions (the group channel's
// too, unless adapted).
func (e *ngramMetric) Dim() int {
	n := 0
	for _, c := range e.chans {
		n += c.tf.Dim()
	}
	if e.proj != nil {
		n += e.proj.rank
	}
	if e.groups != nil && e.target == nil && e.groupBeta() > 0 {
		n += len(e.groups.nb.names)
	}
	if e.cohortActive() {
		n += 2
	}
	return n
}

// Fit fits every channel's vocabulary and IDF on texts and resets the
// weights to 1 (the untrained encoder), or to the weights read at
// construction, which must have been trained on these very features.
func (e *ngramMetric) Fit(ctx context.Context, texts []string) error {
	if e.opts.CenterBy != centerGlobal {
		return fmt.Errorf("%s: center_by=%s needs the training texts' sources (sv.SourceFitter); this caller fits on texts alone, use center_by=global here", NameNgramMetric, e.opts.CenterBy)
	}
	return e.fit(ctx, texts)
}

// fit is Fit without the check: the global vocabularies, IDF and mean.
func (e *ngramMetric) fit(ctx context.Context, texts []string) error {
	e.groups, e.target, e.trainedW, e.cohort, e.adaptCohort, e.adaptG = nil, nil, nil, nil, nil, 0
	for _, c := range e.chans {
		if err := c.tf.Fit(ctx, texts); err != nil {
			return fmt.Errorf("%s %s channel: %w", NameNgramMetric, c.name, err)
		}
		c.w = make([]float32, c.tf.Dim())
		for i := range c.w {
			c.w[i] = 1
		}
	}
	if e.proj != nil {
		e.proj.p = initProj(e.chans[0].tf.Dim(), e.proj.rank, e.seed)
	}
	if e.opts.descriptorWeights() {
		for _, c := range e.chans {
			c.theta = nil
		}
		e.applyDescriptors()
	}
	if e.pending != nil {
		if err := e.pending.apply(e); err != nil {
			return err
		}
	}
	return nil
}

// errMetricUnfitted is returned before Fit.
var errMetricUnfitted = fmt.Errorf("%s: Encode before Fit (the n-gram vocabularies are fitted on training texts)", NameNgramMetric)

// EncodeSets embeds each set: per channel the tfidf set vector (mean of
// the utterances' L2-normalised TF-IDF vectors minus the training mean)
// times the feature weights. With one channel that is the whole vector
// (untrained: tfidf's own, bit for bit); with two, each channel's vector
// is L2-normalised and scaled by √(β/Σβ) before concatenation, so the
// cosine of two sets is the β-weighted mean of the channels' cosines —
// the similarity training optimises. With a cohort (cohort > 0) two more
// entries follow: the set's s-norm statistics (ngrammetric_cohort.go).
func (e *ngramMetric) EncodeSets(ctx context.Context, sets [][]string, progress sv.Progress) ([][]float32, error) {
	out, err := e.encodeSets(ctx, sets, progress)
	if err != nil || !e.cohortActive() {
		return out, err
	}
	var group []int
	if e.target == nil {
		group, _ = e.groups.place(sets, 0, false)
	} else {
		group = make([]int, len(sets)) // adapted: one domain, one cohort group
	}
	if err := e.appendCohortStats(ctx, out, sets, group); err != nil {
		return nil, err
	}
	return out, nil
}

// encodeSets is EncodeSets without the s-norm statistics.
func (e *ngramMetric) encodeSets(ctx context.Context, sets [][]string, progress sv.Progress) ([][]float32, error) {
	if len(e.chans) == 0 || e.chans[0].w == nil {
		return nil, errMetricUnfitted
	}
	per := make([][][]float32, len(e.chans))
	var group []int
	var prof [][]float64
	if e.groups != nil && e.target == nil {
		group, prof = e.groups.place(sets, e.opts.GroupTemperature, e.groupBeta() > 0)
	}
	for ci, c := range e.chans {
		p := progress
		if ci > 0 {
			p = nil
		}
		if e.chanBeta(ci) == 0 {
			continue // left out while adapted: zeros below
		}
		if e.target != nil {
			v, err := e.adaptedSets(ctx, ci, sets)
			if err != nil {
				return nil, err
			}
			per[ci] = v
			continue
		}
		if group != nil && !c.global {
			v, err := e.groupedSets(ctx, ci, sets, group)
			if err != nil {
				return nil, err
			}
			per[ci] = v
			continue
		}
		v, err := c.tf.EncodeSets(ctx, sets, p)
		if err != nil {
			return nil, err
		}
		for _, x := range v {
			for d := range x {
				x[d] *= c.w[d]
			}
		}
		per[ci] = v
	}
	gb := 0.0
	if group != nil {
		gb = e.groupBeta()
	}
	if len(e.chans) == 1 && e.proj == nil && gb == 0 {
		return per[0], nil
	}
	dim := e.Dim()
	if e.cohortActive() {
		dim -= 2
	}
	sumBeta := e.betaSum(gb)
	var proj [][]float64
	if e.proj != nil {
		var err error
		if proj, err = e.projectSets(ctx, sets); err != nil {
			return nil, err
		}
	}
	out := make([][]float32, len(sets))
	for i := range sets {
		v := make([]float32, 0, dim+2)
		for ci, c := range e.chans {
			if per[ci] == nil {
				v = append(v, make([]float32, c.tf.Dim())...)
				continue
			}
			x := per[ci][i]
			var n float64
			for _, f := range x {
				n += float64(f) * float64(f)
			}
			s := 0.0
			if n > 0 {
				s = math.Sqrt(e.chanBeta(ci)/sumBeta) / math.Sqrt(n)
			}
			for _, f := range x {
				v = append(v, float32(float64(f)*s))
			}
		}
		if proj != nil {
			var n float64
			for _, f := range proj[i] {
				n += f * f
			}
			s := 0.0
			if n > 0 {
				s = math.Sqrt(e.proj.beta/sumBeta) / math.Sqrt(n)
			}
			for _, f := range proj[i] {
				v = append(v, float32(f*s))
			}
		}
		if gb > 0 {
			v = e.appendGroup(v, prof[i], sumBeta)
		}
		out[i] = v
	}
	return out, nil
}

// Encode embeds each text as a set of one utterance.
func (e *ngramMetric) Encode(ctx context.Context, texts []string, progress sv.Progress) ([][]float32, error) {
	sets := make([][]string, len(texts))
	for i, t := range texts {
		sets[i] = []string{t}
	}
	return e.EncodeSets(ctx, sets, progress)
}

// Describe names the channels, their features and the training outcome.
func (e *ngramMetric) Describe() string {
	parts := make([]string, len(e.chans))
	for i, c := range e.chans {
		parts[i] = fmt.Sprintf("%s channel ×%g: %s", c.name, c.beta, c.tf.Describe())
	}
	s := "per-feature weights over " + strings.Join(parts, "; ")
	if e.opts.descriptorWeights() {
		s = fmt.Sprintf("descriptor weights (feature kind × length × %d document-frequency buckets) over ", e.opts.DescriptorBuckets) + strings.Join(parts, "; ")
	}
	if e.opts.CenterBy == centerCorpus {
		s += "; each set centred on its corpus's training mean (corpus predicted by word-unigram naive Bayes)"
		if gb := e.groupBeta(); gb > 0 {
			s += fmt.Sprintf("; group channel ×%g (same predicted corpus)", gb)
		}
	}
	if e.proj != nil {
		s += fmt.Sprintf("; projection channel ×%g: rank %d over the char channel", e.proj.beta, e.proj.rank)
	}
	switch {
	case e.target != nil && e.adaptCohort != nil:
		s += fmt.Sprintf("; adapted: pairs scored by s-norm against %d chunks of the adaptation texts + %g × %.3f (a same-corpus pair's group product)", len(e.adaptCohort.sets), e.opts.CohortGroupWeight, e.adaptG)
	case e.target != nil:
		s += "; adapted: pairs scored by the cosine"
	case e.cohort != nil:
		s += fmt.Sprintf("; pairs scored by s-norm against a cohort of %d training sets (at most %d per predicted corpus) + %g × group dot product", len(e.cohort.sets), e.opts.Cohort, e.opts.CohortGroupWeight)
	}
	if e.target != nil && e.opts.AdaptChannels == adaptChannelsChar {
		s += "; adapted: the char channel alone"
	}
	if e.target != nil && e.adaptDoc() {
		s += fmt.Sprintf("; adapted sets pooled as documents of %d texts (a longer set the mean of its documents), centred on the adaptation texts' mean document", e.docChunkSize())
	}
	if e.trained != "" {
		s += "; " + e.trained
	} else {
		s += "; untrained (weights 1)"
	}
	return s
}
