package baseline

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data/pairs"
)

// descriptorOptions are corpus-centred test options with descriptor
// weights, the word channel and a topic mask wider than the test texts'
// vocabulary (so that no tie at the mask's boundary depends on spelling).
func descriptorOptions() NgramMetricOptions {
	o := corpusMetricOptions()
	o.WeightBy = weightByDescriptor
	o.DescriptorBuckets = 4
	o.WordWeight = 1
	o.TopicMask = 1000
	o.AdaptKeep = 1 // per-feature weights kept whole when adapted (the contrast below)
	return o
}

func TestFeatureDescriptors(t *testing.T) {
	for _, tc := range []struct {
		g    string
		kind int
	}{
		{"ab", kindLetters}, {"**", kindLetters}, {" th", kindBoundary}, {"e ", kindBoundary},
		{"Th", kindCapital}, {" ^*", kindCapital}, {"o!", kindPunct}, {"A.", kindPunct}, {"#1", kindPunct}, {"'s", kindPunct},
	} {
		if got := featureKind(tc.g); got != tc.kind {
			t.Errorf("featureKind(%q) = %s, want %s", tc.g, kindNames[got], kindNames[tc.kind])
		}
	}
	o := DefaultNgramMetricOptions()
	for _, tc := range []struct {
		g     string
		words bool
		want  int
	}{
		{"ab", false, 0}, {"abc", false, 1}, {"a bc", false, 2}, {"é!", false, 0},
		{"a", true, 0}, {"the", true, 0}, {"think", true, 1}, {"wonderful", true, 2},
	} {
		if got := featureLength(tc.g, o, tc.words); got != tc.want {
			t.Errorf("featureLength(%q, words %v) = %d, want %d", tc.g, tc.words, got, tc.want)
		}
	}
}

// TestNgramMetricDescriptorClassesByFrequency checks the frequency buckets:
// features of equal document frequency share a bucket, and a more frequent
// feature is never in a later bucket than a rarer one.
func TestNgramMetricDescriptorClassesByFrequency(t *testing.T) {
	c := styleCorpus(4)
	o := descriptorOptions()
	m := newTestMetric(t, o, 1, "")
	fitSources(t, m, c)
	for _, ch := range m.chans {
		buckets := map[float32]int32{}
		lengths := int32(o.lengthClasses(ch.tf.words))
		used := map[int32]bool{}
		for i, k := range ch.class {
			b := k % int32(o.DescriptorBuckets)
			used[b] = true
			if kind, l := int(k/(int32(o.DescriptorBuckets)*lengths)), k/int32(o.DescriptorBuckets)%lengths; kind != featureKind(ch.tf.Vocabulary()[i]) || int(l) != featureLength(ch.tf.Vocabulary()[i], o, ch.tf.words) {
				t.Fatalf("%s feature %q: class %d decodes to kind %d length %d", ch.name, ch.tf.Vocabulary()[i], k, kind, l)
			}
			if prev, ok := buckets[ch.tf.idf[i]]; ok && prev != b {
				t.Fatalf("%s: features of IDF %g in buckets %d and %d", ch.name, ch.tf.idf[i], prev, b)
			}
			buckets[ch.tf.idf[i]] = b
		}
		for x, b := range buckets {
			for y, b2 := range buckets {
				if x < y && b > b2 {
					t.Fatalf("%s: IDF %g (more frequent) in bucket %d after IDF %g in bucket %d", ch.name, x, b, y, b2)
				}
			}
		}
		if len(used) < 2 {
			t.Fatalf("%s: every feature in one frequency bucket: the test checks nothing", ch.name)
		}
	}
}

// letterShuffle returns a function that renames the letters a–z (and A–Z
// alike) by a random permutation, keeping case, spacing and punctuation.
func letterShuffle(seed uint64) func(string) string {
	perm := rand.New(rand.NewPCG(seed, 1)).Perm(26)
	return func(s string) string {
		return strings.Map(func(r rune) rune {
			switch {
			case r >= 'a' && r <= 'z':
				return rune('a' + perm[r-'a'])
			case r >= 'A' && r <= 'Z':
				return rune('A' + perm[r-'A'])
			}
			return r
		}, s)
	}
}

// cosines returns the cosine of every pair of vectors (i < j).
func cosines(v [][]float32) []float64 {
	var out []float64
	for i := range v {
		for j := i + 1; j < len(v); j++ {
			var d, a, b float64
			for k := range v[i] {
				d += float64(v[i][k]) * float64(v[j][k])
				a += float64(v[i][k]) * float64(v[i][k])
				b += float64(v[j][k]) * float64(v[j][k])
			}
			out = append(out, d/math.Sqrt(a*b))
		}
	}
	return out
}

// TestNgramMetricDescriptorWeightsIdentityFree trains descriptor and
// per-feature weights, adapts each to a new domain and to the same domain
// with its letters renamed by a permutation (every n-gram a new string,
// every descriptor the same), and checks that the descriptor encoder
// scores the renamed sets as the originals while the per-feature one does
// not (its weights belong to the strings it was trained on).
func TestNgramMetricDescriptorWeightsIdentityFree(t *testing.T) {
	ctx := context.Background()
	c := styleCorpus(5)
	var domain []string
	for i, s := range trainTextsOf(c) {
		if i%2 == 0 {
			domain = append(domain, s+" Really?! "+fmt.Sprint(i%7))
		}
	}
	sets := [][]string{c.Sets["s0-c0"].Texts, c.Sets["s0-c1"].Texts, c.Sets["s1-c0"].Texts, c.Sets["s4-c2"].Texts, {"Hmm! Is it, really?"}}
	rename := letterShuffle(9)
	renamed := func(texts []string) []string {
		out := make([]string, len(texts))
		for i, s := range texts {
			out[i] = rename(s)
		}
		return out
	}
	var renamedSets [][]string
	for _, s := range sets {
		renamedSets = append(renamedSets, renamed(s))
	}
	for _, by := range []string{weightByDescriptor, weightByFeature} {
		o := descriptorOptions()
		o.WeightBy = by
		m := newTestMetric(t, o, 2, "")
		fitSources(t, m, c)
		if err := m.Train(ctx, c, nil); err != nil {
			t.Fatal(err)
		}
		if m.bestEpoch == 0 {
			t.Fatalf("%s: dev kept the untrained weights: the test checks nothing", by)
		}
		score := func(domain []string, sets [][]string) []float64 {
			if err := m.Adapt(ctx, domain); err != nil {
				t.Fatal(err)
			}
			for _, ch := range m.chans {
				if len(ch.w) >= o.MaxFeatures {
					t.Fatalf("%s channel fills max_features: ties at its boundary would depend on spelling", ch.name)
				}
			}
			v, err := m.EncodeSets(ctx, sets, nil)
			if err != nil {
				t.Fatal(err)
			}
			return cosines(v)
		}
		want := score(domain, sets)
		got := score(renamed(domain), renamedSets)
		var worst float64
		for i := range want {
			worst = max(worst, math.Abs(got[i]-want[i]))
		}
		switch {
		case by == weightByDescriptor && worst > 1e-5:
			t.Errorf("descriptor weights: renaming the letters moves a cosine by %.3g, want none", worst)
		case by == weightByFeature && worst < 1e-3:
			t.Errorf("per-feature weights: renaming the letters moves the cosines by only %.3g: the contrast checks nothing", worst)
		}
	}
}

// punctuationCorpus is a pair corpus in which speakers differ only by their
// punctuation habits: every word is drawn at random from one pool for
// everyone, so letter n-grams carry no speaker signal. The speakers are
// in two corpora ("showa", "showb") by parity.
func punctuationCorpus(seed uint64) *pairs.PairCorpus {
	rng := rand.New(rand.NewPCG(seed, 11))
	marks := []string{"!", "?", "...", ";", " -", "!?"}
	var pool []string
	for i := range 60 {
		w := []rune{}
		for k := range 3 + i%5 {
			w = append(w, rune('a'+(i*7+k*3+rng.IntN(5))%26))
		}
		pool = append(pool, string(w))
	}
	c := &pairs.PairCorpus{Sets: map[string]*pairs.UtteranceSet{}}
	var ids []string
	for sp := range marks {
		for conv := range 5 {
			id := fmt.Sprintf("s%d-c%d", sp, conv)
			set := &pairs.UtteranceSet{ID: id, Source: fmt.Sprintf("show%c/ep", 'a'+sp%2), ConversationID: fmt.Sprintf("conv%d", conv), Speaker: fmt.Sprint(sp)}
			for range 6 {
				var u []string
				for range 6 {
					u = append(u, pool[rng.IntN(len(pool))])
				}
				set.Texts = append(set.Texts, strings.Join(u[:3], " ")+marks[sp]+" "+strings.Join(u[3:], " ")+marks[sp])
			}
			c.Sets[id] = set
			ids = append(ids, id)
		}
	}
	for i, a := range ids {
		for j, b := range ids[i+1:] {
			p := pairs.Pair{ID: fmt.Sprintf("p%d-%d", i, j), A: a, B: b}
			if c.Sets[a].Speaker == c.Sets[b].Speaker {
				p.Label = 1
			}
			if strings.HasSuffix(a, "-c4") || strings.HasSuffix(b, "-c4") {
				c.Dev = append(c.Dev, p)
			} else {
				c.Train = append(c.Train, p)
			}
		}
	}
	return c
}

// TestNgramMetricDescriptorTrainingFindsSignal trains descriptor weights
// on punctuationCorpus and checks that the classes of punctuation features
// end up weighted above the classes of letters-only features (the noise),
// that training raised the dev AUC, and that every feature's weight is its
// class's.
func TestNgramMetricDescriptorTrainingFindsSignal(t *testing.T) {
	for _, fit := range []string{descriptorFitUnion, descriptorFitCorpus} {
		t.Run(fit, func(t *testing.T) { checkDescriptorSignal(t, fit) })
	}
}

func checkDescriptorSignal(t *testing.T, fit string) {
	ctx := context.Background()
	c := punctuationCorpus(1)
	o := testMetricOptions()
	o.WeightBy, o.DescriptorBuckets, o.DescriptorFit = weightByDescriptor, 3, fit
	o.TopicMask, o.Epochs, o.Patience = 0, 6, 6
	m := newTestMetric(t, o, 1, "")
	if err := m.Fit(ctx, trainTextsOf(c)); err != nil {
		t.Fatal(err)
	}
	if err := m.Train(ctx, c, nil); err != nil {
		t.Fatal(err)
	}
	if fit == descriptorFitCorpus && !strings.Contains(m.trained, "showa") {
		t.Errorf("trained %q: want the per-corpus training, naming its corpora", m.trained)
	}
	if m.bestEpoch == 0 || m.curve[m.bestEpoch].DevAUC <= m.curve[0].DevAUC {
		t.Fatalf("training kept epoch %d (curve %+v): want a better dev AUC than untrained", m.bestEpoch, m.curve)
	}
	ch := m.chans[0]
	var sum [numKinds]float64
	var n [numKinds]int
	for i, g := range ch.tf.Vocabulary() {
		if ch.w[i] != ch.theta[ch.class[i]] {
			t.Fatalf("feature %q: weight %g, its class's %g", g, ch.w[i], ch.theta[ch.class[i]])
		}
		k := featureKind(g)
		sum[k] += math.Abs(float64(ch.w[i]))
		n[k]++
	}
	punct, letters := sum[kindPunct]/float64(n[kindPunct]), sum[kindLetters]/float64(n[kindLetters])
	if n[kindPunct] == 0 || n[kindLetters] == 0 || punct <= 1.2*letters {
		t.Errorf("mean |weight| of punctuation features %.3f (%d), of letters-only features %.3f (%d): want punctuation well above", punct, n[kindPunct], letters, n[kindLetters])
	}
}

// TestNgramMetricDescriptorRoundTrip saves trained descriptor weights and
// loads them into an encoder fitted on the same texts: the same vectors
// bit for bit, and, adapted to a new domain, the same vectors as the
// trained encoder adapted to it (the class weights travel in the file).
// Settings that differ from the file's are an error.
func TestNgramMetricDescriptorRoundTrip(t *testing.T) {
	ctx := context.Background()
	c := styleCorpus(6)
	o := descriptorOptions()
	dir := t.TempDir()
	m := newTestMetric(t, o, 3, dir)
	fitSources(t, m, c)
	if err := m.Train(ctx, c, nil); err != nil {
		t.Fatal(err)
	}
	load := func(o NgramMetricOptions) (*ngramMetric, error) {
		l := newTestMetric(t, o, 3, "")
		mf, err := readMetricFile(metricCheckpoint(dir))
		if err != nil {
			t.Fatal(err)
		}
		l.pending = mf
		texts, sources := trainSourcesOf(c)
		return l, l.FitSources(ctx, texts, sources)
	}
	l, err := load(o)
	if err != nil {
		t.Fatal(err)
	}
	sets := [][]string{c.Sets["s0-c0"].Texts, c.Sets["s2-c1"].Texts, {"Well well, who is there?"}}
	encode := func(e *ngramMetric) [][]float32 {
		v, err := e.EncodeSets(ctx, sets, nil)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	sameVectors(t, encode(l), encode(m))
	domain := []string{"Zebras! Who knew?", "Okay so, the quokka said hmm!", "ya know... the sea, the sea", "indeed; the narwhal"}
	for _, e := range []*ngramMetric{m, l} {
		if err := e.Adapt(ctx, domain); err != nil {
			t.Fatal(err)
		}
	}
	sameVectors(t, encode(l), encode(m))
	u := newTestMetric(t, o, 3, "")
	fitSources(t, u, c)
	if err := u.Adapt(ctx, domain); err != nil {
		t.Fatal(err)
	}
	if w, g := cosines(encode(u)), cosines(encode(m)); math.Abs(w[0]-g[0]) < 1e-6 {
		t.Errorf("adapted trained and untrained descriptor encoders agree (%g): the round trip checks nothing", w[0])
	}
	bad := o
	bad.DescriptorBuckets = 5
	if _, err := load(bad); err == nil || !strings.Contains(err.Error(), "descriptor_buckets") {
		t.Errorf("loading with other descriptor_buckets: err %v, want one naming descriptor_buckets", err)
	}
}

// TestNgramMetricDescriptorBalanceCorpora checks balance_corpora: with two
// corpora of equal size it changes nothing (every weight N/(K·N_k) is 1),
// with one corpus cut to a third of its training pairs it changes the
// trained class weights.
func TestNgramMetricDescriptorBalanceCorpora(t *testing.T) {
	ctx := context.Background()
	train := func(c *pairs.PairCorpus, balance bool) []float32 {
		o := testMetricOptions()
		o.WeightBy, o.DescriptorBuckets, o.DescriptorFit, o.BalanceCorpora = weightByDescriptor, 3, descriptorFitCorpus, balance
		o.TopicMask, o.Epochs, o.Patience = 0, 3, 3
		m := newTestMetric(t, o, 1, "")
		if err := m.Fit(ctx, trainTextsOf(c)); err != nil {
			t.Fatal(err)
		}
		if err := m.Train(ctx, c, nil); err != nil {
			t.Fatal(err)
		}
		if m.bestEpoch == 0 {
			t.Fatal("dev kept the untrained weights: the test checks nothing")
		}
		return m.chans[0].theta
	}
	c := punctuationCorpus(2)
	if a, b := train(c, false), train(c, true); !slices.Equal(a, b) {
		t.Errorf("equal corpora: balance_corpora changed the class weights")
	}
	var kept []pairs.Pair
	n := 0
	for _, p := range c.Train {
		if strings.HasPrefix(c.Sets[p.A].Source, "showb") {
			if n++; n%3 != 0 {
				continue
			}
		}
		kept = append(kept, p)
	}
	c.Train = kept
	if a, b := train(c, false), train(c, true); slices.Equal(a, b) {
		t.Errorf("a corpus with a third of the pairs: balance_corpora left the class weights unchanged")
	}
}

// TestNgramMetricDescriptorSettingsRefused checks that a bad value of the
// descriptor and score settings is an error naming the setting.
func TestNgramMetricDescriptorSettingsRefused(t *testing.T) {
	for key, set := range map[string]func(*NgramMetricOptions){
		"weight_by":          func(o *NgramMetricOptions) { o.WeightBy = "ngram" },
		"descriptor_buckets": func(o *NgramMetricOptions) { o.WeightBy, o.DescriptorBuckets = weightByDescriptor, 0 },
		"descriptor_fit":     func(o *NgramMetricOptions) { o.DescriptorFit = "show" },
		"adapt_score":        func(o *NgramMetricOptions) { o.AdaptScore = "znorm" },
		"adapt_pool":         func(o *NgramMetricOptions) { o.AdaptPool = "max" },
		"adapt_channels":     func(o *NgramMetricOptions) { o.AdaptChannels = "word" },
		"cohort_top":         func(o *NgramMetricOptions) { o.CohortTop = -1 },
		"rank":               func(o *NgramMetricOptions) { o.WeightBy, o.Rank = weightByDescriptor, 4 },
		// Settings of the descriptor training given without it would
		// silently change nothing.
		"descriptor_fit=corpus needs weight_by=descriptor": func(o *NgramMetricOptions) { o.DescriptorFit = descriptorFitCorpus },
		"balance_corpora needs descriptor_fit=corpus": func(o *NgramMetricOptions) {
			o.WeightBy, o.BalanceCorpora = weightByDescriptor, true
		},
	} {
		o := testMetricOptions()
		set(&o)
		if _, err := NewNgramMetric(o, 1, "", nil); err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("%s: error %v, want one naming %s", key, err, key)
		}
	}
}
