package sv

import (
	"math"
	"testing"

	"github.com/roleprint/roleprint/data/pairs"
)

// TestPairScores checks that PairScores scores each pair with the cosine
// of its mean-pooled sets and labels it from the pair, and that it names
// an unknown set.
func TestPairScores(t *testing.T) {
	c := &pairs.PairCorpus{Sets: map[string]*pairs.UtteranceSet{
		"a": {ID: "a", Texts: []string{"xx"}},
		"b": {ID: "b", Texts: []string{"x", "xxx"}},
		"c": {ID: "c", Texts: []string{"xxxxxxxxxxxxxxxxxxxx"}},
	}}
	pairList := []pairs.Pair{{ID: "p1", A: "a", B: "b", Label: 1}, {ID: "p2", A: "a", B: "c", Label: 0}}
	enc := &lenEncoder{}
	scores, positive, err := PairScores(t.Context(), enc, c, pairList, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	// a and b both pool to (2, 1): cosine 1; c is (20, 1).
	want2 := (2*20 + 1) / (math.Sqrt(5) * math.Sqrt(401))
	if math.Abs(scores[0]-1) > 1e-6 || math.Abs(scores[1]-want2) > 1e-6 || !positive[0] || positive[1] {
		t.Errorf("scores %v positive %v, want [1 %.6f] [true false]", scores, positive, want2)
	}
	if _, _, err := PairScores(t.Context(), enc, c, []pairs.Pair{{ID: "p3", A: "a", B: "zz"}}, 0, nil); err == nil {
		t.Error("unknown set accepted")
	}
	if _, _, err := PairScores(t.Context(), enc, c, nil, 0, nil); err == nil {
		t.Error("no pairs accepted")
	}
}
