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
	// Group is the paper's group of the dimension ("interaction",
	// "speech", "role" for SpeechRole); empty when the paper has none.
	Group string `json:"group,omitempty"`
	// Question is what the judge is asked about it.
	Question string `json:"question"`
	// Rubric holds the anchors of the scale, lowest first (VoxRole's
	// 1–5: Rubric[0] describes a 1, Rubric[4] a 5); empty when none.
	Rubric []string `json:"rubric,omitempty"`
}

// The SpeechRole dimension groups.
const (
	// GroupInteraction is fundamental interaction ability (IA, CC).
	GroupInteraction = "interaction"
	// GroupSpeech is speech expressiveness (SF, SN, PC, EA).
	GroupSpeech = "speech"
	// GroupRole is role-playing fidelity (PeC, KC).
	GroupRole = "role"
)

// SpeechRoleDimensions are SpeechRole-Eval's eight dimensions in the
// paper's table order and groups: interaction ability (IA, CC), speech
// expressiveness (SF, SN, PC, EA) and role-playing fidelity (PeC, KC).
// Each is rated 1–10 for the candidate and a reference side by side.
var SpeechRoleDimensions = []Dimension{
	{Code: "IA", Name: "Instruction Adherence", Group: GroupInteraction,
		Question: "Does the response follow the role-play instruction and answer what was asked, staying in role throughout: no out-of-role or meta comments (nothing about being an AI, a model, an actor or a role-play)?"},
	{Code: "CC", Name: "Conversational Coherence", Group: GroupInteraction,
		Question: "Does the response follow from the dialogue so far, logically and topically, keeping track of what was said?"},
	{Code: "SF", Name: "Speech Fluency", Group: GroupSpeech,
		Question: "Is the speech fluent and easy to follow: no stumbles, broken or garbled words, or unnatural pauses?"},
	{Code: "SN", Name: "Speech Naturalness", Group: GroupSpeech,
		Question: "Does it sound like natural human speech rather than synthetic or read-out text?"},
	{Code: "PC", Name: "Prosody Consistency", Group: GroupSpeech,
		Question: "Do pitch, energy, rhythm and speaking rate match how this character speaks?"},
	{Code: "EA", Name: "Emotion Appropriateness", Group: GroupSpeech,
		Question: "Does the voice convey the emotion the situation and the character call for?"},
	{Code: "PeC", Name: "Personality Consistency", Group: GroupRole,
		Question: "Does the response show the character's personality, values and attitudes?"},
	{Code: "KC", Name: "Knowledge Consistency", Group: GroupRole,
		Question: "Is the content consistent with what the character knows and has lived through, with nothing the character could not know?"},
}

// VoxRoleDimensions are VoxRole's six judge dimensions, each rated 1–5
// against its rubric anchors. Human-Likeness is whether the response
// sounds like a natural human speaker rather than a robotic or templated
// one (not whether it sounds like the character: that is Personality and
// Linguistic Style). The paralinguistic dimension ("acoustic") is whether
// the response's acoustic cues and emotion fit what it says (semantic
// fit) and the emotion of the moment and the character's voice
// (emotional fit); it is asked only when some acoustic tag or emotion
// label is known.
var VoxRoleDimensions = []Dimension{
	{Code: "likeness", Name: "Human-Likeness",
		Question: "Does the response sound like a natural human speaker in a real conversation, rather than robotic, synthetic or templated output?",
		Rubric: []string{
			"1: robotic or machine-like: templated, stilted, or reads as generated text",
			"2: mostly unnatural, with only occasional human touches",
			"3: passable but noticeably stiff or formulaic in places",
			"4: natural on the whole, with minor awkwardness",
			"5: indistinguishable from a natural human speaker",
		}},
	{Code: "personality", Name: "Personality",
		Question: "Does the response reflect the character's personality traits, values and attitudes?",
		Rubric: []string{
			"1: contradicts the character's personality",
			"2: generic; little of the character's personality shows",
			"3: some traits show, others are missing or off",
			"4: the personality is clear, with small lapses",
			"5: fully in character: every trait fits",
		}},
	{Code: "linguistic", Name: "Linguistic Style",
		Question: "Does the wording match the character's vocabulary, sentence patterns, register and catchphrases?",
		Rubric: []string{
			"1: the wording is unlike the character's",
			"2: mostly generic wording",
			"3: partly the character's style",
			"4: the character's style with small deviations",
			"5: unmistakably the character's way of speaking",
		}},
	{Code: "relation", Name: "Relationship",
		Question: "Does the response treat the interlocutor as this character treats them (familiarity, respect, affection or hostility)?",
		Rubric: []string{
			"1: ignores or contradicts the relationship",
			"2: the relationship barely shows",
			"3: roughly right but flat or inconsistent",
			"4: fits the relationship with minor slips",
			"5: exactly how this character relates to this interlocutor",
		}},
	{Code: "coherence", Name: "Coherence",
		Question: "Does the response follow coherently from the conversation so far?",
		Rubric: []string{
			"1: off-topic or contradicts the conversation",
			"2: loosely connected to the conversation",
			"3: relevant but with gaps or abrupt turns",
			"4: coherent with small gaps",
			"5: follows naturally and consistently from the conversation",
		}},
	{Code: "acoustic", Name: "Paralinguistic Consistency",
		Question: "Do the response's paralinguistic cues (its pitch, energy and speaking-rate tags and its emotion label, where given) fit what it says (semantic fit) and the emotion of the moment and the character's usual voice (emotional fit)?",
		Rubric: []string{
			"1: the cues contradict the content and the emotion of the moment",
			"2: the cues mostly do not fit",
			"3: the cues fit the content or the emotion, not both",
			"4: the cues fit the content and the emotion, with small mismatches",
			"5: the cues fit the content, the emotion and the character's voice",
		}},
}

// DimensionsOfGroup returns the dimensions of dims in group g, in order.
func DimensionsOfGroup(dims []Dimension, g string) []Dimension {
	var out []Dimension
	for _, d := range dims {
		if d.Group == g {
			out = append(out, d)
		}
	}
	return out
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
	// Emotion is the turn's emotion label, as a speech emotion recogniser
	// such as Emotion2Vec gives it ("happy", "angry"); empty when unknown.
	Emotion string `json:"emotion,omitempty"`
	// Audio is the turn's recording (a path, relative to the audio folder
	// given to FillSentenceTags); when set and Tags is empty, the tags are
	// computed from it.
	Audio string `json:"audio,omitempty"`
}

// String renders "Speaker: text [tags] [emotion: e]".
func (t Turn) String() string {
	s := t.Speaker + ": " + t.Text
	if tg := t.Tags.String(); tg != "" {
		s += " " + tg
	}
	if e := emotionTag(t.Emotion); e != "" {
		s += " " + e
	}
	return s
}

// emotionTag renders "[emotion: e]", "" for no label.
func emotionTag(e string) string {
	if e = strings.TrimSpace(e); e == "" {
		return ""
	}
	return "[emotion: " + e + "]"
}

func renderTurns(ts []Turn) string {
	var b strings.Builder
	for _, t := range ts {
		b.WriteString(t.String())
		b.WriteByte('\n')
	}
	return b.String()
}
