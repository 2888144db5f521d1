package judge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
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

// ParseTags reads acoustic tags from text. It accepts
//
//   - "pitch=High,energy=Low,rate=Medium" (any order, any subset, "=" or
//     ":", separated by commas, semicolons or spaces; "p", "e", "r" accepted
//     as keys);
//   - the transcript form "[pitch: High, energy: Medium, rate: Low]"
//     (AcousticTags.String);
//   - the tag line of the speech package's character profiles
//     (speech.Profile.Tags, speech.ProfileTags): "Pitch: High (mean F0 212
//     Hz); Energy: Medium (63.1 dB); Speaking rate: Low (3.1 syllables/s)";
//     parenthesised measurements are ignored.
//
// Keys and levels are case-insensitive. Levels must be low, medium or high;
// "unknown" (a feature the speech analysis could not measure) leaves the
// tag empty. Anything else is an error naming the offending part.
func ParseTags(s string) (AcousticTags, error) {
	var a AcousticTags
	s = parenthesised.ReplaceAllString(strings.TrimSpace(s), " ")
	s = strings.Trim(strings.TrimSpace(s), "[]")
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' }) {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		m := tagPart.FindStringSubmatch(part)
		if m == nil {
			// Space-separated "pitch=high energy=low".
			fields := strings.Fields(part)
			if len(fields) < 2 {
				return a, fmt.Errorf("acoustic tag %q: want key=level (pitch, energy or rate; Low, Medium or High)", part)
			}
			for _, f := range fields {
				if err := setTag(&a, f, tagPart.FindStringSubmatch(f)); err != nil {
					return a, err
				}
			}
			continue
		}
		if err := setTag(&a, part, m); err != nil {
			return a, err
		}
	}
	return a, nil
}

var (
	parenthesised = regexp.MustCompile(`\([^)]*\)`)
	tagPart       = regexp.MustCompile(`^\s*([A-Za-z0-9_ ]+?)\s*[:=]\s*([A-Za-z]+)\s*$`)
)

// setTag stores one key=level part matched by tagPart (m nil: malformed).
func setTag(a *AcousticTags, part string, m []string) error {
	if m == nil {
		return fmt.Errorf("acoustic tag %q: want key=level (pitch, energy or rate; Low, Medium or High)", part)
	}
	lv, err := level(m[2])
	if err != nil {
		return fmt.Errorf("acoustic tag %q: %w", part, err)
	}
	switch strings.Join(strings.Fields(strings.ToLower(m[1])), "_") {
	case "pitch", "p", "f0":
		a.Pitch = lv
	case "energy", "e", "intensity", "loudness":
		a.Energy = lv
	case "rate", "r", "speed", "speaking_rate":
		a.Rate = lv
	default:
		return fmt.Errorf("acoustic tag %q: key is not pitch, energy or rate", part)
	}
	return nil
}

// level normalises a level name; "unknown" gives "" (no tag).
func level(v string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "low", "l":
		return "Low", nil
	case "medium", "mid", "m":
		return "Medium", nil
	case "high", "h":
		return "High", nil
	case "unknown", "":
		return "", nil
	}
	return "", fmt.Errorf("level %q is not Low, Medium or High", v)
}

// UnmarshalJSON reads tags written either as an object {"pitch": "High",
// "energy": "Low", "rate": "Medium"} (levels checked and normalised like
// ParseTags's; unknown keys rejected) or as a string in any form ParseTags
// accepts, such as the speech package's profile tag line.
func (a *AcousticTags) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case string(b) == "null":
		*a = AcousticTags{}
		return nil
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		t, err := ParseTags(s)
		if err != nil {
			return err
		}
		*a = t
		return nil
	}
	type plain AcousticTags // no UnmarshalJSON: no recursion
	var p plain
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return fmt.Errorf("acoustic tags: %w (expected {\"pitch\", \"energy\", \"rate\"} or a string such as \"pitch=High,energy=Low,rate=Medium\")", err)
	}
	for _, f := range []*string{&p.Pitch, &p.Energy, &p.Rate} {
		lv, err := level(*f)
		if err != nil {
			return fmt.Errorf("acoustic tags: %w", err)
		}
		*f = lv
	}
	*a = AcousticTags(p)
	return nil
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
