package roleplay

import (
	"context"
	"slices"
	"testing"
)

// The AUC interval resamples roles, not pairs: two roles whose many pairs
// disagree give an interval spanning nearly [0, 1] (a pair bootstrap
// would give ≈ 0.5 ± 0.02), and roles that all separate give [1, 1].
func TestAUCIntervalResamplesRoles(t *testing.T) {
	cfg, err := DefaultConfig().resolve()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Bootstrap = 400
	var split, clean clusteredPairs
	for range 500 {
		split.add(1, true, 0, 0)
		split.add(0, false, 0, 0)
		split.add(0, true, 1, 1)
		split.add(1, false, 1, 1)
		for k := range 3 {
			clean.add(1, true, k, k)
			clean.add(0, false, k, (k+1)%3)
		}
	}
	ci, _, err := split.aucInterval(context.Background(), 2, cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !(ci[0] < 0.1 && ci[1] > 0.9) {
		t.Errorf("disagreeing roles: interval %v, want about [0, 1]", ci)
	}
	ci, _, err = clean.aucInterval(context.Background(), 3, cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	if ci[0] != 1 || ci[1] != 1 {
		t.Errorf("separating roles: interval %v, want [1, 1]", ci)
	}
	if ci, _, _ := clean.aucInterval(context.Background(), 1, cfg, 1); ci.Defined() {
		t.Errorf("one role: interval %v, want undefined", ci)
	}
	cfg.Bootstrap = 0
	if ci, _, _ := clean.aucInterval(context.Background(), 3, cfg, 1); ci.Defined() {
		t.Errorf("no replicates: interval %v, want undefined", ci)
	}
}

func TestPairWeights(t *testing.T) {
	cl := [][2]int{{0, 0}, {0, 2}, {2, 0}, {1, 2}, {2, 2}}
	got := pairWeights(cl, []float64{2, 0, 1})
	if want := []float64{4, 2, 2, 0, 1}; !slices.Equal(got, want) {
		t.Errorf("weights %v, want %v", got, want)
	}
}
