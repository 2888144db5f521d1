package baseline

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"unicode"
	"unicode/utf8"
)

// Descriptor weights (weight_by=descriptor). Per-feature weights are tied
// to the n-grams of the training shows: on a show held out of training they
// hurt (docs/training.md, "Transfer to unseen corpora"). With descriptor
// weights a feature's weight is instead one parameter of its class, and the
// class is computed from what any corpus has: the feature's kind (letters
// only, with a word boundary, with a capital, with punctuation or digits),
// its length (the n-gram's order; a word's length band) and its document
// frequency's rank among the channel's features on the texts the channel
// was fitted on (buckets of equal rank width). A few hundred parameters,
// trained with the same loss as the per-feature weights; an adapted
// encoder recomputes every class on the adaptation texts (their n-grams,
// their document frequencies) and gives each feature its class's trained
// weight, so what transfers is "how much punctuation trigrams of middling
// frequency count", not which n-grams one show used.

// Values of NgramMetricOptions.WeightBy.
const (
	weightByFeature    = "feature"
	weightByDescriptor = "descriptor"
)

// Kinds of a feature, the descriptor's first axis.
const (
	kindLetters  = iota // letters only (masked letters count as letters)
	kindBoundary        // letters and a word boundary (space)
	kindCapital         // an upper-case letter (or its mask '^'), no punctuation
	kindPunct           // punctuation, a digit or another symbol
	numKinds
)

// wordLengthBands are the upper bounds (runes) of the word channel's
// length bands; longer words form the last band.
var wordLengthBands = []int{3, 6}

// descriptorWeights reports whether the options ask for descriptor weights.
func (o NgramMetricOptions) descriptorWeights() bool { return o.WeightBy == weightByDescriptor }

// lengthClasses is the number of length classes of a channel: the n-gram
// orders of a character channel, the length bands of the word channel.
func (o NgramMetricOptions) lengthClasses(words bool) int {
	if words {
		return len(wordLengthBands) + 1
	}
	return o.MaxN - o.MinN + 1
}

// descriptorClasses is the number of descriptor classes of a channel.
func (o NgramMetricOptions) descriptorClasses(words bool) int {
	return numKinds * o.lengthClasses(words) * o.DescriptorBuckets
}

// featureKind classifies a feature string by the characters it holds.
func featureKind(g string) int {
	kind := kindLetters
	for _, r := range g {
		switch {
		case r == ' ':
			if kind == kindLetters {
				kind = kindBoundary
			}
		case r == '^' || unicode.IsUpper(r):
			if kind != kindPunct {
				kind = kindCapital
			}
		case r == '*' || unicode.IsLetter(r):
		default:
			return kindPunct
		}
	}
	return kind
}

// featureLength is the length class of a feature string.
func featureLength(g string, o NgramMetricOptions, words bool) int {
	n := utf8.RuneCountInString(g)
	if words {
		for k, b := range wordLengthBands {
			if n <= b {
				return k
			}
		}
		return len(wordLengthBands)
	}
	return min(max(n-o.MinN, 0), o.lengthClasses(false)-1)
}

// channelClasses returns the descriptor class of each of c's fitted
// features (by dimension). The frequency bucket of a feature is
// ⌊B·r/V⌋, r the number of the channel's V features with a strictly
// smaller IDF (a larger document frequency): features of equal document
// frequency share a bucket, whatever their strings or their order.
func channelClasses(c *metricChannel, o NgramMetricOptions) []int32 {
	vocab := c.tf.Vocabulary()
	idf := slices.Clone(c.tf.idf)
	slices.Sort(idf)
	lengths, buckets := o.lengthClasses(c.tf.words), o.DescriptorBuckets
	out := make([]int32, len(vocab))
	for i, g := range vocab {
		x := c.tf.idf[i]
		r := sort.Search(len(idf), func(k int) bool { return idf[k] >= x })
		b := buckets * r / len(idf)
		out[i] = int32((featureKind(g)*lengths+featureLength(g, o, c.tf.words))*buckets + b)
	}
	return out
}

// applyDescriptors computes every channel's feature classes on its fitted
// features and sets each feature's weight to its class's (untrained
// classes: 1).
func (e *ngramMetric) applyDescriptors() {
	for _, c := range e.chans {
		n := e.opts.descriptorClasses(c.tf.words)
		if len(c.theta) != n {
			c.theta = make([]float32, n)
			for k := range c.theta {
				c.theta[k] = 1
			}
		}
		c.class = channelClasses(c, e.opts)
		c.w = make([]float32, len(c.class))
		for i, k := range c.class {
			c.w[i] = c.theta[k]
		}
	}
}

// checkDescriptors checks the descriptor weights of a weights file
// against the encoder's settings.
func (f *metricFile) checkDescriptors(e *ngramMetric) error {
	by := func(s string) string {
		if s == "" {
			return weightByFeature
		}
		return s
	}
	if by(f.Options.WeightBy) != by(e.opts.WeightBy) || (e.opts.descriptorWeights() && f.Options.DescriptorBuckets != e.opts.DescriptorBuckets) {
		return fmt.Errorf("%s weights %s: trained with weight_by=%s descriptor_buckets=%d, the encoder has weight_by=%s descriptor_buckets=%d (settings differ from training)",
			NameNgramMetric, f.path, by(f.Options.WeightBy), f.Options.DescriptorBuckets, by(e.opts.WeightBy), e.opts.DescriptorBuckets)
	}
	if !e.opts.descriptorWeights() {
		return nil
	}
	for i, c := range e.chans {
		if n := e.opts.descriptorClasses(c.tf.words); len(f.Channels[i].Descriptor) != n {
			return fmt.Errorf("%s weights %s: channel %s has %d descriptor weights, want %d", NameNgramMetric, f.path, c.name, len(f.Channels[i].Descriptor), n)
		}
	}
	return nil
}

// DescriptorWeight is one trained descriptor class of a channel: its
// kind, length class and document-frequency bucket, and its weight.
type DescriptorWeight struct {
	// Channel is "char", "masked" or "word".
	Channel string `json:"channel"`
	// Kind is "letters", "boundary", "capital" or "punct".
	Kind string `json:"kind"`
	// Length is the n-gram order (character channels) or the word
	// length band's upper bound in runes (0: longer than every band).
	Length int `json:"length"`
	// Bucket is the document-frequency bucket, 0 the most frequent
	// features.
	Bucket int `json:"bucket"`
	// Weight is the class's weight.
	Weight float32 `json:"weight"`
}

// kindNames are the names of the feature kinds.
var kindNames = [numKinds]string{"letters", "boundary", "capital", "punct"}

// DescriptorWeights lists the descriptor classes of a weights file
// trained with weight_by=descriptor, channel by channel (nil for
// per-feature weights).
func (w *NgramMetricWeights) DescriptorWeights() []DescriptorWeight {
	o := w.Options
	if !o.descriptorWeights() || o.DescriptorBuckets <= 0 {
		return nil
	}
	var out []DescriptorWeight
	for _, c := range w.Channels {
		words := c.Name == "word"
		lengths := o.lengthClasses(words)
		for k, x := range c.Descriptor {
			b := k % o.DescriptorBuckets
			l := (k / o.DescriptorBuckets) % lengths
			kind := k / (o.DescriptorBuckets * lengths)
			length := o.MinN + l
			if words {
				length = 0
				if l < len(wordLengthBands) {
					length = wordLengthBands[l]
				}
			}
			out = append(out, DescriptorWeight{Channel: c.Name, Kind: kindNames[kind], Length: length, Bucket: b, Weight: x})
		}
	}
	return out
}

// descriptorAdam trains the class weights of weight_by=descriptor with
// Adam: a class's gradient is the sum of its features' gradients (each
// feature's weight is its class's), and after each step every feature
// takes its class's new weight.
type descriptorAdam struct {
	class     [][]int32
	theta     [][]float64
	m1, m2, g [][]float64
	best      [][]float32
}

// newDescriptorAdam starts from the channels' class weights.
func newDescriptorAdam(chans []*metricChannel) *descriptorAdam {
	d := &descriptorAdam{}
	for _, c := range chans {
		n := len(c.theta)
		th := make([]float64, n)
		for k, x := range c.theta {
			th[k] = float64(x)
		}
		d.class = append(d.class, c.class)
		d.theta = append(d.theta, th)
		d.m1, d.m2, d.g = append(d.m1, make([]float64, n)), append(d.m2, make([]float64, n)), append(d.g, make([]float64, n))
		d.best = append(d.best, slices.Clone(c.theta))
	}
	return d
}

// size is the number of class weights.
func (d *descriptorAdam) size() int {
	n := 0
	for _, th := range d.theta {
		n += len(th)
	}
	return n
}

// step is one Adam step on the class weights from the per-feature
// gradient grad (without decay; decay pulls each class weight toward 1),
// c1 and c2 the bias corrections; it sets the per-feature weights w.
func (d *descriptorAdam) step(grad, w [][]float64, o NgramMetricOptions, c1, c2 float64) {
	for ci, g := range d.g {
		clear(g)
		for i, x := range grad[ci] {
			g[d.class[ci][i]] += x
		}
	}
	d.stepClasses(d.g, o, c1, c2)
	for ci, th := range d.theta {
		for i, k := range d.class[ci] {
			w[ci][i] = th[k]
		}
	}
}

// stepClasses is one Adam step on the class weights from their gradient
// g (without decay).
func (d *descriptorAdam) stepClasses(g [][]float64, o NgramMetricOptions, c1, c2 float64) {
	const b1, b2, eps = 0.9, 0.999, 1e-8
	for ci, gc := range g {
		th := d.theta[ci]
		for k, x := range gc {
			x += o.Decay * (th[k] - 1)
			d.m1[ci][k] = b1*d.m1[ci][k] + (1-b1)*x
			d.m2[ci][k] = b2*d.m2[ci][k] + (1-b2)*x*x
			th[k] -= o.LearningRate * (d.m1[ci][k] / c1) / (math.Sqrt(d.m2[ci][k]/c2) + eps)
		}
	}
}

// keep records the current class weights as the best (nil-safe).
func (d *descriptorAdam) keep() {
	if d == nil {
		return
	}
	for ci, th := range d.theta {
		for k, x := range th {
			d.best[ci][k] = float32(x)
		}
	}
}

// restore gives the channels the best class weights (nil-safe).
func (d *descriptorAdam) restore(chans []*metricChannel) {
	if d == nil {
		return
	}
	for ci, c := range chans {
		c.theta = d.best[ci]
	}
}
