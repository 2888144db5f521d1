package verifier

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/sv"
)

// TestCalibrationSource: a bundle says what its P(same) was calibrated
// on: its dev pairs by default, a given calibration with its source
// (which then decides every probability and the score threshold), a
// given calibration without a source is refused, and a verifier.json
// without the key loads as before.
func TestCalibrationSource(t *testing.T) {
	ctx := context.Background()
	base := tinyTFIDFBundle(t)

	dir := filepath.Join(t.TempDir(), "dev")
	spec, err := Save(dir, base)
	if err != nil || spec.CalibrationSource != CalibrationDev {
		t.Fatalf("default bundle: %v, source %q", err, spec.CalibrationSource)
	}
	dev := spec.Calibration

	held := Calibration{Method: "platt", A: 2, B: -1}
	o := base
	o.Calibration = &held
	if _, err := Save(filepath.Join(t.TempDir(), "x"), o); err == nil || !strings.Contains(err.Error(), "source") {
		t.Fatalf("a calibration without its source: %v", err)
	}
	o.CalibrationSource, o.CalibrationNote = CalibrationHeldOut, "4 corpora"
	hdir := filepath.Join(t.TempDir(), "held")
	spec, err = Save(hdir, o)
	if err != nil || spec.Calibration != held || spec.CalibrationSource != CalibrationHeldOut || spec.CalibrationNote != "4 corpora" || held == dev {
		t.Fatalf("held-out bundle: %v, %+v", err, spec)
	}
	v, err := Load(ctx, hdir, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := v.Verify(ctx, base.FitTexts[:2], base.FitTexts[2:])
	v.Close()
	if err != nil || res.Probability != held.Probability(res.Score) {
		t.Fatalf("verify: %v, P %v, want the held-out calibration's %v", err, res.Probability, held.Probability(res.Score))
	}

	// A bundle written before the key existed.
	path := filepath.Join(dir, SpecFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	old := strings.Replace(string(b), `"calibration_source": "dev_pairs",`, "", 1)
	if old == string(b) {
		t.Fatal("verifier.json lacks calibration_source")
	}
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := ReadSpec(dir)
	if err != nil || s.CalibrationSource != "" || s.Calibration != dev {
		t.Fatalf("old bundle: %v, %+v", err, s)
	}

	// A value no version writes (a hand edit, a typo) is refused by key
	// and file, not read as a calibration of some other scores.
	for _, key := range []string{"calibration_source", "calibration_scoring", "calibration_adapted_source"} {
		var m map[string]any
		if err := json.Unmarshal([]byte(old), &m); err != nil {
			t.Fatal(err)
		}
		m[key] = "adpated"
		bad, _ := json.Marshal(m)
		if err := os.WriteFile(path, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadSpec(dir); err == nil || !strings.Contains(err.Error(), key) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s \"adpated\": %v, want an error naming the key and %s", key, err, path)
		}
	}
}

// tinyTFIDFBundle returns the save options of a bundle of TF-IDF fitted on
// four short texts, with six dev cosines and labels: the calibration
// tests' starting point.
func tinyTFIDFBundle(t *testing.T) SaveOptions {
	t.Helper()
	tf, err := sv.NewEncoder("tfidf", sv.EncoderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{"the cat sat on the mat", "a dog ran in the park", "the cat ran on the mat", "a dog sat in the park"}
	if err := tf.(sv.Fitter).Fit(context.Background(), texts); err != nil {
		t.Fatal(err)
	}
	return SaveOptions{Name: "tfidf", FitTexts: texts, Parts: []SavePart{{Row: "tfidf", Encoder: tf}}, Manifest: map[string]any{},
		DevCosines: []float64{0.1, 0.2, 0.6, 0.8, 0.3, 0.7}, DevLabels: []bool{false, false, true, true, true, false}}
}
