package judge

import (
	"context"
	"fmt"
	"math"
)

// SRInstance is one SpeechRole test item: a role, a dialogue context, the
// candidate's response and M reference responses.
type SRInstance struct {
	ID string `json:"id"`
	// Role is the character being played and Profile its description.
	Role    string `json:"role"`
	Profile string `json:"profile,omitempty"`
	// Context is the dialogue before the response.
	Context []Turn `json:"context,omitempty"`
	// Candidate is the response under test (a transcript for speech,
	// optionally with acoustic tags).
	Candidate     string       `json:"candidate"`
	CandidateTags AcousticTags `json:"candidate_tags,omitempty"`
	// References are the M reference responses, and ReferenceTags their
	// tags when known (same length or empty).
	References    []string       `json:"references"`
	ReferenceTags []AcousticTags `json:"reference_tags,omitempty"`
	// CandidateAudio and ReferenceAudio are the recordings of the
	// candidate and of each reference (paths, relative to the instances
	// file; ReferenceAudio the same length as References, "" for a
	// reference without one, or empty); AudioPairJudge sends them so
	// speech dimensions are judged on speech. Optional.
	CandidateAudio string   `json:"candidate_audio,omitempty"`
	ReferenceAudio []string `json:"reference_audio,omitempty"`
}

// PairScores are a judge's 1–10 ratings of the candidate and of one
// reference, per dimension code.
type PairScores struct {
	Candidate map[string]float64 `json:"candidate"`
	Reference map[string]float64 `json:"reference"`
	Rationale string             `json:"rationale,omitempty"`
}

// PairJudge rates a candidate and reference ref of an instance side by
// side.
type PairJudge interface {
	// Name identifies the judge ("llm:gpt-4o", "lexical").
	Name() string
	ComparePair(ctx context.Context, inst SRInstance, ref int) (PairScores, error)
}

// SRInstanceResult is one instance's ratio scores.
type SRInstanceResult struct {
	ID string `json:"id"`
	// Ratio is, per dimension, the mean over references of
	// candidate/reference.
	Ratio map[string]float64 `json:"ratio"`
	// Overall is the mean of Ratio over dimensions.
	Overall float64 `json:"overall"`
	// Pairs are the judge's raw ratings, one per reference.
	Pairs []PairScores `json:"pairs"`
}

// SRSystemResult is a system's SpeechRole score (Table 2 row).
type SRSystemResult struct {
	System string `json:"system"`
	Judge  string `json:"judge"`
	N      int    `json:"n"`
	// Ratio is, per dimension, the mean over instances of the instance
	// ratio; Overall the mean over dimensions (equal to the mean of the
	// instances' Overall).
	Ratio     map[string]float64 `json:"ratio"`
	Overall   float64            `json:"overall"`
	Instances []SRInstanceResult `json:"instances"`
}

// InstanceRatio turns the pair ratings of one instance into its ratio
// scores: for each dimension d, mean over references r of
// candidate[r][d] / reference[r][d]. A reference rated 0 (impossible on
// the 1–10 scale) is an error rather than an infinite ratio.
func InstanceRatio(pairs []PairScores, dims []string) (map[string]float64, float64, error) {
	if len(pairs) == 0 {
		return nil, 0, fmt.Errorf("no references rated")
	}
	ratio := map[string]float64{}
	overall := 0.0
	for _, d := range dims {
		sum := 0.0
		for i, p := range pairs {
			c, okC := p.Candidate[d]
			r, okR := p.Reference[d]
			if !okC || !okR {
				return nil, 0, fmt.Errorf("reference %d: no %s rating", i, d)
			}
			if r <= 0 {
				return nil, 0, fmt.Errorf("reference %d: %s rated %v, want ≥ 1", i, d, r)
			}
			sum += c / r
		}
		ratio[d] = sum / float64(len(pairs))
		overall += ratio[d]
	}
	return ratio, overall / float64(len(dims)), nil
}

// SystemScore averages instance results into a system result.
func SystemScore(system, judge string, inst []SRInstanceResult, dims []string) *SRSystemResult {
	res := &SRSystemResult{System: system, Judge: judge, N: len(inst), Ratio: map[string]float64{}, Instances: inst}
	if len(inst) == 0 {
		res.Overall = math.NaN()
		return res
	}
	for _, d := range dims {
		s := 0.0
		for _, r := range inst {
			s += r.Ratio[d]
		}
		res.Ratio[d] = s / float64(len(inst))
		res.Overall += res.Ratio[d]
	}
	res.Overall /= float64(len(dims))
	return res
}

// ScoreSpeechRole rates every instance against each of its references
// with j and returns the system's ratio scores over SpeechRoleDimensions.
// progress (may be nil) is called after each instance.
func ScoreSpeechRole(ctx context.Context, j PairJudge, system string, insts []SRInstance, progress func(done, total int)) (*SRSystemResult, error) {
	dims := Codes(SpeechRoleDimensions)
	out := make([]SRInstanceResult, 0, len(insts))
	for i, inst := range insts {
		if len(inst.References) == 0 {
			return nil, fmt.Errorf("speechrole: instance %q has no references", inst.ID)
		}
		if n := len(inst.ReferenceTags); n > 0 && n != len(inst.References) {
			return nil, fmt.Errorf("speechrole: instance %q has %d reference_tags for %d references (give one per reference, in order, or none)", inst.ID, n, len(inst.References))
		}
		if n := len(inst.ReferenceAudio); n > 0 && n != len(inst.References) {
			return nil, fmt.Errorf("speechrole: instance %q has %d reference_audio for %d references (give one per reference, in order, \"\" for none, or none at all)", inst.ID, n, len(inst.References))
		}
		var pairs []PairScores
		for r := range inst.References {
			p, err := j.ComparePair(ctx, inst, r)
			if err != nil {
				return nil, fmt.Errorf("speechrole: instance %q reference %d: %w", inst.ID, r, err)
			}
			pairs = append(pairs, p)
		}
		ratio, overall, err := InstanceRatio(pairs, dims)
		if err != nil {
			return nil, fmt.Errorf("speechrole: instance %q: %w", inst.ID, err)
		}
		out = append(out, SRInstanceResult{ID: inst.ID, Ratio: ratio, Overall: overall, Pairs: pairs})
		if progress != nil {
			progress(i+1, len(insts))
		}
	}
	return SystemScore(system, j.Name(), out, dims), nil
}
