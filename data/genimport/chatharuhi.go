package genimport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/roleprint/roleprint/data"
)

// ChatHaruhiModel is the model name of ChatHaruhi's synthesized dialogues.
const ChatHaruhiModel = "ChatHaruhi"

// haruhiLine matches one line of a character text: `Name:「line」` (the
// colon may be full-width; the closing bracket may be missing).
var haruhiLine = regexp.MustCompile(`^\s*([^:：「」]*?)\s*[:：]\s*「(.*?)」?\s*$`)

// haruhiFile matches a synthesized dialogue file name,
// "[prefix_]<Role>_test_output_dialogue.jsonl".
var haruhiFile = regexp.MustCompile(`(?:^|_)([^_]+)_test_output_dialogue\.jsonl$`)

// narrators are speaker names that are not characters.
var narrators = map[string]bool{"narrator": true, "旁白": true}

type haruhiDialogue struct {
	Dialogue []struct {
		Role string `json:"role"`
		Text string `json:"text"`
	} `json:"dialogue"`
	Source string `json:"source"`
}

// ReadChatHaruhi reads ChatHaruhi data, files or folders (a whole checkout
// of the corpus works):
//
//   - real lines, characters/<Role>/texts/*.txt, one `Name:「line」` per
//     line. Rows are real (no AgentModel): Source "chatharuhi",
//     ConversationID "<Role>/<file stem>", Episode the folder's role, Turn
//     the line's position in the file. Only the folder role's own lines
//     are kept (the speaker related to the folder name by the name
//     matcher: "Professor McGonagall" in McGonagall's folder), under the
//     one name the folder's texts use most for that role, unless
//     opts.AllSpeakers; a line repeated within the role's texts (the texts
//     are overlapping excerpts) is kept once. Narration (empty speaker,
//     "Narrator") is dropped. Novel lines that mix speech and narration
//     ("“Yes,” said Harry.") keep only the quoted speech.
//   - synthesized dialogues, *.jsonl with one {"dialogue": [{"role",
//     "text"}], "source"} per line. The played role is named by the file
//     ("mws813_Raj_test_output_dialogue.jsonl") and otherwise is the role
//     present in most dialogues; its last turn in each dialogue is the
//     generated reply (all its turns with opts.AllReplies). Rows carry
//     AgentModel opts.AgentModel or ChatHaruhiModel, Role and Speaker the
//     role's name in the form the file's dialogues use most ("Professor
//     McGonagall"), Source "chatharuhi/<folder>",
//     ConversationID "<file stem>:<line>".
//
// Generated lines that copy one of the role's real lines verbatim (by
// CopyKey) are dropped unless opts.KeepRealCopies; the check needs the
// real texts in the same call and is otherwise skipped with a note in
// Stats. Stage directions are removed from every line (CleanLine).
func ReadChatHaruhi(paths []string, opts Options) ([]data.Utterance, Stats, error) {
	var st Stats
	files, err := expandPaths(paths, func(p string) bool {
		return strings.HasSuffix(p, ".jsonl") || (strings.HasSuffix(p, ".txt") && filepath.Base(filepath.Dir(p)) == "texts")
	})
	if err != nil {
		return nil, st, fmt.Errorf("chatharuhi: %w", err)
	}
	names := opts.names()
	var out []data.Utterance
	// Real lines first, so generated copies can be recognised.
	realKeys := map[string]map[string]bool{} // real speaker → CopyKeys
	seenReal := map[string]bool{}            // folder role + speaker + key
	var dialogues []string
	for _, path := range files {
		if strings.HasSuffix(path, ".jsonl") {
			dialogues = append(dialogues, path)
			continue
		}
		st.Files++
		rows, err := readHaruhiText(path, opts, names, &st, seenReal)
		if err != nil {
			return nil, st, fmt.Errorf("chatharuhi: %w", err)
		}
		out = append(out, rows...)
	}
	unifyFolderSpeakers(out, names)
	for _, u := range out {
		if realKeys[u.Speaker] == nil {
			realKeys[u.Speaker] = map[string]bool{}
		}
		realKeys[u.Speaker][CopyKey(u.Text)] = true
	}
	for _, path := range dialogues {
		st.Files++
		rows, err := readHaruhiDialogues(path, opts, names, realKeys, &st)
		if err != nil {
			return nil, st, fmt.Errorf("chatharuhi: %w", err)
		}
		out = append(out, rows...)
	}
	st.Utterances = len(out)
	return out, st, nil
}

// unifyFolderSpeakers gives the folder role's lines one speaker name per
// folder, the form its texts use most: McGonagall's texts say
// "Professor McGonagall" 198 times and "McGonagall" once, and both are
// her. Rows of other speakers (opts.AllSpeakers) keep their names.
func unifyFolderSpeakers(rows []data.Utterance, names *NameMatcher) {
	count := map[string]map[string]int{} // folder → speaker → lines
	for _, u := range rows {
		if names.Compare(u.Speaker, u.Episode) == MatchNone {
			continue
		}
		if count[u.Episode] == nil {
			count[u.Episode] = map[string]int{}
		}
		count[u.Episode][u.Speaker]++
	}
	best := map[string]string{}
	for folder, c := range count {
		for spk, n := range c {
			if b := best[folder]; n > c[b] || (n == c[b] && spk < b) {
				best[folder] = spk
			}
		}
	}
	for i := range rows {
		u := &rows[i]
		if b, ok := best[u.Episode]; ok && names.Compare(u.Speaker, u.Episode) != MatchNone {
			u.Speaker = b
		}
	}
}

// readHaruhiText reads one character text file.
func readHaruhiText(path string, opts Options, names *NameMatcher, st *Stats, seen map[string]bool) ([]data.Utterance, error) {
	folderRole := filepath.Base(filepath.Dir(filepath.Dir(path)))
	stem := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	conv := folderRole + "/" + stem
	st.Records++
	var out []data.Utterance
	turn := int32(0)
	err := eachFileLine(path, func(n int, line []byte) error {
		s := strings.TrimSpace(string(line))
		if s == "" {
			return nil
		}
		m := haruhiLine.FindStringSubmatch(s)
		if m == nil || !strings.Contains(s, "「") {
			st.drop("narration")
			return nil
		}
		speaker := strings.Trim(m[1], "[] \t") // "[[Dr. Koothrappali]]": wiki links
		t := turn
		turn++
		if speaker == "" || narrators[strings.ToLower(speaker)] {
			st.drop("narration")
			return nil
		}
		if !opts.AllSpeakers && names.Compare(speaker, folderRole) == MatchNone {
			st.drop("other-speaker")
			return nil
		}
		text := CleanLine(SpeechOnly(m[2]))
		if text == "" {
			st.drop("empty")
			return nil
		}
		// Overlapping excerpts repeat lines: keep each once per folder
		// (per corpus when every speaker is read, since the folders then
		// overlap too).
		scope := folderRole
		if opts.AllSpeakers {
			scope = ""
		}
		key := scope + "\x00" + NormalizeName(speaker) + "\x00" + CopyKey(text)
		if seen[key] {
			st.drop("duplicate")
			return nil
		}
		seen[key] = true
		out = append(out, data.Utterance{Source: "chatharuhi", ConversationID: conv, Episode: folderRole,
			Turn: t, Speaker: speaker, Text: text})
		return nil
	})
	return out, err
}

// readHaruhiDialogues reads one synthesized dialogue file.
func readHaruhiDialogues(path string, opts Options, names *NameMatcher, realKeys map[string]map[string]bool, st *Stats) ([]data.Utterance, error) {
	var ds []haruhiDialogue
	var lines []int
	err := eachFileLine(path, func(n int, line []byte) error {
		if len(bytes.TrimSpace(line)) == 0 {
			return nil
		}
		var d haruhiDialogue
		if err := json.Unmarshal(line, &d); err != nil {
			return fmt.Errorf("expected a dialogue {\"dialogue\": [{\"role\", \"text\"}]}: %w", err)
		}
		if d.Dialogue == nil {
			return fmt.Errorf("expected a dialogue {\"dialogue\": [{\"role\", \"text\"}]}: no dialogue key")
		}
		ds = append(ds, d)
		lines = append(lines, n)
		return nil
	})
	if err != nil {
		return nil, err
	}
	st.Records += len(ds)
	played, playedName := haruhiPlayedRole(path, ds, names)
	if played == "" {
		return nil, &LineError{File: path, Err: fmt.Errorf("cannot tell which role the agent plays (no role in the file name or dialogues)")}
	}
	// The real lines of the played role, for the copy check.
	var real []map[string]bool
	for spk, keys := range realKeys {
		if names.Compare(spk, played) != MatchNone {
			real = append(real, keys)
		}
	}
	if !opts.KeepRealCopies && len(real) == 0 {
		st.note("real-copy check skipped for %s: no real texts of that role were read in the same import", played)
	}
	model := opts.AgentModel
	if model == "" {
		model = ChatHaruhiModel
	}
	source := "chatharuhi/" + filepath.Base(filepath.Dir(path))
	stem := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	var out []data.Utterance
	for i, d := range ds {
		conv := stem + ":" + strconv.Itoa(lines[i])
		last := -1
		for k, t := range d.Dialogue {
			if names.Compare(t.Role, played) != MatchNone {
				last = k
			}
		}
		if last < 0 {
			st.drop("no-reply")
			continue
		}
		var rows []data.Utterance
		replies := 0
		for k, t := range d.Dialogue {
			speaker := strings.TrimSpace(t.Role)
			isRole := names.Compare(speaker, played) != MatchNone
			isReply := isRole && (k == last || opts.AllReplies)
			if !isReply && !opts.Context {
				continue
			}
			if speaker == "" || narrators[strings.ToLower(speaker)] {
				continue
			}
			text := CleanLine(SpeechOnly(t.Text))
			if text == "" {
				if isReply {
					st.drop("empty")
				}
				continue
			}
			if isReply && !opts.KeepRealCopies && copied(real, text) {
				st.drop("real-copy")
				isReply = false
				if !opts.Context {
					continue
				}
			}
			if isRole && !isReply {
				// An earlier turn of the role (the story's own line, or a
				// dropped copy) is context: keep it under a speaker that
				// is not the role, so scorers do not take it for the agent.
				speaker = playedName + " (context)"
			} else if isReply {
				speaker = playedName
				replies++
			}
			rows = append(rows, data.Utterance{Source: source, ConversationID: conv, Turn: int32(k),
				Speaker: speaker, Text: text, AgentModel: model, Role: playedName})
		}
		if replies > 0 {
			out = append(out, rows...)
		}
	}
	return out, nil
}

// haruhiPlayedRole finds the role a dialogue file's agent plays: the name
// in the file name when dialogues use it, else the role found in the most
// dialogues. display is the form of that name the dialogues use most
// ("Professor McGonagall" in McGonagall's file), recorded as Role and
// Speaker on every reply so that one file gives one role.
func haruhiPlayedRole(path string, ds []haruhiDialogue, names *NameMatcher) (played, display string) {
	count := map[string]int{}
	var order []string
	for _, d := range ds {
		seen := map[string]bool{}
		for _, t := range d.Dialogue {
			r := strings.TrimSpace(t.Role)
			if r == "" || narrators[strings.ToLower(r)] || seen[r] {
				continue
			}
			seen[r] = true
			if count[r] == 0 {
				order = append(order, r)
			}
			count[r]++
		}
	}
	if m := haruhiFile.FindStringSubmatch(filepath.Base(path)); m != nil {
		for _, r := range order {
			if names.Compare(r, m[1]) != MatchNone {
				played = m[1]
				break
			}
		}
	}
	if played == "" {
		for _, r := range order {
			if count[r] > count[played] {
				played = r
			}
		}
	}
	for _, r := range order {
		if names.Compare(r, played) != MatchNone && count[r] > count[display] {
			display = r
		}
	}
	return played, display
}

func copied(real []map[string]bool, text string) bool {
	k := CopyKey(text)
	for _, keys := range real {
		if keys[k] {
			return true
		}
	}
	return false
}
