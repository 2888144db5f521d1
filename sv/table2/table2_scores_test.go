package table2

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/stats"
)

// TestTestScoresGiveTheCellAUC checks that the kept pair scores and labels
// reproduce each cell's AUC (so a ROC curve drawn from them is the
// table's), also for the fused mixed row and for resumed rounds.
func TestTestScoresGiveTheCellAUC(t *testing.T) {
	cfg := testConfig()
	cfg.Rounds = 1
	cfg.CheckpointDir = t.TempDir()
	for pass := 0; pass < 2; pass++ { // the second pass resumes from checkpoints
		res, err := RunConfig(context.Background(), cfg, fixtureSource(0.3))
		if err != nil {
			t.Fatal(err)
		}
		for _, er := range res.PerRound {
			for _, k := range allTestKeys() {
				s, l, ok := er.TestScores(k)
				if !ok {
					t.Fatalf("pass %d %s %s: no scores", pass, er.Encoder, k)
				}
				if got, want := stats.AUC(s, l), float64(er.Cells[k.String()].AUC); math.Abs(got-want) > 1e-12 {
					t.Errorf("pass %d %s %s: AUC from scores %v, cell %v", pass, er.Encoder, k, got, want)
				}
			}
		}
	}
	// Decoded from JSON: no scores, said so.
	var er EncoderRound
	if err := json.Unmarshal([]byte(`{"encoder":"x"}`), &er); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := er.TestScores(pairs.TestKey{Exposure: pairs.SeenSeen, Level: pairs.Base}); ok {
		t.Error("decoded round claims scores")
	}
}

// TestKeepScoresSurviveJSON checks that with KeepScores a result decoded
// from JSON (a notebook's cache) still gives each cell's AUC from its
// scores, and that without it the report holds no scores.
func TestKeepScoresSurviveJSON(t *testing.T) {
	cfg := testConfig()
	cfg.Rounds = 1
	cfg.KeepScores = true
	res, err := RunConfig(context.Background(), cfg, fixtureSource(0.3))
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var back Result
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	for _, er := range back.PerRound {
		for _, k := range allTestKeys() {
			s, l, ok := er.TestScores(k)
			if !ok {
				t.Fatalf("%s %s: no scores after JSON", er.Encoder, k)
			}
			if got, want := stats.AUC(s, l), float64(er.Cells[k.String()].AUC); math.Abs(got-want) > 1e-12 {
				t.Errorf("%s %s: AUC from decoded scores %v, cell %v", er.Encoder, k, got, want)
			}
		}
	}
	cfg.KeepScores = false
	res, _ = RunConfig(context.Background(), cfg, fixtureSource(0.3))
	if b, _ := json.Marshal(res); strings.Contains(string(b), `"scores"`) {
		t.Error("scores kept without KeepScores")
	}
}
