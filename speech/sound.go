package speech

import (
	"fmt"
	"math"
)

// Sound is a mono signal sampled at Rate Hz. Samples are in the range
// [-1, 1] for full-scale audio (integer PCM is scaled by its bit depth).
// Sample i sits at time (i+0.5)/Rate, as in Praat, so a Sound of n samples
// covers [0, n/Rate].
type Sound struct {
	// Samples holds the signal.
	Samples []float64
	// Rate is the sample rate in Hz.
	Rate float64
	// Name says where the sound came from (a file name), for messages.
	Name string
	// Source describes the file's original encoding: channels, rate, sample
	// format. It is informational.
	Source Format
}

// Format describes how a WAV file stored its samples.
type Format struct {
	// Channels is the number of interleaved channels in the file.
	Channels int `json:"channels"`
	// Rate is the file's sample rate in Hz.
	Rate int `json:"rate"`
	// Bits is the container size of one sample in bits (8, 16, 24, 32, 64).
	Bits int `json:"bits"`
	// Float reports IEEE float samples (WAVE_FORMAT_IEEE_FLOAT).
	Float bool `json:"float"`
}

// String renders the format like "16-bit PCM, 2 ch, 44100 Hz".
func (f Format) String() string {
	kind := "PCM"
	if f.Float {
		kind = "float"
	}
	return fmt.Sprintf("%d-bit %s, %d ch, %d Hz", f.Bits, kind, f.Channels, f.Rate)
}

// Duration returns the length of the sound in seconds.
func (s *Sound) Duration() float64 {
	if s == nil || s.Rate <= 0 {
		return 0
	}
	return float64(len(s.Samples)) / s.Rate
}

// Slice returns the part of s between start and end seconds (clipped to the
// sound) as a new Sound sharing s's samples. end <= 0 means "to the end".
// It returns an error when the span is empty or reversed.
func (s *Sound) Slice(start, end float64) (*Sound, error) {
	if end <= 0 {
		end = s.Duration()
	}
	if math.IsNaN(start) || math.IsNaN(end) || end <= start {
		return nil, fmt.Errorf("%s: empty or reversed span [%.3f, %.3f] s", s.Name, start, end)
	}
	i0 := int(math.Round(start * s.Rate))
	i1 := int(math.Round(end * s.Rate))
	if i0 < 0 {
		i0 = 0
	}
	if i1 > len(s.Samples) {
		i1 = len(s.Samples)
	}
	if i1 <= i0 {
		return nil, fmt.Errorf("%s: span [%.3f, %.3f] s lies outside the sound (%.3f s)", s.Name, start, end, s.Duration())
	}
	out := *s
	out.Samples = s.Samples[i0:i1]
	out.Name = fmt.Sprintf("%s[%.3f-%.3f]", s.Name, start, end)
	return &out, nil
}

// peakAbsAroundMean returns max |x - mean(x)|, Praat's "global peak" used by
// the pitch silence threshold.
func peakAbsAroundMean(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	var sum float64
	for _, v := range x {
		sum += v
	}
	mean := sum / float64(len(x))
	var peak float64
	for _, v := range x {
		if a := math.Abs(v - mean); a > peak {
			peak = a
		}
	}
	return peak
}

// shortTermFrames returns the number of analysis frames and the centre of the
// first one for a window of windowDur seconds moved by step seconds over a
// sound of n samples at rate: as many frames as fit, centred symmetrically in
// the sound (Praat's Sampled_shortTermAnalysis). n == 0 frames means the sound
// is shorter than one window. The arithmetic follows Praat's operation by
// operation: frame centres often fall exactly halfway between two samples,
// and only the same rounding picks the same sample.
func shortTermFrames(n int, rate, windowDur, step float64) (frames int, t1 float64) {
	dx := 1 / rate
	x1 := 0.5 * dx
	dur := dx * float64(n)
	if windowDur > dur || step <= 0 {
		return 0, 0
	}
	frames = int(math.Floor((dur-windowDur)/step)) + 1
	mid := x1 - 0.5*dx + 0.5*dur
	t1 = mid - 0.5*(float64(frames)*step) + 0.5*step
	return frames, t1
}

// nearestSample returns the 0-based index of the sample nearest to time t
// (Praat's Sampled_xToNearestIndex, whose ties round down or up exactly as
// its floating-point expression does).
func nearestSample(t, rate float64) int {
	dx := 1 / rate
	return int(math.Floor((t-0.5*dx)/dx+1.0+0.5)) - 1
}

// lowSample returns the 0-based index of the last sample at or before time
// t (Praat's Sampled_xToLowIndex).
func lowSample(t, rate float64) int {
	dx := 1 / rate
	return int(math.Floor((t-0.5*dx)/dx+1.0)) - 1
}
