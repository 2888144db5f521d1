package verifier

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
)

// TestScoredMixtureBundle saves a bundle of an s-norm ngram-metric_ft
// (cohort=3, an sv.PairScorer) and tfidf and checks that the loaded
// verifier scores as mixed_ft fuses: its encoder is a PairScorer whose
// Score, and Verify's result, are the weighted mean of the trained part's
// own score and tfidf's cosine; the loaded part gives the trained vectors
// (with their s-norm statistics) bit for bit; and a bundle of cosine parts
// stays the plain mixture.
func TestScoredMixtureBundle(t *testing.T) {
	ctx := context.Background()
	c := tinyCorpus(5)
	for id, s := range c.Sets {
		s.Source = fmt.Sprintf("show%d", (id[1]-'0')%2)
	}
	settings := map[string]string{"min_df": "1", "max_features": "2000", "topic_mask": "8", "epochs": "3", "batch_size": "8", "lr": "0.05",
		"center_by": "corpus", "group_weight": "1", "group_temperature": "5", "cohort": "3"}
	enc, err := sv.NewEncoder("ngram-metric_ft", sv.EncoderOptions{Seed: 4, Settings: settings})
	if err != nil {
		t.Fatal(err)
	}
	ps, ok := enc.(sv.PairScorer)
	if !ok {
		t.Fatalf("ngram-metric with cohort=3 is %T, want an sv.PairScorer", enc)
	}
	fit, sources := sv.TrainTextSources(c, 0)
	if err := sv.FitWithSources(ctx, enc.(sv.Fitter), fit, sources); err != nil {
		t.Fatal(err)
	}
	if err := enc.(sv.Trainable).Train(ctx, c, nil); err != nil {
		t.Fatal(err)
	}
	tf, err := sv.NewEncoder("tfidf", sv.EncoderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := tf.(sv.Fitter).Fit(ctx, fit); err != nil {
		t.Fatal(err)
	}
	m := &mixture{name: "mixed_ft", parts: []sv.Encoder{enc, tf}, weights: []float64{2, 1}}
	scorer := m.encoder(true)
	cos, labels, err := DevCosines(ctx, scorer, c)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "verifier")
	if _, err := Save(dir, SaveOptions{Name: "mixed_ft", FitTexts: fit, FitSources: sources, DevCosines: cos, DevLabels: labels, Manifest: map[string]any{},
		Parts: []SavePart{{Row: "ngram-metric_ft", Encoder: enc, Settings: settings, Seed: 4, Weight: 2}, {Row: "tfidf", Encoder: tf, Weight: 1}}}); err != nil {
		t.Fatal(err)
	}
	v, err := Load(ctx, dir, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if v.Spec.Scores != ScoresParts {
		t.Errorf("spec scores %q, want %q", v.Spec.Scores, ScoresParts)
	}
	if _, ok := m.encoder(false).(sv.PairScorer); ok {
		t.Error("a bundle saved before Spec.Scores (cosine threshold) must keep the cosine")
	}
	if _, ok := v.Encoder().(sv.PairScorer); !ok {
		t.Fatalf("loaded encoder %T: want a PairScorer (a part scores pairs itself)", v.Encoder())
	}
	a, b := c.Sets["s0-0"], c.Sets["s3-1"]
	sets := []*pairs.UtteranceSet{a, b}
	want, err := sv.EmbedSets(ctx, enc, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := sv.EmbedSets(ctx, v.enc.parts[0], sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sets {
		if len(got[s.ID]) != len(want[s.ID]) || len(want[s.ID]) != enc.Dim() {
			t.Fatalf("set %s: %d entries loaded, %d trained, Dim %d", s.ID, len(got[s.ID]), len(want[s.ID]), enc.Dim())
		}
		for d := range want[s.ID] {
			if math.Float32bits(want[s.ID][d]) != math.Float32bits(got[s.ID][d]) {
				t.Fatalf("set %s entry %d: trained %v, loaded %v", s.ID, d, want[s.ID][d], got[s.ID][d])
			}
		}
	}
	own := ps.Score(want["s0-0"], want["s3-1"])
	if own == stats.Cosine(want["s0-0"], want["s3-1"]) {
		t.Fatal("the part's own score equals its cosine: the test would not see a bundle that ignores it")
	}
	te, err := sv.EmbedSets(ctx, tf, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	fused := (2*own + stats.Cosine(te["s0-0"], te["s3-1"])) / 3
	r, err := v.Verify(ctx, a.Texts, b.Texts)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.Score-fused) > 1e-6*math.Max(1, math.Abs(fused)) {
		t.Errorf("verify score %v, want the weighted mean of the parts' scores %v", r.Score, fused)
	}
	// Role-play's similarity is the calibrated probability of that score.
	sim, ok := v.Similarity().(sv.PairScorer)
	if !ok {
		t.Fatalf("Similarity %T: want a PairScorer", v.Similarity())
	}
	ve, err := sv.EmbedSets(ctx, v.Similarity(), sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p, want := sim.Score(ve["s0-0"], ve["s3-1"]), v.Spec.Calibration.Probability(r.Score); math.Abs(p-want) > 1e-9 || p <= 0 || p >= 1 {
		t.Errorf("role-play similarity %v, want P(same) %v in (0, 1)", p, want)
	}
	// Both scores have a DotForm (role-play's matrix products) that agrees.
	for name, e := range map[string]sv.Encoder{"Encoder": v.Encoder(), "Similarity": v.Similarity()} {
		df, ok := e.(sv.DotFormer)
		if !ok {
			t.Fatalf("%s %T: want an sv.DotFormer", name, e)
		}
		form, ok := df.DotForm()
		if !ok {
			t.Fatalf("%s: no DotForm for parts ngram-metric (s-norm) + tfidf", name)
		}
		x, y := ve["s0-0"], ve["s3-1"]
		if got, want := form.Eval(x, y), df.Score(x, y); math.Abs(got-want) > 1e-5*math.Max(1, math.Abs(want)) {
			t.Errorf("%s: DotForm gives %v, Score %v", name, got, want)
		}
	}
	lsm, err := sv.NewEncoder("lsm", sv.EncoderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	withLSM := &mixture{name: "m", parts: []sv.Encoder{enc, lsm}, weights: []float64{1, 1}, raw: true}
	if _, ok := (scoredMixture{withLSM}).DotForm(); ok {
		t.Error("a mixture with an lsm part has no DotForm (LSM is not a dot product)")
	}
	if n := sv.SimilarityName(v.Similarity()); n != "P(same speaker)" {
		t.Errorf("role-play similarity named %q, want P(same speaker)", n)
	}
	if s := v.Spec.Dev.Pairs; s != len(c.Dev) {
		t.Errorf("dev pairs %d, want %d", s, len(c.Dev))
	}
	// Adapted, the s-norm part draws its cohort from the adaptation texts:
	// the fused score stays an s-norm mix, so role-play keeps the
	// calibrated probability; with too few texts for a cohort the part
	// falls back to its cosine and role-play scores by the fused score.
	// A bundle with a calibration of adapted scores reads the adapted
	// score through it, and the score as saved through the as-saved one.
	adaptedCal := Calibration{Method: "platt", A: 0.37, B: 1.3}
	for _, c := range []struct {
		texts []string
		name  string
	}{{fit, "P(same speaker)"}, {fit[:2], "Verifier score"}} {
		w, err := Load(ctx, dir, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		w.Spec.CalibrationAdapted, w.Spec.CalibrationAdaptedSource = &adaptedCal, CalibrationHeldOut
		if adaptedCal == w.Spec.Calibration {
			t.Fatal("the test's adapted calibration is the bundle's")
		}
		simw := w.Similarity()
		saved, err := sv.EmbedSets(ctx, simw, sets, nil)
		if err != nil {
			t.Fatal(err)
		}
		if pm, x, y := simw.(*probMixture), saved["s0-0"], saved["s3-1"]; pm.Score(x, y) != w.Spec.Calibration.Probability(pm.scoredMixture.Score(x, y)) ||
			pm.Calibration().Scoring != ScoringAsSaved {
			t.Errorf("as saved: similarity %v, want the as-saved calibration's P(same) %v", pm.Score(x, y), w.Spec.Calibration.Probability(pm.scoredMixture.Score(x, y)))
		}
		if err := simw.(sv.Adapter).Adapt(ctx, c.texts); err != nil {
			t.Fatal(err)
		}
		if n := sv.SimilarityName(simw); n != c.name {
			t.Errorf("adapted to %d texts: role-play similarity named %q, want %q", len(c.texts), n, c.name)
		}
		av, err := sv.EmbedSets(ctx, simw, sets, nil)
		if err != nil {
			t.Fatal(err)
		}
		pm := simw.(*probMixture)
		x, y := av["s0-0"], av["s3-1"]
		fusedA := pm.scoredMixture.Score(x, y)
		p := pm.Score(x, y)
		snorm := w.enc.parts[0].(snormer).ScoresBySNorm()
		switch c.name {
		case "P(same speaker)":
			if !snorm || p != adaptedCal.Probability(fusedA) || pm.Calibration().Scoring != ScoringAdapted || !pm.Calibration().Matches() {
				t.Errorf("adapted with a cohort: part s-norm %v, similarity %v, want P(same) of the fused score under the adapted calibration %v", snorm, p, adaptedCal.Probability(fusedA))
			}
		default:
			if snorm || p != fusedA {
				t.Errorf("adapted without a cohort: part s-norm %v, similarity %v, want the fused score %v", snorm, p, fusedA)
			}
		}
		w.Close()
	}
	plain := &mixture{name: "mixed_ft", parts: []sv.Encoder{tf}, weights: []float64{1}}
	if _, ok := plain.encoder(true).(sv.PairScorer); ok || plain.raw {
		t.Error("a bundle of cosine parts must stay the plain mixture")
	}
	if n := sv.SimilarityName(plain); n != "Cosine similarity" {
		t.Errorf("plain mixture similarity named %q", n)
	}
}
