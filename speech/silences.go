package speech

import (
	"fmt"
	"math"
)

// SilenceConfig holds the parameters of Praat's "Sound: To TextGrid
// (silences)...".
type SilenceConfig struct {
	// Intensity configures the intensity contour the detection runs on
	// (Praat: minimum pitch 100 Hz, automatic time step, subtract mean).
	Intensity IntensityConfig
	// ThresholdDB is the silence threshold relative to the contour's
	// maximum, a negative number of dB (default −25).
	ThresholdDB float64
	// MinSilence is the shortest silent interval kept, in seconds
	// (default 0.1); shorter ones become part of the sounding speech.
	MinSilence float64
	// MinSounding is the shortest sounding interval kept, in seconds
	// (default 0.1); shorter ones become silence.
	MinSounding float64
}

// DefaultSilenceConfig returns Praat's defaults (−25 dB, 0.1 s, 0.1 s).
func DefaultSilenceConfig() SilenceConfig {
	return SilenceConfig{Intensity: DefaultIntensityConfig(), ThresholdDB: -25, MinSilence: 0.1, MinSounding: 0.1}
}

// Interval is a stretch of a sound, silent or sounding.
type Interval struct {
	// Start and End are in seconds.
	Start, End float64
	// Silent marks a pause.
	Silent bool
}

// Duration returns End − Start.
func (iv Interval) Duration() float64 { return iv.End - iv.Start }

// DetectSilences splits s into silent and sounding intervals as Praat's
// "To TextGrid (silences)": frames of the intensity contour more than
// |ThresholdDB| below its maximum are silent, a boundary falls at the centre
// of the first frame of the new state, then sounding intervals shorter than
// MinSounding and, after them, silent ones shorter than MinSilence are
// absorbed by their neighbours.
func DetectSilences(s *Sound, cfg SilenceConfig) ([]Interval, error) {
	in, err := ToIntensity(s, cfg.Intensity)
	if err != nil {
		return nil, err
	}
	return silencesFromIntensity(in, s.Duration(), cfg, math.Inf(-1))
}

// silencesFromIntensity is DetectSilences on a computed contour, with an
// absolute floor: frames below floorDB (intensity dB) are silent too
// (math.Inf(-1): none, as Praat).
func silencesFromIntensity(in *Intensity, duration float64, cfg SilenceConfig, floorDB float64) ([]Interval, error) {
	if cfg.ThresholdDB >= 0 {
		return nil, fmt.Errorf("silences: threshold %g dB, expected a negative number (dB below the maximum)", cfg.ThresholdDB)
	}
	maxDB, minDB := in.extremum(true), in.extremum(false)
	// Below the floor everywhere: one pause, however the frames vary.
	all := []Interval{{Start: 0, End: duration, Silent: maxDB < floorDB}}
	threshold := maxDB - math.Abs(cfg.ThresholdDB)
	if threshold < minDB {
		threshold = math.Inf(-1) // no frame is silent relative to the maximum
	}
	threshold = max(threshold, floorDB)
	if cfg.MinSilence > duration || threshold < minDB || all[0].Silent {
		return all, nil
	}
	var out []Interval
	start := 0.0
	silent := in.DB[0] < threshold
	for i := 1; i < len(in.DB); i++ {
		now := in.DB[i] < threshold
		if now != silent {
			t := in.T1 + float64(i)*in.Step // the first frame of the new state, as Praat
			out = append(out, Interval{Start: start, End: t, Silent: silent})
			start, silent = t, now
		}
	}
	out = append(out, Interval{Start: start, End: duration, Silent: silent})
	// As Praat: first short sounding stretches become silence (so that a
	// click inside a pause does not split it), then short silences become
	// sounding.
	out = absorbShort(out, false, cfg.MinSounding)
	out = absorbShort(out, true, cfg.MinSilence)
	return out, nil
}

// absorbShort relabels intervals of the given kind shorter than minDur as
// the other kind and merges neighbours that now share a label.
func absorbShort(iv []Interval, silent bool, minDur float64) []Interval {
	for i := range iv {
		if iv[i].Silent == silent && iv[i].Duration() < minDur && len(iv) > 1 {
			iv[i].Silent = !silent
		}
	}
	var out []Interval
	for _, x := range iv {
		if n := len(out); n > 0 && out[n-1].Silent == x.Silent {
			out[n-1].End = x.End
			continue
		}
		out = append(out, x)
	}
	return out
}

// labelAt returns the interval containing t (the later one on a boundary).
func labelAt(iv []Interval, t float64) (Interval, bool) {
	for _, x := range iv {
		if t >= x.Start && t < x.End {
			return x, true
		}
	}
	if n := len(iv); n > 0 && t == iv[n-1].End {
		return iv[n-1], true
	}
	return Interval{}, false
}
