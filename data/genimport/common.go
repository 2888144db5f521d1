package genimport

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/importers"
)

// Options controls the readers of this package. The zero value gives the
// documented defaults.
type Options struct {
	// AgentModel overrides the model name recorded on generated rows.
	// Empty means each format's default: "RoleGPT" for RoleBench's
	// rolegpt_baseline files and "RoleBench-GPT" for its other files (the
	// benchmark's GPT-written reference answers), "ChatHaruhi" for
	// ChatHaruhi's dialogues, and the model named by Character-LLM's
	// records or folders.
	AgentModel string
	// Context also emits the turns around the agent's lines (a question,
	// another character's line) as rows whose Speaker is not the Role.
	// Default false: only the agent's own lines.
	Context bool
	// AllReplies takes every turn of the played role in a ChatHaruhi
	// dialogue. Default false: only the role's last turn, the reply the
	// generator produced; earlier turns of the role are the original
	// story's lines given as context.
	AllReplies bool
	// KeepRealCopies keeps generated ChatHaruhi lines that are verbatim
	// copies of the role's real lines (compared by CopyKey). Default false:
	// such lines are dropped and counted, when the role's real texts are
	// read in the same call.
	KeepRealCopies bool
	// AllSpeakers reads every speaker's lines from ChatHaruhi's character
	// texts. Default false: only the lines of the role the folder is named
	// after (the texts are overlapping excerpts, so another role's lines
	// there repeat those of its own folder).
	AllSpeakers bool
	// Names relates role names ("McGonagall" and "Professor McGonagall").
	// nil means a matcher without alias groups (NewNameMatcher(nil,
	// DefaultDistinct())): the readers take role names from what each
	// release states (system prompts, records, folders), never from a
	// table of known characters. A caller may pass DefaultNameMatcher()
	// or its own groups to relate names no release states.
	Names *NameMatcher
}

// Stats counts what a reader read and why it left rows out.
type Stats struct {
	// Files is how many input files were read.
	Files int `json:"files"`
	// Records is how many JSON records, dialogues or text files were read.
	Records int `json:"records"`
	// Utterances is how many rows were produced.
	Utterances int `json:"utterances"`
	// Dropped counts lines left out, by reason ("empty", "real-copy",
	// "duplicate", "narration", "action-only", ...).
	Dropped map[string]int `json:"dropped,omitempty"`
	// Notes holds remarks for the user (a check that could not run).
	Notes []string `json:"notes,omitempty"`
	// Skipped lists files found that are not of the format (an empty
	// file, a JSONL file of another shape), with the reason; the
	// importers adapter hands them to Collector.Skip.
	Skipped []importers.SkippedFile `json:"skipped,omitempty"`
}

func (s *Stats) skip(path, reason string) {
	s.Skipped = append(s.Skipped, importers.SkippedFile{File: path, Reason: reason})
}

func (s *Stats) drop(reason string) {
	if s.Dropped == nil {
		s.Dropped = map[string]int{}
	}
	s.Dropped[reason]++
}

func (s *Stats) note(format string, args ...any) {
	n := fmt.Sprintf(format, args...)
	if !slices.Contains(s.Notes, n) {
		s.Notes = append(s.Notes, n)
	}
}

// Add merges o into s.
func (s *Stats) Add(o Stats) {
	s.Files += o.Files
	s.Records += o.Records
	s.Utterances += o.Utterances
	for k, v := range o.Dropped {
		if s.Dropped == nil {
			s.Dropped = map[string]int{}
		}
		s.Dropped[k] += v
	}
	for _, n := range o.Notes {
		s.note("%s", n)
	}
	s.Skipped = append(s.Skipped, o.Skipped...)
}

// expandPaths turns files and folders into a sorted list of files whose
// names satisfy keep. Folders are walked recursively; hidden entries are
// skipped. A named file is kept even when keep rejects it, so a user can
// point at an oddly named file. A missing path is an error.
func expandPaths(paths []string, keep func(path string) bool) ([]string, error) {
	var out []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, p)
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if q != p && strings.HasPrefix(d.Name(), ".") {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.IsDir() && keep(q) {
				found = append(found, q)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("%s: no input files found in this folder", p)
		}
		sort.Slice(found, func(i, j int) bool { return naturalLess(found[i], found[j]) })
		out = append(out, found...)
	}
	return out, nil
}

// naturalLess orders paths with digit runs compared as numbers, so
// text_2.txt comes before text_10.txt.
func naturalLess(a, b string) bool {
	for a != "" && b != "" {
		da, db := digitPrefix(a), digitPrefix(b)
		if da != "" && db != "" {
			na, nb := strings.TrimLeft(da, "0"), strings.TrimLeft(db, "0")
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			a, b = a[len(da):], b[len(db):]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func digitPrefix(s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i]
}

// eachLine calls fn with every line of r (1-based numbers), without the
// line ending. Lines may be long (generated answers run to many KiB).
func eachLine(r io.Reader, fn func(n int, line []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 64*1024*1024)
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimRight(sc.Bytes(), "\r")
		if err := fn(n, line); err != nil {
			return err
		}
	}
	return sc.Err()
}

// eachFileLine opens path and calls fn for each line; errors name the file
// and line.
func eachFileLine(path string, fn func(n int, line []byte) error) error {
	// The shared reading layer: BOM, UTF-16, mixed encodings, CR line ends.
	text, err := importers.ReadTextFile(path, "")
	if err != nil {
		return err
	}
	var at int
	err = eachLine(strings.NewReader(text), func(n int, line []byte) error {
		at = n
		return fn(n, line)
	})
	if err != nil {
		return &LineError{File: path, Line: at, Err: err}
	}
	return nil
}

// LineError is malformed input: the file, the 1-based line (0 when the
// whole file is wrong) and what was expected.
type LineError struct {
	File string
	Line int
	Err  error
}

// Error renders "file:line: message".
func (e *LineError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.File, e.Err)
}

// Unwrap returns the underlying error.
func (e *LineError) Unwrap() error { return e.Err }

// IsAgentLine reports whether u is an agent's own generated line (as
// opposed to real data or a context turn): it has an AgentModel and its
// Speaker is its Role (compared with NormalizeName).
func IsAgentLine(u *data.Utterance) bool {
	return u.AgentModel != "" && data.NormalizeCharacterName(u.Speaker) == data.NormalizeCharacterName(u.Role)
}

// sourceFor names a file's source: prefix plus the path below the folder
// named root when the path contains it ("rolebench/instruction-
// generalization/role_specific/rolegpt_baseline"), else prefix plus the
// file's base name, both without the extension.
func sourceFor(prefix, path, root string) string {
	p := filepath.ToSlash(path)
	p = strings.TrimSuffix(p, filepath.Ext(p))
	if i := strings.Index(p, "/"+root+"/"); i >= 0 {
		return prefix + "/" + p[i+len(root)+2:]
	}
	return prefix + "/" + filepath.Base(p)
}
