package importers

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/roleprint/roleprint/internal/fsx"
)

func init() {
	Register("msc", mscFormat{})
}

// mscFormat reads the ParlAI Multi-Session Chat download. It is its own
// Importer, not a FileFormat, because it keeps state across files: the
// sessions each later session file repeats in previous_dialogs are read
// once and summed up in one note instead of one per conversation.
type mscFormat struct{}

// Describe says what the format reads.
func (mscFormat) Describe() string {
	return "Multi-Session Chat JSONL (ParlAI msc_dialogue/session_N/{train,valid,test}.txt: one episode per line " +
		"with \"dialog\", \"previous_dialogs\" and \"metadata\".\"initial_data_id\"); source \"msc\", each session a " +
		"conversation, one speaker identity per episode across sessions; msc_personasummary/ files are skipped"
}

// Match accepts the download's text and JSON files.
func (mscFormat) Match(path string) bool { return hasExt(path, ".txt", ".jsonl", ".json") }

// Params lists no settings.
func (mscFormat) Params() []Param { return nil }

// Read reads the files in order; a persona-summary file (the sibling task
// msc_personasummary/, recognised by its records) is skipped with a
// reason.
func (mscFormat) Read(ctx context.Context, files []string, opts Options, c *Collector) error {
	st := &mscState{seen: map[string]string{}}
	for i, path := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		if mscIsPersonaSummary(path) {
			c.Skip(path, "MSC persona-summary task (msc_personasummary), not dialogues")
			continue
		}
		if err := readMSC(ctx, path, opts, c, st); err != nil {
			return err
		}
		if opts.Progress != nil {
			opts.Progress(i+1, len(files))
		}
	}
	if st.repeats > 0 {
		opts.logf("msc: %d sessions were repeated in later session files (previous_dialogs) and read once; %d turns counted as %s",
			st.repeats, st.repeatTurns, DropDuplicateConversation)
	}
	return nil
}

// mscState is what readMSC keeps across the files of one import.
type mscState struct {
	seen                 map[string]string // conversation ID → file it was read from
	repeats, repeatTurns int
}

// mscIsPersonaSummary reports whether path's first record is one of the
// persona-summary task ({dialog, followup, newfact, initial_data_id}, no
// previous_dialogs), or path lies in a msc_personasummary folder.
func mscIsPersonaSummary(path string) bool {
	if strings.Contains(strings.ReplaceAll(path, "\\", "/"), "/msc_personasummary/") {
		return true
	}
	f, err := fsx.Open(path)
	if err != nil {
		return false // readMSC reports it
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	line, _ := br.ReadString('\n')
	var rec map[string]json.RawMessage
	if json.Unmarshal([]byte(strings.TrimPrefix(strings.TrimSpace(line), "\ufeff")), &rec) != nil {
		return false
	}
	_, prev := rec["previous_dialogs"]
	_, follow := rec["followup"]
	_, fact := rec["newfact"]
	return !prev && (follow || fact)
}

// mscTurn is one turn; "id" is "Speaker 1" or "Speaker 2" in the current
// session (or a crowd worker's number, see mscSpeakers) and absent in
// previous sessions.
type mscTurn struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

type mscEpisode struct {
	Dialog          []mscTurn `json:"dialog"`
	PreviousDialogs []struct {
		Dialog   []mscTurn `json:"dialog"`
		TimeNum  any       `json:"time_num"`
		TimeUnit string    `json:"time_unit"`
	} `json:"previous_dialogs"`
	Metadata struct {
		InitialDataID string `json:"initial_data_id"`
	} `json:"metadata"`
	InitialDataID string `json:"initial_data_id"`
}

const mscExpect = `one JSON object per line: {"dialog": [{"id": "Speaker 1", "text": ...}], "previous_dialogs": [{"dialog": [{"text": ...}]}], "metadata": {"initial_data_id": ...}}`

// readMSC reads one MSC file. An episode line of session N holds sessions
// 1..N-1 in previous_dialogs and session N in dialog; each session is a
// conversation "<initial_data_id>/s<k>". Previous sessions carry no speaker
// IDs: their turns alternate starting with Speaker 1, as ParlAI reads them.
// The two speakers of episode E are "speaker-1:E" and "speaker-2:E" in
// every session, so a speaker is verified across sessions. Reading several
// session files repeats earlier sessions; they are read once (the repeats
// count as dropped: duplicate_conversation, summed up in one note by Read).
func readMSC(ctx context.Context, path string, opts Options, c *Collector, st *mscState) error {
	enc, err := resolveEncoding(opts.Encoding, UTF8)
	if err != nil {
		return err
	}
	source := opts.SourceOr("msc")
	return scanLines(ctx, path, enc, mscExpect, func(n int, line string) error {
		if strings.TrimSpace(line) == "" {
			return nil
		}
		pos := Pos{File: path, Line: n}
		var ep mscEpisode
		if err := json.Unmarshal([]byte(line), &ep); err != nil {
			return Errorf(pos, "invalid JSON (%v); expected %s", err, mscExpect)
		}
		id := ep.Metadata.InitialDataID
		if id == "" {
			id = ep.InitialDataID
		}
		if id == "" || ep.Dialog == nil {
			return Errorf(pos, "missing \"dialog\" or \"metadata\".\"initial_data_id\"; expected %s", mscExpect)
		}
		sessions := make([][]mscTurn, 0, len(ep.PreviousDialogs)+1)
		labels := make([]string, 0, len(ep.PreviousDialogs)+1)
		for k, p := range ep.PreviousDialogs {
			sessions = append(sessions, p.Dialog)
			labels = append(labels, fmt.Sprintf("session %d", k+1))
		}
		sessions = append(sessions, ep.Dialog)
		labels = append(labels, fmt.Sprintf("session %d", len(sessions)))
		for k, turns := range sessions {
			conv := fmt.Sprintf("%s/s%d", id, k+1)
			if first, ok := st.seen[conv]; ok && first != path {
				st.repeats++
				st.repeatTurns += len(turns)
				for range turns {
					c.Drop(Line{Pos: pos}, DropDuplicateConversation)
				}
				continue
			}
			st.seen[conv] = path
			spk, err := mscSpeakers(turns)
			if err != nil {
				return Errorf(pos, "session %d %v; expected \"Speaker 1\" or \"Speaker 2\"", k+1, err)
			}
			for i, t := range turns {
				c.Add(Line{Source: source, ConversationID: conv, Episode: id, Scene: labels[k],
					Speaker: spk[i] + ":" + id, SpeakerIsID: true, Text: t.Text, Pos: pos})
			}
		}
		return nil
	})
}

// mscSpeakers returns the speaker of each turn of one session. Turns
// without an id alternate from speaker 1, as ParlAI reads previous
// sessions. A few episodes of the release (29 of 501 in session_2/
// test.txt) open with a crowd worker's number ("50997") instead of
// "Speaker 1"; in every one the next turn is "Speaker 2" and the turns
// alternate from there, and the text is Speaker 1's (test_52: "I had an
// idea for my proposal" where Speaker 1's persona says "I want to propose
// to my girlfriend"), so a numeric id is the speaker who is not its
// neighbour (the next turn's, else the previous turn's), or by
// alternation when no neighbour is known. Any other id is an error naming
// the turn.
func mscSpeakers(turns []mscTurn) ([]string, error) {
	out := make([]string, len(turns))
	for i, t := range turns {
		s, ok := mscSpeaker(t.ID, i)
		if !ok {
			return nil, fmt.Errorf("turn %d: speaker id %q", i+1, t.ID)
		}
		out[i] = s
	}
	other := map[string]string{"speaker-1": "speaker-2", "speaker-2": "speaker-1"}
	for i := range out {
		if out[i] != "" {
			continue
		}
		switch {
		case i+1 < len(out) && out[i+1] != "":
			out[i] = other[out[i+1]]
		case i > 0 && out[i-1] != "":
			out[i] = other[out[i-1]]
		default:
			out[i] = fmt.Sprintf("speaker-%d", i%2+1)
		}
	}
	return out, nil
}

// mscSpeaker maps a turn's "id" ("Speaker 1") to "speaker-1"; without an
// id, turns alternate from speaker 1. A worker number ("50997") yields ""
// and true: mscSpeakers resolves it. Any other id yields false.
func mscSpeaker(id string, turn int) (string, bool) {
	norm := strings.ToLower(strings.Join(strings.Fields(id), " "))
	switch norm {
	case "":
		return fmt.Sprintf("speaker-%d", turn%2+1), true
	case "speaker 1", "speaker1", "1":
		return "speaker-1", true
	case "speaker 2", "speaker2", "2":
		return "speaker-2", true
	}
	if strings.Trim(norm, "0123456789") == "" {
		return "", true
	}
	return "", false
}
