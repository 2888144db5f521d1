package importers

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

func init() {
	Register("annomi", &FileFormat{
		Description: "AnnoMI motivational-interviewing transcripts (AnnoMI-simple.csv / AnnoMI-full.csv: transcript_id, " +
			"utterance_id, interlocutor, utterance_text); source \"annomi\", each transcript cut into sessions " +
			"(by a stage column if present, else windows of 10–20 utterances); the client is the verified speaker",
		Extensions: []string{".csv"},
		Parameters: []Param{
			{Name: "window", Default: "20", Doc: "most utterances per session when a transcript is cut into windows; " +
				"a transcript of n > window utterances becomes ceil(n/window) windows of near-equal size " +
				"(so between window/2 and window utterances each)"},
			{Name: "therapist", Default: "keep", Doc: "what therapist lines become: \"keep\" (speaker \"therapist:<transcript>\", " +
				"kept as the context of the client's lines) or \"drop\" (counted as dropped: therapist)"},
			{Name: "stage_column", Default: "stage", Doc: "column naming the counselling stage of each utterance; when the " +
				"table has it, a session is a run of utterances of one stage instead of a window"},
		},
		ReadFile: readAnnoMI,
	})
}

const annomiExpect = "an AnnoMI CSV (columns transcript_id, utterance_id, interlocutor, utterance_text)"

type annomiRow struct {
	line  Line
	utt   int
	role  string
	stage string
}

// readAnnoMI reads one AnnoMI table. AnnoMI-full.csv repeats an utterance
// once per annotator; only the first row of each (transcript_id,
// utterance_id) is used (the others count as dropped: duplicate_row).
//
// The client of transcript T is speaker "client:T", the only verified
// identity: AnnoMI has one client per transcript and no client appears in
// two transcripts. The therapist is "therapist:T" by default: one label per
// transcript, because the corpus does not say which videos share a
// counsellor. Therapist lines stay in the corpus as the client's context
// (the pair builder should not treat "therapist:" speakers as identities);
// with therapist=drop they are left out.
func readAnnoMI(ctx context.Context, path string, opts Options, c *Collector) error {
	enc, err := resolveEncoding(opts.Encoding, UTF8)
	if err != nil {
		return err
	}
	window, err := strconv.Atoi(opts.Param("window", "20"))
	if err != nil || window < 2 {
		return fmt.Errorf("annomi: setting window=%q: expected a whole number ≥ 2", opts.Param("window", "20"))
	}
	therapist := opts.Param("therapist", "keep")
	if therapist != "keep" && therapist != "drop" {
		return fmt.Errorf("annomi: setting therapist=%q: expected keep or drop", therapist)
	}
	stageCol := opts.Param("stage_column", "stage")
	source := opts.SourceOr("annomi")

	transcripts := map[string][]annomiRow{}
	var order []string
	seen := map[[2]string]bool{}
	err = scanCSV(ctx, path, enc, ',', []string{"transcript_id", "utterance_id", "interlocutor", "utterance_text"}, annomiExpect, func(r csvRow) error {
		tid := strings.TrimSpace(r.Get("transcript_id"))
		uid := strings.TrimSpace(r.Get("utterance_id"))
		utt, err := strconv.Atoi(uid)
		if tid == "" || err != nil {
			return r.errorf("transcript_id %q and utterance_id %q: expected an ID and a whole number", tid, uid)
		}
		l := Line{Source: source, Episode: "transcript-" + tid, Text: r.Get("utterance_text"), Pos: r.Pos, SpeakerIsID: true}
		l.StartS = parseClock(r.Get("timestamp"))
		if seen[[2]string{tid, uid}] {
			c.Drop(l, DropDuplicateRow)
			return nil
		}
		seen[[2]string{tid, uid}] = true
		role := strings.ToLower(strings.TrimSpace(r.Get("interlocutor")))
		if role != "client" && role != "therapist" {
			return r.errorf("interlocutor %q: expected client or therapist", r.Get("interlocutor"))
		}
		if _, ok := transcripts[tid]; !ok {
			order = append(order, tid)
		}
		transcripts[tid] = append(transcripts[tid], annomiRow{line: l, utt: utt, role: role, stage: strings.TrimSpace(r.Get(stageCol))})
		return nil
	})
	if err != nil {
		return err
	}
	for _, tid := range order {
		rows := transcripts[tid]
		sort.SliceStable(rows, func(i, j int) bool { return rows[i].utt < rows[j].utt })
		sessions := annomiSessions(rows, window)
		for si, s := range sessions {
			for _, row := range rows[s.start:s.end] {
				l := row.line
				l.ConversationID = fmt.Sprintf("t%s-s%02d", tid, si+1)
				l.Scene = s.label
				l.Speaker = row.role + ":" + tid
				if row.role == "therapist" && therapist == "drop" {
					c.Drop(l, DropTherapist)
					continue
				}
				c.Add(l)
			}
		}
	}
	return nil
}

type span struct {
	start, end int
	label      string
}

// annomiSessions cuts a transcript into sessions: runs of one stage when
// the rows carry stages, else windows of at most window rows and near-equal
// size.
func annomiSessions(rows []annomiRow, window int) []span {
	if len(rows) > 0 && rows[0].stage != "" {
		var out []span
		for i := 0; i < len(rows); {
			j := i + 1
			for j < len(rows) && rows[j].stage == rows[i].stage {
				j++
			}
			out = append(out, span{i, j, "stage " + rows[i].stage})
			i = j
		}
		return out
	}
	n := len(rows)
	k := max(1, (n+window-1)/window)
	out := make([]span, 0, k)
	start := 0
	for w := range k {
		size := n / k
		if w < n%k {
			size++
		}
		out = append(out, span{start, start + size, fmt.Sprintf("window %d/%d", w+1, k)})
		start += size
	}
	return out
}
