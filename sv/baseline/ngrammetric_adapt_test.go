package baseline

import (
	"context"
	"math"
	"strings"
	"testing"
)

// TestNgramMetricAdapt checks domain adaptation on a trained,
// corpus-centred metric: the vocabularies are refitted on the new texts
// (a set of all of them centres to 0 in every channel), every n-gram the
// training saw keeps its trained weight and a new one gets 1, the group
// channel leaves the vector, and a second Adapt starts from the trained
// weights again.
func TestNgramMetricAdapt(t *testing.T) {
	ctx := context.Background()
	c := styleCorpus(7)
	o := corpusMetricOptions()
	o.WordWeight, o.GroupWeight = 1, 1
	o.AdaptKeep = 1 // the trained weights kept whole; shares below 1 at the end
	m := newTestMetric(t, o, 3, t.TempDir())
	fitSources(t, m, c)
	if err := m.Train(ctx, c, nil); err != nil {
		t.Fatal(err)
	}
	trained := make([]map[string]float32, len(m.chans))
	moved := 0
	for ci, ch := range m.chans {
		trained[ci] = map[string]float32{}
		for i, g := range ch.tf.Vocabulary() {
			trained[ci][g] = ch.w[i]
			if ch.w[i] != 1 {
				moved++
			}
		}
	}
	if moved == 0 {
		t.Fatal("training left every weight at 1: the test checks nothing")
	}
	if got, want := m.Dim(), dimOfChannels(m)+len(m.groups.nb.names); got != want {
		t.Fatalf("trained Dim %d, want the channels' and the group channel's %d", got, want)
	}
	// A new domain: the training texts with new words mixed in.
	var domain []string
	for i, s := range trainTextsOf(c) {
		if i%3 == 0 {
			domain = append(domain, s+" zebra quokka narwhal")
		} else {
			domain = append(domain, s)
		}
	}
	if err := m.Adapt(ctx, domain); err != nil {
		t.Fatal(err)
	}
	if got, want := m.Dim(), dimOfChannels(m); got != want {
		t.Errorf("adapted Dim %d, want the channels' %d (no group channel)", got, want)
	}
	kept, fresh := 0, 0
	for ci, ch := range m.chans {
		for i, g := range ch.tf.Vocabulary() {
			w, ok := trained[ci][g]
			switch {
			case ok && ch.w[i] != w:
				t.Fatalf("channel %s n-gram %q: weight %v, trained %v", ch.name, g, ch.w[i], w)
			case !ok && ch.w[i] != 1:
				t.Fatalf("channel %s new n-gram %q: weight %v, want 1", ch.name, g, ch.w[i])
			case ok:
				kept++
			default:
				fresh++
			}
		}
	}
	if kept == 0 || fresh == 0 {
		t.Fatalf("%d kept and %d new features: the domain should have both", kept, fresh)
	}
	vecs, err := m.EncodeSets(ctx, [][]string{domain, domain[:5]}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(vecs[0]) != m.Dim() {
		t.Fatalf("vector of %d, Dim %d", len(vecs[0]), m.Dim())
	}
	for ci, ch := range m.chans {
		raw, err := m.adaptedSets(ctx, ci, [][]string{domain})
		if err != nil {
			t.Fatal(err)
		}
		for d, x := range raw[0] {
			if math.Abs(float64(x)) > 1e-5 {
				t.Fatalf("channel %s: the set of every adapted text: dim %d = %v, want 0 (centred on their mean)", ch.name, d, x)
			}
		}
	}
	// Adapting again (to the training texts) uses the trained weights, not
	// those of the first adaptation.
	if err := m.Adapt(ctx, trainTextsOf(c)); err != nil {
		t.Fatal(err)
	}
	for ci, ch := range m.chans {
		for i, g := range ch.tf.Vocabulary() {
			if w, ok := trained[ci][g]; ok && ch.w[i] != w {
				t.Fatalf("second Adapt: channel %s n-gram %q weight %v, trained %v", ch.name, g, ch.w[i], w)
			}
		}
	}
	if err := m.Adapt(ctx, nil); err == nil || !strings.Contains(err.Error(), "no texts") {
		t.Errorf("Adapt(nil): %v, want an error", err)
	}

	// adapt_keep shrinks every trained weight toward 1 (the untrained
	// weight): 0.5 halfway, 0 all the way.
	for _, keep := range []float64{0.5, 0} {
		m.opts.AdaptKeep = keep
		if err := m.Adapt(ctx, domain); err != nil {
			t.Fatal(err)
		}
		for ci, ch := range m.chans {
			for i, g := range ch.tf.Vocabulary() {
				want := float32(1)
				if w, ok := trained[ci][g]; ok {
					want = float32(1 + keep*(float64(w)-1))
				}
				if math.Abs(float64(ch.w[i]-want)) > 1e-6 {
					t.Fatalf("adapt_keep=%v: channel %s n-gram %q weight %v, want %v", keep, ch.name, g, ch.w[i], want)
				}
			}
		}
	}
}

// dimOfChannels is the sum of m's channel dimensions.
func dimOfChannels(m *ngramMetric) int {
	n := 0
	for _, ch := range m.chans {
		n += ch.tf.Dim()
	}
	return n
}

// TestNgramMetricAdaptRefuses checks the encoders Adapt cannot serve: an
// unfitted one and one with a projection tied to its vocabulary.
func TestNgramMetricAdaptRefuses(t *testing.T) {
	ctx := context.Background()
	o := testMetricOptions()
	if err := newTestMetric(t, o, 1, "").Adapt(ctx, []string{"a b"}); err == nil {
		t.Error("Adapt before Fit: no error")
	}
	o.Rank = 2
	m := newTestMetric(t, o, 1, "")
	if err := m.Fit(ctx, trainTextsOf(styleCorpus(1))); err != nil {
		t.Fatal(err)
	}
	if err := m.Adapt(ctx, []string{"a b c d"}); err == nil || !strings.Contains(err.Error(), "rank") {
		t.Errorf("Adapt with rank 2: %v, want an error naming rank", err)
	}
}
