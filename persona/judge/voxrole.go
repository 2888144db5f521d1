package judge

import (
	"context"
	"fmt"
	"math"
)

// VRInstance is one VoxRole test item.
type VRInstance struct {
	ID string `json:"id"`
	// Role is the character; Persona its role-play prompt or profile.
	Role    string `json:"role"`
	Persona string `json:"persona,omitempty"`
	// Profile is the character's usual acoustic profile (for the
	// acoustic dimension).
	Profile AcousticTags `json:"profile,omitempty"`
	// Context is the dialogue before the response, with tags.
	Context []Turn `json:"context,omitempty"`
	// Response is the response under test and ResponseTags its tags.
	Response     string       `json:"response"`
	ResponseTags AcousticTags `json:"response_tags,omitempty"`
	// ResponseEmotion is the response's emotion label (Emotion2Vec's, for
	// example); ResponseAudio its recording, from which FillSentenceTags
	// computes ResponseTags when they are empty.
	ResponseEmotion string `json:"response_emotion,omitempty"`
	ResponseAudio   string `json:"response_audio,omitempty"`
	// Reference is the original line, when known (used by the lexical
	// judge; the LLM judge sees it only if ShowReference is set).
	Reference string `json:"reference,omitempty"`
}

// VRScore is a judge's 1–5 rating of one instance.
type VRScore struct {
	ID string `json:"id"`
	// Scores maps each VoxRole dimension to 1–5; the paralinguistic
	// ("acoustic") dimension is absent when the instance has no acoustic
	// tag and no emotion label.
	Scores    map[string]float64 `json:"scores"`
	Overall   float64            `json:"overall"`
	Rationale string             `json:"rationale,omitempty"`
}

// Judge rates one VoxRole instance.
type Judge interface {
	Name() string
	Score(ctx context.Context, inst VRInstance) (VRScore, error)
}

// VRSystemResult is a system's VoxRole judge scores (Table 3 row): per
// dimension the mean over the instances that have it, Overall the mean
// over dimensions.
type VRSystemResult struct {
	System    string             `json:"system"`
	Judge     string             `json:"judge"`
	N         int                `json:"n"`
	Scores    map[string]float64 `json:"scores"`
	Overall   float64            `json:"overall"`
	Instances []VRScore          `json:"instances"`
}

// overall is the mean of the scores present.
func overall(s map[string]float64) float64 {
	if len(s) == 0 {
		return math.NaN()
	}
	t := 0.0
	for _, v := range s {
		t += v
	}
	return t / float64(len(s))
}

// AggregateVoxRole averages instance scores.
func AggregateVoxRole(system, judge string, scores []VRScore) *VRSystemResult {
	res := &VRSystemResult{System: system, Judge: judge, N: len(scores), Scores: map[string]float64{}, Instances: scores}
	for _, d := range Codes(VoxRoleDimensions) {
		s, n := 0.0, 0
		for _, sc := range scores {
			if v, ok := sc.Scores[d]; ok {
				s += v
				n++
			}
		}
		if n > 0 {
			res.Scores[d] = s / float64(n)
		}
	}
	res.Overall = overall(res.Scores)
	return res
}

// ScoreVoxRole rates every instance with j.
func ScoreVoxRole(ctx context.Context, j Judge, system string, insts []VRInstance, progress func(done, total int)) (*VRSystemResult, error) {
	var out []VRScore
	for i, inst := range insts {
		s, err := j.Score(ctx, inst)
		if err != nil {
			return nil, fmt.Errorf("voxrole: instance %q: %w", inst.ID, err)
		}
		out = append(out, s)
		if progress != nil {
			progress(i+1, len(insts))
		}
	}
	return AggregateVoxRole(system, j.Name(), out), nil
}
