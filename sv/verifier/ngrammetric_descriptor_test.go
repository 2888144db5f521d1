package verifier

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/sv"
)

// TestSaveLoadNgramMetricDescriptor saves a bundle of ngram-metric_ft with
// descriptor weights (weight_by=descriptor) and checks that the loaded
// bundle gives the trained encoder's set vectors bit for bit, and, adapted
// to texts it never saw, the trained encoder's adapted vectors: the class
// weights travel in the bundle and are reapplied to the new features.
func TestSaveLoadNgramMetricDescriptor(t *testing.T) {
	ctx := context.Background()
	c := tinyCorpus(3)
	settings := map[string]string{"min_df": "1", "max_features": "2000", "topic_mask": "8", "epochs": "3", "batch_size": "8", "lr": "0.05",
		"weight_by": "descriptor", "descriptor_buckets": "4"}
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
	if _, err := Save(dir, SaveOptions{Name: "ngram-metric_ft", FitTexts: fit, DevCosines: cos, DevLabels: labels, Manifest: map[string]any{},
		Parts: []SavePart{{Row: "ngram-metric_ft", Encoder: enc, Settings: settings, Seed: 4, Weight: 1}}}); err != nil {
		t.Fatal(err)
	}
	v, err := Load(ctx, dir, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	sets := []*pairs.UtteranceSet{c.Sets["s0-0"], c.Sets["s3-2"], c.Sets["s5-1"]}
	same := func(what string, want, got map[string][]float32) {
		t.Helper()
		for _, s := range sets {
			if len(want[s.ID]) != len(got[s.ID]) {
				t.Fatalf("%s: set %s: %d dims, want %d", what, s.ID, len(got[s.ID]), len(want[s.ID]))
			}
			for d := range want[s.ID] {
				if math.Float32bits(want[s.ID][d]) != math.Float32bits(got[s.ID][d]) {
					t.Fatalf("%s: set %s dim %d: trained %v, loaded %v", what, s.ID, d, want[s.ID][d], got[s.ID][d])
				}
			}
		}
	}
	embed := func(e sv.Encoder) map[string][]float32 {
		t.Helper()
		out, err := sv.EmbedSets(ctx, e, sets, nil)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	same("as saved", embed(enc), embed(v.enc.parts[0]))
	domain := []string{"Who goes there? Friend, or foe!", "Hmm... the coffee, the coffee; again?", "Okay so, well well: I think not.", "Indeed. Indeed!"}
	for _, e := range []sv.Encoder{enc, v.enc.parts[0]} {
		if err := e.(sv.Adapter).Adapt(ctx, domain); err != nil {
			t.Fatal(err)
		}
	}
	trained := embed(enc)
	same("adapted", trained, embed(v.enc.parts[0]))
	untrained, err := sv.NewEncoder("ngram-metric_ft", sv.EncoderOptions{Seed: 4, Settings: settings})
	if err != nil {
		t.Fatal(err)
	}
	if err := untrained.(sv.Fitter).Fit(ctx, fit); err != nil {
		t.Fatal(err)
	}
	if err := untrained.(sv.Adapter).Adapt(ctx, domain); err != nil {
		t.Fatal(err)
	}
	base := embed(untrained)
	differs := false
	for _, s := range sets {
		for d := range base[s.ID] {
			differs = differs || base[s.ID][d] != trained[s.ID][d]
		}
	}
	if !differs {
		t.Fatal("adapted trained vectors equal the untrained ones: the test would not see lost class weights")
	}
}
