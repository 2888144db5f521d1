package pairs

import (
	"fmt"
	"io"
	"strings"
)

// PairStatistics summarises a PairCorpus like the paper's Table 5: per
// split the pairs, labels, speakers and sets, and how long the sets are.
type PairStatistics struct {
	// Splits are train, dev, then the nine tests (exposure-major).
	Splits []SplitStats `json:"splits"`
	// SpeakersSeen are the speakers of training pairs, SpeakersUnseen those
	// of the Unseen-Unseen tests, SpeakersDev those of the dev pairs.
	SpeakersSeen   int `json:"speakers_seen"`
	SpeakersUnseen int `json:"speakers_unseen"`
	SpeakersDev    int `json:"speakers_dev"`
	// Sets counts the sets any pair refers to; Utterances and Words their
	// total length.
	Sets       int `json:"sets"`
	Utterances int `json:"utterances"`
	Words      int `json:"words"`
	// UnknownSets counts pair references to sets missing from the corpus
	// (always 0 for corpora from BuildPairs or ReadPairDir).
	UnknownSets int `json:"unknown_sets,omitempty"`
}

// SplitStats is one row of PairStatistics.
type SplitStats struct {
	// Name is "train", "dev" or a TestKey's String().
	Name      string   `json:"name"`
	Exposure  Exposure `json:"exposure,omitempty"`
	Level     Level    `json:"level,omitempty"`
	Pairs     int      `json:"pairs"`
	Positives int      `json:"positives"`
	Negatives int      `json:"negatives"`
	// Speakers and Sets are the distinct speakers and sets of the split.
	Speakers int `json:"speakers"`
	Sets     int `json:"sets"`
	// MeanUtterances and MeanWords are per distinct set of the split.
	MeanUtterances float64 `json:"mean_utterances"`
	MeanWords      float64 `json:"mean_words"`
	// CrossSourceNegatives and SameConversationNegatives are the shares
	// (0 to 1) of the split's negative pairs whose two sets are of two
	// sources, and of one conversation: the levels' definitions made
	// checkable (Base 1 with PairConfig.BaseNegatives "source", Hard 0 and
	// 0, Harder 0 and 1). 0 when the split has no negative; negatives
	// with an unknown set are left out of both.
	CrossSourceNegatives      float64 `json:"cross_source_negatives"`
	SameConversationNegatives float64 `json:"same_conversation_negatives"`
}

// Balanced reports whether the split has as many positives as negatives.
func (s SplitStats) Balanced() bool { return s.Positives == s.Negatives }

// Unbalanced names the splits with more positives than negatives or the
// reverse, in Splits' order (empty when every split is 1:1, as BuildPairs
// makes them).
func (st PairStatistics) Unbalanced() []string {
	out := []string{}
	for _, s := range st.Splits {
		if !s.Balanced() {
			out = append(out, s.Name)
		}
	}
	return out
}

// Balanced reports whether every split has as many positives as
// negatives (true for no splits).
func (st PairStatistics) Balanced() bool { return len(st.Unbalanced()) == 0 }

// PairStats computes the statistics of c. A speaker is (source, speaker,
// agent model), as in BuildPairs.
func PairStats(c *PairCorpus) PairStatistics {
	var st PairStatistics
	if c == nil {
		return st
	}
	words := map[string]int{}
	wordsOf := func(s *UtteranceSet) int {
		if n, ok := words[s.ID]; ok {
			return n
		}
		n := 0
		for _, t := range s.Texts {
			n += countWords(t)
		}
		words[s.ID] = n
		return n
	}
	allSets := map[string]bool{}
	role := map[string]map[speakerKey]bool{"train": {}, "dev": {}, "unseen": {}}
	for _, name := range pairSplitNames() {
		row := SplitStats{Name: name}
		for _, e := range Exposures {
			for _, l := range Levels {
				if (TestKey{e, l}).String() == name {
					row.Exposure, row.Level = e, l
				}
			}
		}
		spk := map[speakerKey]bool{}
		sets := map[string]bool{}
		var utts, wds, negKnown, negCross, negConv int
		for _, p := range c.split(name) {
			row.Pairs++
			if p.Label == 1 {
				row.Positives++
			} else {
				row.Negatives++
				if a, b := c.Sets[p.A], c.Sets[p.B]; a != nil && b != nil {
					negKnown++
					if a.Source != b.Source {
						negCross++
					} else if a.ConversationID == b.ConversationID {
						negConv++
					}
				}
			}
			for _, id := range []string{p.A, p.B} {
				s := c.Sets[id]
				if s == nil {
					st.UnknownSets++
					continue
				}
				k := speakerKey{s.Source, s.Speaker, s.AgentModel}
				spk[k] = true
				switch {
				case name == "train" || name == "dev":
					role[name][k] = true
				case row.Exposure == UnseenUnseen:
					role["unseen"][k] = true
				}
				if !sets[id] {
					sets[id] = true
					utts += len(s.Texts)
					wds += wordsOf(s)
				}
				allSets[id] = true
			}
		}
		row.Speakers, row.Sets = len(spk), len(sets)
		if negKnown > 0 {
			row.CrossSourceNegatives = float64(negCross) / float64(negKnown)
			row.SameConversationNegatives = float64(negConv) / float64(negKnown)
		}
		if len(sets) > 0 {
			row.MeanUtterances = float64(utts) / float64(len(sets))
			row.MeanWords = float64(wds) / float64(len(sets))
		}
		st.Splits = append(st.Splits, row)
	}
	st.SpeakersSeen, st.SpeakersDev, st.SpeakersUnseen = len(role["train"]), len(role["dev"]), len(role["unseen"])
	st.Sets = len(allSets)
	for id := range allSets {
		st.Utterances += len(c.Sets[id].Texts)
		st.Words += wordsOf(c.Sets[id])
	}
	return st
}

// Markdown renders the statistics as a Table-5-like Markdown table.
func (st PairStatistics) Markdown() string {
	var b strings.Builder
	_ = st.WriteMarkdown(&b)
	return b.String()
}

// WriteMarkdown writes the Markdown table of Markdown to w.
func (st PairStatistics) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	b.WriteString("| Split | Level | Speakers | Pairs | Positives | Negatives | Neg. cross-source | Neg. same conv. | Sets | Utterances/set | Words/set |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range st.tableOrder() {
		name, level := s.Name, ""
		if s.Exposure != "" {
			name, level = s.Exposure.Title(), s.Level.Title()
		} else {
			name = strings.ToUpper(name[:1]) + name[1:]
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d | %.0f %% | %.0f %% | %d | %.1f | %.1f |\n",
			name, level, s.Speakers, s.Pairs, s.Positives, s.Negatives, 100*s.CrossSourceNegatives,
			100*s.SameConversationNegatives, s.Sets, s.MeanUtterances, s.MeanWords)
	}
	fmt.Fprintf(&b, "\nSpeakers: %d seen (train), %d unseen, %d dev. Sets: %d (%d utterances, %d words).\n",
		st.SpeakersSeen, st.SpeakersUnseen, st.SpeakersDev, st.Sets, st.Utterances, st.Words)
	_, err := io.WriteString(w, b.String())
	return err
}

// tableOrder lists train, dev, then the tests level by level as in the
// paper's Table 5.
func (st PairStatistics) tableOrder() []SplitStats {
	var out []SplitStats
	for _, s := range st.Splits {
		if s.Exposure == "" {
			out = append(out, s)
		}
	}
	for _, l := range Levels {
		for _, s := range st.Splits {
			if s.Level == l && s.Exposure != "" {
				out = append(out, s)
			}
		}
	}
	return out
}
