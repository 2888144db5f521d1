package genimport

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode"

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

// haruhiTurn is one turn of a dialogue.
type haruhiTurn struct {
	Role string `json:"role"`
	Text string `json:"text"`
}

type haruhiDialogue struct {
	Dialogue []haruhiTurn `json:"dialogue"`
	Source   string       `json:"source"`
}

// haruhiRecord is one JSONL line of any of the dialogue shapes a ChatHaruhi
// checkout holds: a whole dialogue {"dialogue": [...]}, one turn of a
// saved chat {"role", "text"} (characters/<Role>/dialogues/*.jsonl, a
// file being one dialogue), or a query and its response {"role_A",
// "role_B", "query", "response"} (characters/<Role>/all_chat_datas.jsonl).
type haruhiRecord struct {
	Dialogue []haruhiTurn `json:"dialogue"`
	Role     *string      `json:"role"`
	Text     string       `json:"text"`
	RoleA    string       `json:"role_A"`
	RoleB    *string      `json:"role_B"`
	Query    string       `json:"query"`
	Response string       `json:"response"`
}

// Shapes of a ChatHaruhi JSONL file (haruhiRecord).
const (
	haruhiShapeDialogue = "dialogue"
	haruhiShapeTurns    = "turns"
	haruhiShapePairs    = "query-response"
)

// shape names the record's shape, or "" when it is none of them.
func (r *haruhiRecord) shape() string {
	switch {
	case r.Dialogue != nil:
		return haruhiShapeDialogue
	case r.RoleB != nil:
		return haruhiShapePairs
	case r.Role != nil:
		return haruhiShapeTurns
	}
	return ""
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
//     "text"}], "source"} per line; saved chats,
//     characters/<Role>/dialogues/*.jsonl with one turn {"role", "text"}
//     per line, the file being one dialogue; and query-response pairs,
//     characters/<Role>/all_chat_datas.jsonl with {"role_A", "role_B",
//     "query", "response"} per line, each a dialogue of two turns. The
//     played role is named by the file
//     ("mws813_Raj_test_output_dialogue.jsonl"), else by the character
//     folder the file lies in, else is role_B of the pairs or the role
//     present in most dialogues; its last turn in each dialogue is the
//     generated reply (all its turns with opts.AllReplies). Rows carry
//     AgentModel opts.AgentModel or ChatHaruhiModel, Role and Speaker the
//     role's name in the form the file's dialogues use most ("Professor
//     McGonagall", "春日"), Source "chatharuhi/<folder>" (below
//     characters/: "chatharuhi/haruhi/dialogues"), ConversationID
//     "<file stem>:<line>". A JSONL file of none of these shapes, and an
//     empty one (the release's zero-byte dialogues/test.jsonl), is skipped
//     with a reason (Stats.Skipped), not an error.
//
// Character folders are named in pinyin or English ("haruhi") while the
// Chinese lines name the role in Chinese ("春日"): a speaker is the
// folder's role when the name matcher relates it to the folder name
// (through data.CharacterAliasGroups) or to the role the folder's
// system_prompt.txt plays ("你正在扮演凉宫春日" → 凉宫春日), a Chinese
// name also matching by a part of two characters or more ("春日").
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
	roles := newHaruhiRoles(names)
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
		rows, err := readHaruhiText(path, opts, roles, &st, seenReal)
		if err != nil {
			return nil, st, fmt.Errorf("chatharuhi: %w", err)
		}
		out = append(out, rows...)
	}
	unifyFolderSpeakers(out, roles)
	for _, u := range out {
		if realKeys[u.Speaker] == nil {
			realKeys[u.Speaker] = map[string]bool{}
		}
		realKeys[u.Speaker][CopyKey(u.Text)] = true
	}
	for _, path := range dialogues {
		st.Files++
		rows, err := readHaruhiDialogues(path, opts, roles, realKeys, &st)
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
func unifyFolderSpeakers(rows []data.Utterance, roles *haruhiRoles) {
	count := map[string]map[string]int{} // folder → speaker → lines
	for _, u := range rows {
		if !roles.isFolderRole(u.Speaker, u.Episode) {
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
		if b, ok := best[u.Episode]; ok && roles.isFolderRole(u.Speaker, u.Episode) {
			u.Speaker = b
		}
	}
}

// readHaruhiText reads one character text file.
func readHaruhiText(path string, opts Options, roles *haruhiRoles, st *Stats, seen map[string]bool) ([]data.Utterance, error) {
	charDir := filepath.Dir(filepath.Dir(path))
	folderRole := filepath.Base(charDir)
	roles.learn(charDir)
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
		if !opts.AllSpeakers && !roles.isFolderRole(speaker, folderRole) {
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
		key := scope + "\x00" + data.NormalizeCharacterName(speaker) + "\x00" + CopyKey(text)
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

// readHaruhiDialogues reads one dialogue file of any of the shapes
// haruhiRecord lists.
func readHaruhiDialogues(path string, opts Options, roles *haruhiRoles, realKeys map[string]map[string]bool, st *Stats) ([]data.Utterance, error) {
	names := roles.names
	var ds []haruhiDialogue
	var lines []int
	shape, hint := "", ""
	err := eachFileLine(path, func(n int, line []byte) error {
		if len(bytes.TrimSpace(line)) == 0 {
			return nil
		}
		var r haruhiRecord
		if err := json.Unmarshal(bytes.TrimPrefix(line, []byte("\ufeff")), &r); err != nil {
			if shape == "" {
				shape = "-" // not JSON from the start: not a dialogue file
				return errStopFile
			}
			return fmt.Errorf("expected a ChatHaruhi %s record: %w", shape, err)
		}
		sh := r.shape()
		switch {
		case shape == "" && sh == "":
			shape = "-"
			return errStopFile
		case shape == "":
			shape = sh
		case sh != shape:
			return fmt.Errorf("expected a ChatHaruhi %s record like the lines before, got %s", shape, firstNonEmpty(sh, "a record of no known shape"))
		}
		switch sh {
		case haruhiShapeDialogue:
			ds = append(ds, haruhiDialogue{Dialogue: r.Dialogue})
			lines = append(lines, n)
		case haruhiShapePairs:
			hint = firstNonEmpty(hint, strings.TrimSpace(*r.RoleB))
			ds = append(ds, haruhiDialogue{Dialogue: []haruhiTurn{{Role: r.RoleA, Text: r.Query}, {Role: *r.RoleB, Text: r.Response}}})
			lines = append(lines, n)
		case haruhiShapeTurns:
			if len(ds) == 0 {
				ds = append(ds, haruhiDialogue{})
				lines = append(lines, n)
			}
			ds[0].Dialogue = append(ds[0].Dialogue, haruhiTurn{Role: *r.Role, Text: r.Text})
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStopFile) {
		return nil, err
	}
	switch shape {
	case "":
		st.skip(path, "empty file")
		return nil, nil
	case "-":
		st.skip(path, "not a ChatHaruhi dialogue file (no \"dialogue\", \"role\"/\"text\" or \"query\"/\"response\" records)")
		return nil, nil
	}
	st.Records += len(ds)
	if f := roles.folderOf(path); f != "" {
		for _, d := range ds {
			for _, t := range d.Dialogue {
				if roles.isFolderRole(t.Role, f) {
					hint = strings.TrimSpace(t.Role)
					break
				}
			}
			if hint != "" && roles.isFolderRole(hint, f) {
				break
			}
		}
	}
	played, playedName := haruhiPlayedRole(path, ds, names, hint)
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
	source := haruhiSource(path)
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
// in the file name when dialogues use it, else hint (the character
// folder's role, or role_B of query-response pairs) when dialogues use
// it, else the role found in the most dialogues. display is the form of that name the dialogues use most
// ("Professor McGonagall" in McGonagall's file), recorded as Role and
// Speaker on every reply so that one file gives one role.
func haruhiPlayedRole(path string, ds []haruhiDialogue, names *NameMatcher, hint string) (played, display string) {
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
	if played == "" && hint != "" && count[hint] > 0 {
		played = hint
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

// errStopFile ends the reading of a file that is not of the format.
var errStopFile = errors.New("not a dialogue file")

// haruhiSource names a dialogue file's source: "chatharuhi/" and the
// folders below characters/ ("chatharuhi/haruhi/dialogues"), else
// "chatharuhi/" and the file's folder ("chatharuhi/organized_data").
func haruhiSource(path string) string {
	dir := filepath.ToSlash(filepath.Dir(path))
	if i := strings.LastIndex("/"+dir, "/characters/"); i >= 0 {
		if rest := dir[i+len("characters/"):]; rest != "" {
			return "chatharuhi/" + rest
		}
	}
	return "chatharuhi/" + filepath.Base(dir)
}

// haruhiRoles relates speakers to the role of a character folder: by the
// name matcher (the folder name "haruhi" and "春日" share an alias group)
// or through the role the folder's system_prompt.txt plays.
type haruhiRoles struct {
	names  *NameMatcher
	prompt map[string]string // folder name → role named by its system prompt
	dirs   map[string]bool   // character folders already looked at
}

func newHaruhiRoles(names *NameMatcher) *haruhiRoles {
	return &haruhiRoles{names: names, prompt: map[string]string{}, dirs: map[string]bool{}}
}

// promptRoleRe finds the role a system prompt plays: "你正在扮演凉宫春日，"
// or "You are now playing Harry Potter."
var promptRoleRe = regexp.MustCompile(`(?:扮演|(?i:you are (?:now )?(?:playing|role-?playing(?: as)?)))\s*([^，,。.\n「」"“”]{1,40})`)

// learn reads the system prompt of character folder dir, once.
func (r *haruhiRoles) learn(dir string) {
	if r.dirs[dir] {
		return
	}
	r.dirs[dir] = true
	b, err := os.ReadFile(filepath.Join(dir, "system_prompt.txt"))
	if err != nil {
		return // no prompt: the folder name alone names the role
	}
	if m := promptRoleRe.FindSubmatch(b); m != nil {
		r.prompt[filepath.Base(dir)] = strings.TrimSpace(string(m[1]))
	}
}

// folderOf returns the character folder's name for a file below
// characters/<Role>/ (learning its prompt), or "".
func (r *haruhiRoles) folderOf(path string) string {
	parts := strings.Split(filepath.ToSlash(path), "/")
	for i := len(parts) - 2; i > 0; i-- {
		if parts[i-1] == "characters" {
			r.learn(filepath.FromSlash(strings.Join(parts[:i+1], "/")))
			return parts[i]
		}
	}
	return ""
}

// isFolderRole reports whether speaker is the role of character folder
// folder.
func (r *haruhiRoles) isFolderRole(speaker, folder string) bool {
	if r.names.Compare(speaker, folder) != MatchNone {
		return true
	}
	p := r.prompt[folder]
	if p == "" {
		return false
	}
	return r.names.Compare(speaker, p) != MatchNone || cjkPart(speaker, p)
}

// cjkPart reports whether a and b are Chinese or Japanese names, one of
// them, of two characters or more, part of the other: "春日" of "凉宫春日".
// Such names are written without spaces, so the words of token matching
// do not exist.
func cjkPart(a, b string) bool {
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	if !isCJK(a) || !isCJK(b) {
		return false
	}
	if len([]rune(a)) > len([]rune(b)) {
		a, b = b, a
	}
	return len([]rune(a)) >= 2 && strings.Contains(b, a)
}

// isCJK reports whether s is made only of Han, Hiragana or Katakana
// characters (and the middle dot of transcribed names).
func isCJK(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !unicode.In(c, unicode.Han, unicode.Hiragana, unicode.Katakana) && c != '·' && c != '・' {
			return false
		}
	}
	return true
}
