package speech

import (
	"math"
	"sort"

	"github.com/roleprint/roleprint/stats"
)

// PitchStats summarises the voiced frames of a Pitch, as Praat's "Get mean",
// "Get quantile… 0.5" and "Get standard deviation" do. Semitones are
// relative to 100 Hz (Praat's "semitones re 100 Hz"): 12·log2(F0/100).
// All fields are NaN when no frame is voiced.
type PitchStats struct {
	// MeanHz, MedianHz and StdHz summarise F0 in Hz (StdHz is the sample
	// standard deviation, n−1 in the denominator).
	MeanHz, MedianHz, StdHz float64
	// MeanST, MedianST and StdST summarise F0 in semitones re 100 Hz.
	MeanST, MedianST, StdST float64
	// Voiced is the number of voiced frames; Frames the number of frames.
	Voiced, Frames int
}

// VoicedFraction returns the share of frames that are voiced (0 for an
// empty track).
func (s PitchStats) VoicedFraction() float64 {
	if s.Frames == 0 {
		return 0
	}
	return float64(s.Voiced) / float64(s.Frames)
}

// Stats summarises p's voiced frames.
func (p *Pitch) Stats() PitchStats {
	var hz []float64
	for i, f := range p.F0 {
		if p.Voiced(i) {
			hz = append(hz, f)
		}
	}
	st := make([]float64, len(hz))
	for i, f := range hz {
		st[i] = HzToSemitones(f)
	}
	s := PitchStats{Voiced: len(hz), Frames: len(p.F0)}
	s.MeanHz, s.StdHz = stats.MeanStd(hz)
	s.MeanST, s.StdST = stats.MeanStd(st)
	s.MedianHz = median(hz)
	s.MedianST = median(st)
	return s
}

// HzToSemitones converts a frequency to semitones re 100 Hz.
func HzToSemitones(f float64) float64 { return 12 * math.Log2(f/100) }

// median returns the median of x (the mean of the two middle values for an
// even count), NaN for empty input. x is not modified.
func median(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return 0.5 * (s[n/2-1] + s[n/2])
}
