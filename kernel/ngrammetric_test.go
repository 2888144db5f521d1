package kernel

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/sv/table2"
)

// TestNgramMetricWeightsOfARun runs notebook 03's first run in quick mode
// and reads the default fine-tuned row's weights and training curve back
// from the run's training folder; weights trained by another run are an
// error.
func TestNgramMetricWeightsOfARun(t *testing.T) {
	if testing.Short() {
		t.Skip("trains ngram-metric_ft on the embedded corpus")
	}
	nb, _, _, _ := testNotebook(t, false)
	nb.Dir, nb.Quick = filepath.Join(nb.Dir, "03-a"), true
	res, err := nb.RunTable2(context.Background(), Table2NgramMetric)
	if err != nil {
		t.Fatal(err)
	}
	row := Table2NgramMetric.Encoders[2]
	w, err := nb.NgramMetricWeights(res, row, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Curve) < 2 || w.Curve[0].Epoch != 0 || w.Curve[w.BestEpoch].DevAUC != w.DevAUC {
		t.Errorf("curve %+v, kept epoch %d dev AUC %g", w.Curve, w.BestEpoch, w.DevAUC)
	}
	if want := []string{"char", "masked", "word"}; len(w.Channels) != len(want) {
		t.Errorf("%d channels, want %v (the preset's word_weight=1 adds the word channel)", len(w.Channels), want)
	}
	most, least, err := w.TopWeights(3)
	if err != nil || len(most) != 3*len(w.Channels) || most[0].Weight < least[0].Weight {
		t.Fatalf("TopWeights: %v, most %v, least %v", err, most, least)
	}
	if _, err := nb.NgramMetricWeights(res, row, 2); err == nil {
		t.Error("round 2 of a one-round run: want an error")
	}

	// Another run overwrites the training folder: the row no longer matches.
	var f map[string]any
	b, err := os.ReadFile(w.Path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	f["trained"] = "trained by another run"
	if b, err = json.Marshal(f); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(w.Path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := nb.NgramMetricWeights(res, row, 1); err == nil || !strings.Contains(err.Error(), FreshEnv) {
		t.Errorf("weights of another run: error %v, want one naming %s", err, FreshEnv)
	}
}

func TestRowSettingsShowThePresetsRecipe(t *testing.T) {
	cfg := table2.DefaultConfig()
	p, err := table2.PresetNamed(table2.DefaultPreset)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Apply(&cfg, nil); err != nil {
		t.Fatal(err)
	}
	rows, err := RowSettings(cfg, "ngram-metric_ft")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]RowSetting{}
	for _, r := range rows {
		got[r.Key] = r
	}
	// ngramMetricFTSettings: center_by=corpus, hard_weight=3, cohort=150.
	for key, want := range map[string]string{"center_by": "corpus", "hard_weight": "3", "cohort": "150"} {
		if r := got[key]; r.Value != want || !r.Changed || r.Default == want || r.Doc == "" {
			t.Errorf("%s: %+v, want value %s changed from the default, with a doc", key, r, want)
		}
	}
	if r := got["margin"]; r.Changed || r.Value != r.Default {
		t.Errorf("margin: %+v, want the default, unchanged", r)
	}
}
