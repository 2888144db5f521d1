package sv

import (
	"sort"

	"github.com/roleprint/roleprint/data/pairs"
)

// SetsByID returns the sets of c named in ids, in ID order.
func SetsByID(c *pairs.PairCorpus, ids map[string]bool) []*pairs.UtteranceSet {
	keys := make([]string, 0, len(ids))
	for id := range ids {
		keys = append(keys, id)
	}
	sort.Strings(keys)
	out := make([]*pairs.UtteranceSet, len(keys))
	for i, id := range keys {
		out[i] = c.Sets[id]
	}
	return out
}

// TrainTexts returns the distinct utterance texts of the sets in c's
// training pairs, in set-ID order: what Fitters are fitted on. max > 0
// keeps at most max of them, taken evenly.
func TrainTexts(c *pairs.PairCorpus, max int) []string {
	texts, _ := TrainTextSources(c, max)
	return texts
}

// TrainTextSources is TrainTexts with each text's Source (that of the
// first training set it occurs in): what a SourceFitter is fitted on.
func TrainTextSources(c *pairs.PairCorpus, max int) (texts, sources []string) {
	ids := map[string]bool{}
	for _, p := range c.Train {
		ids[p.A], ids[p.B] = true, true
	}
	seen := map[string]bool{}
	for _, s := range SetsByID(c, ids) {
		for _, t := range s.Texts {
			if !seen[t] {
				seen[t] = true
				texts = append(texts, t)
				sources = append(sources, s.Source)
			}
		}
	}
	if max > 0 && len(texts) > max {
		outT, outS := make([]string, max), make([]string, max)
		for i := range outT {
			j := int(float64(i) * float64(len(texts)) / float64(max))
			outT[i], outS[i] = texts[j], sources[j]
		}
		texts, sources = outT, outS
	}
	return texts, sources
}
