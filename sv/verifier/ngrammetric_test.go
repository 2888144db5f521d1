package verifier

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/sv"
)

// TestSaveLoadNgramMetric saves a bundle of a trained ngram-metric_ft
// (weights file + refitted features) and checks that the loaded part gives
// the trained encoder's set vectors bit for bit.
func TestSaveLoadNgramMetric(t *testing.T) {
	ctx := context.Background()
	c := tinyCorpus(3)
	settings := map[string]string{"min_df": "1", "max_features": "2000", "topic_mask": "8", "epochs": "3", "batch_size": "8", "lr": "0.05"}
	enc, err := sv.NewEncoder("ngram-metric_ft", sv.EncoderOptions{Seed: 4, Settings: settings})
	if err != nil {
		t.Fatal(err)
	}
	fit := sv.TrainTexts(c, 0)
	if err := enc.(sv.Fitter).Fit(ctx, fit); err != nil {
		t.Fatal(err)
	}
	if err := enc.(sv.Trainable).Train(ctx, c, nil); err != nil {
		t.Fatal(err)
	}
	m := &mixture{name: "ngram-metric_ft", parts: []sv.Encoder{enc}, weights: []float64{1}}
	cos, labels, err := DevCosines(ctx, m, c)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "verifier")
	spec, err := Save(dir, SaveOptions{Name: "ngram-metric_ft", FitTexts: fit, DevCosines: cos, DevLabels: labels, Manifest: map[string]any{},
		Parts: []SavePart{{Row: "ngram-metric_ft", Encoder: enc, Settings: settings, Seed: 4, Weight: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if p := spec.Parts[0]; p.Files["weights"] == "" || !p.Fit {
		t.Fatalf("part %+v: want a weights file and fit texts", p)
	}
	v, err := Load(ctx, dir, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	sets := []*pairs.UtteranceSet{c.Sets["s0-0"], c.Sets["s3-2"], c.Sets["s5-1"]}
	want, err := sv.EmbedSets(ctx, enc, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := sv.EmbedSets(ctx, v.enc.parts[0], sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	untrained, err := sv.NewEncoder("ngram-metric", sv.EncoderOptions{Settings: settings})
	if err != nil {
		t.Fatal(err)
	}
	if err := untrained.(sv.Fitter).Fit(ctx, fit); err != nil {
		t.Fatal(err)
	}
	base, err := sv.EmbedSets(ctx, untrained, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	differs := false
	for _, s := range sets {
		for d := range want[s.ID] {
			if math.Float32bits(want[s.ID][d]) != math.Float32bits(got[s.ID][d]) {
				t.Fatalf("set %s dim %d: trained %v, loaded %v", s.ID, d, want[s.ID][d], got[s.ID][d])
			}
			if want[s.ID][d] != base[s.ID][d] {
				differs = true
			}
		}
	}
	if !differs {
		t.Fatal("trained vectors equal the untrained ones: the test would not see lost weights")
	}
}
