package llmverify

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/genimport"
)

// View is what the verifier is shown of a pair (the two columns of the
// paper's Table 1).
type View string

// The views.
const (
	// Conversation shows both whole conversations with the speaker of
	// interest marked in each ("Conversation" option).
	Conversation View = "conversation"
	// Utterances shows only the two lists of utterances ("Utterances"
	// option).
	Utterances View = "utterances"
)

// ParseView reads "conversation" or "utterances" (also "conv", "utt").
func ParseView(s string) (View, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "conversation", "conversations", "conv":
		return Conversation, nil
	case "utterances", "utterance", "utt":
		return Utterances, nil
	}
	return "", fmt.Errorf("unknown view %q: want conversation or utterances", s)
}

// Prompting is how the verifier is asked: zero-shot, chain-of-thought, or
// with K demonstrations (K/2 positive and K/2 negative pairs from the
// training split) before the question.
type Prompting struct {
	// CoT adds "Let's analyse step by step:" and asks for reasoning
	// before the answer.
	CoT bool
	// K is the number of demonstrations; 0 for zero-shot and CoT. It must
	// be even.
	K int
}

// String names the prompting as Table 1 does: "zero-shot", "cot",
// "2-shot", ...
func (p Prompting) String() string {
	switch {
	case p.CoT && p.K > 0:
		return strconv.Itoa(p.K) + "-shot-cot"
	case p.CoT:
		return "cot"
	case p.K > 0:
		return strconv.Itoa(p.K) + "-shot"
	}
	return "zero-shot"
}

// ParsePrompting reads "zero-shot" (or "zero"), "cot", "K-shot" (K even,
// e.g. "2-shot", "6-shot") and "K-shot-cot".
func ParsePrompting(s string) (Prompting, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	switch t {
	case "zero-shot", "zeroshot", "zero", "0-shot":
		return Prompting{}, nil
	case "cot", "chain-of-thought":
		return Prompting{CoT: true}, nil
	}
	var p Prompting
	if strings.HasSuffix(t, "-cot") {
		p.CoT = true
		t = strings.TrimSuffix(t, "-cot")
	}
	if k, ok := strings.CutSuffix(t, "-shot"); ok {
		n, err := strconv.Atoi(k)
		if err == nil && n >= 0 && n%2 == 0 {
			p.K = n
			return p, nil
		}
	}
	return Prompting{}, fmt.Errorf("unknown prompting %q: want zero-shot, cot, or K-shot with an even K (2-shot, 4-shot, 6-shot)", s)
}

// Side is one utterance set of a pair: its utterances and, when known,
// the whole conversation it comes from and its speaker's name there.
type Side struct {
	Utterances   []string
	Conversation []genimport.ConversationTurn
	// Speaker names the set's speaker in Conversation; when empty, the
	// turns whose text is one of Utterances are the speaker's.
	Speaker string
}

// Item is one pair to verify.
type Item struct {
	// ID identifies the pair in predictions.
	ID   string
	A, B Side
	// Same is the true label: one speaker or two.
	Same bool
}

// ItemsFromRecords turns pair records (genimport.ReadPairRecords) into
// items with IDs "<prefix><n>" (1-based).
func ItemsFromRecords(recs []genimport.PairRecord, prefix string) []Item {
	out := make([]Item, len(recs))
	for i := range recs {
		r := &recs[i]
		out[i] = Item{
			ID:   prefix + strconv.Itoa(i+1),
			A:    Side{Utterances: r.AnchorUtterances, Conversation: r.AnchorConversation, Speaker: r.AnchorName()},
			B:    Side{Utterances: r.PairedUtterances, Conversation: r.PairedConversation, Speaker: r.PairedName()},
			Same: r.Label == 1,
		}
	}
	return out
}

// DefaultSystem is the system message of the embedded templates
// (prompts/system.tmpl).
const DefaultSystem = "You are an expert in linguistics and authorship analysis. You judge whether texts were written or spoken by the same person from their style, wording and persona."

// CoTCue is the chain-of-thought cue of the paper; the embedded
// instruction-cot.tmpl ends with it.
const CoTCue = "Let's analyse step by step:"

// question renders the question about one pair in view v with t.
func question(t *Templates, it Item, v View) (string, error) {
	switch v {
	case Utterances:
		sets := make([][]string, 2)
		for k, s := range []Side{it.A, it.B} {
			for _, u := range s.Utterances {
				sets[k] = append(sets[k], oneLine(u))
			}
		}
		return t.Render(TemplateUtterances, struct{ Sets [][]string }{sets})
	case Conversation:
		if len(it.A.Conversation) == 0 || len(it.B.Conversation) == 0 {
			return "", fmt.Errorf("pair %s: the conversation view needs both sides' conversations", it.ID)
		}
		if slices.Equal(it.A.Conversation, it.B.Conversation) {
			return "", fmt.Errorf("pair %s: both sets come from one conversation (a Harder-level pair): the conversation view does not apply", it.ID)
		}
		convs := make([]string, 2)
		for k, s := range []Side{it.A, it.B} {
			lines, marked := renderConversation(s, k+1)
			if marked == 0 {
				return "", fmt.Errorf("pair %s: side %d: the speaker %q has no turn in the conversation", it.ID, k+1, s.Speaker)
			}
			convs[k] = lines
		}
		return t.Render(TemplateConversation, struct{ Conversations []string }{convs})
	}
	return "", fmt.Errorf("unknown view %q", v)
}

// renderConversation writes a conversation with the side's speaker as
// [Speaker k] and the others as [Other A], [Other B], ... in order of
// appearance (names are hidden: they would give the answer away). It
// returns the text and how many turns were marked as the speaker's.
func renderConversation(s Side, k int) (string, int) {
	mine := map[string]bool{}
	for _, u := range s.Utterances {
		mine[strings.TrimSpace(u)] = true
	}
	others := map[string]string{}
	var b strings.Builder
	marked := 0
	for _, t := range s.Conversation {
		var label string
		isSpeaker := s.Speaker != "" && data.NormalizeCharacterName(t.Speaker) == data.NormalizeCharacterName(s.Speaker)
		if s.Speaker == "" {
			isSpeaker = mine[strings.TrimSpace(t.Utterance)]
		}
		if isSpeaker {
			label = fmt.Sprintf("[Speaker %d]", k)
			marked++
		} else {
			key := data.NormalizeCharacterName(t.Speaker)
			l, ok := others[key]
			if !ok {
				l = "[Other " + otherLabel(len(others)) + "]"
				others[key] = l
			}
			label = l
		}
		fmt.Fprintf(&b, "%s: %s\n", label, oneLine(t.Utterance))
	}
	return b.String(), marked
}

// otherLabel returns A, B, ..., Z, AA, AB, ...
func otherLabel(i int) string {
	s := ""
	for {
		s = string(rune('A'+i%26)) + s
		i = i/26 - 1
		if i < 0 {
			return s
		}
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// instruction renders what follows the question.
func instruction(t *Templates, p Prompting) (string, error) {
	if p.CoT {
		return t.Render(TemplateInstructionCoT, struct{}{})
	}
	return t.Render(TemplateInstruction, struct{}{})
}

// demoAnswer is the assistant turn of a demonstration.
func demoAnswer(same bool) string {
	if same {
		return "TRUE"
	}
	return "FALSE"
}
