package judge

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/roleprint/roleprint/persona/llm"

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
		return (&LLMPairJudge{Client: j.Client, NoSwap: j.NoSwap}).ComparePair(ctx, inst, ref)
	}
	candAudio, err := j.load(inst.CandidateAudio)
	if err != nil {
		return PairScores{}, fmt.Errorf("instance %q candidate: %w", inst.ID, err)
	}
	refAudio, err := j.load(inst.ReferenceAudio[ref])
	if err != nil {
		return PairScores{}, fmt.Errorf("instance %q reference %d: %w", inst.ID, ref, err)
	}
	swap := !j.NoSwap && swapFor(inst.ID, ref)
	cand := strings.TrimSpace(inst.Candidate + " " + inst.CandidateTags.String())
	var rtags AcousticTags
	if ref < len(inst.ReferenceTags) {
		rtags = inst.ReferenceTags[ref]
	}
	refText := strings.TrimSpace(inst.References[ref] + " " + rtags.String())
	a, b, aAudio, bAudio := cand, refText, candAudio, refAudio
	if swap {
		a, b, aAudio, bAudio = b, a, bAudio, aAudio
	}
	speechDims, textDims := splitDims()
	head := fmt.Sprintf("Character: %s\nCharacter profile: %s\n\nDialogue so far (transcripts):\n%s\n",
		inst.Role, orNone(inst.Profile), orNone(renderTurns(inst.Context)))

	// Transcript dimensions: text only.
	textPrompt := head + fmt.Sprintf("Two responses spoken next by %s (transcripts):\nResponse A: %s\nResponse B: %s\n\n", inst.Role, a, b) +
		rateBlock(textDims, "comparing the two responses")
	textScores, rationale1, err := j.ask(ctx, []llm.Part{llm.TextPart(textPrompt)}, textDims)
	if err != nil {
		return PairScores{}, err
	}
	// Speech dimensions: the recordings.
	parts := []llm.Part{
		llm.TextPart(head + fmt.Sprintf("Two responses spoken next by %s. Listen to both recordings; judge how they sound, not only what they say.\nResponse A (recording):", inst.Role)),
		aAudio,
		llm.TextPart(fmt.Sprintf("Transcript of response A: %s\nResponse B (recording):", a)),
		bAudio,
		llm.TextPart(fmt.Sprintf("Transcript of response B: %s\n\n", b) + rateBlock(speechDims, "comparing how the two responses sound")),
	}
	speechScores, rationale2, err := j.ask(ctx, parts, speechDims)
	if err != nil {
		return PairScores{}, err
	}
	ps := PairScores{Candidate: map[string]float64{}, Reference: map[string]float64{},
		Rationale: strings.TrimSpace("Transcripts: " + rationale1 + "\nSpeech: " + rationale2)}
	for _, m := range []map[string]map[string]float64{textScores, speechScores} {
		for k, v := range m["A"] {
			ps.Candidate[k] = v
		}
		for k, v := range m["B"] {
			ps.Reference[k] = v
		}
	}
	if swap {
		ps.Candidate, ps.Reference = ps.Reference, ps.Candidate
	}
	j.audio.Add(1)
	return ps, nil
}

// rateBlock is the scoring instruction for dims.
func rateBlock(dims []Dimension, how string) string {
	codes := Codes(dims)
	return fmt.Sprintf(`Rate each response from 1 (very poor) to 10 (excellent) on each dimension:
%sFirst write your rationale %s, then give the scores.
Reply with JSON: {"rationale": "...", "scores": {"A": {%s}, "B": {%s}}}`, dimList(dims, "1-10"), how, codeTemplate(codes), codeTemplate(codes))
}

// ask sends one judging request made of parts and validates the scores
// of dims for A and B.
func (j *AudioPairJudge) ask(ctx context.Context, parts []llm.Part, dims []Dimension) (map[string]map[string]float64, string, error) {
	codes := Codes(dims)
	var out struct {
		Rationale string                        `json:"rationale"`
		Scores    map[string]map[string]float64 `json:"scores"`
	}
	user := llm.UserParts(parts...)
	if !user.HasAudio() {
		user = llm.User(user.Content) // plain text content: what every server takes
	}
	req := llm.Request{Messages: []llm.Message{llm.System(judgeSystem), user}}
	_, err := j.Client.ChatJSON(ctx, req, &out, func() error {
		if err := checkScores(out.Scores["A"], codes, 1, 10, "A"); err != nil {
			return err
		}
		return checkScores(out.Scores["B"], codes, 1, 10, "B")
	})
	if err != nil {
		return nil, "", err
	}
	return out.Scores, out.Rationale, nil
}

// maxAudioBytes is the size limit of an audio file sent to a judge (the
// speech package's default limit, 2 GiB; the API's own limits are far
// lower).
const maxAudioBytes = 2 << 30
