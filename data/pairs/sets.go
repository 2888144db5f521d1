package pairs

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/roleprint/roleprint/data"
)

// speakerKey is a speaker's identity: the same name in two sources is two
// people (Shakespeare's "King" in two plays), and an agent playing a role is
// not the person it plays.
type speakerKey struct {
	Source, Speaker, AgentModel string
}

// String renders the key for reports: "Hamlet (shakespeare/hamlet)",
// "Sheldon [gpt-4o] (tbbt)".
func (k speakerKey) String() string {
	if k.AgentModel != "" {
		return fmt.Sprintf("%s [%s] (%s)", k.Speaker, k.AgentModel, k.Source)
	}
	return fmt.Sprintf("%s (%s)", k.Speaker, k.Source)
}

func compareSpeakerKeys(a, b speakerKey) int {
	return cmp.Or(strings.Compare(a.Source, b.Source), strings.Compare(a.Speaker, b.Speaker),
		strings.Compare(a.AgentModel, b.AgentModel))
}

// pairIndex is the filtered corpus the pair builder samples from: every
// kept utterance set with integer handles to its speaker, source,
// conversation and dataset.
type pairIndex struct {
	sets    []*UtteranceSet
	setSpk  []int32 // speaker of each set
	setConv []int32 // conversation of each set
	setSrc  []int32 // source of each set

	speakers []speakerInfo
	convs    []convInfo
	sources  []string
	datasets []string

	counts InputCounts
}

type speakerInfo struct {
	key     speakerKey
	dataset int32
	sets    []int32 // in set order
	// name identifies the speaker's name within its corpus (case and
	// spacing folded, agent model included): two speakers of one corpus
	// with the same name id may be one person in two sources (Falstaff in
	// both parts of Henry IV), so they are never a negative pair.
	name int32
	// namesake is true when another kept speaker has the same name id;
	// such a speaker is never drawn unseen or dev.
	namesake bool
}

type convInfo struct {
	source int32
	id     string
	// sets are the kept sets of this conversation, one per speaker.
	sets []int32
	// present are the kept speakers with at least one utterance here,
	// whether or not it made a set: holding out one of them holds out the
	// whole conversation.
	present []int32
}

// InputCounts says what the filters of BuildPairs kept and dropped.
type InputCounts struct {
	// Utterances is the number of input rows.
	Utterances int `json:"utterances"`
	// Generated rows dropped because IncludeGenerated is false.
	GeneratedDropped int `json:"generated_dropped"`
	// Conversations in the input, and those dropped for having fewer than
	// MinConversationTurns utterances.
	Conversations      int `json:"conversations"`
	ConversationsShort int `json:"conversations_short"`
	// AliasedUtterances had their speaker renamed by Aliases.
	AliasedUtterances int `json:"aliased_utterances"`
	// ExcludedUtterances were spoken by generic roles (ExcludeSpeakers);
	// ExcludedNames lists those names with their utterance counts.
	ExcludedUtterances int            `json:"excluded_utterances"`
	ExcludedNames      map[string]int `json:"excluded_names"`
	// CandidateSets is the number of (speaker, conversation) groups in kept
	// conversations; SetsTooSmall of them had fewer than MinSetUtterances
	// utterances or MinSetWords words.
	CandidateSets int `json:"candidate_sets"`
	SetsTooSmall  int `json:"sets_too_small"`
	// SpeakersWithSets had at least one kept set; SpeakersTooFewSets of
	// them had fewer than MinSpeakerSets and were dropped with their sets.
	SpeakersWithSets   int `json:"speakers_with_sets"`
	SpeakersTooFewSets int `json:"speakers_too_few_sets"`
	// Speakers and Sets are what remain.
	Speakers int `json:"speakers"`
	Sets     int `json:"sets"`
}

type convKey struct{ source, id string }

// buildIndex applies the filters and groups the utterances into sets.
func buildIndex(utts []data.Utterance, cfg *PairConfig) (*pairIndex, error) {
	exclude := newSpeakerMatcher(cfg.ExcludeSpeakers, false)
	aliases, err := newAliasMap(cfg.Aliases)
	if err != nil {
		return nil, err
	}
	idx := &pairIndex{}
	idx.counts.Utterances = len(utts)
	idx.counts.ExcludedNames = map[string]int{}

	type acc struct {
		turns int
		by    map[speakerKey][]int32
	}
	convs := map[convKey]*acc{}
	for i := range utts {
		u := &utts[i]
		if err := u.Validate(); err != nil {
			return nil, fmt.Errorf("build pairs: utterance %d (source %q, conversation %q): %w", i, u.Source, u.ConversationID, err)
		}
		if u.Generated() && !cfg.IncludeGenerated {
			idx.counts.GeneratedDropped++
			continue
		}
		k := convKey{u.Source, u.ConversationID}
		a := convs[k]
		if a == nil {
			a = &acc{by: map[speakerKey][]int32{}}
			convs[k] = a
		}
		a.turns++
		speaker := u.Speaker
		if to, ok := aliases.lookup(u.Source, speaker); ok {
			speaker = to
			idx.counts.AliasedUtterances++
		}
		if exclude.match(u.Source, speaker) {
			idx.counts.ExcludedUtterances++
			idx.counts.ExcludedNames[speaker]++
			continue
		}
		sk := speakerKey{u.Source, speaker, u.AgentModel}
		a.by[sk] = append(a.by[sk], int32(i))
		if cfg.Progress != nil && i%50_000 == 0 {
			cfg.Progress("sets", i, len(utts))
		}
	}
	idx.counts.Conversations = len(convs)

	keys := make([]convKey, 0, len(convs))
	for k := range convs {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b convKey) int {
		return cmp.Or(strings.Compare(a.source, b.source), strings.Compare(a.id, b.id))
	})

	// First pass: candidate sets and the number of kept sets per speaker.
	type cand struct {
		conv int
		spk  speakerKey
		rows []int32
	}
	var cands []cand
	setsPer := map[speakerKey]int{}
	for ci, k := range keys {
		a := convs[k]
		if a.turns < cfg.MinConversationTurns {
			idx.counts.ConversationsShort++
			continue
		}
		spks := make([]speakerKey, 0, len(a.by))
		for s := range a.by {
			spks = append(spks, s)
		}
		slices.SortFunc(spks, compareSpeakerKeys)
		for _, s := range spks {
			rows := a.by[s]
			idx.counts.CandidateSets++
			words := 0
			for _, r := range rows {
				words += countWords(utts[r].Text)
			}
			if len(rows) < cfg.MinSetUtterances || words < cfg.MinSetWords {
				idx.counts.SetsTooSmall++
				// Still a present speaker of the conversation.
				cands = append(cands, cand{conv: ci, spk: s})
				continue
			}
			slices.SortStableFunc(rows, func(x, y int32) int { return cmp.Compare(utts[x].Turn, utts[y].Turn) })
			cands = append(cands, cand{conv: ci, spk: s, rows: rows})
			setsPer[s]++
		}
	}
	idx.counts.SpeakersWithSets = len(setsPer)

	// Kept speakers, in key order.
	var kept []speakerKey
	for s, n := range setsPer {
		if n >= cfg.MinSpeakerSets {
			kept = append(kept, s)
		} else {
			idx.counts.SpeakersTooFewSets++
		}
	}
	slices.SortFunc(kept, compareSpeakerKeys)
	spkID := make(map[speakerKey]int32, len(kept))
	dsID := map[string]int32{}
	srcID := map[string]int32{}
	nameID := map[[3]string]int32{}
	nameCount := map[int32]int{}
	for _, s := range kept {
		ds := s.Source
		if cfg.DatasetBy == DatasetByCorpus {
			ds = CorpusOf(s.Source)
		}
		d, ok := dsID[ds]
		if !ok {
			d = int32(len(idx.datasets))
			dsID[ds] = d
			idx.datasets = append(idx.datasets, ds)
		}
		nk := [3]string{strings.ToLower(CorpusOf(s.Source)), data.FoldSpeakerName(s.Speaker), s.AgentModel}
		n, ok := nameID[nk]
		if !ok {
			n = int32(len(nameID))
			nameID[nk] = n
		}
		nameCount[n]++
		spkID[s] = int32(len(idx.speakers))
		idx.speakers = append(idx.speakers, speakerInfo{key: s, dataset: d, name: n})
	}
	for i := range idx.speakers {
		idx.speakers[i].namesake = nameCount[idx.speakers[i].name] > 1
	}

	// Second pass: sets of kept speakers, in (source, conversation, speaker)
	// order, which fixes their IDs independently of the seed.
	convID := map[int]int32{}
	for _, c := range cands {
		sp, ok := spkID[c.spk]
		if !ok {
			continue
		}
		cv, ok := convID[c.conv]
		if !ok {
			k := keys[c.conv]
			src, ok := srcID[k.source]
			if !ok {
				src = int32(len(idx.sources))
				srcID[k.source] = src
				idx.sources = append(idx.sources, k.source)
			}
			cv = int32(len(idx.convs))
			convID[c.conv] = cv
			idx.convs = append(idx.convs, convInfo{source: src, id: k.id})
		}
		conv := &idx.convs[cv]
		conv.present = append(conv.present, sp)
		if c.rows == nil {
			continue
		}
		si := int32(len(idx.sets))
		first := &utts[c.rows[0]]
		set := &UtteranceSet{
			ID:             fmt.Sprintf("s%06d", si),
			Source:         first.Source,
			ConversationID: first.ConversationID,
			Speaker:        c.spk.Speaker,
			Texts:          make([]string, len(c.rows)),
			AgentModel:     first.AgentModel,
			Role:           first.Role,
		}
		for j, r := range c.rows {
			set.Texts[j] = utts[r].Text
		}
		idx.sets = append(idx.sets, set)
		idx.setSpk = append(idx.setSpk, sp)
		idx.setConv = append(idx.setConv, cv)
		idx.setSrc = append(idx.setSrc, conv.source)
		conv.sets = append(conv.sets, si)
		idx.speakers[sp].sets = append(idx.speakers[sp].sets, si)
	}
	idx.counts.Speakers = len(idx.speakers)
	idx.counts.Sets = len(idx.sets)
	if cfg.Progress != nil {
		cfg.Progress("sets", len(utts), len(utts))
	}
	return idx, nil
}

// countWords counts whitespace-separated words without allocating, the way
// strings.Fields would split them.
func countWords(s string) int {
	n, in := 0, false
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		i += size
		if unicode.IsSpace(r) {
			in = false
		} else if !in {
			in = true
			n++
		}
	}
	return n
}
