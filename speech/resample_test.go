package speech

import (
	"math"
	"testing"
)

func sine(rate, freq, amp, dur float64) *Sound {
	n := int(rate * dur)
	s := &Sound{Rate: rate, Samples: make([]float64, n), Name: "sine"}
	for i := range s.Samples {
		s.Samples[i] = amp * math.Sin(2*math.Pi*freq*(float64(i)+0.5)/rate)
	}
	return s
}

// rmsError compares s with an ideal sine over its middle half (away from
// the edge transients) and returns the RMS error and the signal RMS.
func rmsError(s *Sound, freq, amp float64) (errRMS, sigRMS float64) {
	n := len(s.Samples)
	var e, p float64
	for i := n / 4; i < 3*n/4; i++ {
		want := amp * math.Sin(2*math.Pi*freq*(float64(i)+0.5)/s.Rate)
		e += (s.Samples[i] - want) * (s.Samples[i] - want)
		p += s.Samples[i] * s.Samples[i]
	}
	m := float64(n / 2)
	return math.Sqrt(e / m), math.Sqrt(p / m)
}

func TestResamplePassesBandAndBlocksAliases(t *testing.T) {
	for _, in := range []float64{8000, 22050, 44100, 48000, 44101} { // 44101: no small L/M, direct path
		// In band: a 1 kHz sine survives with its phase and amplitude.
		s := sine(in, 1000, 0.5, 0.5)
		out, err := Resample(s, DefaultRate, ResampleConfig{})
		if err != nil {
			t.Fatal(err)
		}
		if want := int(math.Round(float64(len(s.Samples)) * DefaultRate / in)); len(out.Samples) != want {
			t.Fatalf("%g Hz: %d samples, want %d", in, len(out.Samples), want)
		}
		e, _ := rmsError(out, 1000, 0.5)
		t.Logf("%g → 16000 Hz: 1 kHz RMS error %.2g", in, e)
		if e > 1e-5 {
			t.Errorf("%g → 16000 Hz: 1 kHz sine RMS error %.2g, want < 1e-5 (−94 dB re 0.5)", in, e)
		}
		// Out of band: a 10 kHz sine must not alias to 6 kHz.
		if in > 20000 {
			out, _ := Resample(sine(in, 10000, 0.5, 0.5), DefaultRate, ResampleConfig{})
			_, rms := rmsError(out, 0, 0)
			t.Logf("%g → 16000 Hz: 10 kHz alias at %.1f dB", in, 20*math.Log10(rms/(0.5/math.Sqrt2)))
			if 20*math.Log10(rms/(0.5/math.Sqrt2)) > -90 {
				t.Errorf("%g → 16000 Hz: 10 kHz leaks at %.1f dB, want < −90 dB", in, 20*math.Log10(rms/(0.5/math.Sqrt2)))
			}
		}
	}
	if _, err := Resample(&Sound{Rate: 16000}, 8000, ResampleConfig{}); err == nil {
		t.Error("empty sound: no error")
	}
}
