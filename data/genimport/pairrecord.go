package genimport

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/internal/fsx"
)

// PairRecord is one line of the seed paper's pair-record JSONL
// (IzzetYoung/AGCSpeakerVerification, data/output/example.jsonl,
// data/simulation.jsonl, data/distinction.jsonl): two utterance sets, the
// "anchor" and the "paired", with a same-speaker label. The three files
// use different subsets of the keys; all are optional except the two
// utterance lists and the label.
type PairRecord struct {
	// AnchorDataset and PairedDataset name each side's corpus ("CMD").
	AnchorDataset string `json:"anchor_dataset,omitempty"`
	// AnchorSpeaker and PairedSpeaker name each side's speaker (pair and
	// verification records).
	AnchorSpeaker string `json:"anchor_speaker,omitempty"`
	// AnchorRole and PairedRole name each side's role (distinction
	// records).
	AnchorRole string `json:"anchor_role,omitempty"`
	// Role names the one role both sides share (simulation records).
	Role string `json:"role,omitempty"`
	// AnchorUtterances is the anchor set's utterances, in order.
	AnchorUtterances []string `json:"anchor_utterances"`
	// AnchorConversation is the whole conversation the anchor set comes
	// from, when known.
	AnchorConversation []ConversationTurn `json:"anchor_conversation,omitempty"`
	PairedDataset      string             `json:"paired_dataset,omitempty"`
	PairedSpeaker      string             `json:"paired_speaker,omitempty"`
	PairedRole         string             `json:"paired_role,omitempty"`
	PairedUtterances   []string           `json:"paired_utterances"`
	PairedConversation []ConversationTurn `json:"paired_conversation,omitempty"`
	// Label is 1 when both sides have one speaker, else 0.
	Label int `json:"label"`
}

// ConversationTurn is one turn of a record's conversation.
type ConversationTurn struct {
	Speaker   string `json:"speaker"`
	Utterance string `json:"utterance"`
}

// AnchorName returns the anchor side's speaker: AnchorSpeaker, AnchorRole
// or Role, whichever is set first.
func (r *PairRecord) AnchorName() string {
	return firstNonEmpty(r.AnchorSpeaker, r.AnchorRole, r.Role)
}

// PairedName returns the paired side's speaker: PairedSpeaker, PairedRole
// or Role.
func (r *PairRecord) PairedName() string {
	return firstNonEmpty(r.PairedSpeaker, r.PairedRole, r.Role)
}

// Validate checks that both sides have utterances and the label is 0 or 1.
func (r *PairRecord) Validate() error {
	switch {
	case len(r.AnchorUtterances) == 0:
		return fmt.Errorf("anchor_utterances is empty")
	case len(r.PairedUtterances) == 0:
		return fmt.Errorf("paired_utterances is empty")
	case r.Label != 0 && r.Label != 1:
		return fmt.Errorf("label %d: expected 0 or 1", r.Label)
	}
	return nil
}

// ReadPairRecords reads pair-record JSONL files. Blank lines are skipped;
// a line that is not a valid record is an error naming the file and line.
func ReadPairRecords(paths ...string) ([]PairRecord, error) {
	var out []PairRecord
	for _, p := range paths {
		err := eachFileLine(p, func(n int, line []byte) error {
			if len(bytes.TrimSpace(line)) == 0 {
				return nil
			}
			var r PairRecord
			if err := json.Unmarshal(line, &r); err != nil {
				return fmt.Errorf("expected a pair record {anchor_utterances, paired_utterances, label}: %w", err)
			}
			if err := r.Validate(); err != nil {
				return err
			}
			out = append(out, r)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("pair records: %w", err)
		}
	}
	return out, nil
}

// WritePairRecords writes records as JSONL, atomically: to a temporary
// file beside path that replaces path only when complete. Invalid records
// are refused before anything is written.
func WritePairRecords(path string, recs []PairRecord) error {
	for i := range recs {
		if err := recs[i].Validate(); err != nil {
			return fmt.Errorf("write %s: record %d: %w", path, i+1, err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	// Mode 0600, as before the move to fsx.
	return fsx.Write(path, 0o600, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		for i := range recs {
			if err := enc.Encode(&recs[i]); err != nil {
				return err
			}
		}
		return nil
	})
}

// RecordsToPairs turns records into utterance sets and labelled pairs, the
// form sv's metrics and the LLM verifier take. Set IDs are
// "<prefix>r<n>a" and "<prefix>r<n>b" for record n (1-based); a set's
// Source is its dataset, its Speaker the side's name.
func RecordsToPairs(recs []PairRecord, prefix string) (map[string]*pairs.UtteranceSet, []pairs.Pair) {
	sets := make(map[string]*pairs.UtteranceSet, 2*len(recs))
	pairList := make([]pairs.Pair, 0, len(recs))
	for i := range recs {
		r := &recs[i]
		id := prefix + "r" + strconv.Itoa(i+1)
		a := &pairs.UtteranceSet{ID: id + "a", Source: r.AnchorDataset, ConversationID: conversationKey(r.AnchorConversation, r.AnchorUtterances),
			Speaker: r.AnchorName(), Texts: r.AnchorUtterances}
		b := &pairs.UtteranceSet{ID: id + "b", Source: r.PairedDataset, ConversationID: conversationKey(r.PairedConversation, r.PairedUtterances),
			Speaker: r.PairedName(), Texts: r.PairedUtterances}
		sets[a.ID], sets[b.ID] = a, b
		pairList = append(pairList, pairs.Pair{ID: id, A: a.ID, B: b.ID, Label: int8(r.Label)})
	}
	return sets, pairList
}

// RecordFromSets builds the record of a pair of sets; convA and convB are
// the sets' whole conversations (nil when unknown).
func RecordFromSets(a, b *pairs.UtteranceSet, label int8, convA, convB []ConversationTurn) PairRecord {
	return PairRecord{
		AnchorDataset: a.Source, AnchorSpeaker: a.Speaker, AnchorUtterances: a.Texts, AnchorConversation: convA,
		PairedDataset: b.Source, PairedSpeaker: b.Speaker, PairedUtterances: b.Texts, PairedConversation: convB,
		Label: int(label),
	}
}

// ConversationTurns returns the turns of one conversation of a corpus in
// turn order; utts must hold that conversation's rows (any order).
func ConversationTurns(utts []data.Utterance) []ConversationTurn {
	rows := make([]data.Utterance, len(utts))
	copy(rows, utts)
	sortByTurn(rows)
	out := make([]ConversationTurn, len(rows))
	for i, u := range rows {
		out[i] = ConversationTurn{Speaker: u.Speaker, Utterance: u.Text}
	}
	return out
}

func sortByTurn(rows []data.Utterance) {
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Turn < rows[j].Turn })
}

// conversationKey identifies a record side's conversation by content, so
// two records drawn from one conversation share it.
func conversationKey(conv []ConversationTurn, utts []string) string {
	h := sha256.New()
	if len(conv) > 0 {
		for _, t := range conv {
			h.Write([]byte(t.Speaker))
			h.Write([]byte{0})
			h.Write([]byte(t.Utterance))
			h.Write([]byte{1})
		}
	} else {
		h.Write([]byte("utterances"))
		for _, u := range utts {
			h.Write([]byte(u))
			h.Write([]byte{1})
		}
	}
	return "c" + hex.EncodeToString(h.Sum(nil))[:16]
}

// ReadPairRecordUtterances imports pair-record files as corpus rows: each
// distinct conversation (anchor or paired) becomes one conversation whose
// rows are its turns; a side without a conversation contributes its
// utterances under its speaker. Source is the side's dataset (or
// "pair-records"), ConversationID a content hash, so a conversation shared
// by several records is imported once.
func ReadPairRecordUtterances(paths []string, opts Options) ([]data.Utterance, Stats, error) {
	var st Stats
	files, err := expandPaths(paths, func(p string) bool { return strings.HasSuffix(p, ".jsonl") })
	if err != nil {
		return nil, st, fmt.Errorf("pair records: %w", err)
	}
	recs, err := ReadPairRecords(files...)
	if err != nil {
		return nil, st, err
	}
	st.Files = len(files)
	st.Records = len(recs)
	seen := map[string]bool{}
	var out []data.Utterance
	add := func(dataset, speaker string, conv []ConversationTurn, utts []string) {
		source := firstNonEmpty(dataset, "pair-records")
		key := conversationKey(conv, utts)
		if seen[source+"\x00"+key] {
			st.drop("duplicate-conversation")
			return
		}
		seen[source+"\x00"+key] = true
		if len(conv) == 0 {
			for _, u := range utts {
				conv = append(conv, ConversationTurn{Speaker: speaker, Utterance: u})
			}
		}
		turn := int32(0)
		for _, t := range conv {
			text := collapseSpace(t.Utterance)
			spk := strings.TrimSpace(t.Speaker)
			if text == "" || spk == "" {
				st.drop("empty")
				continue
			}
			out = append(out, data.Utterance{Source: source, ConversationID: key, Turn: turn, Speaker: spk, Text: text,
				AgentModel: opts.AgentModel, Role: roleIfAgent(opts.AgentModel, spk)})
			turn++
		}
	}
	for i := range recs {
		r := &recs[i]
		add(r.AnchorDataset, r.AnchorName(), r.AnchorConversation, r.AnchorUtterances)
		add(r.PairedDataset, r.PairedName(), r.PairedConversation, r.PairedUtterances)
	}
	st.Utterances = len(out)
	return out, st, nil
}

// roleIfAgent gives generated rows (an agent model named) their speaker as
// role; real rows keep no role.
func roleIfAgent(model, speaker string) string {
	if model == "" {
		return ""
	}
	return speaker
}
