package genimport

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/importers"
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
//     are kept (the speakers that bear a name the release gives the role,
//     see below: "Professor McGonagall" in McGonagall's folder), under the
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
// Chinese lines name the role in Chinese ("春日"), so the role of a folder
// is taken from what the release says about it, never from a list of
// known roles: the names its system_prompt.txt states ("你正在扮演凉宫春日",
// "你正在cosplay涼宮ハルヒ", "I want you to act like Raj Koothrappali from
// Big Bang Theory", "You are now cosplay Professor McGonagall") and the
// folder name itself. A speaker of the folder's texts is the role when the
// name matcher relates it to one of those names (exactly, or by words:
// "Professor McGonagall" and "McGonagall"), a Chinese name also matching
// by a part of two characters or more ("春日" of "凉宫春日"). A folder
// without a system prompt, or whose prompt names no speaker of its texts,
// takes the speaker its texts give most lines to (noted in Stats).
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
	names := opts.Names
	if names == nil {
		// The release names its roles (system prompts, folders, dialogue
		// files); no table of known characters is consulted.
		names = NewNameMatcher(nil, DefaultDistinct())
	}
	roles := newHaruhiRoles(names)
	var out []data.Utterance
	// Real lines first, so generated copies can be recognised. Every text
	// is parsed before any is filtered: a folder whose prompt names no
	// speaker takes its most frequent one, known only once all its texts
	// are read.
	realKeys := map[string]map[string]bool{} // real speaker → CopyKeys
	seenReal := map[string]bool{}            // folder role + speaker + key
	var dialogues []string
	var texts []haruhiText
	for _, path := range files {
		if strings.HasSuffix(path, ".jsonl") {
			dialogues = append(dialogues, path)
			continue
		}
		st.Files++
		t, err := parseHaruhiText(path, roles, &st)
		if err != nil {
			return nil, st, fmt.Errorf("chatharuhi: %w", err)
		}
		texts = append(texts, t)
	}
	roles.resolve(texts, &st)
	for _, t := range texts {
		out = append(out, filterHaruhiText(t, opts, roles, &st, seenReal)...)
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

// haruhiText is one character text file, parsed: its folder's role name,
// conversation ID and the lines that have a speaker, in order.
type haruhiText struct {
	folder, conv string
	lines        []haruhiTextLine
}

type haruhiTextLine struct {
	turn          int32
	speaker, text string // text as written, before CleanLine
}

// parseHaruhiText reads one character text file: every `Name:「line」`
// line with a speaker that is not the narrator. Narration is counted in
// st.
func parseHaruhiText(path string, roles *haruhiRoles, st *Stats) (haruhiText, error) {
	charDir := filepath.Dir(filepath.Dir(path))
	folderRole := filepath.Base(charDir)
	roles.learn(charDir)
	stem := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	t := haruhiText{folder: folderRole, conv: folderRole + "/" + stem}
	st.Records++
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
		tn := turn
		turn++
		if speaker == "" || narrators[strings.ToLower(speaker)] {
			st.drop("narration")
			return nil
		}
		t.lines = append(t.lines, haruhiTextLine{turn: tn, speaker: speaker, text: m[2]})
		return nil
	})
	return t, err
}

// filterHaruhiText keeps the lines of a parsed text that belong to the
// folder's role (every line with opts.AllSpeakers), cleaned, each line
// once per folder.
func filterHaruhiText(t haruhiText, opts Options, roles *haruhiRoles, st *Stats, seen map[string]bool) []data.Utterance {
	var out []data.Utterance
	for _, l := range t.lines {
		if !opts.AllSpeakers && !roles.isFolderRole(l.speaker, t.folder) {
			st.drop("other-speaker")
			continue
		}
		text := CleanLine(SpeechOnly(l.text))
		if text == "" {
			st.drop("empty")
			continue
		}
		// Overlapping excerpts repeat lines: keep each once per folder
		// (per corpus when every speaker is read, since the folders then
		// overlap too).
		scope := t.folder
		if opts.AllSpeakers {
			scope = ""
		}
		key := scope + "\x00" + data.NormalizeCharacterName(l.speaker) + "\x00" + CopyKey(text)
		if seen[key] {
			st.drop("duplicate")
			continue
		}
		seen[key] = true
		out = append(out, data.Utterance{Source: "chatharuhi", ConversationID: t.conv, Episode: t.folder,
			Turn: l.turn, Speaker: l.speaker, Text: text})
	}
	return out
}

// readHaruhiDialogues reads one dialogue file of any of the shapes
// haruhiRecord lists.
func readHaruhiDialogues(path string, opts Options, roles *haruhiRoles, realKeys map[string]map[string]bool, st *Stats) ([]data.Utterance, error) {
	same := roles.same
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
	played, playedName := haruhiPlayedRole(path, ds, same, hint)
	if played == "" {
		return nil, &LineError{File: path, Err: fmt.Errorf("cannot tell which role the agent plays (no role in the file name or dialogues)")}
	}
	// The real lines of the played role, for the copy check.
	var real []map[string]bool
	for spk, keys := range realKeys {
		if same(spk, played) {
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
			if same(t.Role, played) {
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
			isRole := same(speaker, played)
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
func haruhiPlayedRole(path string, ds []haruhiDialogue, same func(a, b string) bool, hint string) (played, display string) {
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
			if same(r, m[1]) {
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
		if same(r, played) && count[r] > count[display] {
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

// haruhiRoles relates speakers to the role of a character folder, by the
// names the release gives it: those its system_prompt.txt states and the
// folder name, else (resolve) the folder's most frequent speaker.
type haruhiRoles struct {
	names  *NameMatcher
	stated map[string][]string // folder name → role names: its prompt's, then the folder name
	dirs   map[string]bool     // character folders already looked at
}

func newHaruhiRoles(names *NameMatcher) *haruhiRoles {
	return &haruhiRoles{names: names, stated: map[string][]string{}, dirs: map[string]bool{}}
}

// promptRoleRe finds the names a system prompt gives the role it plays,
// in the phrasings of the release's prompts: "你正在扮演凉宫春日，",
// "你正在cosplay涼宮ハルヒ。", "I want you to act like Sheldon Cooper from
// Big Bang Theory.", "You are now cosplay Professor Dumbledore", "You are
// now playing Harry Potter." The name ends at punctuation or a line end;
// English names also before " from " or " in " (the work).
var promptRoleRe = regexp.MustCompile(`(?:扮演|(?i:\bact(?:ing)?\s+(?:like|as)|\bcosplay(?:ing)?(?:\s+as)?|\byou\s+are\s+(?:now\s+)?(?:playing|role-?playing(?:\s+as)?)))\s*([^，,。.\n「」"“”!！?？;；:：]{1,60})`)

// promptWorkRe cuts the work off a name: "Harry from Harry Potter".
var promptWorkRe = regexp.MustCompile(`(?i)\s+(?:from|in|of)\s.*$`)

// promptRoles returns the role names a system prompt states, in order,
// each once.
func promptRoles(prompt string) []string {
	var out []string
	for _, m := range promptRoleRe.FindAllStringSubmatch(prompt, -1) {
		n := strings.TrimSpace(promptWorkRe.ReplaceAllString(m[1], ""))
		if n != "" && len([]rune(n)) <= 40 && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// learn reads the system prompt of character folder dir, once.
func (r *haruhiRoles) learn(dir string) {
	if r.dirs[dir] {
		return
	}
	r.dirs[dir] = true
	folder := filepath.Base(dir)
	var names []string
	if b, err := importers.ReadTextFile(filepath.Join(dir, "system_prompt.txt"), ""); err == nil {
		names = promptRoles(b)
	}
	r.stated[folder] = append(names, folder)
}

// resolve checks, for each folder of texts, that one of its speakers
// bears a name the release states for its role; a folder where none does
// (no system prompt, or a prompt naming the role otherwise than its lines
// do) takes its most frequent speaker, ties broken by name, with a note.
func (r *haruhiRoles) resolve(texts []haruhiText, st *Stats) {
	count := map[string]map[string]int{} // folder → speaker → lines
	var folders []string
	for _, t := range texts {
		if count[t.folder] == nil {
			count[t.folder] = map[string]int{}
			folders = append(folders, t.folder)
		}
		for _, l := range t.lines {
			count[t.folder][l.speaker]++
		}
	}
	for _, f := range folders {
		best, named := "", false
		for spk, n := range count[f] {
			named = named || r.isFolderRole(spk, f)
			if b := count[f][best]; n > b || (n == b && spk < best) {
				best = spk
			}
		}
		if named || best == "" {
			continue
		}
		stated := r.stated[f]
		r.stated[f] = []string{best}
		if len(stated) > 1 {
			st.note("chatharuhi: no speaker of %s's texts is named as its system prompt names the role (%s); took the most frequent speaker, %s (%d lines)",
				f, strings.Join(stated[:len(stated)-1], ", "), best, count[f][best])
		} else {
			st.note("chatharuhi: %s has no system prompt naming its role; took the most frequent speaker of its texts, %s (%d lines)",
				f, best, count[f][best])
		}
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
// folder: related by the name matcher, or as a Chinese name part
// (cjkPart), to one of the role's names.
func (r *haruhiRoles) isFolderRole(speaker, folder string) bool {
	names, ok := r.stated[folder]
	if !ok {
		names = []string{folder}
	}
	for _, n := range names {
		if r.related(speaker, n) {
			return true
		}
	}
	return false
}

// related reports whether names a and b name one character by their form:
// the name matcher relates them, or one is a Chinese name part of the
// other (cjkPart).
func (r *haruhiRoles) related(a, b string) bool {
	return r.names.Compare(a, b) != MatchNone || cjkPart(a, b)
}

// same reports whether names a and b name one character: related by form,
// or both names of one character folder's role (its system prompt says
// "act like Malfoy" and "cosplay Draco Malfoy": a generated dialogue file
// named after Malfoy whose turns say "Draco Malfoy" is his).
func (r *haruhiRoles) same(a, b string) bool {
	if r.related(a, b) {
		return true
	}
	for f := range r.stated {
		if r.isFolderRole(a, f) && r.isFolderRole(b, f) {
			return true
		}
	}
	return false
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
