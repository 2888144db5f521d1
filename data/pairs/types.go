package pairs

import (
	"fmt"
	"strings"
)

// Exposure says whether the speakers of a test pair were seen in training.
type Exposure string

// The three test exposures of the paper's Table 2.
const (
	SeenSeen     Exposure = "seen-seen"
	SeenUnseen   Exposure = "seen-unseen"
	UnseenUnseen Exposure = "unseen-unseen"
)

// Exposures lists the exposures in the paper's column order.
var Exposures = []Exposure{SeenSeen, SeenUnseen, UnseenUnseen}

// Title is the paper's name of the exposure ("Seen-Unseen"), the one
// heading of every table, figure and report; an unknown exposure is
// returned as it is.
func (e Exposure) Title() string {
	switch e {
	case SeenSeen:
		return "Seen-Seen"
	case SeenUnseen:
		return "Seen-Unseen"
	case UnseenUnseen:
		return "Unseen-Unseen"
	}
	return string(e)
}

// Level is the difficulty of a pair set.
type Level string

// The three difficulty levels: Base pairs any two sets; Hard pairs sets of
// one source; Harder takes negatives from two speakers of one conversation
// and positives from one speaker in two conversations of one source.
const (
	Base   Level = "base"
	Hard   Level = "hard"
	Harder Level = "harder"
)

// Levels lists the levels in the paper's row order.
var Levels = []Level{Base, Hard, Harder}

// Title is the paper's name of the level ("Hard"): the level capitalised
// ("" stays "").
func (l Level) Title() string {
	if l == "" {
		return ""
	}
	return strings.ToUpper(string(l[:1])) + string(l[1:])
}

// TestKey names one of the nine test sets.
type TestKey struct {
	// Exposure says whether the speakers were seen in training.
	Exposure Exposure
	// Level is the difficulty (which negatives the set pairs).
	Level Level
}

// String renders the key as "exposure-level", the name of its pair file.
func (k TestKey) String() string { return fmt.Sprintf("%s-%s", k.Exposure, k.Level) }

// UtteranceSet is one speaker's utterances in one conversation: the unit a
// pair compares. Its embedding is the mean of its utterance vectors.
type UtteranceSet struct {
	// ID is unique within a PairCorpus.
	ID string `parquet:"set_id,dict" json:"set_id"`
	// Source and ConversationID are those of the utterances.
	Source         string `parquet:"source,dict" json:"source"`
	ConversationID string `parquet:"conversation_id,dict" json:"conversation_id"`
	// Speaker is the speaker's name (after the pair builder's aliases).
	Speaker string `parquet:"speaker,dict" json:"speaker"`
	// Texts are the utterances, in turn order.
	Texts []string `parquet:"texts,list,zstd" json:"texts"`
	// AgentModel and Role carry over from generated utterances.
	AgentModel string `parquet:"agent_model,optional,dict" json:"agent_model,omitempty"`
	Role       string `parquet:"role,optional,dict" json:"role,omitempty"`
}

// Pair is a labelled comparison of two utterance sets.
type Pair struct {
	// ID is unique within its split ("train-000001").
	ID string `parquet:"pair_id" json:"pair_id"`
	// A and B are UtteranceSet IDs.
	A string `parquet:"set_a,dict" json:"set_a"`
	B string `parquet:"set_b,dict" json:"set_b"`
	// Label is 1 when both sets have the same speaker, else 0.
	Label int8 `parquet:"label" json:"label"`
	// Level is the negative kind of the anchor's couple the pair belongs
	// to (a positive shares its negative's level): what a dev pair stands
	// for when Table 2 chooses one decision threshold per level. Empty for
	// pairs made elsewhere (imported pair records, pair folders written
	// without the column).
	Level Level `parquet:"level,optional,dict" json:"level,omitempty"`
}

// PairCorpus is everything one round of an experiment needs: the utterance
// sets, the training and dev pairs, and the nine test sets. BuildPairs makes
// one; WritePairDir and ReadPairDir store it as Parquet files.
type PairCorpus struct {
	// Sets holds every set any pair refers to, by ID.
	Sets map[string]*UtteranceSet
	// Train holds the training pairs (seen speakers only).
	Train []Pair
	// Dev holds pairs of speakers and sets found in neither train nor test;
	// decision thresholds are chosen on it, per level (Pair.Level).
	Dev []Pair
	// Tests holds the nine test sets by exposure and level.
	Tests map[TestKey][]Pair
	// Seed is the seed the corpus was built with.
	Seed int64
	// Info records how the corpus was built (resolved config, filter
	// counts, speakers per split); nil for a corpus assembled by hand.
	Info *PairInfo
}

// Set returns the set with the given ID, or nil.
func (c *PairCorpus) Set(id string) *UtteranceSet { return c.Sets[id] }
