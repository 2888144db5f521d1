package judge

import (
	"context"
	"fmt"
	"strings"

	"github.com/roleprint/roleprint/llm"
)

// LLMPairJudge is SpeechRole's pairwise judge over an OpenAI-compatible
// model (prompt PromptPair). To cancel position bias, the candidate is
// shown as response A or B depending on a hash of the instance id and
// reference index (deterministic, so cached answers stay valid); scores
// are mapped back.
type LLMPairJudge struct {
	Client *llm.Client
	// NoSwap always shows the candidate first.
	NoSwap bool
	// Prompts are the prompt templates; nil means DefaultPrompts().
	Prompts *llm.Prompts
}

// Name returns "llm:MODEL".
func (j *LLMPairJudge) Name() string { return "llm:" + j.Client.Model() }

// groupTitles name SpeechRole's dimension groups in prompts.
var groupTitles = map[string]string{
	GroupInteraction: "Interaction ability",
	GroupSpeech:      "Speech expressiveness",
	GroupRole:        "Role-playing fidelity",
}

// dimList lists dims for a prompt: under their group's title when they
// have groups, each with its question and, when it has one, its rubric.
func dimList(dims []Dimension) string {
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
	return b.String()
}

// ComparePair asks the model to rate the candidate and reference ref.
func (j *LLMPairJudge) ComparePair(ctx context.Context, inst SRInstance, ref int) (PairScores, error) {
	p, err := orDefault(j.Prompts)
	if err != nil {
		return PairScores{}, err
	}
	a, b, swap := pairSides(inst, ref, j.NoSwap)
	user, err := pairPrompt(p, inst, a, b, SpeechRoleDimensions, "")
	if err != nil {
		return PairScores{}, err
	}
	scores, rationale, err := askPair(ctx, j.Client, p, llm.User(user), SpeechRoleDimensions)
	if err != nil {
		return PairScores{}, err
	}
	return unswap(scores, rationale, swap), nil
}

// codeTemplate is the JSON object of scores a reply fills in:
// {"IA": n, "CC": n, ...}.
func codeTemplate(codes []string) string {
	parts := make([]string, len(codes))
	for i, c := range codes {
		parts[i] = fmt.Sprintf("%q: n", c)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func orNone(s string) string {
	if strings.TrimSpace(s) == "" {
		return "(none)"
	}
	return s
}

// LLMJudge is VoxRole's six-dimension judge over an OpenAI-compatible
// model (prompt PromptVoxRole).
type LLMJudge struct {
	Client *llm.Client
	// ShowReference shows the original line to the judge as a hint.
	ShowReference bool
	// Prompts are the prompt templates; nil means DefaultPrompts().
	Prompts *llm.Prompts
}

// Name returns "llm:MODEL".
func (j *LLMJudge) Name() string { return "llm:" + j.Client.Model() }

// voxRoleData is PromptVoxRole's data.
type voxRoleData struct {
	Role, Persona, Voice, Context string
	Response, Reference           string
	Scale                         Scale
	Dimensions, Codes             string
}

// Score asks the model for a rationale and the VoxRole scores
// (VoxRoleScale). Without any acoustic tag the acoustic dimension is not
// asked for.
func (j *LLMJudge) Score(ctx context.Context, inst VRInstance) (VRScore, error) {
	p, err := orDefault(j.Prompts)
	if err != nil {
		return VRScore{}, err
	}
	dims := VoxRoleDimensions
	if !hasTags(inst) {
		dims = dims[:len(dims)-1]
	}
	codes := Codes(dims)
	d := voxRoleData{Role: inst.Role, Persona: orNone(inst.Persona), Voice: orNone(inst.Profile.String()), Context: orNone(renderTurns(inst.Context)),
		Response: joinNonEmpty(inst.Response, inst.ResponseTags.String(), emotionTag(inst.ResponseEmotion)),
		Scale:    VoxRoleScale, Dimensions: dimList(dims), Codes: codeTemplate(codes)}
	if j.ShowReference {
		d.Reference = inst.Reference
	}
	user, err := p.Render(PromptVoxRole, d)
	if err != nil {
		return VRScore{}, err
	}
	sys, err := p.Render(PromptSystem, nil)
	if err != nil {
		return VRScore{}, err
	}
	var out struct {
		Rationale string             `json:"rationale"`
		Scores    map[string]float64 `json:"scores"`
	}
	req := llm.Request{Messages: []llm.Message{llm.System(sys), llm.User(user)}}
	_, err = j.Client.ChatJSON(ctx, req, &out, func() error { return VoxRoleScale.check(out.Scores, codes, "") })
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
