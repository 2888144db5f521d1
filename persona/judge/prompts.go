package judge

import (
	"context"
	"crypto/sha256"
	"embed"
	"fmt"
	"math"
	"strings"
	"text/template"

	"github.com/roleprint/roleprint/llm"
)

//go:embed prompts/*.tmpl
var embeddedPrompts embed.FS

// The judges' prompt template files (persona/judge/prompts); a folder
// given to LoadPrompts (--judge-prompts) may replace any of them.
const (
	// PromptSystem is the system message of every judging request.
	PromptSystem = "system.tmpl"
	// PromptVoxRole asks LLMJudge for one response's VoxRole scores. Its
	// data: .Role, .Persona, .Voice (the character's usual acoustic
	// profile), .Context (one "Speaker: text [tags]" line per turn),
	// .Response, .Reference ("" unless shown), .Scale, .Dimensions (the
	// rendered list) and .Codes (the JSON object of scores to fill in).
	PromptVoxRole = "voxrole.tmpl"
	// PromptPair is SpeechRole's pairwise prompt, for LLMPairJudge and
	// both halves of AudioPairJudge. Its data: .Role, .Profile, .Context,
	// .A and .B (the two responses, in shown order), .Scale, .Dimensions,
	// .Codes and .Part: "" (the text judge), "transcripts" (the audio
	// judge's transcript dimensions) or "speech" (its speech dimensions,
	// where {{audio "A"}} and {{audio "B"}} place the recordings).
	PromptPair = "pair.tmpl"
)

// PromptNames lists every judge prompt template, in a fixed order.
var PromptNames = []string{PromptSystem, PromptVoxRole, PromptPair}

// audioMark stands for a recording inside a rendered prompt; the audio
// judge splits the text there and puts the audio part between.
const audioMark = "\x00audio:"

var promptFuncs = template.FuncMap{"audio": func(side string) string { return audioMark + side + "\x00" }}

// DefaultPrompts returns the embedded judge prompts.
func DefaultPrompts() (*llm.Prompts, error) {
	return llm.LoadPrompts(embeddedPrompts, "prompts", PromptNames, "", promptFuncs)
}

// LoadPrompts returns the judge prompts of dir: each file of PromptNames
// found there replaces the embedded one.
func LoadPrompts(dir string) (*llm.Prompts, error) {
	return llm.LoadPrompts(embeddedPrompts, "prompts", PromptNames, dir, promptFuncs)
}

// orDefault returns p, or the embedded prompts when p is nil.
func orDefault(p *llm.Prompts) (*llm.Prompts, error) {
	if p != nil {
		return p, nil
	}
	return DefaultPrompts()
}

// Scale is a judge's rating range: the prompt asks for scores from Lo to
// Hi, replies outside it are rejected, and the lexical judge maps onto it.
type Scale struct {
	Lo, Hi float64
}

// The papers' scales: VoxRole rates 1–5, SpeechRole 1–10.
var (
	VoxRoleScale    = Scale{Lo: 1, Hi: 5}
	SpeechRoleScale = Scale{Lo: 1, Hi: 10}
)

// At maps s ∈ [0, 1] linearly onto the scale.
func (s Scale) At(x float64) float64 { return s.Lo + (s.Hi-s.Lo)*x }

// check returns an error naming the first code of codes missing from m
// or scored outside the scale; who prefixes the field ("A", "B" or "").
func (s Scale) check(m map[string]float64, codes []string, who string) error {
	field := "scores"
	if who != "" {
		field += "." + who
	}
	for _, c := range codes {
		v, ok := m[c]
		if !ok {
			return fmt.Errorf("%s has no %q", field, c)
		}
		if math.IsNaN(v) || v < s.Lo || v > s.Hi {
			return fmt.Errorf("%s.%s = %v, outside %g–%g", field, c, v, s.Lo, s.Hi)
		}
	}
	return nil
}

// pairData is PromptPair's data.
type pairData struct {
	Role, Profile, Context string
	A, B                   string
	Scale                  Scale
	Dimensions, Codes      string
	Part                   string
}

// pairSides returns the texts of the candidate and reference ref in the
// order shown to the judge, and whether they are swapped: to cancel
// position bias the candidate is response A or B depending on a hash of
// the instance id and the reference index (deterministic, so cached
// answers stay valid).
func pairSides(inst SRInstance, ref int, noSwap bool) (a, b string, swap bool) {
	cand := strings.TrimSpace(inst.Candidate + " " + inst.CandidateTags.String())
	var rtags AcousticTags
	if ref < len(inst.ReferenceTags) {
		rtags = inst.ReferenceTags[ref]
	}
	refText := strings.TrimSpace(inst.References[ref] + " " + rtags.String())
	swap = !noSwap && swapFor(inst.ID, ref)
	if swap {
		return refText, cand, true
	}
	return cand, refText, false
}

func swapFor(id string, ref int) bool {
	h := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d", id, ref)))
	return h[0]&1 == 1
}

// pairPrompt renders PromptPair for dims; part is "", "transcripts" or
// "speech".
func pairPrompt(p *llm.Prompts, inst SRInstance, a, b string, dims []Dimension, part string) (string, error) {
	return p.Render(PromptPair, pairData{Role: inst.Role, Profile: orNone(inst.Profile), Context: orNone(renderTurns(inst.Context)),
		A: a, B: b, Scale: SpeechRoleScale, Dimensions: dimList(dims), Codes: codeTemplate(Codes(dims)), Part: part})
}

// askPair sends one pairwise judging request (user may carry audio
// parts) and returns the A and B scores of dims, validated against
// SpeechRoleScale, and the rationale.
func askPair(ctx context.Context, client *llm.Client, p *llm.Prompts, user llm.Message, dims []Dimension) (map[string]map[string]float64, string, error) {
	sys, err := p.Render(PromptSystem, nil)
	if err != nil {
		return nil, "", err
	}
	codes := Codes(dims)
	var out struct {
		Rationale string                        `json:"rationale"`
		Scores    map[string]map[string]float64 `json:"scores"`
	}
	req := llm.Request{Messages: []llm.Message{llm.System(sys), user}}
	_, err = client.ChatJSON(ctx, req, &out, func() error {
		if err := SpeechRoleScale.check(out.Scores["A"], codes, "A"); err != nil {
			return err
		}
		return SpeechRoleScale.check(out.Scores["B"], codes, "B")
	})
	if err != nil {
		return nil, "", err
	}
	return out.Scores, out.Rationale, nil
}

// unswap returns the pair's scores with the candidate's first.
func unswap(scores map[string]map[string]float64, rationale string, swap bool) PairScores {
	ps := PairScores{Candidate: scores["A"], Reference: scores["B"], Rationale: rationale}
	if swap {
		ps.Candidate, ps.Reference = ps.Reference, ps.Candidate
	}
	return ps
}
