package baseline

import (
	"context"
	"math"
	"testing"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/sv"
)

func TestLSMFormula(t *testing.T) {
	a := []float32{0.1, 0.2, 0, 0, 0, 0, 0, 0, 0}
	// Identical rates: every category scores 1 (0/(0+ε) = 0 for absent ones).
	if got := LSM(a, a); math.Abs(got-1) > 1e-6 {
		t.Errorf("LSM(a, a) = %v, want 1", got)
	}
	// Hand-worked: p1 = .10 vs p2 = .30 → 1 − .2/.4 = .5; .2 vs .2 → 1;
	// .1 vs 0 → 1 − .1/.1 ≈ 0; six categories absent on both sides → 1.
	b1 := []float32{0.1, 0.2, 0.1, 0, 0, 0, 0, 0, 0}
	b2 := []float32{0.3, 0.2, 0, 0, 0, 0, 0, 0, 0}
	want := (0.5 + 1 + 0 + 6) / 9
	if got := LSM(b1, b2); math.Abs(got-want) > 1e-4 {
		t.Errorf("LSM = %v, want %v", got, want)
	}
}

func TestLSMEncoderScoresWholeSets(t *testing.T) {
	ctx := context.Background()
	enc := NewLSM()
	if _, ok := enc.(sv.SetEncoder); !ok {
		t.Fatal("lsm is not a SetEncoder")
	}
	sets := []*pairs.UtteranceSet{
		{ID: "a", Texts: []string{"I am not sure.", "The cat and the dog."}},
		{ID: "b", Texts: []string{"I am not sure.", "The cat and the dog."}},
		{ID: "c", Texts: []string{"Go away now", "Run fast, quick"}},
	}
	emb, err := sv.EmbedSets(ctx, enc, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Rates are over the whole set: 9 words, 2 articles.
	if got := emb["a"][2]; math.Abs(float64(got)-2.0/9) > 1e-6 {
		t.Errorf("article rate of set a = %v, want 2/9", got)
	}
	same := sv.ScorePair(enc, emb["a"], emb["b"])
	diff := sv.ScorePair(enc, emb["a"], emb["c"])
	if math.Abs(same-1) > 1e-6 || !(diff < same) {
		t.Errorf("LSM same-style %v, different-style %v", same, diff)
	}
}
