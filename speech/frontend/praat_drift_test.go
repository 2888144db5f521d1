package frontend

import (
	"testing"

	"github.com/roleprint/roleprint/speech"
)

// issue20Agreement reports whether an agreement meets issue 20's bar for the
// speed work: voicing agreement ≥ 99 %, median |ΔF0| ≤ 0.01 semitone and
// mean intensity within 0.5 dB of Praat.
func issue20Agreement(a *Agreement) bool {
	return a.VoicingAgreement >= 0.99 && a.MedianAbsDiffST <= 0.01 && a.MaxIntensityMeanDiffDB <= 0.5
}

// TestAgreementCatchesDrift shows that the comparison with Praat fails when
// the analysis drifts: the committed espeak reference meets issue 20's bar
// with the default configuration and misses it with a slightly different
// pitch window (floor 70 Hz instead of 75) or voicing threshold (0.55
// instead of 0.45), changes far smaller than a broken optimisation would
// make.
func TestAgreementCatchesDrift(t *testing.T) {
	ref, err := LoadPraatReference("../testdata/praat-espeak.json")
	if err != nil {
		t.Fatal(err)
	}
	a, err := CompareWithPraat(ref, speech.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if !issue20Agreement(a) {
		t.Fatalf("default configuration misses issue 20's bar: %+v", *a)
	}
	for name, change := range map[string]func(*speech.Config){
		"floor 70 Hz":  func(c *speech.Config) { c.Pitch.Floor = 70 },
		"voicing 0.55": func(c *speech.Config) { c.Pitch.VoicingThreshold = 0.55 },
	} {
		cfg := speech.DefaultConfig()
		change(&cfg)
		a, err := CompareWithPraat(ref, cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: voicing %.4f, median |ΔF0| %.4f st, intensity %.3f dB", name, a.VoicingAgreement, a.MedianAbsDiffST, a.MaxIntensityMeanDiffDB)
		if issue20Agreement(a) {
			t.Errorf("%s: still within issue 20's bar (%+v): the comparison cannot catch drift", name, *a)
		}
	}
}
