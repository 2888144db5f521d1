package kernel

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/sv/baseline"
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

func TestCurveFigureAndPoints(t *testing.T) {
	r1 := &baseline.NgramMetricWeights{BestEpoch: 2, Curve: []baseline.NgramMetricEpoch{{Epoch: 0, DevAUC: 0.6}, {Epoch: 1, TrainLoss: 0.5, DevAUC: 0.7}, {Epoch: 2, TrainLoss: 0.4, DevAUC: 0.8}, {Epoch: 3, TrainLoss: 0.3, DevAUC: 0.75}}}
	r2 := &baseline.NgramMetricWeights{BestEpoch: 0, Curve: []baseline.NgramMetricEpoch{{Epoch: 0, DevAUC: 0.65}, {Epoch: 1, TrainLoss: 0.6, DevAUC: 0.6}}}
	pts := CurvePoints([]*baseline.NgramMetricWeights{r1, r2})
	if len(pts) != 6 || pts[4].Round != 2 || !pts[2].Kept || pts[3].Kept || !pts[4].Kept || pts[5].DevAUC != 0.6 {
		t.Errorf("points %+v", pts)
	}
	l, err := CurveFigure([]*baseline.NgramMetricWeights{r1, r2})
	if err != nil {
		t.Fatal(err)
	}
	if l.XLabel == "" || l.YLabel != "Dev AUC" {
		t.Errorf("labels %q, %q", l.XLabel, l.YLabel)
	}
	if _, err := CurveFigure([]*baseline.NgramMetricWeights{r1, {Path: "x.json"}}); err == nil || !strings.Contains(err.Error(), "round 2") {
		t.Errorf("a round without a curve: error %v, want one naming round 2", err)
	}
}

func TestModeSaysQuickOrFull(t *testing.T) {
	nb, _, _, _ := testNotebook(t, false)
	nb.Quick = true
	q := nb.Mode()
	nb.Quick = false
	if f := nb.Mode(); !strings.HasPrefix(q, "quick mode") || !strings.HasPrefix(f, "full run") {
		t.Errorf("quick %q, full %q", q, f)
	}
}

func TestFeatureWeightsTableShowsSpaces(t *testing.T) {
	tab := FeatureWeightsTable("w", []baseline.FeatureWeight{{Channel: "char", Feature: " th", Weight: 1.5}, {Channel: "char", Feature: "th ", Weight: 0.5}})
	md := tab.Markdown()
	if !strings.Contains(md, "␣th") || !strings.Contains(md, "th␣") || !strings.Contains(md, "1.5") {
		t.Errorf("spaces or weights lost:\n%s", md)
	}
}
