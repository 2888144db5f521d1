package baseline

import (
	"context"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/sv"
)

// trainSourcesOf returns the texts of trainTextsOf and each text's source
// as a "corpus/part" path (the set's Source and conversation), so that the
// corpus the encoder groups by is the part before the slash.
func trainSourcesOf(c *pairs.PairCorpus) (texts, sources []string) {
	for _, p := range c.Train {
		s := c.Sets[p.A]
		for _, t := range s.Texts {
			texts, sources = append(texts, t), append(sources, s.Source+"/"+s.ConversationID)
		}
	}
	return texts, sources
}

// corpusMetricOptions are testMetricOptions centred by corpus.
func corpusMetricOptions() NgramMetricOptions {
	o := testMetricOptions()
	o.CenterBy = centerCorpus
	return o
}

// fitSources fits m on c's training texts with their sources.
func fitSources(t *testing.T, m *ngramMetric, c *pairs.PairCorpus) {
	t.Helper()
	texts, sources := trainSourcesOf(c)
	if err := m.FitSources(context.Background(), texts, sources); err != nil {
		t.Fatal(err)
	}
}

// TestSourceNBPredictsCorpus checks the naive Bayes source model: held-out
// sets of three synthetic corpora with their own vocabularies (and shared
// filler) go to their corpus, and ties (no known word, an empty set) go to
// the first group in sorted order whatever the training order.
func TestSourceNBPredictsCorpus(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	vocab := map[string][]string{
		"tbbt":    {"physics", "comic", "sheldon", "penny", "couch", "spot"},
		"friends": {"coffee", "central", "perk", "ross", "rachel", "joey"},
		"annomi":  {"drinking", "smoking", "goals", "change", "feel", "week"},
	}
	filler := []string{"i", "think", "we", "the", "and", "you", "know", "it", "was"}
	gen := func(corpus string) string {
		var w []string
		for range 6 {
			w = append(w, filler[rng.IntN(len(filler))])
		}
		for range 2 {
			w = append(w, vocab[corpus][rng.IntN(len(vocab[corpus]))])
		}
		rng.Shuffle(len(w), func(i, j int) { w[i], w[j] = w[j], w[i] })
		return strings.Join(w, " ")
	}
	var texts, groups []string
	for _, corpus := range []string{"tbbt", "friends", "annomi"} {
		for range 20 {
			texts, groups = append(texts, gen(corpus)), append(groups, corpus)
		}
	}
	m := fitSourceNB(texts, groups)
	if want := []string{"annomi", "friends", "tbbt"}; !slices.Equal(m.names, want) {
		t.Fatalf("groups %v, want sorted %v", m.names, want)
	}
	for _, corpus := range []string{"tbbt", "friends", "annomi"} {
		for k := range 10 {
			set := []string{gen(corpus), gen(corpus), gen(corpus)}
			if got := m.names[m.predict(set)]; got != corpus {
				t.Errorf("held-out %s set %d %q: predicted %s", corpus, k, set, got)
			}
		}
	}
	// Each group's word distribution sums to 1 over the training vocabulary
	// (seen words plus the smoothed mass of the unseen ones).
	seen := map[string]bool{}
	for _, t := range texts {
		nbWords(t, func(w string) { seen[w] = true })
	}
	for k, lp := range m.logp {
		sum := float64(len(seen)-len(lp)) * math.Exp(m.unk[k])
		for _, p := range lp {
			sum += math.Exp(p)
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Errorf("group %s: P(word) sums to %.12f over the vocabulary, want 1", m.names[k], sum)
		}
	}
	// The same texts in another order: the same model.
	rt, rg := slices.Clone(texts), slices.Clone(groups)
	slices.Reverse(rt)
	slices.Reverse(rg)
	if r := fitSourceNB(rt, rg); !reflect.DeepEqual(r, m) {
		t.Error("fitting the texts in reverse order gave another model")
	}

	// Two groups with equal word totals (the training order puts b first).
	tie := fitSourceNB([]string{"fast car", "slow car", "red apple", "green apple"}, []string{"b", "b", "a", "a"})
	for _, c := range []struct {
		set  []string
		want string
	}{
		{[]string{"RED Apple"}, "a"},                  // lower-cased
		{[]string{"green", "apple pie"}, "a"},         // several texts, an unknown word
		{[]string{"red truck car"}, "b"},              // car (twice in b) outweighs red (once in a)
		{[]string{"zebra unicorn"}, "a"},              // unknown words only: a tie, the first group
		{nil, "a"},                                    // an empty set: a tie
		{[]string{"", "   "}, "a"},                    // no words: a tie
		{[]string{"apple car", "car apple"}, "a"},     // equal evidence: a tie
		{[]string{"apple car car", "zebra"}, "b"},     // unknown words do not move a non-tie
		{[]string{"apple car car", "fast slow"}, "b"}, // more b words
	} {
		for range 2 {
			if got := tie.names[tie.predict(c.set)]; got != c.want {
				t.Errorf("predict(%q) = %s, want %s", c.set, got, c.want)
			}
		}
	}
}

// TestNgramMetricCenterByCorpus checks center_by=corpus: a set made of all
// the training texts of one corpus is its corpus's mean, so (untrained,
// char channel only) its set vector is ≈ 0, while centred globally it is
// not; plain Fit and the settings that do not go with it are errors.
func TestNgramMetricCenterByCorpus(t *testing.T) {
	ctx := context.Background()
	c := styleCorpus(6)
	texts, sources := trainSourcesOf(c)
	bySource := map[string][]string{}
	for i, s := range sources {
		bySource[pairs.CorpusOf(s)] = append(bySource[pairs.CorpusOf(s)], texts[i])
	}
	if len(bySource) != 2 {
		t.Fatalf("%d sources, want 2", len(bySource))
	}
	sets := [][]string{bySource["src0"], bySource["src1"]}
	o := corpusMetricOptions()
	o.TopicMask, o.Epochs = 0, 0
	m := newTestMetric(t, o, 1, "")
	if err := m.FitSources(ctx, texts, sources); err != nil {
		t.Fatal(err)
	}
	if got := m.groups.nb.names; !slices.Equal(got, []string{"src0", "src1"}) {
		t.Fatalf("groups %v", got)
	}
	got, err := m.EncodeSets(ctx, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	og := testMetricOptions()
	og.TopicMask, og.Epochs = 0, 0
	g := newTestMetric(t, og, 1, "")
	if err := g.FitSources(ctx, texts, sources); err != nil {
		t.Fatal(err)
	}
	global, err := g.EncodeSets(ctx, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	norm := func(v []float32) float64 {
		var n float64
		for _, x := range v {
			n += float64(x) * float64(x)
		}
		return math.Sqrt(n)
	}
	for i, name := range []string{"src0", "src1"} {
		if len(got[i]) != m.Dim() || m.Dim() != g.Dim() {
			t.Fatalf("%s: dim %d, Dim %d, global Dim %d", name, len(got[i]), m.Dim(), g.Dim())
		}
		if n := norm(got[i]); n > 1e-5 {
			t.Errorf("%s: all its training texts, centred on its corpus: norm %g, want ≈ 0", name, n)
		}
		if n := norm(global[i]); n < 0.05 {
			t.Errorf("%s: centred globally: norm %g, want clearly > 0", name, n)
		}
	}
	if err := m.Fit(ctx, texts); err == nil || !strings.Contains(err.Error(), "center_by") {
		t.Errorf("plain Fit with center_by=corpus: %v, want an error naming center_by", err)
	}
	if err := m.FitSources(ctx, texts, sources[1:]); err == nil {
		t.Error("FitSources with one source too few: want an error")
	}
	if err := m.FitSources(ctx, nil, nil); err == nil {
		t.Error("FitSources without texts: want an error")
	}
	for _, bad := range []func(*NgramMetricOptions){
		func(o *NgramMetricOptions) { o.CenterBy, o.GroupWeight = centerGlobal, 1 },
		func(o *NgramMetricOptions) { o.Rank = 2 },
		func(o *NgramMetricOptions) { o.CenterBy = "source" },
		func(o *NgramMetricOptions) { o.GroupWeight = -1 },
		func(o *NgramMetricOptions) { o.Center = false },
		func(o *NgramMetricOptions) { o.CenterBy, o.GlobalWeight = centerGlobal, 1 },
		func(o *NgramMetricOptions) { o.GroupTemperature = -1 },
	} {
		o := corpusMetricOptions()
		bad(&o)
		if _, err := NewNgramMetric(o, 1, "", nil); err == nil || !strings.Contains(err.Error(), "center_by") && !strings.Contains(err.Error(), "group_") {
			t.Errorf("center_by %q, group_weight %g, rank %d, center %v: error %v, want one naming the setting", o.CenterBy, o.GroupWeight, o.Rank, o.Center, err)
		}
	}
}

// TestNgramMetricGroupChannel checks the group channel: with group weight
// β_g the cosine of two sets is (Σ β_c cos_c + β_g·[same predicted
// corpus])/(Σ β_c + β_g), cos_c the channels' cosines of the encoder
// without it, and the group block is the one-hot of the predicted corpus.
func TestNgramMetricGroupChannel(t *testing.T) {
	ctx := context.Background()
	c := styleCorpus(7)
	o := corpusMetricOptions()
	o.Epochs, o.WordWeight, o.MaskedWeight = 0, 0.5, 2
	plain := newTestMetric(t, o, 1, "")
	fitSources(t, plain, c)
	o.GroupWeight = 1.5
	grouped := newTestMetric(t, o, 1, "")
	fitSources(t, grouped, c)
	var sets [][]string
	for _, id := range []string{"s0-c0", "s2-c1", "s4-c3", "s1-c0", "s3-c2", "s5-c3"} {
		sets = append(sets, c.Sets[id].Texts)
	}
	sets = append(sets, []string{"Who is there?"})
	v0, err := plain.EncodeSets(ctx, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	v1, err := grouped.EncodeSets(ctx, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	group, _ := grouped.groups.place(sets, 0, false)
	ng := len(grouped.groups.nb.names)
	if ng != 2 || grouped.Dim() != plain.Dim()+ng || len(v1[0]) != grouped.Dim() {
		t.Fatalf("%d groups; dims %d and %d (vectors %d), want the group block's %d more", ng, plain.Dim(), grouped.Dim(), len(v1[0]), ng)
	}
	var dims []int
	sumBeta := 0.0
	for _, ch := range plain.chans {
		dims, sumBeta = append(dims, ch.tf.Dim()), sumBeta+ch.beta
	}
	if len(dims) != 3 {
		t.Fatalf("%d channels, want char, masked and word", len(dims))
	}
	dot := func(a, b []float32) float64 {
		var s float64
		for i := range a {
			s += float64(a[i]) * float64(b[i])
		}
		return s
	}
	cosine := func(a, b []float32) float64 {
		na, nb := dot(a, a), dot(b, b)
		if na == 0 || nb == 0 {
			return 0
		}
		return dot(a, b) / math.Sqrt(na*nb)
	}
	for i := range sets {
		oh := v1[i][plain.Dim():]
		for k, x := range oh {
			want := 0.0
			if k == group[i] {
				want = math.Sqrt(1.5 / (sumBeta + 1.5))
			}
			if math.Abs(float64(x)-want) > 1e-6 {
				t.Errorf("set %d (group %d): group block %v", i, group[i], oh)
			}
		}
	}
	same, other := 0, 0
	for i := range sets {
		for j := i + 1; j < len(sets); j++ {
			var mixed float64
			off := 0
			for ci, ch := range plain.chans {
				mixed += ch.beta * cosine(v0[i][off:off+dims[ci]], v0[j][off:off+dims[ci]])
				off += dims[ci]
			}
			if got := dot(v0[i], v0[j]); math.Abs(got-mixed/sumBeta) > 1e-5 {
				t.Errorf("sets %d, %d without the group channel: cosine %.6f, want Σβ_c cos_c/Σβ_c = %.6f", i, j, got, mixed/sumBeta)
			}
			want := mixed
			if group[i] == group[j] {
				want += 1.5
				same++
			} else {
				other++
			}
			want /= sumBeta + 1.5
			if got := dot(v1[i], v1[j]); math.Abs(got-want) > 1e-5 {
				t.Errorf("sets %d, %d (groups %d, %d): cosine %.6f, want (Σβ_c cos_c + β_g·same)/Σβ = %.6f", i, j, group[i], group[j], got, want)
			}
		}
	}
	if same == 0 || other == 0 {
		t.Fatalf("%d same-group and %d cross-group pairs among the sets (groups %v): want both", same, other, group)
	}
	if !strings.Contains(grouped.Describe(), "group channel ×1.5") {
		t.Errorf("Describe %q does not name the group channel", grouped.Describe())
	}
}

// TestNgramMetricCorpusGradientMatchesFiniteDifferences is the finite
// difference check with per-corpus means, the word, group and global
// channels, and a batch holding pairs of one group and of two (the
// ga ≠ gb terms of pairCos and pairGrad).
func TestNgramMetricCorpusGradientMatchesFiniteDifferences(t *testing.T) {
	c := styleCorpus(4)
	o := corpusMetricOptions()
	o.Margin = 2.5 // d = 1 − cos ≤ 2: every negative inside the margin, the loss smooth at every pair
	o.HardWeight = 2
	o.WordWeight, o.GroupWeight, o.GlobalWeight = 1, 1, 0.5
	m := newTestMetric(t, o, 1, "")
	fitSources(t, m, c)
	if len(m.chans) != 4 || m.chans[3].name != "global" || len(m.groups.means[0]) != 2 {
		t.Fatalf("channels %d, groups %d: want char, masked, word and global over 2 groups", len(m.chans), len(m.groups.means[0]))
	}
	tr, batch := checkMetricGradient(t, m, c)
	same, cross := 0, 0
	for _, p := range batch {
		if tr.group[p.a] == tr.group[p.b] {
			same++
		} else {
			cross++
		}
	}
	if same == 0 || cross == 0 || tr.groupBeta == 0 {
		t.Fatalf("batch: %d same-group and %d cross-group pairs, group weight %g: want both kinds and the group channel", same, cross, tr.groupBeta)
	}
}

func TestNgramMetricCorpusTrainDeterministic(t *testing.T) {
	o := corpusMetricOptions()
	o.WordWeight, o.GroupWeight, o.GlobalWeight = 1, 1, 0.5
	o.Threads = 1
	a := trainedWeights(t, o, 5)
	o.Threads = 4
	b := trainedWeights(t, o, 5)
	c := trainedWeights(t, o, 6)
	if len(a) != 4 {
		t.Fatalf("%d channels, want 4", len(a))
	}
	checkDeterministicWeights(t, a, b, c)
}

// TestNgramMetricCorpusWeightsRoundTrip checks that trained center_by=corpus
// weights, loaded from the checkpoint and refitted with FitSources on the
// same texts, give the trained set vectors bit for bit.
func TestNgramMetricCorpusWeightsRoundTrip(t *testing.T) {
	ctx := context.Background()
	c := styleCorpus(5)
	texts, sources := trainSourcesOf(c)
	work := filepath.Join(t.TempDir(), "work")
	o := corpusMetricOptions()
	o.WordWeight, o.GroupWeight = 1, 1
	m := newTestMetric(t, o, 3, work)
	fitSources(t, m, c)
	if err := m.Train(ctx, c, nil); err != nil {
		t.Fatal(err)
	}
	sets := [][]string{c.Sets["s1-c0"].Texts, c.Sets["s4-c3"].Texts, c.Sets["s2-c2"].Texts}
	want, err := m.EncodeSets(ctx, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkTrainerMatchesEncoder(t, m, c)
	st := map[string]string{"weights": filepath.Join(work, "checkpoints"), "min_df": "1", "max_features": "3000", "topic_mask": "20",
		"center_by": "corpus", "word_weight": "1", "group_weight": "1"}
	enc, err := sv.NewEncoder(NameNgramMetric, sv.EncoderOptions{Settings: st})
	if err != nil {
		t.Fatal(err)
	}
	if err := enc.(sv.Fitter).Fit(ctx, texts); err == nil || !strings.Contains(err.Error(), "center_by") {
		t.Errorf("plain Fit of the loaded encoder: %v, want an error naming center_by", err)
	}
	if err := sv.FitWithSources(ctx, enc.(sv.Fitter), texts, sources); err != nil {
		t.Fatal(err)
	}
	got, err := enc.(sv.SetEncoder).EncodeSets(ctx, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	moved := false
	for _, ch := range m.chans {
		for _, x := range ch.w {
			moved = moved || x != 1
		}
	}
	if !moved {
		t.Fatal("training left every weight at 1: the round trip checks nothing")
	}
	sameVectors(t, got, want)
	if d := enc.(interface{ Describe() string }).Describe(); !strings.Contains(d, "kept epoch") || !strings.Contains(d, "centred on its corpus") {
		t.Errorf("loaded Describe %q: want the training and the centring", d)
	}
	// The same channels under another centring: the weights must not load.
	st["center_by"], st["group_weight"] = "global", "0"
	other, err := sv.NewEncoder(NameNgramMetric, sv.EncoderOptions{Settings: st})
	if err != nil {
		t.Fatal(err)
	}
	if err := other.(sv.Fitter).Fit(ctx, texts); err == nil || !strings.Contains(err.Error(), "center_by=corpus") {
		t.Errorf("corpus-centred weights into a globally centred encoder: %v, want an error naming the training's center_by", err)
	}
}

// sameVectors fails unless got and want are the same set vectors bit for
// bit (a loaded encoder against the trained one).
func sameVectors(t *testing.T, got, want [][]float32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d vectors, trained %d", len(got), len(want))
	}
	for i := range want {
		if len(got[i]) != len(want[i]) {
			t.Fatalf("set %d: %d entries, trained %d", i, len(got[i]), len(want[i]))
		}
		for d := range want[i] {
			if math.Float32bits(got[i][d]) != math.Float32bits(want[i][d]) {
				t.Fatalf("set %d entry %d: %v, trained %v", i, d, got[i][d], want[i][d])
			}
		}
	}
}

// checkTrainerMatchesEncoder checks that the similarity training optimises
// is the encoder's: for the dev pairs of c, the trainer's mixed cosine at
// m's weights (group term included) equals the dot product of the
// pair's EncodeSets vectors, and pairs of one and of two predicted
// corpora are among them.
func checkTrainerMatchesEncoder(t *testing.T, m *ngramMetric, c *pairs.PairCorpus) {
	t.Helper()
	ctx := context.Background()
	tr, _, dev, err := m.trainer(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	w := make([][]float64, len(m.chans))
	for ci, ch := range m.chans {
		w[ci] = make([]float64, len(ch.w))
		for i, x := range ch.w {
			w[ci][i] = float64(x)
		}
	}
	tr.refresh(w)
	same, cross := 0, 0
	for i, p := range c.Dev {
		v, err := m.EncodeSets(ctx, [][]string{c.Sets[p.A].Texts, c.Sets[p.B].Texts}, nil)
		if err != nil {
			t.Fatal(err)
		}
		var want float64
		for d := range v[0] {
			want += float64(v[0][d]) * float64(v[1][d])
		}
		mp := dev[i] // the trainer keeps c.Dev's order
		if got := tr.cos(mp); math.Abs(got-want) > 1e-5 {
			t.Errorf("dev pair %s: trainer cosine %.6f, encoder's %.6f", p.ID, got, want)
		}
		if tr.group[mp.a] == tr.group[mp.b] {
			same++
		} else {
			cross++
		}
	}
	if same == 0 || cross == 0 {
		t.Errorf("dev pairs: %d of one predicted corpus, %d of two: want both", same, cross)
	}
}

// TestSourceNBProfile checks the group channel's vectors: with
// temperature 0 the one-hot of predict; with a temperature, unit vectors
// whose dot product is near 1 for two sets surely of one corpus, near 0
// for sets surely of two, and in between for a set of words no corpus
// has more than another (text the model cannot place).
func TestSourceNBProfile(t *testing.T) {
	texts := []string{"coffee ross rachel perk the", "coffee joey central the", "physics sheldon comic the", "penny physics couch the"}
	groups := []string{"friends", "friends", "tbbt", "tbbt"}
	m := fitSourceNB(texts, groups)
	dot := func(a, b []float64) float64 {
		var d, na, nb float64
		for k := range a {
			d, na, nb = d+a[k]*b[k], na+a[k]*a[k], nb+b[k]*b[k]
		}
		if math.Abs(na-1) > 1e-9 || math.Abs(nb-1) > 1e-9 {
			t.Fatalf("profiles not unit: %v %v", a, b)
		}
		return d
	}
	fr := []string{"coffee ross rachel joey perk central coffee"}
	tb := []string{"physics sheldon penny comic couch physics"}
	neutral := []string{"the the the"}
	if p := m.profile(fr, 0); p[m.predict(fr)] != 1 || dot(p, p) != 1 {
		t.Errorf("temperature 0: %v, want the one-hot of %d", p, m.predict(fr))
	}
	if d := dot(m.profile(fr, 0), m.profile(tb, 0)); d != 0 {
		t.Errorf("temperature 0, two corpora: dot %g, want 0", d)
	}
	const tau = 5
	if d := dot(m.profile(fr, tau), m.profile(fr, tau)); math.Abs(d-1) > 1e-9 {
		t.Errorf("one set with itself: %g", d)
	}
	if d := dot(m.profile(fr, tau), m.profile(tb, tau)); d > 0.05 {
		t.Errorf("sure of two corpora: dot %g, want near 0", d)
	}
	d := dot(m.profile(fr, tau), m.profile(neutral, tau))
	if d < 0.5 || d > 0.95 {
		t.Errorf("a set the model cannot place against a sure one: dot %g, want in between", d)
	}
	if p := m.profile(nil, tau); math.Abs(p[0]-p[1]) > 1e-12 {
		t.Errorf("no words: %v, want uniform", p)
	}
}
