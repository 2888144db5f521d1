package paperfig

import (
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/sv/table2"
)

func TestRunROCUsesKeptScores(t *testing.T) {
	k := pairs.TestKey{Exposure: pairs.UnseenUnseen, Level: pairs.Base}
	set := table2.TestScoreSet{Scores: []float64{0.9, 0.8, 0.2, 0.1}, Positive: []bool{true, true, false, false}}
	run := &table2.Result{PerRound: []table2.EncoderRound{
		{Round: 1, Encoder: "a", Scores: map[string]table2.TestScoreSet{k.String(): set}},
		{Round: 2, Encoder: "b", Scores: map[string]table2.TestScoreSet{k.String(): set}},
		{Round: 1, Encoder: "c"},
	}}
	roc, err := RunROC(run, k, 1, "c", "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	if roc.Title != "Unseen-Unseen, Base level (round 1)" {
		t.Errorf("title %q", roc.Title)
	}
	if _, err := RunROC(run, k, 1, "c"); err == nil || !strings.Contains(err.Error(), "KeepScores") {
		t.Errorf("no scores: %v", err)
	}
}
