package judge

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"

	"github.com/roleprint/roleprint/speech"
)

// sentenceRef points at one sentence with a recording: a context turn
// (turn ≥ 0) or the response (turn −1) of instance inst.
type sentenceRef struct {
	inst, turn int
	speaker    string
	path       string
}

// FillSentenceTags computes VoxRole's per-sentence acoustic tags from the
// recordings the instances name (Turn.Audio, VRInstance.ResponseAudio),
// for every sentence whose tags are empty: each recording's mean pitch
// (F0, Hz), mean intensity (dB) and speaking rate (syllables/s) are
// measured with the speech package (speech.AnalyzeFile with cfg), and
// binned Low/Medium/High per speaker at speech.DefaultBinConfig's
// 20/60/20 % over that speaker's recorded sentences in insts (a
// response's speaker is the instance's Role). Relative paths are resolved
// against baseDir. A feature that cannot be measured (no voiced frame)
// leaves its tag empty. It returns how many sentences got tags; an
// unreadable recording is an error naming the instance and the file.
func FillSentenceTags(insts []VRInstance, baseDir string, cfg speech.Config) (int, error) {
	var refs []sentenceRef
	resolve := func(p string) string {
		if filepath.IsAbs(p) || baseDir == "" {
			return p
		}
		return filepath.Join(baseDir, p)
	}
	for i := range insts {
		in := &insts[i]
		for k, t := range in.Context {
			if t.Audio != "" && t.Tags.Empty() {
				refs = append(refs, sentenceRef{i, k, t.Speaker, resolve(t.Audio)})
			}
		}
		if in.ResponseAudio != "" && in.ResponseTags.Empty() {
			refs = append(refs, sentenceRef{i, -1, in.Role, resolve(in.ResponseAudio)})
		}
	}
	if len(refs) == 0 {
		return 0, nil
	}
	// Measure every recording once.
	feats := map[string][3]float64{}
	for _, r := range refs {
		if _, done := feats[r.path]; done {
			continue
		}
		text := insts[r.inst].Response
		if r.turn >= 0 {
			text = insts[r.inst].Context[r.turn].Text
		}
		f, err := speech.AnalyzeFile(r.path, text, cfg)
		if err != nil {
			return 0, fmt.Errorf("voxrole: instance %q: %w", insts[r.inst].ID, err)
		}
		feats[r.path] = [3]float64{f.F0MeanHz, f.IntensityMeanDB, f.SpeakingRateSylS}
	}
	// Bin per speaker over the speaker's distinct recordings.
	bySpeaker := map[string][]string{}
	seen := map[[2]string]bool{}
	for _, r := range refs {
		if k := [2]string{r.speaker, r.path}; !seen[k] {
			seen[k] = true
			bySpeaker[r.speaker] = append(bySpeaker[r.speaker], r.path)
		}
	}
	levels := map[[2]string][3]string{}
	speakers := make([]string, 0, len(bySpeaker))
	for s := range bySpeaker {
		speakers = append(speakers, s)
	}
	sort.Strings(speakers)
	for _, s := range speakers {
		paths := bySpeaker[s]
		var lv [3][]speech.Level
		for f := range 3 {
			vals := make([]float64, len(paths))
			for i, p := range paths {
				v := feats[p][f]
				if math.IsInf(v, 0) {
					v = math.NaN()
				}
				vals[i] = v
			}
			lv[f] = speech.Bin(vals, speech.DefaultBinConfig())
		}
		for i, p := range paths {
			levels[[2]string{s, p}] = [3]string{tagOf(lv[0][i]), tagOf(lv[1][i]), tagOf(lv[2][i])}
		}
	}
	n := 0
	for _, r := range refs {
		l := levels[[2]string{r.speaker, r.path}]
		tags := AcousticTags{Pitch: l[0], Energy: l[1], Rate: l[2]}
		if tags.Empty() {
			continue
		}
		if r.turn >= 0 {
			insts[r.inst].Context[r.turn].Tags = tags
		} else {
			insts[r.inst].ResponseTags = tags
		}
		n++
	}
	return n, nil
}

// tagOf renders a speech level as a tag ("" for Unknown).
func tagOf(l speech.Level) string {
	if l == speech.Unknown {
		return ""
	}
	return l.String()
}

// FillAblationTags is FillSentenceTags for the context-length ablation:
// the history turns of items that name a recording (Turn.Audio, set by
// AblationItems from the corpus rows' audio_path) and have no tags get
// per-sentence tags, binned per speaker over the speaker's recorded turns
// in all items. It returns how many distinct item turns got tags.
func FillAblationTags(items []AblationItem, baseDir string, cfg speech.Config) (int, error) {
	insts := make([]VRInstance, len(items))
	for i, it := range items {
		insts[i] = VRInstance{ID: it.ID, Role: it.Role, Context: it.History}
	}
	return FillSentenceTags(insts, baseDir, cfg)
}
