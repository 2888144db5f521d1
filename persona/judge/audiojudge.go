package judge

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/roleprint/roleprint/llm"

	"github.com/roleprint/roleprint/internal/fsx"
)

// SpeechDimensionCodes are the SpeechRole dimensions that are about how
// the response sounds: Speech Fluency, Speech Naturalness, Prosody
// Consistency and Emotion Appropriateness. AudioPairJudge judges them on
// the recordings; the others stay on the transcripts.
var SpeechDimensionCodes = []string{"SF", "SN", "PC", "EA"}

// AudioPairJudge is SpeechRole's pairwise judge for chat models that
// accept audio input (OpenAI-style input_audio content parts, base64).
// For an instance with CandidateAudio and the reference's ReferenceAudio
// it sends two requests per pair: the speech dimensions
// (SpeechDimensionCodes) with both recordings attached as audio parts,
// the other dimensions with transcripts only. An instance without
// recordings falls back to the text-only judge (LLMPairJudge), and
// Modality counts how many pairs were judged each way, so a report can
// say which speech scores were heard and which were read.
type AudioPairJudge struct {
	// Client talks to a chat model that accepts input_audio parts.
	Client *llm.Client
	// NoSwap always shows the candidate first.
	NoSwap bool
	// Prompts are the prompt templates; nil means DefaultPrompts().
	Prompts *llm.Prompts
	// BaseDir resolves relative audio paths (the instances file's folder).
	BaseDir string
	// Load reads an audio file and returns its bytes and input_audio
	// format ("wav", "mp3"); nil means LoadAudioFile. The CLI sets one
	// that converts other formats to WAV through the speech front end.
	Load func(path string) ([]byte, string, error)

	audio, text atomic.Int64
}

// Name returns "llm-audio:MODEL".
func (j *AudioPairJudge) Name() string { return "llm-audio:" + j.Client.Model() }

// Modality returns how many pairs had their speech dimensions judged on
// audio and how many on text only (no recordings: the fallback).
func (j *AudioPairJudge) Modality() (audio, text int) {
	return int(j.audio.Load()), int(j.text.Load())
}

// LoadAudioFile reads a WAV or MP3 file for an input_audio part; other
// formats are an error saying to convert them.
func LoadAudioFile(path string) ([]byte, string, error) {
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	if format != "wav" && format != "mp3" {
		return nil, "", fmt.Errorf("audio %s: input_audio takes wav or mp3; convert it first (roleprint speech convert)", path)
	}
	b, err := fsx.ReadFile(path, maxAudioBytes)
	if err != nil {
		return nil, "", fmt.Errorf("audio: %w", err)
	}
	return b, format, nil
}

func (j *AudioPairJudge) load(p string) (llm.Part, error) {
	if !filepath.IsAbs(p) && j.BaseDir != "" {
		p = filepath.Join(j.BaseDir, p)
	}
	load := j.Load
	if load == nil {
		load = LoadAudioFile
	}
	b, format, err := load(p)
	if err != nil {
		return llm.Part{}, err
	}
	return llm.AudioPart(b, format), nil
}

// splitDims returns SpeechRole's dimensions about the speech and the
// others, in table order.
func splitDims() (speechDims, textDims []Dimension) {
	for _, d := range SpeechRoleDimensions {
		if slices.Contains(SpeechDimensionCodes, d.Code) {
			speechDims = append(speechDims, d)
		} else {
			textDims = append(textDims, d)
		}
	}
	return speechDims, textDims
}

// ComparePair rates the candidate and reference ref; see AudioPairJudge.
func (j *AudioPairJudge) ComparePair(ctx context.Context, inst SRInstance, ref int) (PairScores, error) {
	if inst.CandidateAudio == "" || ref >= len(inst.ReferenceAudio) || inst.ReferenceAudio[ref] == "" {
		j.text.Add(1)
		return (&LLMPairJudge{Client: j.Client, NoSwap: j.NoSwap, Prompts: j.Prompts}).ComparePair(ctx, inst, ref)
	}
	p, err := orDefault(j.Prompts)
	if err != nil {
		return PairScores{}, err
	}
	candAudio, err := j.load(inst.CandidateAudio)
	if err != nil {
		return PairScores{}, fmt.Errorf("instance %q candidate: %w", inst.ID, err)
	}
	refAudio, err := j.load(inst.ReferenceAudio[ref])
	if err != nil {
		return PairScores{}, fmt.Errorf("instance %q reference %d: %w", inst.ID, ref, err)
	}
	a, b, swap := pairSides(inst, ref, j.NoSwap)
	audio := map[string]llm.Part{"A": candAudio, "B": refAudio}
	if swap {
		audio["A"], audio["B"] = refAudio, candAudio
	}
	speechDims, textDims := splitDims()

	// Transcript dimensions: text only.
	textPrompt, err := pairPrompt(p, inst, a, b, textDims, "transcripts")
	if err != nil {
		return PairScores{}, err
	}
	textScores, rationale1, err := askPair(ctx, j.Client, p, llm.User(textPrompt), textDims)
	if err != nil {
		return PairScores{}, err
	}
	// Speech dimensions: the recordings, where the prompt places them.
	speechPrompt, err := pairPrompt(p, inst, a, b, speechDims, "speech")
	if err != nil {
		return PairScores{}, err
	}
	parts, err := withAudio(speechPrompt, audio)
	if err != nil {
		return PairScores{}, err
	}
	speechScores, rationale2, err := askPair(ctx, j.Client, p, llm.UserParts(parts...), speechDims)
	if err != nil {
		return PairScores{}, err
	}
	scores := map[string]map[string]float64{"A": {}, "B": {}}
	for _, m := range []map[string]map[string]float64{textScores, speechScores} {
		for _, side := range []string{"A", "B"} {
			for k, v := range m[side] {
				scores[side][k] = v
			}
		}
	}
	j.audio.Add(1)
	return unswap(scores, strings.TrimSpace("Transcripts: "+rationale1+"\nSpeech: "+rationale2), swap), nil
}

// withAudio splits a rendered prompt at its {{audio "A"}} and
// {{audio "B"}} marks into text parts with the recordings between; a
// prompt that does not place both recordings exactly once is an error.
func withAudio(prompt string, audio map[string]llm.Part) ([]llm.Part, error) {
	var parts []llm.Part
	seen := map[string]int{}
	for {
		i := strings.Index(prompt, audioMark)
		if i < 0 {
			break
		}
		rest := prompt[i+len(audioMark):]
		j := strings.IndexByte(rest, 0)
		if j < 0 {
			return nil, fmt.Errorf("prompt %s: unterminated audio mark", PromptPair)
		}
		side := rest[:j]
		part, ok := audio[side]
		if !ok {
			return nil, fmt.Errorf("prompt %s: {{audio %q}}: want \"A\" or \"B\"", PromptPair, side)
		}
		if prompt[:i] != "" {
			parts = append(parts, llm.TextPart(prompt[:i]))
		}
		parts = append(parts, part)
		seen[side]++
		prompt = rest[j+1:]
	}
	if prompt != "" {
		parts = append(parts, llm.TextPart(prompt))
	}
	if seen["A"] != 1 || seen["B"] != 1 {
		return nil, fmt.Errorf("prompt %s: the speech part must place {{audio \"A\"}} and {{audio \"B\"}} once each (found %d and %d)", PromptPair, seen["A"], seen["B"])
	}
	return parts, nil
}

// maxAudioBytes is the size limit of an audio file sent to a judge (the
// speech package's default limit, 2 GiB; the API's own limits are far
// lower).
const maxAudioBytes = 2 << 30
