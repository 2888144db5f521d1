package speech

import (
	"fmt"
	"math"
)

// SyllableConfig holds the parameters of the syllable-nucleus detector of
// de Jong & Wempe (2009), "Praat script to detect syllable nuclei and
// measure speech rate automatically", Behavior Research Methods 41(2).
type SyllableConfig struct {
	// SilenceDB is the silence threshold in dB relative to the 99th
	// percentile of the intensity (default −25).
	SilenceDB float64
	// MinDipDB is the dip in intensity, in dB, required between a peak and
	// the next one for the peak to count (default 2).
	MinDipDB float64
	// MinPause is the shortest silence counted as a pause, in seconds
	// (default 0.3).
	MinPause float64
	// MinPitch is the minimum pitch of the intensity contour whose peaks
	// are the candidate nuclei, in Hz (default 50: a 128 ms window, 16 ms
	// step).
	MinPitch float64
	// Pitch is the analysis that decides whether a peak is voiced (de Jong
	// & Wempe: time step 0.02 s, floor 30 Hz, 4 candidates, silence 0.03,
	// voicing 0.25, octave 0.01, octave jump 0.35, voiced/unvoiced 0.25,
	// ceiling 450 Hz; the low floor keeps deep voices voiced).
	Pitch PitchConfig
	// PitchRate is the sample rate the voicing analysis runs at, in Hz
	// (default 4000, ample for a 450 Hz ceiling and a sixth of the work of
	// 16 kHz; 0 analyses at the sound's own rate).
	PitchRate float64
}

// silenceFloorDBFS is the absolute silence floor of the speech measures,
// in dB relative to a full-scale RMS of 1 (a full-scale sine is −3 dBFS):
// a stretch whose intensity stays below −60 dBFS (an RMS of a thousandth
// of full scale, 34 dB on Praat's intensity scale) is a pause, with no
// pitch and no syllable nuclei, whatever the loudest part of the sound.
// The detectors' own thresholds are relative to the sound's maximum, so
// without a floor a silent or near-silent clip has its noise (or nothing
// at all) taken for speech: 3 s of digital silence measured 3 s of
// phonation and a pause ratio of 0. Speech recorded at any usable level
// is far above the floor (a quiet recording peaks near −30 dBFS).
const silenceFloorDBFS = -60.0

// silenceFloorDB is silenceFloorDBFS on the intensity scale (dB re
// (2·10⁻⁵)², so an RMS of 1 is 93.98 dB).
var silenceFloorDB = silenceFloorDBFS - 10*math.Log10(4e-10)

// DefaultSyllableConfig returns de Jong & Wempe's defaults.
func DefaultSyllableConfig() SyllableConfig {
	return SyllableConfig{SilenceDB: -25, MinDipDB: 2, MinPause: 0.3, MinPitch: 50, PitchRate: 4000,
		Pitch: PitchConfig{TimeStep: 0.02, Floor: 30, Ceiling: 450, MaxCandidates: 4, SilenceThreshold: 0.03,
			VoicingThreshold: 0.25, OctaveCost: 0.01, OctaveJumpCost: 0.35, VoicedUnvoicedCost: 0.25}}
}

// Syllables is the result of syllable-nucleus detection.
type Syllables struct {
	// Nuclei are the times of the syllable nuclei in seconds.
	Nuclei []float64
	// Intervals splits the sound into pauses and speech (pauses are
	// silences of at least MinPause).
	Intervals []Interval
	// Duration is the sound's duration in seconds.
	Duration float64
	// ThresholdDB is the intensity a peak must exceed (dB).
	ThresholdDB float64
}

// Count returns the number of syllable nuclei.
func (s *Syllables) Count() int { return len(s.Nuclei) }

// SpeakingRate returns syllables per second of the whole sound (de Jong &
// Wempe's "speech rate").
func (s *Syllables) SpeakingRate() float64 {
	if s.Duration <= 0 {
		return math.NaN()
	}
	return float64(len(s.Nuclei)) / s.Duration
}

// PhonationTime returns the total duration of the sounding intervals.
func (s *Syllables) PhonationTime() float64 {
	var t float64
	for _, iv := range s.Intervals {
		if !iv.Silent {
			t += iv.Duration()
		}
	}
	return t
}

// ArticulationRate returns syllables per second of phonation time.
func (s *Syllables) ArticulationRate() float64 {
	pt := s.PhonationTime()
	if pt <= 0 {
		return math.NaN()
	}
	return float64(len(s.Nuclei)) / pt
}

// PauseRatio returns the share of the speech span (from the first sounding
// interval's start to the last one's end) spent in pauses: leading and
// trailing silence is the clip's margin, not the speaker's pausing. It is 0
// when there is at most one sounding stretch and NaN when nothing sounds.
func (s *Syllables) PauseRatio() float64 {
	first, last := -1, -1
	for i, iv := range s.Intervals {
		if !iv.Silent {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return math.NaN()
	}
	var pause float64
	for _, iv := range s.Intervals[first : last+1] {
		if iv.Silent {
			pause += iv.Duration()
		}
	}
	span := s.Intervals[last].End - s.Intervals[first].Start
	if span <= 0 {
		return 0
	}
	return pause / span
}

// Pauses returns the number of pauses inside the speech span.
func (s *Syllables) Pauses() int {
	n, seen := 0, false
	pending := 0
	for _, iv := range s.Intervals {
		if iv.Silent {
			if seen {
				pending++
			}
			continue
		}
		seen = true
		n += pending
		pending = 0
	}
	return n
}

// DetectSyllables finds syllable nuclei in s after de Jong & Wempe (2009):
// peaks of an intensity contour (MinPitch 50 Hz) that rise above the 99th
// intensity percentile minus |SilenceDB|, are followed by a dip of more than
// MinDipDB before the next peak, fall in a sounding interval (Praat's
// silence detection with a threshold relative to the maximum, pauses of at
// least MinPause) and are voiced in a pitch analysis with the script's
// parameters (cfg.Pitch).
//
// Two details differ from the published script, both documented in
// docs/speech.md: the voicing analysis runs on a copy resampled to
// PitchRate (4 kHz) for speed; and, as in the script, the last peak is never
// counted because no dip after it is measured.
func DetectSyllables(s *Sound, cfg SyllableConfig) (*Syllables, error) {
	in, err := ToIntensity(s, IntensityConfig{MinPitch: cfg.MinPitch, SubtractMean: true})
	if err != nil {
		return nil, fmt.Errorf("syllables: %w", err)
	}
	in100, err := ToIntensity(s, DefaultIntensityConfig())
	if err != nil {
		return nil, fmt.Errorf("syllables: %w", err)
	}
	voicing, err := voicingPitch(s, cfg)
	if err != nil {
		return nil, err
	}
	return syllablesFrom(in, in100, voicing, s.Duration(), cfg)
}

// voicingPitch runs the syllable detector's pitch analysis (cfg.Pitch at
// cfg.PitchRate).
func voicingPitch(s *Sound, cfg SyllableConfig) (*Pitch, error) {
	if cfg.PitchRate > 0 && cfg.PitchRate < s.Rate {
		// A short filter is enough: the analysis only asks "voiced or not"
		// below a 450 Hz ceiling, far from the new Nyquist frequency.
		var err error
		if s, err = Resample(s, cfg.PitchRate, ResampleConfig{Zeros: 8}); err != nil {
			return nil, fmt.Errorf("syllables: %w", err)
		}
	}
	p, err := ToPitch(s, cfg.Pitch)
	if err != nil {
		return nil, fmt.Errorf("syllables: voicing: %w", err)
	}
	return p, nil
}

// syllablesFrom runs the detector on computed contours: in (MinPitch) for
// peaks, in100 (Praat's default 100 Hz) for silences, pitch for voicing.
func syllablesFrom(in, in100 *Intensity, pitch *Pitch, duration float64, cfg SyllableConfig) (*Syllables, error) {
	minInt := in.extremum(false)
	maxInt := in.extremum(true)
	max99 := in.Quantile(0.99)
	threshold := max99 + cfg.SilenceDB
	if threshold < minInt {
		threshold = minInt
	}
	threshold = max(threshold, silenceFloorDB)
	silenceRel := cfg.SilenceDB - (maxInt - max99)
	iv, err := silencesFromIntensity(in100, duration, SilenceConfig{ThresholdDB: silenceRel, MinSilence: cfg.MinPause, MinSounding: 0.1}, silenceFloorDB)
	if err != nil {
		return nil, err
	}
	out := &Syllables{Intervals: iv, Duration: duration, ThresholdDB: threshold}

	// Peaks of the contour, refined by sinc interpolation, and their
	// (cubic-interpolated) heights.
	y := in.DB
	type peak struct{ t, v float64 }
	var peaks []peak
	for i := 1; i+1 < len(y); i++ {
		if y[i] > y[i-1] && y[i] >= y[i+1] {
			x, _ := improveMaximum(y, i, sincDepth70)
			t := in.T1 + x*in.Step
			if v := interpolateCubic(y, x); v > threshold {
				peaks = append(peaks, peak{t, v})
			}
		}
	}
	// A peak counts when the dip before the next peak is deep enough.
	var valid []float64
	if len(peaks) > 0 {
		curT, curV := peaks[0].t, peaks[0].v
		for p := 0; p+1 < len(peaks); p++ {
			next := peaks[p+1].t
			dip := in.MinBetween(curT, next)
			if math.Abs(curV-dip) > cfg.MinDipDB {
				valid = append(valid, peaks[p].t)
			}
			curT, curV = next, in.ValueNearest(next)
		}
	}
	// Keep the voiced peaks in sounding intervals.
	for _, t := range valid {
		lab, ok := labelAt(iv, t)
		if ok && !lab.Silent && pitch.ValueAt(t) > 0 {
			out.Nuclei = append(out.Nuclei, t)
		}
	}
	return out, nil
}

// interpolateCubic evaluates y at fractional index x with Praat's cubic
// (NUM_VALUE_INTERPOLATE_CUBIC) interpolation, falling back to linear next
// to the ends.
func interpolateCubic(y []float64, x float64) float64 {
	n := len(y)
	if x <= 0 {
		return y[0]
	}
	if x >= float64(n-1) {
		return y[n-1]
	}
	l := int(math.Floor(x))
	r := l + 1
	fl := x - float64(l)
	if l == 0 || r == n-1 {
		return y[l] + fl*(y[r]-y[l])
	}
	yl, yr := y[l], y[r]
	dyl, dyr := 0.5*(yr-y[l-1]), 0.5*(y[r+1]-yl)
	fr := 1 - fl
	return yl*fr + yr*fl - fl*fr*(0.5*(dyr-dyl)+(fl-0.5)*(dyl+dyr-2*(yr-yl)))
}
