package speech

import (
	"math"
	"strings"
	"testing"
)

// harmonics returns a voiced-like test signal: harmonics 1..n of f0 with
// falling amplitudes (or from 2 on, for a missing fundamental).
func harmonics(rate, f0, dur float64, from, to int) *Sound {
	s := &Sound{Rate: rate, Samples: make([]float64, int(rate*dur)), Name: "harmonics"}
	for i := range s.Samples {
		t := float64(i) / rate
		for h := from; h <= to; h++ {
			s.Samples[i] += 0.3 / float64(h) * math.Sin(2*math.Pi*f0*float64(h)*t)
		}
	}
	return s
}

func TestPitchOfSyntheticSignals(t *testing.T) {
	for _, tc := range []struct {
		name     string
		s        *Sound
		f0       float64
		minVoice float64
	}{
		{"sine 220 Hz", sine(16000, 220, 0.5, 1), 220, 0.9},
		{"harmonics 110 Hz", harmonics(16000, 110, 1, 1, 10), 110, 0.9},
		{"missing fundamental 150 Hz", harmonics(16000, 150, 1, 2, 8), 150, 0.9},
		{"sine 500 Hz at 44.1 kHz", sine(44100, 500, 0.5, 0.5), 500, 0.9},
	} {
		p, err := ToPitch(tc.s, DefaultPitchConfig())
		if err != nil {
			t.Fatal(err)
		}
		st := p.Stats()
		if st.VoicedFraction() < tc.minVoice {
			t.Errorf("%s: voiced fraction %.2f, want ≥ %.2f", tc.name, st.VoicedFraction(), tc.minVoice)
		}
		if math.Abs(st.MedianHz-tc.f0) > 0.01*tc.f0 || math.Abs(st.MeanHz-tc.f0) > 0.01*tc.f0 {
			t.Errorf("%s: median %.2f mean %.2f Hz, want %.0f", tc.name, st.MedianHz, st.MeanHz, tc.f0)
		}
		if math.Abs(st.MeanST-HzToSemitones(tc.f0)) > 0.2 || st.StdHz > 0.02*tc.f0 {
			t.Errorf("%s: mean %.3f st (want %.3f), std %.2f Hz", tc.name, st.MeanST, HzToSemitones(tc.f0), st.StdHz)
		}
	}
}

func TestPitchSilenceNoiseAndErrors(t *testing.T) {
	// Digital silence: every frame voiceless, statistics undefined.
	p, err := ToPitch(&Sound{Rate: 16000, Samples: make([]float64, 16000)}, DefaultPitchConfig())
	if err != nil {
		t.Fatal(err)
	}
	if st := p.Stats(); st.Voiced != 0 || !math.IsNaN(st.MeanHz) || st.Frames != len(p.F0) || st.Frames == 0 {
		t.Fatalf("silence: %+v", st)
	}
	// A tone followed by near-silence: the quiet half must be voiceless
	// (silence threshold), the tone voiced.
	s := sine(16000, 200, 0.5, 1)
	for i := len(s.Samples) / 2; i < len(s.Samples); i++ {
		s.Samples[i] *= 1e-3
	}
	p, _ = ToPitch(s, DefaultPitchConfig())
	for i := range p.F0 {
		tt := p.Time(i)
		if tt < 0.45 && !p.Voiced(i) || tt > 0.55 && p.Voiced(i) {
			t.Fatalf("frame at %.3f s: F0 %.1f", tt, p.F0[i])
		}
	}
	if _, err := ToPitch(sine(16000, 200, 0.5, 0.03), DefaultPitchConfig()); err == nil || !strings.Contains(err.Error(), "shorter than one analysis window") {
		t.Errorf("30 ms sound: %v", err)
	}
	bad := DefaultPitchConfig()
	bad.Ceiling = 50
	if _, err := ToPitch(sine(16000, 200, 0.5, 1), bad); err == nil {
		t.Error("ceiling below floor: no error")
	}
}

func TestPitchValueAt(t *testing.T) {
	p := &Pitch{T1: 0.02, Step: 0.01, F0: []float64{100, 110, 0, 130}, Ceiling: 600}
	for _, tc := range []struct{ t, want float64 }{
		{0.02, 100}, {0.025, 105}, {0.0249, 104.9}, {0.034, 110}, // far neighbour voiceless: nearest
		{0.036, 0}, {0.045, 0}, {0.05, 130}, {0.054, 130}, {0.056, 0}, {0.0149, 0},
	} {
		if got := p.ValueAt(tc.t); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("ValueAt(%g) = %g, want %g", tc.t, got, tc.want)
		}
	}
}

func TestInterpolateSinc(t *testing.T) {
	// A band-limited signal is reproduced between its samples.
	y := make([]float64, 400)
	f := func(x float64) float64 { return math.Cos(0.3*x) + 0.5*math.Sin(0.11*x+1) }
	for i := range y {
		y[i] = f(float64(i))
	}
	for _, x := range []float64{150.25, 200.5, 233.9} {
		if d := math.Abs(interpolateSinc(y, x, 70) - f(x)); d > 1e-3 {
			t.Errorf("sinc70 at %g off by %g", x, d)
		}
	}
	if interpolateSinc(y, 7, 70) != y[7] || interpolateSinc(y, -3, 70) != y[0] || interpolateSinc(y, 1e9, 70) != y[399] {
		t.Error("integer or out-of-range positions not returned exactly")
	}
	// improveMaximum finds the true peak of a sampled parabola-like bump.
	for i := range y {
		d := float64(i) - 200.3
		y[i] = math.Exp(-d * d / 200)
	}
	x, v := improveMaximum(y, 200, 70)
	if math.Abs(x-200.3) > 1e-3 || math.Abs(v-1) > 1e-3 {
		t.Errorf("improveMaximum: %g, %g; want 200.3, 1", x, v)
	}
}
