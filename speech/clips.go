package speech

import (
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/roleprint/roleprint/stats"
)

// Clips: analyses over a list of WAV files named by their file names (the
// synthetic eSpeak clips of speech/testdata/espeak, made by
// scripts/speech-make-fixtures.sh, or any folder of clips), so that a
// notebook cell calls one function instead of looping over files.

// ClipName is a clip's file name without folder and extension
// ("a/voice-en-f2-p70-a.wav" → "voice-en-f2-p70-a").
func ClipName(path string) string {
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
}

// AnalyzeFiles analyses every WAV file with AnalyzeFile (no transcript),
// in order, and names each result's File by ClipName. The first file that
// fails is the error.
func AnalyzeFiles(paths []string, cfg Config) ([]*Features, error) {
	out := make([]*Features, 0, len(paths))
	for _, p := range paths {
		f, err := AnalyzeFile(p, "", cfg)
		if err != nil {
			return nil, err
		}
		f.File = ClipName(p)
		out = append(out, f)
	}
	return out, nil
}

// NamedPitch is one clip's F0 track and its name (plots/paperfig draws
// them as Tracks).
type NamedPitch struct {
	Name  string
	Pitch *Pitch
}

// PitchFiles loads every WAV file at the analysis rate and computes its
// F0 track with ToPitch, named name(path) (ClipName when name is nil).
func PitchFiles(paths []string, cfg PitchConfig, name func(path string) string) ([]NamedPitch, error) {
	if name == nil {
		name = ClipName
	}
	out := make([]NamedPitch, 0, len(paths))
	for _, p := range paths {
		s, err := Load(p, 0)
		if err != nil {
			return nil, err
		}
		pt, err := ToPitch(s, cfg)
		if err != nil {
			return nil, fmt.Errorf("pitch of %s: %w", p, err)
		}
		out = append(out, NamedPitch{Name: name(p), Pitch: pt})
	}
	return out, nil
}

// GroupFeatures groups features by key(f) (a character, a speaker), for
// BuildProfiles; each group keeps the order of fs.
func GroupFeatures(fs []*Features, key func(*Features) string) map[string][]*Features {
	out := map[string][]*Features{}
	for _, f := range fs {
		k := key(f)
		out[k] = append(out[k], f)
	}
	return out
}

// RateSweep pairs the speaking-rate setting of the rate clips with the
// rate measured on them, sorted by setting. It is a plotter.XYer of
// gonum/plot (Len, XY) without importing it.
type RateSweep struct {
	// Setting is each clip's eSpeak -s setting, in words per minute.
	Setting []float64
	// Measured is each clip's Features.SpeakingRateSylS.
	Measured []float64
}

// RateSweepOf reads the rate clips among fs: those whose File is
// "rate-…-sN" (scripts/speech-make-fixtures.sh's eSpeak -s N), sorted by N
// (ties keep fs's order). Other clips, and names whose N is not a number,
// are left out.
func RateSweepOf(fs []*Features) RateSweep {
	type point struct{ x, y float64 }
	var pts []point
	for _, f := range fs {
		i := strings.LastIndex(f.File, "-s")
		if !strings.HasPrefix(f.File, "rate-") || i < 0 {
			continue
		}
		wpm, err := strconv.ParseFloat(f.File[i+2:], 64)
		if err != nil {
			continue
		}
		pts = append(pts, point{wpm, f.SpeakingRateSylS})
	}
	sort.SliceStable(pts, func(i, j int) bool { return pts[i].x < pts[j].x })
	r := RateSweep{Setting: make([]float64, len(pts)), Measured: make([]float64, len(pts))}
	for i, p := range pts {
		r.Setting[i], r.Measured[i] = p.x, p.y
	}
	return r
}

// Len is the number of rate clips.
func (r RateSweep) Len() int { return len(r.Setting) }

// XY returns clip i's setting and measured rate.
func (r RateSweep) XY(i int) (x, y float64) { return r.Setting[i], r.Measured[i] }

// ClipReference is one clip of SelectReferenceFiles.
type ClipReference struct {
	// Clip is the clip's ClipName.
	Clip string `json:"clip"`
	// MeanCosine is its embedding's mean cosine to the other clips' (NaN
	// for a single clip).
	MeanCosine float64 `json:"mean_cosine"`
	// Reference marks the clip SelectReference picks.
	Reference bool `json:"reference"`
}

// MarshalJSON writes NaN as null.
func (r ClipReference) MarshalJSON() ([]byte, error) { return stats.MarshalStruct(r) }

// SelectReferenceFiles embeds every WAV file (Load at the analysis rate,
// then Embed with cfg) and runs SelectReference over them: one row per
// file, in order, the reference marked.
func SelectReferenceFiles(paths []string, cfg EmbedConfig) ([]ClipReference, error) {
	embs := make([][]float64, 0, len(paths))
	for _, p := range paths {
		s, err := Load(p, 0)
		if err != nil {
			return nil, err
		}
		e, err := Embed(s, cfg)
		if err != nil {
			return nil, fmt.Errorf("embed %s: %w", p, err)
		}
		embs = append(embs, e)
	}
	best, meanSim, err := SelectReference(embs)
	if err != nil {
		return nil, err
	}
	out := make([]ClipReference, len(paths))
	for i, p := range paths {
		out[i] = ClipReference{Clip: ClipName(p), MeanCosine: meanSim[i], Reference: i == best}
	}
	return out, nil
}
