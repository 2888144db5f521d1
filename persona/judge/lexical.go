package judge

import (
	"context"
	"math"
	"strings"

	"github.com/roleprint/roleprint/persona/textmetrics"
	"github.com/roleprint/roleprint/stats"
)

// LexicalJudge is an offline stand-in for an LLM judge: it scores by text
// similarity under a cheap lexical encoder, so tests, demos and the
// context-length ablation run without a server. It is a heuristic, not a
// model of human judgement, and says so in its name ("lexical"). Each
// similarity s ∈ [0, 1] maps linearly onto the scale (Scale.At: 1 + 4s
// on VoxRole's 1–5, 1 + 9s on SpeechRole's 1–10):
//
//   - likeness (Human-Likeness: natural versus robotic speech): length
//     similarity to a human line (the reference, else the context's
//     turns), halved when the response has machine marks (markdown,
//     bullet lists, "as an AI", "I'm a language model");
//   - personality: against the persona text;
//   - linguistic: half character-n-gram similarity to the reference, half
//     length similarity (min/max of word counts);
//   - relation: against the other speakers' turns in the context;
//   - coherence: against the last context turn;
//   - acoustic: the share of pitch/energy/rate tags equal to the
//     character's profile (absent without tags).
//
// For SpeechRole's pairwise protocol it rates both responses the same
// way: IA and CC by coherence with the context, SF and SN by length
// similarity to the other response, PC and EA by tag agreement with the
// other response (½ when unknown), PeC and KC by similarity to the
// profile.
type LexicalJudge struct {
	enc *textmetrics.HashEncoder
}

// NewLexicalJudge returns the lexical judge.
func NewLexicalJudge() *LexicalJudge { return &LexicalJudge{enc: textmetrics.NewHashEncoder(1024)} }

// Name returns "lexical".
func (j *LexicalJudge) Name() string { return "lexical" }

func (j *LexicalJudge) sim(a, b string) float64 {
	if strings.TrimSpace(a) == "" || strings.TrimSpace(b) == "" {
		return 0
	}
	return math.Max(0, stats.Cosine(j.enc.Vector(a), j.enc.Vector(b)))
}

func lengthSim(a, b string) float64 {
	na, nb := float64(len(textmetrics.Words(a))), float64(len(textmetrics.Words(b)))
	if na == 0 || nb == 0 {
		return 0
	}
	return math.Min(na, nb) / math.Max(na, nb)
}

func tagAgreement(a, b AcousticTags) (float64, bool) {
	n, same := 0, 0
	for _, p := range [][2]string{{a.Pitch, b.Pitch}, {a.Energy, b.Energy}, {a.Rate, b.Rate}} {
		if p[0] == "" || p[1] == "" {
			continue
		}
		n++
		if p[0] == p[1] {
			same++
		}
	}
	if n == 0 {
		return 0, false
	}
	return float64(same) / float64(n), true
}

// roboticMarks are signs of machine-written rather than spoken text.
var roboticMarks = []string{"as an ai", "language model", "i'm an ai", "i am an ai", "**", "##", "\n- ", "\n* ", "\n1. "}

// robotic reports whether text carries a machine mark.
func robotic(text string) bool {
	t := strings.ToLower("\n" + text)
	for _, m := range roboticMarks {
		if strings.Contains(t, m) {
			return true
		}
	}
	return false
}

// Score rates a VoxRole instance.
func (j *LexicalJudge) Score(ctx context.Context, inst VRInstance) (VRScore, error) {
	if err := ctx.Err(); err != nil {
		return VRScore{}, err
	}
	r := inst.Response
	target := inst.Reference
	if target == "" {
		target = inst.Persona
	}
	var others []string
	last := ""
	for _, t := range inst.Context {
		if t.Speaker != inst.Role {
			others = append(others, t.Text)
		}
		last = t.Text
	}
	human := target
	if inst.Reference == "" && len(inst.Context) > 0 {
		human = inst.Context[len(inst.Context)-1].Text
	}
	like := lengthSim(r, human)
	if robotic(r) {
		like /= 2
	}
	s := map[string]float64{
		"likeness":    VoxRoleScale.At(like),
		"personality": VoxRoleScale.At(j.sim(r, inst.Persona)),
		"linguistic":  VoxRoleScale.At(0.5*j.sim(r, target) + 0.5*lengthSim(r, target)),
		"relation":    VoxRoleScale.At(j.sim(r, strings.Join(others, " "))),
		"coherence":   VoxRoleScale.At(j.sim(r, last)),
	}
	if a, ok := tagAgreement(inst.ResponseTags, inst.Profile); ok {
		s["acoustic"] = VoxRoleScale.At(a)
	}
	return VRScore{ID: inst.ID, Scores: s, Overall: overall(s)}, nil
}

// ComparePair rates the candidate and reference ref of a SpeechRole
// instance.
func (j *LexicalJudge) ComparePair(ctx context.Context, inst SRInstance, ref int) (PairScores, error) {
	if err := ctx.Err(); err != nil {
		return PairScores{}, err
	}
	var ctxText, last string
	for _, t := range inst.Context {
		ctxText += t.Text + " "
		last = t.Text
	}
	var rtags AcousticTags
	if ref < len(inst.ReferenceTags) {
		rtags = inst.ReferenceTags[ref]
	}
	rate := func(resp, other string, tags, otherTags AcousticTags) map[string]float64 {
		coh := 0.5*j.sim(resp, last) + 0.5*j.sim(resp, ctxText)
		flu := lengthSim(resp, other)
		pro, ok := tagAgreement(tags, otherTags)
		if !ok {
			pro = 0.5
		}
		per := j.sim(resp, inst.Profile+" "+inst.Role)
		m := map[string]float64{}
		for code, v := range map[string]float64{"IA": coh, "CC": coh, "SF": flu, "SN": flu, "PC": pro, "EA": pro, "PeC": per, "KC": per} {
			m[code] = SpeechRoleScale.At(v)
		}
		return m
	}
	refText := inst.References[ref]
	return PairScores{
		Candidate: rate(inst.Candidate, refText, inst.CandidateTags, rtags),
		Reference: rate(refText, inst.Candidate, rtags, inst.CandidateTags),
	}, nil
}
