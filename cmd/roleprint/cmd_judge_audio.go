package main

import (
	"context"
	"flag"
	"fmt"
	"github.com/roleprint/roleprint/speech/frontend"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/llm"
	"github.com/roleprint/roleprint/persona/judge"
)

// judgeAudioFlags are the flags with which `roleprint judge` computes the
// characters' acoustic profiles from recordings (VoxRole's acoustic-aware
// judge input) instead of reading them from the instances.
type judgeAudioFlags struct {
	corpus, dir, cache *string
}

func addJudgeAudioFlags(fs *flag.FlagSet) judgeAudioFlags {
	return judgeAudioFlags{
		corpus: fs.String("audio-corpus", "", "voxrole, ablation: utterances Parquet with audio_path (speaker = character); each character's acoustic profile (pitch, energy, speaking rate binned Low/Medium/High at 20/60/20 %, see docs/speech.md) fills the instances' empty profile"),
		dir:    fs.String("audio-dir", "", "with --audio-corpus: folder relative audio paths are resolved against (default: the Parquet file's folder)"),
		cache:  fs.String("speech-cache", "", "with --audio-corpus: JSON-lines cache of per-utterance acoustic results (as 'speech profile --cache')"),
	}
}

// judgeAcoustic is what --audio-corpus produced: per character the tag
// line of the speech package and the tags parsed from it.
type judgeAcoustic struct {
	Lines map[string]string
	Tags  map[string]judge.AcousticTags
}

// load analyses the corpus's audio (nil, nil without --audio-corpus).
func (f judgeAudioFlags) load(ctx context.Context, e *env) (*judgeAcoustic, error) {
	if *f.corpus == "" {
		if *f.dir != "" || *f.cache != "" {
			return nil, usagef("--audio-dir and --speech-cache go with --audio-corpus")
		}
		return nil, nil
	}
	utts, err := data.ReadUtterances(*f.corpus)
	if err != nil {
		return nil, fmt.Errorf("--audio-corpus: %w", err) // the error names the file
	}
	cfg := frontend.DefaultCorpusConfig()
	cfg.BaseDir, cfg.CachePath = *f.dir, *f.cache
	if cfg.BaseDir == "" {
		cfg.BaseDir = filepath.Dir(*f.corpus)
	}
	report, finish := e.progress("acoustic profiles")
	cfg.Progress = report
	lines, err := frontend.ProfileTags(ctx, utts, cfg)
	finish()
	if err != nil {
		return nil, fmt.Errorf("--audio-corpus %s: %w", *f.corpus, err)
	}
	return parseProfileLines(lines)
}

// parseProfileLines turns the speech package's tag lines into judge tags.
func parseProfileLines(lines map[string]string) (*judgeAcoustic, error) {
	a := &judgeAcoustic{Lines: lines, Tags: map[string]judge.AcousticTags{}}
	for c, l := range lines {
		t, err := judge.ParseTags(l)
		if err != nil {
			return nil, fmt.Errorf("acoustic profile of %s (%q): %w", c, l, err)
		}
		a.Tags[c] = t
	}
	return a, nil
}

// fill sets profile to the role's tags when it is empty and the role has a
// profile; it reports whether it did.
func (a *judgeAcoustic) fill(role string, profile *judge.AcousticTags) bool {
	if a == nil || !profile.Empty() {
		return false
	}
	t, ok := a.Tags[role]
	if !ok || t.Empty() {
		return false
	}
	*profile = t
	return true
}

// missing lists the roles that have no acoustic profile.
func (a *judgeAcoustic) missing(roles map[string]bool) []string {
	var out []string
	for r := range roles {
		if _, ok := a.Tags[r]; !ok {
			out = append(out, r)
		}
	}
	sort.Strings(out)
	return out
}

// speechRoleJudge returns the SpeechRole judge for the instances file
// path: with --judge-audio an AudioPairJudge (with prompts) reading the recordings
// relative to the file (converting formats input_audio does not take to
// WAV), else pj.
func speechRoleJudge(pj judge.PairJudge, c *llm.Client, prompts *llm.Prompts, audio bool, path string) judge.PairJudge {
	if !audio || c == nil {
		return pj
	}
	return &judge.AudioPairJudge{Client: c, Prompts: prompts, BaseDir: filepath.Dir(path), Load: judgeAudioLoad}
}

// speechJudgedOn labels what a SpeechRole system's speech dimensions were
// judged on.
func speechJudgedOn(j judge.PairJudge) string {
	aj, ok := j.(*judge.AudioPairJudge)
	if !ok {
		return "text"
	}
	a, t := aj.Modality()
	switch {
	case t == 0 && a > 0:
		return "audio"
	case a == 0:
		return "text"
	}
	return fmt.Sprintf("mixed: %d pairs on audio, %d on text", a, t)
}

// judgeAudioLoad reads a recording for an input_audio part: WAV and MP3 as
// they are, anything else decoded to 16 kHz mono WAV by the speech front
// end (ffmpeg).
func judgeAudioLoad(path string) ([]byte, string, error) {
	if b, format, err := judge.LoadAudioFile(path); err == nil || !strings.Contains(err.Error(), "convert") {
		return b, format, err
	}
	wav, cleanup, err := frontend.ConvertWAV(context.Background(), path, frontend.DecodeOptions{Rate: frontend.ASRRate})
	if err != nil {
		return nil, "", err
	}
	defer cleanup()
	b, err := os.ReadFile(wav)
	return b, "wav", err
}
