package baseline

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/importers"
	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/sv/table2"
)

// TestSharedCorporaTable2 runs the baselines on the shared corpora
// (Friends HTML, TBBT, AnnoMI, Shakespeare) with capped pairs and one
// round, and checks every encoder gets all nine cells. It skips when
// ../shared is absent. The full acceptance run is `roleprint reproduce`
// on the same corpora (docs/reproduce.md).
func TestSharedCorporaTable2(t *testing.T) {
	if testing.Short() {
		t.Skip("imports the shared corpora")
	}
	ctx := context.Background()
	var utts []data.Utterance
	for _, c := range []struct{ format, dir, file string }{
		{"friends-html", "friends-fangj-html", ""}, {"tbbt", "tbbt", ""},
		{"annomi", "annomi", "AnnoMI-full.csv"}, {"shakespeare-html", "shakespeare-mit", ""},
	} {
		p, ok := data.SharedCorpus(c.dir)
		if !ok {
			t.Skipf("shared corpus %s absent", c.dir)
		}
		if c.file != "" {
			p = filepath.Join(p, c.file)
		}
		res, err := importers.Import(ctx, c.format, []string{p}, importers.Options{})
		if err != nil {
			t.Fatalf("import %s: %v", c.dir, err)
		}
		utts = append(utts, res.Utterances...)
	}
	pc := pairs.DefaultPairConfig()
	pc.MaxTrainPairs, pc.MaxTestPairs, pc.MaxDevPairs = 4000, 300, 300
	cfg := table2.DefaultConfig()
	cfg.Rounds = 1
	cfg.Encoders = []string{"liwc", "lsm", "glove-sif", "tfidf"}
	cfg.Mixed = []string{"liwc", "tfidf"}
	cfg.FitMaxTexts = 8000
	cfg.Settings = map[string]string{"tfidf.max_features": "5000"}
	res, err := table2.RunConfig(ctx, cfg, table2.PairsFrom(utts, pc))
	if err != nil {
		t.Fatal(err)
	}
	cells := map[string]int{}
	auc := map[string]float64{}
	for _, r := range res.Rows {
		if r.Pairs == 0 || math.IsNaN(float64(r.AUCMean)) || math.IsNaN(float64(r.F1Mean)) {
			t.Errorf("%s %s/%s: %d pairs, AUC %v", r.Encoder, r.Exposure, r.Level, r.Pairs, r.AUCMean)
		}
		cells[r.Encoder]++
		if r.Exposure == string(pairs.UnseenUnseen) && r.Level == string(pairs.Base) {
			auc[r.Encoder] = float64(r.AUCMean)
		}
	}
	for _, enc := range append(cfg.Encoders, table2.MixedName) {
		if cells[enc] != 9 && !skipped(res, enc) {
			t.Errorf("%s: %d cells, want 9", enc, cells[enc])
		}
	}
	// Character n-grams separate speakers of different shows and plays:
	// well above chance even on this small sample.
	if auc["tfidf"] < 0.65 {
		t.Errorf("tfidf Unseen-Unseen Base AUC %.3f, want ≥ 0.65", auc["tfidf"])
	}
	t.Logf("Unseen-Unseen Base AUC: %v (%.1f s)", auc, res.Seconds)
}

func skipped(res *table2.Result, enc string) bool {
	for _, s := range res.Skipped {
		if s.Encoder == enc {
			return true
		}
	}
	return false
}
