package verifier

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/sv"
)

// TestMixtureAdapt checks that a bundle's mixture adapts the parts that
// are sv.Adapters (ngram-metric) and leaves the others (tfidf) as they
// are: the adapted mixture's vectors are the scaled vectors of an
// ngram-metric adapted on its own beside the unchanged tfidf part.
func TestMixtureAdapt(t *testing.T) {
	ctx := context.Background()
	c := tinyCorpus(3)
	fit := sv.TrainTexts(c, 0)
	settings := map[string]string{"min_df": "1", "max_features": "2000", "topic_mask": "8"}
	newFitted := func(name string) sv.Encoder {
		enc, err := sv.NewEncoder(name, sv.EncoderOptions{Seed: 1, Settings: settings})
		if err != nil {
			t.Fatal(err)
		}
		if err := enc.(sv.Fitter).Fit(ctx, fit); err != nil {
			t.Fatal(err)
		}
		return enc
	}
	inMix, alone, tf := newFitted("ngram-metric"), newFitted("ngram-metric"), newFitted("tfidf")
	m := &mixture{name: "mixed_ft", parts: []sv.Encoder{inMix, tf}, weights: []float64{2, 1}}
	domain := []string{"entirely new words here", "and more new words there", "words words words", "a b c"}
	sets := [][]string{domain[:2], fit[:4], fit[4:9]}
	before, err := m.EncodeSets(ctx, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Adapt(ctx, domain); err != nil {
		t.Fatal(err)
	}
	if err := alone.(sv.Adapter).Adapt(ctx, domain); err != nil {
		t.Fatal(err)
	}
	got, err := m.EncodeSets(ctx, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := alone.(sv.SetEncoder).EncodeSets(ctx, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := tf.(sv.SetEncoder).EncodeSets(ctx, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.Dim() != alone.Dim()+tf.Dim() || len(got[0]) != m.Dim() {
		t.Fatalf("adapted Dim %d, vector %d; parts %d + %d", m.Dim(), len(got[0]), alone.Dim(), tf.Dim())
	}
	for i := range sets {
		want := append(m.scaled(0, a[i]), m.scaled(1, b[i])...)
		for d := range want {
			if math.Abs(float64(got[i][d]-want[d])) > 1e-6 {
				t.Fatalf("set %d dim %d: mixture %v, parts adapted alone %v", i, d, got[i][d], want[d])
			}
		}
	}
	if len(before[1]) == len(got[1]) {
		same := true
		for d := range got[1] {
			same = same && got[1][d] == before[1][d]
		}
		if same {
			t.Error("adaptation changed nothing")
		}
	}
}

// TestMixtureAdaptNeedsAnAdapter checks that a bundle with no part that
// adapts refuses Adapt with an error naming its parts.
func TestMixtureAdaptNeedsAnAdapter(t *testing.T) {
	ctx := context.Background()
	tf, err := sv.NewEncoder("tfidf", sv.EncoderOptions{Settings: map[string]string{"min_df": "1"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := tf.(sv.Fitter).Fit(ctx, sv.TrainTexts(tinyCorpus(3), 0)); err != nil {
		t.Fatal(err)
	}
	m := &mixture{name: "mixed_ft", parts: []sv.Encoder{tf}, weights: []float64{1}}
	if err := m.Adapt(ctx, []string{"a b c"}); err == nil || !strings.Contains(err.Error(), "no part can be adapted") || !strings.Contains(err.Error(), "tfidf") {
		t.Errorf("Adapt of a tfidf-only bundle: %v, want an error naming its parts", err)
	}
}
