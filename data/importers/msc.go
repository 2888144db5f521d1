package importers

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

func init() {
	Register("msc", &FileFormat{
		Description: "Multi-Session Chat JSONL (ParlAI msc_dialogue/session_N/{train,valid,test}.txt: one episode per line " +
			"with \"dialog\", \"previous_dialogs\" and \"metadata\".\"initial_data_id\"); source \"msc\", each session a " +
			"conversation, one speaker identity per episode across sessions",
		Extensions: []string{".txt", ".jsonl", ".json"},
		ReadFile:   readMSC,
	})
}

// mscTurn is one turn; "id" is "Speaker 1" or "Speaker 2" in the current
// session and absent in previous sessions.
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
// count as dropped: duplicate_conversation).
func readMSC(ctx context.Context, path string, opts Options, c *Collector) error {
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
			for i, t := range turns {
				spk := mscSpeaker(t.ID, i)
				l := Line{Source: source, ConversationID: fmt.Sprintf("%s/s%d", id, k+1), Episode: id, Scene: labels[k],
					Text: t.Text, Pos: pos, SpeakerIsID: true}
				if spk == "" {
					return Errorf(pos, "session %d turn %d: speaker id %q, expected \"Speaker 1\" or \"Speaker 2\"", k+1, i+1, t.ID)
				}
				l.Speaker = spk + ":" + id
				c.Add(l)
			}
		}
		return nil
	})
}

// mscSpeaker maps a turn's "id" ("Speaker 1") to "speaker-1"; without an
// id, turns alternate from speaker 1. An unknown id yields "".
func mscSpeaker(id string, turn int) string {
	switch strings.ToLower(strings.Join(strings.Fields(id), " ")) {
	case "":
		return fmt.Sprintf("speaker-%d", turn%2+1)
	case "speaker 1", "speaker1", "1":
		return "speaker-1"
	case "speaker 2", "speaker2", "2":
		return "speaker-2"
	}
	return ""
}
