package speech

import (
	"math"
	"slices"
	"testing"
)

// TestSilenceIsNotSpeech checks the absolute floor: digital silence and a
// tone far below −60 dBFS are pauses, with no pitch and no syllables, and a
// near-silent stretch between two loud ones is a pause.
func TestSilenceIsNotSpeech(t *testing.T) {
	const rate = 16000
	quiet := math.Pow(10, -75.0/20) * math.Sqrt2 // a sine at −75 dBFS RMS
	cases := map[string]*Sound{
		"zeros":     {Samples: make([]float64, 3*rate), Rate: rate, Name: "zeros"},
		"−75 dBFS":  sine(rate, 150, quiet, 3),
		"one LSB":   {Samples: slices.Repeat([]float64{1.0 / 32768, -1.0 / 32768}, 3*rate/2), Rate: rate, Name: "lsb"},
		"zeros 20s": {Samples: make([]float64, 20*rate), Rate: rate, Name: "zeros20"},
	}
	for name, s := range cases {
		f, err := Analyze(s, "", DefaultConfig())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if f.PhonationS != 0 || f.Syllables != 0 || f.VoicedFrames != 0 || !math.IsNaN(f.F0MeanHz) || !math.IsNaN(f.PauseRatio) {
			t.Errorf("%s: phonation %g s, %d syllables, %d voiced frames, F0 %g, pause ratio %g; want silence",
				name, f.PhonationS, f.Syllables, f.VoicedFrames, f.F0MeanHz, f.PauseRatio)
		}
	}
	// Loud, near-silent, loud: the middle second is a pause without pitch.
	loud := sine(rate, 150, 0.5, 1)
	mid := sine(rate, 150, quiet, 1)
	s := &Sound{Samples: slices.Concat(loud.Samples, mid.Samples, loud.Samples), Rate: rate, Name: "mixed"}
	f, err := Analyze(s, "", DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if f.Pauses != 1 || f.PhonationS > 2.2 || f.PhonationS < 1.6 || f.PauseRatio < 0.3 {
		t.Errorf("loud/quiet/loud: %d pauses, phonation %g s, pause ratio %g; want one pause of about 1 s", f.Pauses, f.PhonationS, f.PauseRatio)
	}
	p, err := ToPitch(s, DefaultConfig().Pitch)
	if err != nil {
		t.Fatal(err)
	}
	in, _ := ToIntensity(s, DefaultIntensityConfig())
	unvoiceBelowFloor(p, in)
	for i := range p.F0 {
		if tm := p.Time(i); tm > 1.2 && tm < 1.8 && p.Voiced(i) {
			t.Errorf("frame at %.2f s is voiced (%g Hz) inside the near-silent second", tm, p.F0[i])
		}
	}
}
