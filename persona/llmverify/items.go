package llmverify

import (
	"fmt"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/genimport"
	"github.com/roleprint/roleprint/data/pairs"
)

// ItemsFromPairCorpus turns pairs of a pair corpus into items. utts, when
// not nil, is the corpus the pairs were built from: each set's whole
// conversation (its source and conversation ID) is looked up there for the
// Conversation view. A pair naming a set the corpus lacks is an error.
func ItemsFromPairCorpus(c *pairs.PairCorpus, pairList []pairs.Pair, utts []data.Utterance) ([]Item, error) {
	convs := map[string][]data.Utterance{}
	for _, u := range utts {
		k := u.Source + "\x00" + u.ConversationID
		convs[k] = append(convs[k], u)
	}
	side := func(id string) (Side, error) {
		s := c.Set(id)
		if s == nil {
			return Side{}, fmt.Errorf("pair corpus has no set %q", id)
		}
		sd := Side{Utterances: s.Texts, Speaker: s.Speaker}
		if rows, ok := convs[s.Source+"\x00"+s.ConversationID]; ok {
			sd.Conversation = genimport.ConversationTurns(rows)
		}
		return sd, nil
	}
	out := make([]Item, 0, len(pairList))
	for _, p := range pairList {
		a, err := side(p.A)
		if err != nil {
			return nil, fmt.Errorf("pair %s: %w", p.ID, err)
		}
		b, err := side(p.B)
		if err != nil {
			return nil, fmt.Errorf("pair %s: %w", p.ID, err)
		}
		out = append(out, Item{ID: p.ID, A: a, B: b, Same: p.Label == 1})
	}
	return out, nil
}

// RecordsFromItems renders items as the seed paper's pair records, for
// genimport.WritePairRecords (the inverse of ItemsFromRecords).
func RecordsFromItems(items []Item) []genimport.PairRecord {
	out := make([]genimport.PairRecord, len(items))
	for i, it := range items {
		label := 0
		if it.Same {
			label = 1
		}
		out[i] = genimport.PairRecord{
			AnchorSpeaker: it.A.Speaker, AnchorUtterances: it.A.Utterances, AnchorConversation: it.A.Conversation,
			PairedSpeaker: it.B.Speaker, PairedUtterances: it.B.Utterances, PairedConversation: it.B.Conversation,
			Label: label,
		}
	}
	return out
}
