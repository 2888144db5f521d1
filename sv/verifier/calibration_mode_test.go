package verifier

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCalibrationPerScoringMode: a bundle with a calibration of as-saved
// scores and one of adapted scores reads each kind of score through its
// own (Verify, which scores as saved, through the as-saved one; JudgeAs
// adapted through the adapted one) and says which; a bundle with one
// calibration serves both modes with it and says so; a held-out bundle
// written before the modes existed reads as fitted on adapted scores,
// unless no part of it adapts.
func TestCalibrationPerScoringMode(t *testing.T) {
	ctx := context.Background()
	base := tinyTFIDFBundle(t)

	// Two calibrations that disagree on every score in [0, 1]: as saved
	// says "same" above 0.25, adapted says "different" below 0.9.
	asSaved := Calibration{Method: "platt", A: 8, B: -2}
	adapted := Calibration{Method: "platt", A: 4, B: -3.6}
	o := base
	o.Calibration, o.CalibrationSource, o.CalibrationNote = &asSaved, CalibrationHeldOut, "as saved"
	o.CalibrationAdapted = &adapted
	if _, err := Save(filepath.Join(t.TempDir(), "x"), o); err == nil || !strings.Contains(err.Error(), "source") {
		t.Fatalf("an adapted calibration without its source: %v", err)
	}
	o.CalibrationAdaptedSource, o.CalibrationAdaptedNote = CalibrationHeldOut, "adapted"
	dir := filepath.Join(t.TempDir(), "both")
	spec, err := Save(dir, o)
	if err != nil || spec.CalibrationScoring != ScoringAsSaved || spec.CalibrationAdapted == nil || *spec.CalibrationAdapted != adapted {
		t.Fatalf("bundle with both: %v, %+v", err, spec)
	}
	v, err := Load(ctx, dir, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := v.Verify(ctx, base.FitTexts[:2], base.FitTexts[2:])
	v.Close()
	if err != nil {
		t.Fatal(err)
	}
	if r.Probability != asSaved.Probability(r.Score) || r.Scoring != ScoringAsSaved || r.CalibrationScoring != ScoringAsSaved ||
		r.CalibrationSource != CalibrationHeldOut || r.Same != (asSaved.Probability(r.Score) >= DecisionProbability) {
		t.Fatalf("verify: %+v, want P %v from the as-saved calibration", r, asSaved.Probability(r.Score))
	}
	if asSaved.Probability(r.Score) == adapted.Probability(r.Score) {
		t.Fatalf("score %v: the two calibrations agree, the test cannot tell them apart", r.Score)
	}
	ra := v.JudgeAs(0.5, ScoringAdapted)
	if ra.Probability != adapted.Probability(0.5) || ra.Same || ra.Scoring != ScoringAdapted || ra.CalibrationScoring != ScoringAdapted {
		t.Fatalf("adapted score 0.5: %+v, want P %v (different speakers)", ra, adapted.Probability(0.5))
	}
	if rs := v.Judge(0.5); rs.Probability != asSaved.Probability(0.5) || !rs.Same {
		t.Fatalf("as-saved score 0.5: %+v, want P %v (same speaker)", rs, asSaved.Probability(0.5))
	}
	if m := spec.CalibrationFor(ScoringAdapted); !m.Matches() || m.Note != "adapted" || m.Source != CalibrationHeldOut {
		t.Fatalf("adapted mode: %+v", m)
	}

	// A dev-pair bundle written before the keys existed: its one
	// calibration serves both modes, and says so for adapted scores.
	ddir := filepath.Join(t.TempDir(), "dev")
	dspec, err := Save(ddir, base)
	if err != nil {
		t.Fatal(err)
	}
	stripSpecKeys(t, ddir, `"calibration_source": "dev_pairs",`, `"calibration_scoring": "as_saved",`)
	old, err := ReadSpec(ddir)
	if err != nil || old.CalibrationSource != "" || old.CalibrationScoring != "" || old.CalibrationAdapted != nil {
		t.Fatalf("old dev bundle: %v, %+v", err, old)
	}
	for _, mode := range []string{ScoringAsSaved, ScoringAdapted} {
		m := old.CalibrationFor(mode)
		if m.Calibration != dspec.Calibration || m.Source != CalibrationDev || m.FittedOn != ScoringAsSaved || m.Scoring != mode {
			t.Fatalf("old dev bundle, %s: %+v", mode, m)
		}
		if m.Matches() != (mode == ScoringAsSaved) || mode == ScoringAdapted && !strings.Contains(m.Note, "no calibration of adapted scores") {
			t.Fatalf("old dev bundle, %s: matches %v, note %q", mode, m.Matches(), m.Note)
		}
	}
	w, err := Load(ctx, ddir, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r := w.JudgeAs(0.4, ScoringAdapted); r.Probability != dspec.Calibration.Probability(0.4) || r.CalibrationScoring != ScoringAsSaved {
		t.Fatalf("old dev bundle judging an adapted score: %+v", r)
	}
	w.Close()

	// A held-out bundle of the version that fitted on adapted scores only.
	hdir := filepath.Join(t.TempDir(), "held")
	h := base
	h.Calibration, h.CalibrationSource = &adapted, CalibrationHeldOut
	if _, err := Save(hdir, h); err != nil {
		t.Fatal(err)
	}
	stripSpecKeys(t, hdir, `"calibration_scoring": "as_saved",`)
	hs, err := ReadSpec(hdir)
	if err != nil {
		t.Fatal(err)
	}
	if m := hs.CalibrationFor(ScoringAdapted); !m.Matches() || m.Calibration != adapted {
		t.Fatalf("old held-out bundle, adapted: %+v", m)
	}
	if m := hs.CalibrationFor(ScoringAsSaved); m.Matches() || m.FittedOn != ScoringAdapted || !strings.Contains(m.Note, "no calibration of as_saved scores") {
		t.Fatalf("old held-out bundle, as saved: %+v", m)
	}
	// Loaded, a bundle without a part that adapts was scored as saved by
	// those folds (--adapt auto adapts no such bundle).
	hv, err := Load(ctx, hdir, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer hv.Close()
	if m := hv.Spec.CalibrationFor(ScoringAsSaved); hv.CanAdapt() || !m.Matches() || m.Calibration != adapted {
		t.Fatalf("old held-out bundle of a tfidf part, loaded, as saved: %+v", m)
	}
}

// stripSpecKeys removes each of the lines keys from dir's verifier.json,
// as a bundle written before they existed lacks them.
func stripSpecKeys(t *testing.T, dir string, keys ...string) {
	t.Helper()
	path := filepath.Join(dir, SpecFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, k := range keys {
		if !strings.Contains(s, k) {
			t.Fatalf("verifier.json lacks %s:\n%s", k, s)
		}
		s = strings.Replace(s, k, "", 1)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
