package judge

import (
	"context"
	"crypto/sha256"
	"fmt"
	"math"
	"strings"

	"github.com/roleprint/roleprint/llm"
)

// LLMPairJudge is SpeechRole's pairwise judge over an OpenAI-compatible
// model. To cancel position bias, the candidate is shown as response A
// or B depending on a hash of the instance id and reference index
// (deterministic, so cached answers stay valid); scores are mapped back.
type LLMPairJudge struct {
	Client *llm.Client
	// NoSwap always shows the candidate first.
	NoSwap bool
}

// Name returns "llm:MODEL".
func (j *LLMPairJudge) Name() string { return "llm:" + j.Client.Model() }

const judgeSystem = "You are an expert evaluator of role-playing dialogue agents. You judge carefully and impartially, " +
	"reason before you score, and answer with exactly one JSON object in the requested format."

func swapFor(id string, ref int) bool {
	h := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d", id, ref)))
	return h[0]&1 == 1
}

// groupTitles name SpeechRole's dimension groups in prompts.
var groupTitles = map[string]string{
	GroupInteraction: "Interaction ability",
	GroupSpeech:      "Speech expressiveness",
	GroupRole:        "Role-playing fidelity",
}

// dimList lists dims for a prompt: under their group's title when they
// have groups, each with its question and, when it has one, its rubric.
func dimList(dims []Dimension, scale string) string {
	var b strings.Builder
	group := ""
	for _, d := range dims {
		if d.Group != group && d.Group != "" {
			fmt.Fprintf(&b, "%s:\n", groupTitles[d.Group])
		}
		group = d.Group
		fmt.Fprintf(&b, "- %s (%s): %s\n", d.Code, d.Name, d.Question)
		for _, a := range d.Rubric {
			fmt.Fprintf(&b, "    %s\n", a)
		}
	}
	_ = scale
	return b.String()
}

func checkScores(m map[string]float64, codes []string, lo, hi float64, who string) error {
	for _, c := range codes {
		v, ok := m[c]
		if !ok {
			return fmt.Errorf("scores.%s has no %q", who, c)
		}
		if math.IsNaN(v) || v < lo || v > hi {
			return fmt.Errorf("scores.%s.%s = %v, outside %g–%g", who, c, v, lo, hi)
		}
	}
	return nil
}

// ComparePair asks the model to rate the candidate and reference ref.
func (j *LLMPairJudge) ComparePair(ctx context.Context, inst SRInstance, ref int) (PairScores, error) {
	cand := strings.TrimSpace(inst.Candidate + " " + inst.CandidateTags.String())
	var rtags AcousticTags
	if ref < len(inst.ReferenceTags) {
		rtags = inst.ReferenceTags[ref]
	}
	refText := strings.TrimSpace(inst.References[ref] + " " + rtags.String())
	a, b := cand, refText
	swap := !j.NoSwap && swapFor(inst.ID, ref)
	if swap {
		a, b = b, a
	}
	codes := Codes(SpeechRoleDimensions)
	user := fmt.Sprintf(`Character: %s
Character profile: %s

Dialogue so far (transcripts; acoustic tags in brackets where known):
%s
Two responses spoken next by %s:
Response A: %s
Response B: %s

Rate each response from 1 (very poor) to 10 (excellent) on each dimension:
%s
First write your rationale comparing the two responses, then give the scores.
Reply with JSON: {"rationale": "...", "scores": {"A": {%s}, "B": {%s}}}`,
		inst.Role, orNone(inst.Profile), orNone(renderTurns(inst.Context)), inst.Role, a, b,
		dimList(SpeechRoleDimensions, "1-10"), codeTemplate(codes), codeTemplate(codes))
	var out struct {
		Rationale string                        `json:"rationale"`
		Scores    map[string]map[string]float64 `json:"scores"`
	}
	req := llm.Request{Messages: []llm.Message{llm.System(judgeSystem), llm.User(user)}}
	_, err := j.Client.ChatJSON(ctx, req, &out, func() error {
		if err := checkScores(out.Scores["A"], codes, 1, 10, "A"); err != nil {
			return err
		}
		return checkScores(out.Scores["B"], codes, 1, 10, "B")
	})
	if err != nil {
		return PairScores{}, err
	}
	ps := PairScores{Candidate: out.Scores["A"], Reference: out.Scores["B"], Rationale: out.Rationale}
	if swap {
		ps.Candidate, ps.Reference = ps.Reference, ps.Candidate
	}
	return ps, nil
}

func codeTemplate(codes []string) string {
	parts := make([]string, len(codes))
	for i, c := range codes {
		parts[i] = fmt.Sprintf("%q: n", c)
	}
	return strings.Join(parts, ", ")
}

func orNone(s string) string {
	if strings.TrimSpace(s) == "" {
		return "(none)"
	}
	return s
}

// LLMJudge is VoxRole's six-dimension judge over an OpenAI-compatible
// model.
type LLMJudge struct {
	Client *llm.Client
	// ShowReference shows the original line to the judge as a hint.
	ShowReference bool
}

// Name returns "llm:MODEL".
func (j *LLMJudge) Name() string { return "llm:" + j.Client.Model() }

// Score asks the model for rationale and six 1–5 scores. Without any
// acoustic tag the acoustic dimension is not asked for.
func (j *LLMJudge) Score(ctx context.Context, inst VRInstance) (VRScore, error) {
	dims := VoxRoleDimensions
	if !hasTags(inst) {
		dims = dims[:len(dims)-1]
	}
	codes := Codes(dims)
	ref := ""
	if j.ShowReference && inst.Reference != "" {
		ref = "\nThe character's original line here was: " + inst.Reference + "\n"
	}
	user := fmt.Sprintf(`Character: %s
Persona: %s
The character's usual voice: %s

Conversation so far (transcripts with [pitch, energy, rate] tags and [emotion] labels where known):
%s
Response to evaluate, spoken as %s: %s
%s
Rate the response from 1 (very poor) to 5 (excellent) on each dimension:
%s
First write your rationale, then give the scores.
Reply with JSON: {"rationale": "...", "scores": {%s}}`,
		inst.Role, orNone(inst.Persona), orNone(inst.Profile.String()), orNone(renderTurns(inst.Context)),
		inst.Role, joinNonEmpty(inst.Response, inst.ResponseTags.String(), emotionTag(inst.ResponseEmotion)), ref, dimList(dims, "1-5"), codeTemplate(codes))
	var out struct {
		Rationale string             `json:"rationale"`
		Scores    map[string]float64 `json:"scores"`
	}
	req := llm.Request{Messages: []llm.Message{llm.System(judgeSystem), llm.User(user)}}
	_, err := j.Client.ChatJSON(ctx, req, &out, func() error { return checkScores(out.Scores, codes, 1, 5, "") })
	if err != nil {
		return VRScore{}, err
	}
	s := VRScore{ID: inst.ID, Scores: map[string]float64{}, Rationale: out.Rationale}
	for _, c := range codes {
		s.Scores[c] = out.Scores[c]
	}
	s.Overall = overall(s.Scores)
	return s, nil
}

// hasTags reports whether the instance has any paralinguistic cue: an
// acoustic tag or an emotion label.
func hasTags(inst VRInstance) bool {
	if !inst.ResponseTags.Empty() || !inst.Profile.Empty() || strings.TrimSpace(inst.ResponseEmotion) != "" {
		return true
	}
	for _, t := range inst.Context {
		if !t.Tags.Empty() || strings.TrimSpace(t.Emotion) != "" {
			return true
		}
	}
	return false
}

// joinNonEmpty joins the non-empty parts with spaces.
func joinNonEmpty(parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, " ")
}
