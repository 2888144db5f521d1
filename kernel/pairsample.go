package kernel

import (
	"context"
	"fmt"

	"github.com/roleprint/roleprint/data/pairs"
)

// PairRow is one pair of a split as a notebook shows the data an
// experiment runs on: the label, the two sets' speakers, sources and
// sizes, and the first utterance of each set.
type PairRow struct {
	Pair  string `json:"pair"`
	Label string `json:"label"` // "same" or "different" speaker
	// Negative is how a different-speaker pair was drawn: "other source"
	// (Base), "same source" (Hard) or "same conversation" (Harder); empty
	// for a same-speaker pair.
	Negative    string `json:"negative"`
	SpeakerA    string `json:"speaker_a"`
	SpeakerB    string `json:"speaker_b"`
	SourceA     string `json:"source_a"`
	SourceB     string `json:"source_b"`
	UtterancesA int    `json:"utterances_a"`
	UtterancesB int    `json:"utterances_b"`
	FirstA      string `json:"first_a"`
	FirstB      string `json:"first_b"`
}

// PairRows returns up to n pairs of split (pairs of c) for a look at the
// data: the first ⌈n/2⌉ same-speaker pairs and the first ⌊n/2⌋
// different-speaker ones, in split order. A pair naming a set c does not
// hold is an error.
func PairRows(c *pairs.PairCorpus, split []pairs.Pair, n int) ([]PairRow, error) {
	want := [2]int{n / 2, n - n/2} // by label: 0 different, 1 same
	var out []PairRow
	for _, p := range split {
		if p.Label < 0 || p.Label > 1 || want[p.Label] == 0 {
			continue
		}
		a, b := c.Sets[p.A], c.Sets[p.B]
		if a == nil || b == nil {
			return nil, fmt.Errorf("pair %s: set %q or %q is not in the corpus", p.ID, p.A, p.B)
		}
		want[p.Label]--
		r := PairRow{Pair: p.ID, Label: "same", SpeakerA: a.Speaker, SpeakerB: b.Speaker, SourceA: a.Source, SourceB: b.Source,
			UtterancesA: len(a.Texts), UtterancesB: len(b.Texts), FirstA: first(a.Texts), FirstB: first(b.Texts)}
		if p.Label == 0 {
			r.Label = "different"
			switch {
			case a.Source != b.Source:
				r.Negative = "other source"
			case a.ConversationID == b.ConversationID:
				r.Negative = "same conversation"
			default:
				r.Negative = "same source"
			}
		}
		out = append(out, r)
	}
	return out, nil
}

func first(texts []string) string {
	if len(texts) == 0 {
		return ""
	}
	return texts[0]
}

// Table2Pairs returns the pair corpus of round (1-based) of the planned
// run: the training, dev and test pairs that round trains and scores on,
// built as the runner builds them (same inputs, pair configuration and
// round seed).
func (nb *Notebook) Table2Pairs(ctx context.Context, p *Table2Plan, round int) (*pairs.PairCorpus, error) {
	if round < 1 || round > p.Config.Rounds {
		return nil, nb.Report(fmt.Errorf("%s: round %d: the run has rounds 1 to %d", p.Run.Name, round, p.Config.Rounds))
	}
	c, err := p.Source()(ctx, round, p.Config.Seed+int64(round-1))
	if err != nil {
		return nil, nb.Report(fmt.Errorf("%s: round %d pairs: %w", p.Run.Name, round, err))
	}
	return c, nil
}
