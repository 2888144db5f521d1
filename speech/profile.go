package speech

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/roleprint/roleprint/stats"
)

// Level is a character's bin for one acoustic feature, relative to the
// other characters of the corpus.
type Level int

const (
	// Unknown marks a feature that could not be measured (no voiced frame).
	Unknown Level = iota
	// Low is the bottom share of characters (20 % by default).
	Low
	// Medium is the middle share (60 %).
	Medium
	// High is the top share (20 %).
	High
)

// String returns "Low", "Medium", "High" or "Unknown".
func (l Level) String() string {
	switch l {
	case Low:
		return "Low"
	case Medium:
		return "Medium"
	case High:
		return "High"
	}
	return "Unknown"
}

// MarshalText writes the level's name (so JSON shows "High").
func (l Level) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// BinConfig sets the shares of the Low and High bins.
type BinConfig struct {
	// LowShare and HighShare are the fractions of characters binned Low
	// and High (VoxRole: 0.2 each; the middle 60 % are Medium).
	LowShare, HighShare float64
}

// DefaultBinConfig returns VoxRole's 20/60/20 split.
func DefaultBinConfig() BinConfig { return BinConfig{LowShare: 0.2, HighShare: 0.2} }

// Bin ranks values and bins them: with n defined values, the
// round(n·LowShare) lowest are Low, the round(n·HighShare) highest High, the
// rest Medium (so 2 characters are both Medium, 3 are one of each, 5 are
// 1/3/1, 10 are 2/6/2). Tied values share their average rank and hence a
// bin. NaN values are Unknown and are not ranked.
func Bin(values []float64, cfg BinConfig) []Level {
	out := make([]Level, len(values))
	var idx []int
	var defined []float64
	for i, v := range values {
		if !math.IsNaN(v) {
			idx = append(idx, i)
			defined = append(defined, v)
		}
	}
	n := len(defined)
	kLow := int(math.Round(float64(n) * cfg.LowShare))
	kHigh := int(math.Round(float64(n) * cfg.HighShare))
	for j, rank := range stats.MidRanks(defined) {
		lvl := Medium
		switch {
		case rank <= float64(kLow):
			lvl = Low
		case rank > float64(n-kHigh):
			lvl = High
		}
		out[idx[j]] = lvl
	}
	return out
}

// Profile is a character's acoustic profile: what their voice sounds like
// across all their utterances, and where that places them among the
// corpus's characters.
type Profile struct {
	// Character is the speaker name.
	Character string `json:"character"`
	// Utterances is the number of utterances analysed; DurationS their
	// total duration in seconds.
	Utterances int     `json:"utterances"`
	DurationS  float64 `json:"duration_s"`
	// F0MeanHz is the mean F0 over all voiced frames of all utterances.
	F0MeanHz float64 `json:"f0_mean_hz"`
	// IntensityMeanDB is the energy average of the utterances' mean
	// intensities, weighted by duration.
	IntensityMeanDB float64 `json:"intensity_mean_db"`
	// SpeakingRateSylS is all syllable nuclei over all duration.
	SpeakingRateSylS float64 `json:"speaking_rate_syl_s"`
	// Pitch, Energy and Rate are the character's bins among the corpus's
	// characters.
	Pitch  Level `json:"pitch"`
	Energy Level `json:"energy"`
	Rate   Level `json:"speaking_rate"`
}

// MarshalJSON writes NaN as null.
func (p Profile) MarshalJSON() ([]byte, error) { return stats.MarshalStruct(p) }

// Tags renders the profile as the line a judge prompt includes (VoxRole's
// acoustic-aware judge input), e.g.
//
//	Pitch: High (mean F0 212 Hz); Energy: Medium (63.1 dB); Speaking rate: Low (3.1 syllables/s)
func (p Profile) Tags() string {
	num := func(v float64, format string) string {
		if math.IsNaN(v) {
			return "not measured"
		}
		return fmt.Sprintf(format, v)
	}
	return fmt.Sprintf("Pitch: %s (mean F0 %s); Energy: %s (%s); Speaking rate: %s (%s)",
		p.Pitch, num(p.F0MeanHz, "%.0f Hz"), p.Energy, num(p.IntensityMeanDB, "%.1f dB"),
		p.Rate, num(p.SpeakingRateSylS, "%.1f syllables/s"))
}

// BuildProfiles pools each character's utterance features and bins the
// characters (see Bin). byCharacter maps a character to the features of
// their utterances. Profiles come back sorted by character name.
func BuildProfiles(byCharacter map[string][]*Features, cfg BinConfig) ([]Profile, error) {
	if len(byCharacter) == 0 {
		return nil, fmt.Errorf("profiles: no characters")
	}
	names := make([]string, 0, len(byCharacter))
	for c := range byCharacter {
		names = append(names, c)
	}
	sort.Strings(names)
	profiles := make([]Profile, len(names))
	for i, c := range names {
		p := Profile{Character: c}
		var f0Sum, f0N, energy, syl float64
		for _, f := range byCharacter[c] {
			if f == nil {
				continue
			}
			p.Utterances++
			p.DurationS += f.DurationS
			if f.VoicedFrames > 0 && !math.IsNaN(f.F0MeanHz) {
				f0Sum += f.F0MeanHz * float64(f.VoicedFrames)
				f0N += float64(f.VoicedFrames)
			}
			if !math.IsNaN(f.IntensityMeanDB) {
				energy += math.Pow(10, f.IntensityMeanDB/10) * f.DurationS
			}
			syl += float64(f.Syllables)
		}
		if p.Utterances == 0 {
			return nil, fmt.Errorf("profiles: character %q has no analysed utterances", c)
		}
		p.F0MeanHz, p.IntensityMeanDB, p.SpeakingRateSylS = math.NaN(), math.NaN(), math.NaN()
		if f0N > 0 {
			p.F0MeanHz = f0Sum / f0N
		}
		if p.DurationS > 0 {
			if energy > 0 {
				p.IntensityMeanDB = 10 * math.Log10(energy/p.DurationS)
			}
			p.SpeakingRateSylS = syl / p.DurationS
		}
		profiles[i] = p
	}
	column := func(get func(*Profile) float64) []float64 {
		v := make([]float64, len(profiles))
		for i := range profiles {
			v[i] = get(&profiles[i])
		}
		return v
	}
	pitch := Bin(column(func(p *Profile) float64 { return p.F0MeanHz }), cfg)
	energy := Bin(column(func(p *Profile) float64 { return p.IntensityMeanDB }), cfg)
	rate := Bin(column(func(p *Profile) float64 { return p.SpeakingRateSylS }), cfg)
	for i := range profiles {
		profiles[i].Pitch, profiles[i].Energy, profiles[i].Rate = pitch[i], energy[i], rate[i]
	}
	return profiles, nil
}

// RenderProfiles writes one "NAME: tags" line per profile, the block a
// judge prompt can include as is.
func RenderProfiles(profiles []Profile) string {
	var b strings.Builder
	for _, p := range profiles {
		fmt.Fprintf(&b, "%s: %s\n", p.Character, p.Tags())
	}
	return b.String()
}
