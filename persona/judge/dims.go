package judge

import (
	"fmt"
	"strings"
)

// Dimension is one scored aspect.
type Dimension struct {
	// Code is the short key used in tables and JSON ("IA", "likeness").
	Code string `json:"code"`
	// Name is the full name.
	Name string `json:"name"`
	// Question is what the judge is asked about it.
	Question string `json:"question"`
}

// SpeechRoleDimensions are SpeechRole-Eval's eight dimensions in the
// paper's table order, grouped as interaction ability (IA, CC, SF),
// speech expressiveness (SN, PC, EA) and role-playing fidelity (PeC, KC).
var SpeechRoleDimensions = []Dimension{
	{"IA", "Instruction Adherence", "Does the response follow the role-play instruction and answer what was asked?"},
	{"CC", "Conversational Coherence", "Does the response fit the dialogue so far, logically and topically?"},
	{"SF", "Speech Fluency", "Is the response fluent and easy to follow when spoken?"},
	{"SN", "Speech Naturalness", "Does it sound like natural human speech rather than read-out text?"},
	{"PC", "Prosody Consistency", "Do pitch, energy and speaking rate match how this character speaks?"},
	{"EA", "Emotion Appropriateness", "Is the emotion conveyed right for the situation and the character?"},
	{"PeC", "Personality Consistency", "Does the response show the character's personality?"},
	{"KC", "Knowledge Consistency", "Is the content consistent with what the character knows and has lived through?"},
}

// VoxRoleDimensions are VoxRole's six judge dimensions (1–5).
var VoxRoleDimensions = []Dimension{
	{"likeness", "Character Likeness", "How much does the response sound like this very character?"},
	{"personality", "Personality", "Does the response reflect the character's personality?"},
	{"linguistic", "Linguistic Style", "Does the wording match the character's linguistic style and catchphrases?"},
	{"relation", "Relationship", "Does the response treat the interlocutor as this character treats them?"},
	{"coherence", "Coherence", "Does the response follow coherently from the conversation?"},
	{"acoustic", "Acoustic Consistency", "Do the response's pitch, energy and speaking-rate tags fit the character's voice profile?"},
}

// Codes returns the codes of dims.
func Codes(dims []Dimension) []string {
	out := make([]string, len(dims))
	for i, d := range dims {
		out[i] = d.Code
	}
	return out
}

// AcousticTags are a line's discretised acoustic profile: each of Pitch,
// Energy and Rate is "Low", "Medium" or "High" (VoxRole bins per
// character at 20/60/20 %); empty means unknown.
type AcousticTags struct {
	Pitch  string `json:"pitch,omitempty"`
	Energy string `json:"energy,omitempty"`
	Rate   string `json:"rate,omitempty"`
}

// Empty reports whether no tag is set.
func (a AcousticTags) Empty() bool { return a.Pitch == "" && a.Energy == "" && a.Rate == "" }

// String renders the tags as they are put into transcripts:
// "[pitch: High, energy: Medium, rate: Low]"; "" when empty.
func (a AcousticTags) String() string {
	if a.Empty() {
		return ""
	}
	var parts []string
	for _, kv := range [][2]string{{"pitch", a.Pitch}, {"energy", a.Energy}, {"rate", a.Rate}} {
		if kv[1] != "" {
			parts = append(parts, kv[0]+": "+kv[1])
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// ParseTags reads "pitch=High,energy=Low,rate=Medium" (any order, any
// subset; case-insensitive keys and levels; "p", "e", "r" accepted as
// keys). Levels must be low, medium or high.
func ParseTags(s string) (AcousticTags, error) {
	var a AcousticTags
	s = strings.Trim(strings.TrimSpace(s), "[]")
	if s == "" {
		return a, nil
	}
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' || r == ' ' }) {
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			k, v, ok = strings.Cut(part, ":")
		}
		if !ok {
			return a, fmt.Errorf("acoustic tag %q: want key=level", part)
		}
		lv, err := level(v)
		if err != nil {
			return a, fmt.Errorf("acoustic tag %q: %w", part, err)
		}
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "pitch", "p", "f0":
			a.Pitch = lv
		case "energy", "e", "intensity", "loudness":
			a.Energy = lv
		case "rate", "r", "speed", "speaking_rate":
			a.Rate = lv
		default:
			return a, fmt.Errorf("acoustic tag %q: key is not pitch, energy or rate", part)
		}
	}
	return a, nil
}

func level(v string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "low", "l":
		return "Low", nil
	case "medium", "mid", "m":
		return "Medium", nil
	case "high", "h":
		return "High", nil
	}
	return "", fmt.Errorf("level %q is not Low, Medium or High", v)
}

// Turn is one turn of a dialogue context.
type Turn struct {
	Speaker string       `json:"speaker"`
	Text    string       `json:"text"`
	Tags    AcousticTags `json:"tags,omitempty"`
}

// String renders "Speaker: text [tags]".
func (t Turn) String() string {
	s := t.Speaker + ": " + t.Text
	if tg := t.Tags.String(); tg != "" {
		s += " " + tg
	}
	return s
}

func renderTurns(ts []Turn) string {
	var b strings.Builder
	for _, t := range ts {
		b.WriteString(t.String())
		b.WriteByte('\n')
	}
	return b.String()
}
