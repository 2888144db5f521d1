package verifier

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/roleprint/roleprint/data/pairs"
)

// A bundle's domain is what its training text looked like, recorded so
// that `verify`, `score` and `eval` can say when the text they are given
// is far from it: a verifier's scores and its calibrated probability
// were fitted on its training corpora, and on text of another register
// (a sitcom's lines for a verifier trained on Shakespeare) they mean
// something else. The statistic is encoder-independent and small, and it
// accounts for the size of the set checked (a set of 1,000 words is
// measured against the sampling noise of 1,000 words, not of the 50 of a
// training set):
//
//   - the word profile: the relative frequencies of the training sets'
//     DomainWords most frequent words; word k of a set of n words has
//     z = (f − μ) / √(τ² + μ(1 − μ)/n), with μ its mean over training sets
//     and τ² their variance beyond sampling noise; the set's distance is
//     the root mean square of its z;
//   - unknown words: the share u of running words outside the
//     DomainVocabulary most frequent training words, as the one-sided
//     z = (u − ū) / √(τᵤ² + ū(1 − ū)/n), with ū and τᵤ from held-out sets
//     (sets of the training corpora that no training pair used: a
//     training set's words are in the vocabulary by construction).
//
// A set is in the domain when its distance and its unknown-word z are at
// most the DomainQuantile of the held-out sets' times DomainMargin.

// Domain sizes and limits.
const (
	// DomainWords is the number of frequent words whose frequencies form
	// the profile; DomainVocabulary the number of words counted as known.
	DomainWords      = 256
	DomainVocabulary = 12000
	// DomainQuantile is the held-out quantile the limits are taken at and
	// DomainMargin the factor on it.
	DomainQuantile = 0.99
	DomainMargin   = 1.25
	// DomainSizeFactor is the factor on the held-out sets' size quantile
	// that gives Domain.MaxWords.
	DomainSizeFactor = 2.0
	// domainMaxSets caps the sets the statistic is computed from (taken
	// evenly in ID order).
	domainMaxSets = 5000
	// domainMaxHashes caps Domain.TextHashes.
	domainMaxHashes = 5000
	// domainMinSpread floors the spreads τ (a relative frequency), so that
	// a word every training set uses equally still has some.
	domainMinSpread = 1e-4
)

// Domain is the text a bundle was trained on, the content of its
// domain.json.
type Domain struct {
	// Corpora are the training sets' corpora (pairs.CorpusOf their
	// source) with their set counts, most sets first.
	Corpora []DomainCorpus `json:"corpora"`
	// TrainSets and HeldOutSets count the sets the statistic comes from.
	TrainSets   int `json:"train_sets"`
	HeldOutSets int `json:"held_out_sets"`
	// Words are the DomainWords most frequent training words, Mean their
	// relative frequencies' mean over training sets and Spread (τ) their
	// standard deviation beyond sampling noise.
	Words  []string  `json:"words"`
	Mean   []float64 `json:"mean"`
	Spread []float64 `json:"spread"`
	// Vocabulary are the words counted as known (most frequent first,
	// Words first); UnknownMean (ū) and UnknownSpread (τᵤ) describe the
	// held-out sets' share of other words.
	Vocabulary    []string `json:"vocabulary"`
	UnknownMean   float64  `json:"unknown_mean"`
	UnknownSpread float64  `json:"unknown_spread"`
	// MaxDistance and MaxUnknownZ are the limits: a set whose distance or
	// unknown-word z is above is outside the domain. MaxWords is the
	// largest set it was calibrated for (DomainSizeFactor × the held-out
	// sets' DomainQuantile of words; 0 in a domain.json without it): the
	// score of a set much larger than the training sets (100 lines against
	// sets of 5 to 20) has a distribution the calibration never saw.
	MaxDistance float64 `json:"max_distance"`
	MaxUnknownZ float64 `json:"max_unknown_z"`
	MaxWords    int     `json:"max_words,omitempty"`
	// Quantile and Margin say how the limits were set.
	Quantile float64 `json:"quantile"`
	Margin   float64 `json:"margin"`
	// TextHashes are the hashes (textHash) of up to domainMaxHashes of the
	// training sets' texts of overlapMinWords words or more, taken evenly,
	// and Texts the number of such texts: CheckOverlap finds the training
	// text in a corpus by them where the bundle keeps no fit texts.
	TextHashes []string `json:"text_hashes,omitempty"`
	Texts      int      `json:"texts"`

	known map[string]int // Vocabulary's index, Words' first
}

// DomainCorpus is one training corpus of a Domain.
type DomainCorpus struct {
	Name string `json:"name"`
	Sets int    `json:"sets"`
}

// DomainCheck is where a set of utterances lies against a Domain.
type DomainCheck struct {
	// InDomain is true when both measures are within the limits and the
	// set has at most MaxWords words (when the domain records it).
	InDomain bool `json:"in_domain"`
	// Words counts the set's running words.
	Words    int `json:"words"`
	MaxWords int `json:"max_words,omitempty"`
	// Distance is the word profile's distance and MaxDistance its limit;
	// Unknown the share of unknown words, UnknownZ its z and MaxUnknownZ
	// that z's limit.
	Distance    float64 `json:"distance"`
	MaxDistance float64 `json:"max_distance"`
	Unknown     float64 `json:"unknown_words"`
	UnknownZ    float64 `json:"unknown_z"`
	MaxUnknownZ float64 `json:"max_unknown_z"`
}

// String says where the set lies, for a warning.
func (c DomainCheck) String() string {
	size := fmt.Sprintf("%d words", c.Words)
	if c.MaxWords > 0 {
		size = fmt.Sprintf("%d words (limit %d)", c.Words, c.MaxWords)
	}
	return fmt.Sprintf("%s, word-profile distance %.2f (limit %.2f), %.1f%% unknown words (z %.1f, limit %.1f)",
		size, c.Distance, c.MaxDistance, 100*c.Unknown, c.UnknownZ, c.MaxUnknownZ)
}

// CorpusNames lists the domain's corpora ("shakespeare", "tbbt").
func (d *Domain) CorpusNames() []string {
	out := make([]string, len(d.Corpora))
	for i, c := range d.Corpora {
		out[i] = c.Name
	}
	return out
}

// domainWord is one word of a text: lower-cased, and whether it was
// written capitalised (a name, or a sentence's first word).
type domainWord struct {
	w   string
	cap bool
}

// domainWords splits a text into lower-case words (letters, digits and
// inner apostrophes), the unit of the profile.
func domainWords(text string, out []domainWord) []domainWord {
	f := strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	})
	for _, w := range f {
		if w = strings.Trim(w, "'"); w != "" {
			r, _ := utf8.DecodeRuneInString(w)
			out = append(out, domainWord{w: strings.ToLower(w), cap: unicode.IsUpper(r)})
		}
	}
	return out
}

// FitDomain computes the Domain of training sets train, the unknown
// words' statistic and the limits from the held-out sets of the same
// corpora. Both need sets with words.
func FitDomain(train, heldOut []*pairs.UtteranceSet) (*Domain, error) {
	train, heldOut = evenly(train, domainMaxSets), evenly(heldOut, domainMaxSets)
	if len(train) < 2 || len(heldOut) < 2 {
		return nil, fmt.Errorf("verifier domain: %d training and %d held-out sets: want at least 2 of each", len(train), len(heldOut))
	}
	counts := map[string]int{}
	corpora := map[string]int{}
	var words []domainWord
	var long []string
	seen := map[string]bool{}
	for _, s := range train {
		corpora[pairs.CorpusOf(s.Source)]++
		for _, t := range s.Texts {
			if k := overlapKey(t); len(strings.Fields(k)) >= overlapMinWords && !seen[k] {
				seen[k] = true
				long = append(long, k)
			}
			words = domainWords(t, words[:0])
			for _, w := range words {
				counts[w.w]++
			}
		}
	}
	if len(counts) == 0 {
		return nil, fmt.Errorf("verifier domain: the training sets have no words")
	}
	vocab := make([]string, 0, len(counts))
	for w := range counts {
		vocab = append(vocab, w)
	}
	slices.SortFunc(vocab, func(a, b string) int { return cmp.Or(cmp.Compare(counts[b], counts[a]), strings.Compare(a, b)) })
	d := &Domain{TrainSets: len(train), HeldOutSets: len(heldOut), Vocabulary: vocab[:min(len(vocab), DomainVocabulary)],
		Quantile: DomainQuantile, Margin: DomainMargin, Texts: len(long)}
	for i := range min(len(long), domainMaxHashes) {
		d.TextHashes = append(d.TextHashes, textHash(long[i*len(long)/min(len(long), domainMaxHashes)]))
	}
	d.Words = d.Vocabulary[:min(len(d.Vocabulary), DomainWords)]
	for name, n := range corpora {
		d.Corpora = append(d.Corpora, DomainCorpus{Name: name, Sets: n})
	}
	slices.SortFunc(d.Corpora, func(a, b DomainCorpus) int {
		return cmp.Or(cmp.Compare(b.Sets, a.Sets), strings.Compare(a.Name, b.Name))
	})
	d.index()
	k := len(d.Words)
	d.Mean, d.Spread = make([]float64, k), make([]float64, k)
	profiles := make([][]float64, len(train))
	var invN float64 // mean of 1/n over training sets
	for i, s := range train {
		var n int
		profiles[i], _, n = d.profile(s.Texts)
		invN += 1 / float64(max(n, 1))
		for j, f := range profiles[i] {
			d.Mean[j] += f
		}
	}
	invN /= float64(len(train))
	for j := range d.Mean {
		d.Mean[j] /= float64(len(train))
	}
	for _, p := range profiles {
		for j, f := range p {
			d.Spread[j] += (f - d.Mean[j]) * (f - d.Mean[j])
		}
	}
	for j, ss := range d.Spread {
		between := ss/float64(len(train)-1) - d.Mean[j]*(1-d.Mean[j])*invN
		d.Spread[j] = math.Sqrt(max(between, domainMinSpread*domainMinSpread))
	}
	unk, invN := make([]float64, len(heldOut)), 0.0
	for i, s := range heldOut {
		var n int
		_, unk[i], n = d.profile(s.Texts)
		invN += 1 / float64(max(n, 1))
		d.UnknownMean += unk[i]
	}
	invN /= float64(len(heldOut))
	d.UnknownMean /= float64(len(heldOut))
	var ss float64
	for _, u := range unk {
		ss += (u - d.UnknownMean) * (u - d.UnknownMean)
	}
	d.UnknownSpread = math.Sqrt(max(ss/float64(len(heldOut)-1)-d.UnknownMean*(1-d.UnknownMean)*invN, domainMinSpread*domainMinSpread))
	dist, z, size := make([]float64, len(heldOut)), make([]float64, len(heldOut)), make([]float64, len(heldOut))
	for i, s := range heldOut {
		c := d.measure(s.Texts)
		dist[i], z[i], size[i] = c.Distance, c.UnknownZ, float64(c.Words)
	}
	d.MaxDistance = DomainMargin * quantile(dist, DomainQuantile)
	d.MaxUnknownZ = DomainMargin * max(quantile(z, DomainQuantile), 1)
	d.MaxWords = int(math.Ceil(DomainSizeFactor * quantile(size, DomainQuantile)))
	return d, nil
}

// Check measures texts (one set of utterances) against the domain.
func (d *Domain) Check(texts []string) DomainCheck {
	c := d.measure(texts)
	c.MaxDistance, c.MaxUnknownZ, c.MaxWords = d.MaxDistance, d.MaxUnknownZ, d.MaxWords
	c.InDomain = c.Words > 0 && c.Distance <= d.MaxDistance && c.UnknownZ <= d.MaxUnknownZ && (d.MaxWords == 0 || c.Words <= d.MaxWords)
	return c
}

// measure is Check without the limits.
func (d *Domain) measure(texts []string) DomainCheck {
	p, unknown, n := d.profile(texts)
	c := DomainCheck{Words: n, Unknown: unknown}
	if n == 0 {
		c.Distance, c.UnknownZ = math.Inf(1), math.Inf(1)
		return c
	}
	var ss float64
	for j, f := range p {
		m := d.Mean[j]
		z := (f - m) / math.Sqrt(d.Spread[j]*d.Spread[j]+m*(1-m)/float64(n))
		ss += z * z
	}
	c.Distance = math.Sqrt(ss / float64(max(len(p), 1)))
	u := d.UnknownMean
	c.UnknownZ = (unknown - u) / math.Sqrt(d.UnknownSpread*d.UnknownSpread+u*(1-u)/float64(n))
	return c
}

// profile returns texts' relative frequencies of the domain's Words, the
// share of their uncapitalised words outside its Vocabulary (names and
// sentence-initial words are left out of that share: a play's or a
// show's own names are unknown to every other one), and their number of
// words.
func (d *Domain) profile(texts []string) (freq []float64, unknown float64, n int) {
	if d.known == nil {
		d.index()
	}
	freq = make([]float64, len(d.Words))
	var words []domainWord
	lower, unk := 0, 0
	for _, t := range texts {
		words = domainWords(t, words[:0])
		for _, w := range words {
			n++
			j, ok := d.known[w.w]
			if !w.cap {
				lower++
				if !ok {
					unk++
				}
			}
			if ok && j < len(freq) {
				freq[j]++
			}
		}
	}
	if n == 0 {
		return freq, 1, 0
	}
	for j := range freq {
		freq[j] /= float64(n)
	}
	if lower == 0 {
		return freq, 0, n
	}
	return freq, float64(unk) / float64(lower), n
}

// index builds the word index (Words are Vocabulary's first entries).
func (d *Domain) index() {
	d.known = make(map[string]int, len(d.Vocabulary))
	for i, w := range d.Vocabulary {
		if _, ok := d.known[w]; !ok {
			d.known[w] = i
		}
	}
}

// valid reports what is wrong with a domain read from a file, or nil.
func (d *Domain) valid() error {
	k := len(d.Words)
	switch {
	case k == 0 || len(d.Mean) != k || len(d.Spread) != k:
		return fmt.Errorf("domain: %d words, %d means, %d spreads: want as many of each, at least one", k, len(d.Mean), len(d.Spread))
	case len(d.Vocabulary) < k || !slices.Equal(d.Vocabulary[:k], d.Words):
		return fmt.Errorf("domain: the vocabulary must start with the %d profile words", k)
	case !(d.MaxDistance > 0) || !(d.MaxUnknownZ > 0) || !(d.UnknownSpread > 0) || !(d.UnknownMean >= 0 && d.UnknownMean <= 1):
		return fmt.Errorf("domain: limits %g and %g, unknown words %g ± %g: want limits > 0, a share in [0, 1] and a spread > 0",
			d.MaxDistance, d.MaxUnknownZ, d.UnknownMean, d.UnknownSpread)
	}
	for j, s := range d.Spread {
		if !(s > 0) || !(d.Mean[j] >= 0 && d.Mean[j] <= 1) {
			return fmt.Errorf("domain: word %q: mean %g, spread %g: want a share in [0, 1] and a spread > 0", d.Words[j], d.Mean[j], s)
		}
	}
	return nil
}

// quantile is the q-quantile of x (linear interpolation between order
// statistics); x is sorted in place.
func quantile(x []float64, q float64) float64 {
	sort.Float64s(x)
	pos := q * float64(len(x)-1)
	lo := int(math.Floor(pos))
	hi := min(lo+1, len(x)-1)
	return x[lo] + (pos-float64(lo))*(x[hi]-x[lo])
}

// evenly keeps at most n of sets, taken evenly in ID order.
func evenly(sets []*pairs.UtteranceSet, n int) []*pairs.UtteranceSet {
	sets = slices.Clone(sets)
	slices.SortFunc(sets, func(a, b *pairs.UtteranceSet) int { return strings.Compare(a.ID, b.ID) })
	if len(sets) <= n {
		return sets
	}
	out := make([]*pairs.UtteranceSet, n)
	for i := range out {
		out[i] = sets[int(float64(i)*float64(len(sets))/float64(n))]
	}
	return out
}

// CorpusDomain computes the Domain of a pair corpus's training: the sets
// of its training pairs, limits from its other sets (dev, test and
// held-out sets, which no training pair used).
func CorpusDomain(c *pairs.PairCorpus) (*Domain, error) {
	inTrain := map[string]bool{}
	for _, p := range c.Train {
		inTrain[p.A], inTrain[p.B] = true, true
	}
	var train, held []*pairs.UtteranceSet
	for id, s := range c.Sets {
		if inTrain[id] {
			train = append(train, s)
		} else {
			held = append(held, s)
		}
	}
	return FitDomain(train, held)
}
