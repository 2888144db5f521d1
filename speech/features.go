package speech

import (
	"fmt"
	"math"
	"unicode"

	"github.com/roleprint/roleprint/stats"
)

// Config gathers the parameters of Analyze. DefaultConfig returns Praat's
// defaults for every analysis; each field is documented on its own type.
type Config struct {
	// Rate is the analysis sample rate in Hz (default 16000); sounds at
	// another rate are resampled first. 0 analyses at the file's own rate.
	Rate float64
	// Pitch configures the F0 track (Praat "To Pitch (ac)", 75–600 Hz).
	Pitch PitchConfig
	// Intensity configures the intensity contour (Praat "To Intensity",
	// 100 Hz, subtract mean).
	Intensity IntensityConfig
	// Averaging is how IntensityMeanDB averages frames (default
	// AverageEnergy, Praat's "Get mean… energy").
	Averaging Averaging
	// Syllables configures speaking-rate and pause detection (de Jong &
	// Wempe 2009).
	Syllables SyllableConfig
}

// DefaultConfig returns the defaults of every analysis at 16 kHz.
func DefaultConfig() Config {
	return Config{
		Rate:      DefaultRate,
		Pitch:     DefaultPitchConfig(),
		Intensity: DefaultIntensityConfig(),
		Averaging: AverageEnergy,
		Syllables: DefaultSyllableConfig(),
	}
}

// Features summarises one utterance: what `roleprint speech features`
// prints. Undefined values (no voiced frame, no transcript) are NaN and
// print as JSON null.
type Features struct {
	// File is the audio the features came from.
	File string `json:"file"`
	// DurationS is the analysed duration in seconds.
	DurationS float64 `json:"duration_s"`
	// F0MeanHz, F0MedianHz and F0StdHz summarise the voiced frames' F0.
	F0MeanHz   float64 `json:"f0_mean_hz"`
	F0MedianHz float64 `json:"f0_median_hz"`
	F0StdHz    float64 `json:"f0_std_hz"`
	// F0MeanST, F0MedianST and F0StdST are the same in semitones re 100 Hz.
	F0MeanST   float64 `json:"f0_mean_st"`
	F0MedianST float64 `json:"f0_median_st"`
	F0StdST    float64 `json:"f0_std_st"`
	// VoicedFraction is the share of pitch frames that are voiced.
	VoicedFraction float64 `json:"voiced_fraction"`
	// VoicedFrames is the number of voiced pitch frames (weights F0 when
	// utterances are pooled).
	VoicedFrames int `json:"voiced_frames"`
	// IntensityMeanDB is the mean intensity in dB, averaged as
	// Config.Averaging says (energy by default).
	IntensityMeanDB float64 `json:"intensity_mean_db"`
	// Syllables is the number of syllable nuclei.
	Syllables int `json:"syllables"`
	// SpeakingRateSylS is syllables per second of the whole duration.
	SpeakingRateSylS float64 `json:"speaking_rate_syl_s"`
	// ArticulationRateSylS is syllables per second of phonation time.
	ArticulationRateSylS float64 `json:"articulation_rate_syl_s"`
	// PhonationS is the time spent sounding (outside pauses).
	PhonationS float64 `json:"phonation_s"`
	// PauseRatio is the share of the speech span spent in pauses of at
	// least 0.3 s (leading and trailing silence excluded).
	PauseRatio float64 `json:"pause_ratio"`
	// Pauses counts those pauses.
	Pauses int `json:"pauses"`
	// Words is the number of words of the transcript (0 without one).
	Words int `json:"words"`
	// WordsPerS is Words per second of the whole duration (NaN without a
	// transcript).
	WordsPerS float64 `json:"words_per_s"`
}

// MarshalJSON writes the fields in order, NaN and infinite values as null.
func (f Features) MarshalJSON() ([]byte, error) { return stats.MarshalStruct(f) }

// UnmarshalJSON reads null back as NaN.
func (f *Features) UnmarshalJSON(b []byte) error { return stats.UnmarshalStruct(b, f) }

// Analyze measures one sound: it resamples to cfg.Rate, tracks pitch,
// computes intensity and detects syllable nuclei and pauses. transcript,
// when not empty, gives the words for WordsPerS.
func Analyze(s *Sound, transcript string, cfg Config) (*Features, error) {
	var err error
	if cfg.Rate > 0 && s.Rate != cfg.Rate {
		if s, err = Resample(s, cfg.Rate, ResampleConfig{}); err != nil {
			return nil, err
		}
	}
	p, err := ToPitch(s, cfg.Pitch)
	if err != nil {
		return nil, err
	}
	in, err := ToIntensity(s, cfg.Intensity)
	if err != nil {
		return nil, err
	}
	in50, err := ToIntensity(s, IntensityConfig{MinPitch: cfg.Syllables.MinPitch, SubtractMean: true})
	if err != nil {
		return nil, fmt.Errorf("syllables: %w", err)
	}
	in100 := in
	if cfg.Intensity != DefaultIntensityConfig() {
		if in100, err = ToIntensity(s, DefaultIntensityConfig()); err != nil {
			return nil, err
		}
	}
	voicing, err := voicingPitch(s, cfg.Syllables)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	syl, err := syllablesFrom(in50, in100, voicing, s.Duration(), cfg.Syllables)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	unvoiceBelowFloor(p, in100)
	ps := p.Stats()
	f := &Features{
		File:                 s.Name,
		DurationS:            s.Duration(),
		F0MeanHz:             ps.MeanHz,
		F0MedianHz:           ps.MedianHz,
		F0StdHz:              ps.StdHz,
		F0MeanST:             ps.MeanST,
		F0MedianST:           ps.MedianST,
		F0StdST:              ps.StdST,
		VoicedFraction:       ps.VoicedFraction(),
		VoicedFrames:         ps.Voiced,
		IntensityMeanDB:      in.Mean(cfg.Averaging),
		Syllables:            syl.Count(),
		SpeakingRateSylS:     syl.SpeakingRate(),
		ArticulationRateSylS: syl.ArticulationRate(),
		PhonationS:           syl.PhonationTime(),
		PauseRatio:           syl.PauseRatio(),
		Pauses:               syl.Pauses(),
		WordsPerS:            math.NaN(),
	}
	if transcript != "" {
		f.Words = countWords(transcript)
		f.WordsPerS = float64(f.Words) / f.DurationS
	}
	return f, nil
}

// AnalyzeFile loads a WAV file and analyses it (see Analyze).
func AnalyzeFile(path, transcript string, cfg Config) (*Features, error) {
	s, err := ReadWAV(path)
	if err != nil {
		return nil, err
	}
	return Analyze(s, transcript, cfg)
}

// countWords counts the words of a transcript: maximal runs of letters and
// digits, with inner apostrophes and hyphens kept inside a word ("don't",
// "well-known" are one word each).
func countWords(text string) int {
	n := 0
	in := false
	rs := []rune(text)
	for i, r := range rs {
		word := unicode.IsLetter(r) || unicode.IsDigit(r)
		if !word && in && (r == '\'' || r == '’' || r == '-') && i+1 < len(rs) &&
			(unicode.IsLetter(rs[i+1]) || unicode.IsDigit(rs[i+1])) {
			word = true
		}
		if word && !in {
			n++
		}
		in = word
	}
	return n
}

// unvoiceBelowFloor clears the F0 of pitch frames where the intensity is
// below the silence floor (silenceFloorDBFS): the pitch tracker's voicing
// threshold is relative to the sound's own peak, so it finds a "voice" in
// the hum of a near-silent stretch.
func unvoiceBelowFloor(p *Pitch, in *Intensity) {
	for i := range p.F0 {
		if in.ValueNearest(p.Time(i)) < silenceFloorDB {
			p.F0[i], p.Strength[i] = 0, 0
		}
	}
}
