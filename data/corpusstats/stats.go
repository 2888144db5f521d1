package corpusstats

import (
	"cmp"
	"slices"
	"strings"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/pairs"
)

// DefaultTopSpeakers is how many top speakers a Summary lists by default.
const DefaultTopSpeakers = 10

// Stats are the statistics of a corpus. The overall figures are embedded,
// so they are the top-level keys of its JSON form.
type Stats struct {
	Summary
	// Datasets has one summary per dataset (source up to the first "/"),
	// sorted by name.
	Datasets []Summary `json:"datasets"`
	// Sources has one summary per source, sorted by name.
	Sources []Summary `json:"sources"`
}

// Summary is one row of the statistics table.
type Summary struct {
	// Name is the dataset or source; "total" for the whole corpus.
	Name string `json:"name"`
	// NumSources is the number of distinct sources.
	NumSources int `json:"num_sources"`
	// Speakers is the number of distinct (source, speaker) pairs.
	Speakers int `json:"speakers"`
	// Utterances is the number of rows.
	Utterances int `json:"utterances"`
	// Conversations is the number of distinct (source, conversation) pairs.
	Conversations int `json:"conversations"`
	// UtterancesPerConversation is Utterances / Conversations (the paper's
	// "Avg. Turn"); 0 for an empty corpus.
	UtterancesPerConversation float64 `json:"utterances_per_conversation"`
	// SpeakersPerConversation is the mean number of distinct speakers in a
	// conversation.
	SpeakersPerConversation float64 `json:"speakers_per_conversation"`
	// Words is the number of white-space separated words of all texts.
	Words int `json:"words"`
	// WordsPerUtterance is Words / Utterances.
	WordsPerUtterance float64 `json:"words_per_utterance"`
	// Generated is the number of rows produced by an agent (AgentModel
	// set); 0 for real transcripts.
	Generated int `json:"generated"`
	// TopSpeakers lists the speakers with the most utterances, most first
	// (ties by source, then name).
	TopSpeakers []SpeakerCount `json:"top_speakers"`
}

// SpeakerCount is a speaker and the number of their utterances.
type SpeakerCount struct {
	// Speaker is the speaker's name.
	Speaker string `json:"speaker"`
	// Source is the source the speaker belongs to.
	Source string `json:"source"`
	// Utterances is the number of the speaker's utterances.
	Utterances int `json:"utterances"`
}

// Compute returns the statistics of utts with DefaultTopSpeakers top
// speakers per row.
func Compute(utts []data.Utterance) *Stats {
	a := NewAccumulator(DefaultTopSpeakers)
	a.Add(utts...)
	return a.Stats()
}

// Accumulator gathers statistics batch by batch.
type Accumulator struct {
	top   int
	total *group
	sets  map[string]*group // by dataset
	srcs  map[string]*group // by source
}

type key struct{ source, name string }

// group accumulates one row.
type group struct {
	sources  map[string]bool
	speakers map[key]int
	convs    map[key]map[string]bool // conversation → its speakers
	utts     int
	words    int
	gen      int
}

func newGroup() *group {
	return &group{sources: map[string]bool{}, speakers: map[key]int{}, convs: map[key]map[string]bool{}}
}

func (g *group) add(u *data.Utterance, words int) {
	g.sources[u.Source] = true
	g.speakers[key{u.Source, u.Speaker}]++
	ck := key{u.Source, u.ConversationID}
	if g.convs[ck] == nil {
		g.convs[ck] = map[string]bool{}
	}
	g.convs[ck][u.Speaker] = true
	g.utts++
	g.words += words
	if u.Generated() {
		g.gen++
	}
}

// NewAccumulator returns an empty accumulator listing top speakers per row
// (DefaultTopSpeakers when top ≤ 0).
func NewAccumulator(top int) *Accumulator {
	if top <= 0 {
		top = DefaultTopSpeakers
	}
	return &Accumulator{top: top, total: newGroup(), sets: map[string]*group{}, srcs: map[string]*group{}}
}

// Add counts utterances.
func (a *Accumulator) Add(utts ...data.Utterance) {
	for i := range utts {
		u := &utts[i]
		w := len(strings.Fields(u.Text))
		a.total.add(u, w)
		for _, m := range []struct {
			groups map[string]*group
			name   string
		}{{a.sets, Dataset(u.Source)}, {a.srcs, u.Source}} {
			g := m.groups[m.name]
			if g == nil {
				g = newGroup()
				m.groups[m.name] = g
			}
			g.add(u, w)
		}
	}
}

// Stats returns the statistics of everything added so far.
func (a *Accumulator) Stats() *Stats {
	s := &Stats{Summary: a.total.summary("total", a.top)}
	for _, name := range sortedKeys(a.sets) {
		s.Datasets = append(s.Datasets, a.sets[name].summary(name, a.top))
	}
	for _, name := range sortedKeys(a.srcs) {
		s.Sources = append(s.Sources, a.srcs[name].summary(name, a.top))
	}
	return s
}

// Dataset returns the dataset a source belongs to: its part before the
// first "/", the grouping the pair builder uses too (pairs.CorpusOf).
func Dataset(source string) string { return pairs.CorpusOf(source) }

func sortedKeys(m map[string]*group) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func (g *group) summary(name string, top int) Summary {
	s := Summary{
		Name: name, NumSources: len(g.sources), Speakers: len(g.speakers), Utterances: g.utts,
		Conversations: len(g.convs), Words: g.words, Generated: g.gen,
	}
	if s.Conversations > 0 {
		s.UtterancesPerConversation = float64(s.Utterances) / float64(s.Conversations)
		n := 0
		for _, spk := range g.convs {
			n += len(spk)
		}
		s.SpeakersPerConversation = float64(n) / float64(s.Conversations)
	}
	if s.Utterances > 0 {
		s.WordsPerUtterance = float64(s.Words) / float64(s.Utterances)
	}
	counts := make([]SpeakerCount, 0, len(g.speakers))
	for k, n := range g.speakers {
		counts = append(counts, SpeakerCount{Speaker: k.name, Source: k.source, Utterances: n})
	}
	slices.SortFunc(counts, func(a, b SpeakerCount) int {
		return cmp.Or(cmp.Compare(b.Utterances, a.Utterances), cmp.Compare(a.Source, b.Source), cmp.Compare(a.Speaker, b.Speaker))
	})
	s.TopSpeakers = counts[:min(top, len(counts))]
	return s
}
