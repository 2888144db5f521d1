package baseline

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/sv"
)

// styleCorpus builds a small pair corpus in which each speaker has a
// verbal tic and each conversation a topic word: training pairs of every
// level, and dev pairs of other sets.
func styleCorpus(seed uint64) *pairs.PairCorpus {
	rng := rand.New(rand.NewPCG(seed, 7))
	tics := []string{"indeed", "lol", "well well", "okay so", "hmm!", "ya know"}
	topics := []string{"coffee", "dragons", "taxes", "the sea", "football", "castles", "music", "rain"}
	filler := []string{"I think", "we should", "go to", "the", "and then", "maybe", "it was", "you see"}
	c := &pairs.PairCorpus{Sets: map[string]*pairs.UtteranceSet{}}
	var ids []string
	for sp := range tics {
		for conv := range 4 {
			id := fmt.Sprintf("s%d-c%d", sp, conv)
			topic := topics[(sp+conv)%len(topics)]
			set := &pairs.UtteranceSet{ID: id, Source: fmt.Sprintf("src%d", sp%2), ConversationID: fmt.Sprintf("conv%d", conv), Speaker: fmt.Sprint(sp)}
			for range 5 {
				u := []string{tics[sp]}
				for range 4 {
					u = append(u, filler[rng.IntN(len(filler))])
				}
				u = append(u, topic)
				if rng.IntN(2) == 0 {
					u = append(u, topic)
				}
				set.Texts = append(set.Texts, strings.Join(u, " ")+".")
			}
			c.Sets[id] = set
			ids = append(ids, id)
		}
	}
	var train, dev []pairs.Pair
	for i, a := range ids {
		for j, b := range ids[i+1:] {
			p := pairs.Pair{ID: fmt.Sprintf("p%d-%d", i, j), A: a, B: b}
			if c.Sets[a].Speaker == c.Sets[b].Speaker {
				p.Label = 1
			}
			if strings.HasSuffix(a, "-c3") || strings.HasSuffix(b, "-c3") {
				dev = append(dev, p)
			} else {
				train = append(train, p)
			}
		}
	}
	c.Train, c.Dev = train, dev
	return c
}

// trainTextsOf returns the texts of every set.
func trainTextsOf(c *pairs.PairCorpus) []string {
	var out []string
	for _, p := range c.Train {
		out = append(out, c.Sets[p.A].Texts...)
	}
	return out
}

func newTestMetric(t *testing.T, opts NgramMetricOptions, seed int64, dir string) *ngramMetric {
	t.Helper()
	f, err := NewNgramMetric(opts, seed, dir, func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	return f.(*ngramMetric)
}

func testMetricOptions() NgramMetricOptions {
	o := DefaultNgramMetricOptions()
	o.MinDF = 1
	o.MaxFeatures = 3000
	o.TopicMask = 20
	o.Epochs = 3
	o.Patience = 3
	o.BatchSize = 16
	o.LearningRate = 0.05
	return o
}

func TestNgramMetricUntrainedIsTFIDF(t *testing.T) {
	ctx := context.Background()
	c := styleCorpus(1)
	texts := trainTextsOf(c)
	o := testMetricOptions()
	o.TopicMask = 0
	m := newTestMetric(t, o, 1, "")
	tf, err := NewTFIDF(o.tfidf(0))
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Fit(ctx, texts); err != nil {
		t.Fatal(err)
	}
	if err := tf.Fit(ctx, texts); err != nil {
		t.Fatal(err)
	}
	sets := [][]string{c.Sets["s0-c0"].Texts, c.Sets["s3-c2"].Texts, {"Who is there?"}}
	got, err := m.EncodeSets(ctx, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := tf.(sv.SetEncoder).EncodeSets(ctx, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range sets {
		if len(got[i]) != len(want[i]) {
			t.Fatalf("set %d: dim %d, tfidf %d", i, len(got[i]), len(want[i]))
		}
		for d := range want[i] {
			if math.Float32bits(got[i][d]) != math.Float32bits(want[i][d]) {
				t.Fatalf("set %d dim %d: %v, tfidf %v", i, d, got[i][d], want[i][d])
			}
		}
	}
}

// trainedWeights trains a fresh encoder and returns its weights.
func trainedWeights(t *testing.T, o NgramMetricOptions, seed int64) [][]float32 {
	t.Helper()
	ctx := context.Background()
	c := styleCorpus(2)
	m := newTestMetric(t, o, seed, "")
	if o.CenterBy == centerCorpus {
		fitSources(t, m, c)
	} else if err := m.Fit(ctx, trainTextsOf(c)); err != nil {
		t.Fatal(err)
	}
	if err := m.Train(ctx, c, nil); err != nil {
		t.Fatal(err)
	}
	var out [][]float32
	for _, ch := range m.chans {
		out = append(out, ch.w)
	}
	return out
}

func TestNgramMetricTrainDeterministic(t *testing.T) {
	o := testMetricOptions()
	o.Threads = 1
	a := trainedWeights(t, o, 5)
	o.Threads = 4
	b := trainedWeights(t, o, 5)
	c := trainedWeights(t, o, 6)
	checkDeterministicWeights(t, a, b, c)
}

// checkDeterministicWeights checks trained weights a (1 thread) and b (4
// threads, same seed) are bit-identical, moved from 1, and differ from c
// (another seed).
func checkDeterministicWeights(t *testing.T, a, b, c [][]float32) {
	t.Helper()
	moved, differs := false, false
	for ci := range a {
		for i := range a[ci] {
			if math.Float32bits(a[ci][i]) != math.Float32bits(b[ci][i]) {
				t.Fatalf("channel %d weight %d: %v with 1 thread, %v with 4", ci, i, a[ci][i], b[ci][i])
			}
			if a[ci][i] != 1 {
				moved = true
			}
			if a[ci][i] != c[ci][i] {
				differs = true
			}
		}
	}
	if !moved {
		t.Fatal("training left every weight at 1")
	}
	if !differs {
		t.Error("seeds 5 and 6 gave the same weights: the seed does not reach the training order")
	}
}

func TestNgramMetricTrainingHelpsDev(t *testing.T) {
	ctx := context.Background()
	c := styleCorpus(3)
	o := testMetricOptions()
	m := newTestMetric(t, o, 1, "")
	if err := m.Fit(ctx, trainTextsOf(c)); err != nil {
		t.Fatal(err)
	}
	tr, _, dev, err := m.trainer(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	w := make([][]float64, len(m.chans))
	for ci, ch := range m.chans {
		w[ci] = make([]float64, len(ch.w))
		for i := range w[ci] {
			w[ci][i] = 1
		}
	}
	tr.refresh(w)
	before := tr.devAUC(dev)
	if err := m.Train(ctx, c, nil); err != nil {
		t.Fatal(err)
	}
	for ci, ch := range m.chans {
		for i, x := range ch.w {
			w[ci][i] = float64(x)
		}
	}
	tr.refresh(w)
	after := tr.devAUC(dev)
	if after < before {
		t.Errorf("dev AUC %.4f after training, %.4f before: the kept epoch must not be worse on dev", after, before)
	}
	if !strings.Contains(m.Describe(), "kept epoch") {
		t.Errorf("Describe %q does not report the training", m.Describe())
	}
}

func TestNgramMetricGradientMatchesFiniteDifferences(t *testing.T) {
	ctx := context.Background()
	c := styleCorpus(4)
	o := testMetricOptions()
	o.Margin = 1.5 // every negative inside the margin: the loss is smooth at every pair
	o.HardWeight = 2
	o.Rank = 4
	m := newTestMetric(t, o, 1, "")
	if err := m.Fit(ctx, trainTextsOf(c)); err != nil {
		t.Fatal(err)
	}
	checkMetricGradient(t, m, c)
}

// checkMetricGradient compares the gradient of the loss of 40 training
// pairs of c, at random weights of the fitted m, w.r.t. the channels'
// weights (the largest entry and random ones, mostly off the batch's
// supports) and the projection (if any), with central finite
// differences; it returns the trainer and the batch.
func checkMetricGradient(t *testing.T, m *ngramMetric, c *pairs.PairCorpus) (*metricTrainer, []metricPair) {
	t.Helper()
	tr, train, _, err := m.trainer(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 9))
	w := make([][]float64, len(m.chans))
	for ci, ch := range m.chans {
		w[ci] = make([]float64, len(ch.w))
		for i := range w[ci] {
			w[ci][i] = 0.5 + rng.Float64()
		}
	}
	batch := train[:40]
	var pg, pgrad []float64
	if tr.proj != nil {
		pg, pgrad = make([]float64, len(tr.proj.p)), make([]float64, len(tr.proj.p))
	}
	loss := func() float64 {
		g := make([][]float64, len(w))
		for ci := range w {
			g[ci] = make([]float64, len(w[ci]))
		}
		tr.refresh(w)
		return tr.lossGrad(batch, g, pg, 2)
	}
	grad := make([][]float64, len(w))
	for ci := range w {
		grad[ci] = make([]float64, len(w[ci]))
	}
	tr.refresh(w)
	tr.lossGrad(batch, grad, pgrad, 2)
	const h = 1e-6
	check := func(what string, x *float64, g float64) {
		old := *x
		*x = old + h
		lp := loss()
		*x = old - h
		lm := loss()
		*x = old
		fd := (lp - lm) / (2 * h)
		if d := math.Abs(fd - g); d > 1e-6+1e-4*math.Abs(fd) {
			t.Errorf("%s: gradient %.9g, finite difference %.9g", what, g, fd)
		}
	}
	largest := func(g []float64) int {
		best := 0
		for i := range g {
			if math.Abs(g[i]) > math.Abs(g[best]) {
				best = i
			}
		}
		return best
	}
	for ci := range w {
		// The largest gradient and random features (mostly off the
		// batch's supports, where only the dense mean term acts).
		idx := []int{largest(grad[ci])}
		for range 12 {
			idx = append(idx, rng.IntN(len(w[ci])))
		}
		for _, i := range idx {
			check(fmt.Sprintf("channel %d (%s) feature %d", ci, m.chans[ci].name, i), &w[ci][i], grad[ci][i])
		}
		if grad[ci][largest(grad[ci])] == 0 {
			t.Fatalf("channel %d: zero gradients: nothing was checked", ci)
		}
	}
	if tr.proj != nil {
		idx := []int{largest(pgrad)}
		for range 12 {
			idx = append(idx, rng.IntN(len(pgrad)))
		}
		for _, i := range idx {
			check(fmt.Sprintf("projection entry %d", i), &tr.proj.p[i], pgrad[i])
		}
		if pgrad[largest(pgrad)] == 0 {
			t.Fatal("zero projection gradients: nothing was checked")
		}
	}
	return tr, batch
}

func TestNgramMetricWeightsRoundTrip(t *testing.T) {
	ctx := context.Background()
	c := styleCorpus(5)
	texts := trainTextsOf(c)
	dir := t.TempDir()
	work := filepath.Join(dir, "work")
	o := testMetricOptions()
	o.Rank = 3
	m := newTestMetric(t, o, 3, work)
	if err := m.Fit(ctx, texts); err != nil {
		t.Fatal(err)
	}
	if err := m.Train(ctx, c, nil); err != nil {
		t.Fatal(err)
	}
	sets := [][]string{c.Sets["s1-c0"].Texts, c.Sets["s4-c3"].Texts}
	want, err := m.EncodeSets(ctx, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	files, settings, err := m.ExportBundle(dir, "part1-ngram-metric_ft", map[string]string{"weights": "x", "topic_mask": "20"})
	if err != nil {
		t.Fatal(err)
	}
	if settings["weights"] != "" || settings["topic_mask"] != "20" || files["weights"] == "" {
		t.Fatalf("ExportBundle: files %v, settings %v", files, settings)
	}
	for _, path := range []string{filepath.Join(dir, files["weights"]), filepath.Join(work, "checkpoints")} {
		st := map[string]string{"weights": path, "min_df": "1", "max_features": "3000", "topic_mask": "20", "rank": "3"}
		enc, err := sv.NewEncoder(NameNgramMetric, sv.EncoderOptions{Settings: st})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := enc.Encode(ctx, []string{"x"}, nil); err == nil {
			t.Error("Encode before Fit: want an error")
		}
		if err := enc.(sv.Fitter).Fit(ctx, texts); err != nil {
			t.Fatal(err)
		}
		got, err := enc.(sv.SetEncoder).EncodeSets(ctx, sets, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			for d := range want[i] {
				if math.Float32bits(got[i][d]) != math.Float32bits(want[i][d]) {
					t.Fatalf("%s: set %d dim %d: %v, trained %v", path, i, d, got[i][d], want[i][d])
				}
			}
		}
		// Fitted on other texts, the features differ: an error, not misaligned weights.
		other, _ := sv.NewEncoder(NameNgramMetric, sv.EncoderOptions{Settings: st})
		if err := other.(sv.Fitter).Fit(ctx, []string{"completely different words here", "and here too"}); err == nil || !strings.Contains(err.Error(), "other features") {
			t.Errorf("fit on other texts: %v, want a features mismatch error", err)
		}
	}
	if _, err := sv.NewEncoder(NameNgramMetric, sv.EncoderOptions{Settings: map[string]string{"weights": filepath.Join(dir, "missing.json")}}); err == nil {
		t.Error("missing weights file: want an error")
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.json"), []byte(`{"format":"other"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := sv.NewEncoder(NameNgramMetric, sv.EncoderOptions{Settings: map[string]string{"weights": filepath.Join(dir, "bad.json")}}); err == nil || !strings.Contains(err.Error(), "format") {
		t.Errorf("foreign weights file: %v, want a format error", err)
	}
}

func TestTopicMask(t *testing.T) {
	m, err := fitTopicMask(context.Background(), []string{"the cat and the dog", "The end, and the rest"}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(m.Words(), ","); got != "and,the" {
		t.Fatalf("kept words %q, want and,the", got)
	}
	if got, want := m.apply("The Dragon and 42 cats!"), "The ^***** and ## ****!"; got != want {
		t.Errorf("apply: %q, want %q", got, want)
	}
	to := DefaultTFIDFOptions()
	to.MinDF, to.TopicMask = 1, 2
	tf, _ := NewTFIDF(to)
	if err := tf.Fit(context.Background(), []string{"the cat and the dog", "the end and the rest"}); err != nil {
		t.Fatal(err)
	}
	vocab := strings.Join(tf.(*tfidfEncoder).Vocabulary(), "|")
	for _, piece := range []string{"ca", "og", "es", "en"} {
		if strings.Contains(vocab, piece) {
			t.Errorf("masked vocabulary holds %q, a piece of a masked word: %s", piece, vocab)
		}
	}
	if !strings.Contains(vocab, " ***") || !strings.Contains(vocab, "the") {
		t.Errorf("masked vocabulary %s: want shapes (\" ***\") and kept words (\"the\")", vocab)
	}
}
