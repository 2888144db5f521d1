package importers

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
)

// Sniffer is an optional interface of an Importer: Sniff looks at the
// start of one file (head: up to DetectHeadBytes, decoded to UTF-8 text)
// and returns how sure it is that the file is of the format, from 0 (not
// at all) to 1 (certain), with a short reason ("header has
// transcript_id, interlocutor"). Importers without it are sniffed by the
// rules of this file for the built-in formats.
type Sniffer interface {
	Sniff(path, head string) (score float64, reason string)
}

// DetectHeadBytes is how much of each file Detect reads.
const DetectHeadBytes = 64 * 1024

// detectMaxFiles bounds how many files of a folder Detect looks at.
const detectMaxFiles = 400

// Candidate is one format Detect considered.
type Candidate struct {
	// Format is the format name.
	Format string `json:"format"`
	// Score is the best score of any file (0–1).
	Score float64 `json:"score"`
	// Files is how many files scored at least 0.5.
	Files int `json:"files"`
	// Reason says what was recognised, in the best file.
	Reason string `json:"reason"`
	// Example is the best file.
	Example string `json:"example"`
	// Columns is, for the lines format, the column of each field
	// (speaker, text) the best file's content suggests.
	Columns map[string]string `json:"columns,omitempty"`
}

// Proposal is a format, with the settings it needs, that Detect proposes
// without choosing it: a delimited table whose speaker and text columns
// were guessed from their content, for the user to check.
type Proposal struct {
	// Format is the format name ("lines").
	Format string `json:"format"`
	// Columns maps fields to columns (--map).
	Columns map[string]string `json:"columns"`
	// Reason says what was seen, and in which file.
	Reason string `json:"reason"`
}

// Command returns the roleprint command line that imports paths into out
// with the proposal, its arguments quoted for a POSIX shell where needed.
func (p *Proposal) Command(out string, paths []string) string {
	args := []string{"roleprint", "import", "--format", p.Format}
	if len(p.Columns) > 0 {
		args = append(args, "--map", fmtColumns(p.Columns))
	}
	args = append(args, "--out", out)
	args = append(args, paths...)
	for i, a := range args {
		args[i] = shellQuote(a)
	}
	return strings.Join(args, " ")
}

// Message says what was proposed for paths and the command that imports
// them into out.
func (p *Proposal) Message(paths []string, out string) string {
	return fmt.Sprintf("cannot tell the format of %s for sure: it reads as the %s format, %s; if those are the speaker and text columns, run: %s",
		strings.Join(paths, ", "), p.Format, p.Reason, p.Command(out, paths))
}

// shellQuote quotes s for a POSIX shell when it holds anything but
// letters, digits and -_./=,:+@%.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=,:+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Detection is the outcome of Detect.
type Detection struct {
	// Format is the chosen format ("" when unsure).
	Format string `json:"format"`
	// Reason says why, for the user ("header has transcript_id,
	// interlocutor, utterance_text in AnnoMI-simple.csv").
	Reason string `json:"reason"`
	// Candidates lists every format with a score above zero, best first.
	Candidates []Candidate `json:"candidates"`
	// Proposal, when Format is "", is the format Detect proposes for the
	// user to check (a table whose columns were guessed).
	Proposal *Proposal `json:"proposal,omitempty"`
}

// Detect guesses the format of paths (files, or folders walked like
// Import does) from the files' content, not only their names: it reads the
// start of each file (at most detectMaxFiles files) and scores it for every
// registered format whose Match accepts it (a Sniffer's Sniff, else the
// built-in rules). The format with the best score wins when that score is
// at least 0.5 and no other format comes within 0.15 of it; otherwise the
// error lists the candidates with their reasons, and the Detection is
// returned too.
func Detect(paths []string) (*Detection, error) {
	if len(paths) == 0 {
		return nil, fmt.Errorf("detect format: no input files given")
	}
	var files []string
	named := map[string]bool{}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("detect format: %s: no such file or folder", p)
		}
		if !st.IsDir() {
			files = append(files, p)
			named[p] = true
			continue
		}
		err = walkFollow(p, nil, func(path string, size int64) {
			if len(files) < detectMaxFiles && skipReason(path, size) == "" {
				files = append(files, path)
			}
		})
		if err != nil {
			return nil, fmt.Errorf("detect format: %w", err)
		}
	}
	best := map[string]*Candidate{}
	for _, f := range files {
		head, ok := readHead(f)
		if !ok {
			continue
		}
		for _, name := range Formats() {
			imp, _ := Lookup(name)
			if !named[f] && !imp.Match(f) {
				continue
			}
			score, why := sniff(name, imp, f, head)
			if score <= 0 {
				continue
			}
			c := best[name]
			if c == nil {
				c = &Candidate{Format: name}
				best[name] = c
			}
			if score >= 0.5 {
				c.Files++
			}
			if score > c.Score {
				c.Score, c.Reason, c.Example = score, why, f
				if name == "lines" {
					if lc, ok := guessLineColumns(head); ok {
						c.Columns = map[string]string{"speaker": lc.Speaker, "text": lc.Text}
					}
				}
			}
		}
	}
	d := &Detection{}
	for _, c := range best {
		d.Candidates = append(d.Candidates, *c)
	}
	slices.SortFunc(d.Candidates, func(a, b Candidate) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(b.Files, a.Files), cmp.Compare(a.Format, b.Format))
	})
	where := strings.Join(paths, ", ")
	switch {
	case len(d.Candidates) == 0:
		return d, fmt.Errorf("cannot tell the format of %s: no file looks like any known format; pass --format (one of: %s)",
			where, strings.Join(Formats(), ", "))
	case d.Candidates[0].Format == "lines" && d.Candidates[0].Score < 0.5 && d.Candidates[0].Columns != nil:
		// A table whose speaker and text columns were guessed: propose,
		// never import on a guess.
		c := d.Candidates[0]
		d.Proposal = &Proposal{Format: c.Format, Columns: c.Columns, Reason: fmt.Sprintf("%s in %s", c.Reason, c.Example)}
		return d, errors.New(d.Proposal.Message(paths, "OUT.parquet"))
	case d.Candidates[0].Score < 0.5 ||
		(len(d.Candidates) > 1 && d.Candidates[1].Score > d.Candidates[0].Score-0.15):
		var parts []string
		for _, c := range d.Candidates[:min(len(d.Candidates), 5)] {
			parts = append(parts, fmt.Sprintf("%s (%.2f: %s in %s)", c.Format, c.Score, c.Reason, c.Example))
		}
		return d, fmt.Errorf("cannot tell the format of %s for sure; candidates: %s; pass --format", where, strings.Join(parts, "; "))
	}
	c := d.Candidates[0]
	d.Format = c.Format
	d.Reason = fmt.Sprintf("%s in %s", c.Reason, c.Example)
	if c.Files > 1 {
		d.Reason += fmt.Sprintf(" (and %d more files)", c.Files-1)
	}
	return d, nil
}

// readHead returns the start of path decoded as text, or false when it is
// not text.
func readHead(path string) (string, bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, DetectHeadBytes))
	text, _, err := decodeText(path, b, Auto)
	return text, err == nil
}

// sniff scores head for format name.
func sniff(name string, imp Importer, path, head string) (float64, string) {
	if s, ok := imp.(Sniffer); ok {
		return s.Sniff(path, head)
	}
	if rule, ok := sniffRules[name]; ok {
		return rule(path, head)
	}
	return 0, ""
}

// firstLine returns the first non-blank line of s.
func firstLine(s string) string {
	for line := range strings.SplitSeq(s, "\n") {
		if strings.TrimSpace(line) != "" {
			return strings.TrimSpace(line)
		}
	}
	return ""
}

// headerHas reports whether the first line of s, read as a table header
// (comma, semicolon or tab separated), names every column of cols
// (case-insensitive).
func headerHas(s string, cols ...string) bool {
	h := strings.ToLower(firstLine(s))
	fields := strings.FieldsFunc(h, func(r rune) bool { return r == ',' || r == '\t' || r == ';' || r == '|' })
	for i := range fields {
		fields[i] = strings.Trim(strings.TrimSpace(fields[i]), `"`)
	}
	for _, c := range cols {
		if !slices.Contains(fields, strings.ToLower(c)) {
			return false
		}
	}
	return true
}

// hasKeys reports whether s holds every JSON key of keys (as `"key":`).
func hasKeys(s string, keys ...string) bool {
	for _, k := range keys {
		if !regexp.MustCompile(`"` + regexp.QuoteMeta(k) + `"\s*:`).MatchString(s) {
			return false
		}
	}
	return true
}

// firstJSONLine reports whether the first non-blank line of s is a whole
// JSON object (a JSONL file).
func firstJSONLine(s string) bool {
	l := firstLine(s)
	return strings.HasPrefix(l, "{") && json.Valid([]byte(l))
}

var (
	speakerLine    = regexp.MustCompile(`(?m)^[A-Z][\w .'’-]{0,30}: \S`)
	haruhiLine     = regexp.MustCompile(`(?m)^[^:：\n]{1,30}[:：]\s*「`)
	htmlSpeaker    = regexp.MustCompile(`(?i)<b>\s*[a-z][\w .'-]{0,30}:?\s*</b>:?`)
	shakespeareTag = regexp.MustCompile(`(?i)<a name="?speech\d`)
)

// sniffRules scores the built-in formats (and those of data/genimport,
// which register into the same registry) by their content.
var sniffRules = map[string]func(path, head string) (float64, string){
	"cornell": func(_, h string) (float64, string) {
		if strings.Contains(h, " +++$+++ ") {
			return 1, `fields separated by " +++$+++ "`
		}
		return 0, ""
	},
	"msc": func(_, h string) (float64, string) {
		if firstJSONLine(h) && hasKeys(firstLine(h), "dialog") {
			if hasKeys(firstLine(h), "metadata") || strings.Contains(h, `"Speaker 1"`) {
				return 1, `JSON lines with "dialog" and "metadata"`
			}
			return 0.7, `JSON lines with "dialog"`
		}
		return 0, ""
	},
	"tbbt": func(_, h string) (float64, string) {
		n := len(speakerLine.FindAllStringIndex(h, 20))
		switch {
		case n >= 3 && regexp.MustCompile(`(?m)^Scene:`).MatchString(h):
			return 0.95, `"Scene:" lines and "Name: text" lines`
		case n >= 10:
			return 0.4, `"Name: text" lines`
		}
		return 0, ""
	},
	"friends-html": func(_, h string) (float64, string) {
		lower := strings.ToLower(h)
		if !strings.Contains(lower, "<html") && !strings.Contains(lower, "<p>") {
			return 0, ""
		}
		if shakespeareTag.MatchString(h) {
			return 0, ""
		}
		scene := strings.Contains(h, "[Scene") || strings.Contains(h, "[SCENE")
		speakers := len(htmlSpeaker.FindAllStringIndex(h, 10))
		switch {
		case scene && speakers >= 3:
			return 0.95, `HTML with "[Scene: ...]" and <b>Name:</b> lines`
		case scene || (speakers >= 5 && strings.Contains(h, "The One")):
			return 0.6, `HTML transcript ("[Scene" or <b>Name:</b> lines)`
		}
		return 0, ""
	},
	"shakespeare-html": func(_, h string) (float64, string) {
		if shakespeareTag.MatchString(h) && strings.Contains(strings.ToLower(h), "<blockquote>") {
			return 1, `HTML with <A NAME=speechN> speeches and <blockquote> lines`
		}
		return 0, ""
	},
	"friends-json": func(_, h string) (float64, string) {
		if hasKeys(h, "season_id", "episodes") {
			return 1, `JSON with "season_id" and "episodes"`
		}
		return 0, ""
	},
	"meld-csv": func(_, h string) (float64, string) {
		switch {
		case headerHas(h, "Utterance", "Speaker", "Dialogue_ID"):
			return 1, "header has Utterance, Speaker, Dialogue_ID"
		case headerHas(h, "Utterance", "Speaker", "Scene_ID"):
			return 0.95, "header has Utterance, Speaker, Scene_ID"
		}
		return 0, ""
	},
	"annomi": func(_, h string) (float64, string) {
		if headerHas(h, "transcript_id", "interlocutor", "utterance_text") {
			return 1, "header has transcript_id, interlocutor, utterance_text"
		}
		return 0, ""
	},
	"hp-movies": func(_, h string) (float64, string) {
		switch {
		case headerHas(h, "Dialogue ID", "Character ID", "Dialogue"):
			return 1, "header has Dialogue ID, Character ID, Dialogue"
		case headerHas(h, "Character ID", "Character Name"), headerHas(h, "Movie ID", "Movie Title"),
			headerHas(h, "Chapter ID", "Chapter Name"), headerHas(h, "Place ID", "Place Name"):
			return 0.9, "a table of the Harry Potter movie dataset (ID and name columns)"
		}
		return 0, ""
	},
	"lines": func(_, h string) (float64, string) {
		lc, ok := guessLineColumns(h)
		switch {
		case !ok:
			return 0, ""
		case lc.Defaults:
			return 0.5, fmt.Sprintf("a table (%s) whose header has %s and %s columns", lc.Dialect.describe(), lc.Speaker, lc.Text)
		}
		// Below 0.5: a guess is proposed (Detection.Proposal), never taken.
		return 0.45, fmt.Sprintf("a table (%s) whose column %q looks like speakers (short names that repeat) and %q like text (long, distinct)",
			lc.Dialect.describe(), lc.Speaker, lc.Text)
	},
	"rolebench": func(_, h string) (float64, string) {
		if firstJSONLine(h) && hasKeys(firstLine(h), "role", "question", "generated") {
			return 1, `JSON lines with "role", "question", "generated"`
		}
		return 0, ""
	},
	"chatharuhi": func(_, h string) (float64, string) {
		switch {
		case firstJSONLine(h) && hasKeys(firstLine(h), "dialogue") && hasKeys(firstLine(h), "role", "text"):
			return 0.95, `JSON lines with "dialogue" lists of {role, text}`
		case len(haruhiLine.FindAllStringIndex(h, 10)) >= 2:
			return 0.95, `"Name:「line」" lines`
		}
		return 0, ""
	},
	"character-llm": func(_, h string) (float64, string) {
		switch {
		case hasKeys(h, "topic_id", "question", "reply"):
			return 1, `JSON records with "topic_id", "question", "reply"`
		case firstJSONLine(h) && hasKeys(firstLine(h), "turn_role", "turn_content"):
			return 1, `JSON lines with "turn_role" and "turn_content"`
		}
		return 0, ""
	},
	"pair-records": func(_, h string) (float64, string) {
		if firstJSONLine(h) && hasKeys(firstLine(h), "anchor_utterances") && strings.Contains(firstLine(h), `"paired_`) {
			return 1, `JSON lines with "anchor_utterances" and "paired_*"`
		}
		return 0, ""
	},
	"hpd": func(_, h string) (float64, string) {
		if regexp.MustCompile(`"Session-\d+"\s*:`).MatchString(h) && hasKeys(h, "dialogue") {
			return 1, `JSON object of "Session-N" entries with "dialogue"`
		}
		return 0, ""
	},
}
