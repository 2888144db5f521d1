package selfplay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/roleprint/roleprint/internal/fsx"
)

// Role is one character the model plays.
type Role struct {
	// Name is the character's name, written as Speaker and Role.
	Name string `json:"name"`
	// Prompt is the role-play system prompt (a persona prompt, or a
	// profile description that Prompt turns into one).
	Prompt string `json:"prompt"`
	// Source groups roles of one work (a show, a novel); the paper
	// scheme pairs roles of one source only. Empty means the file's name.
	Source string `json:"source,omitempty"`
}

// LoadRoles reads roles from a file, recognised by its content:
//
//   - `persona distill` output (personas.json): a JSON array of
//     {"character", "prompt"} objects; the prompt is used as it is;
//   - RoleBench-style profiles: a JSON object {"Role": "description"}
//     (profiles-eng/desc.json), or an array of {"role"|"name",
//     "description"|"desc"|"profile"} objects; the description becomes
//     "You are ROLE. DESCRIPTION";
//   - text: one "role<TAB>description[<TAB>source]" line per role; blank
//     lines and lines starting with # are skipped.
//
// Roles without a source get the file's base name (for personas.json, the
// name of its folder). A role given twice, an empty name or description
// and an unreadable line are errors naming the file and line.
func LoadRoles(path string) ([]Role, error) {
	b, err := fsx.ReadFile(path, MaxListFile)
	if err != nil {
		return nil, fmt.Errorf("roles: %w", err)
	}
	def := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if def == "personas" || def == "desc" {
		def = filepath.Base(filepath.Dir(path))
	}
	var roles []Role
	trim := bytes.TrimSpace(b)
	switch {
	case len(trim) > 0 && trim[0] == '[':
		roles, err = jsonArrayRoles(path, trim)
	case len(trim) > 0 && trim[0] == '{':
		var m map[string]string
		if err = json.Unmarshal(trim, &m); err != nil {
			return nil, fmt.Errorf("roles %s: want a JSON object {\"Role\": \"description\"}: %w", path, err)
		}
		for name, d := range m {
			roles = append(roles, Role{Name: strings.TrimSpace(name), Prompt: ProfilePrompt(name, d)})
		}
		sortRoles(roles)
	default:
		roles, err = tsvRoles(path, b)
	}
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i := range roles {
		r := &roles[i]
		if r.Name == "" || strings.TrimSpace(r.Prompt) == "" {
			return nil, fmt.Errorf("roles %s: role %d (%q) has an empty name or description", path, i+1, r.Name)
		}
		if seen[r.Name] {
			return nil, fmt.Errorf("roles %s: role %q given twice", path, r.Name)
		}
		seen[r.Name] = true
		if r.Source == "" {
			r.Source = def
		}
	}
	if len(roles) == 0 {
		return nil, fmt.Errorf("roles %s: no roles", path)
	}
	return roles, nil
}

// ProfilePrompt turns a profile description into a second-person system
// prompt ("You are NAME. DESCRIPTION").
func ProfilePrompt(name, desc string) string {
	name, desc = strings.TrimSpace(name), strings.TrimSpace(desc)
	if strings.HasPrefix(strings.ToLower(desc), "you are") {
		return desc
	}
	return fmt.Sprintf("You are %s. %s", name, desc)
}

func jsonArrayRoles(path string, b []byte) ([]Role, error) {
	var items []map[string]any
	if err := json.Unmarshal(b, &items); err != nil {
		return nil, fmt.Errorf("roles %s: want a JSON array of objects: %w", path, err)
	}
	str := func(m map[string]any, keys ...string) string {
		for _, k := range keys {
			if s, ok := m[k].(string); ok && strings.TrimSpace(s) != "" {
				return strings.TrimSpace(s)
			}
		}
		return ""
	}
	var roles []Role
	for i, m := range items {
		name := str(m, "character", "role", "name")
		if name == "" {
			return nil, fmt.Errorf("roles %s: item %d has no \"character\", \"role\" or \"name\"", path, i+1)
		}
		r := Role{Name: name, Source: str(m, "source")}
		if p := str(m, "prompt"); p != "" {
			r.Prompt = p
		} else if d := str(m, "description", "desc", "profile"); d != "" {
			r.Prompt = ProfilePrompt(name, d)
		}
		roles = append(roles, r)
	}
	return roles, nil
}

func tsvRoles(path string, b []byte) ([]Role, error) {
	var roles []Role
	first := map[string]int{} // role name → line it was first given on
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	line := 1
	for ; sc.Scan(); line++ {
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		f := strings.Split(strings.TrimRight(sc.Text(), "\r"), "\t")
		if len(f) < 2 || len(f) > 3 {
			return nil, fmt.Errorf("roles %s:%d: want \"role<TAB>description[<TAB>source]\", got %d field(s)", path, line, len(f))
		}
		r := Role{Name: strings.TrimSpace(f[0]), Prompt: ProfilePrompt(f[0], f[1])}
		if r.Name == "" {
			return nil, fmt.Errorf("roles %s:%d: empty role name", path, line)
		}
		if strings.TrimSpace(f[1]) == "" {
			return nil, fmt.Errorf("roles %s:%d: empty description", path, line)
		}
		if l, dup := first[r.Name]; dup {
			return nil, fmt.Errorf("roles %s:%d: role %q given twice (first on line %d)", path, line, r.Name, l)
		}
		first[r.Name] = line
		if len(f) == 3 {
			r.Source = strings.TrimSpace(f[2])
		}
		roles = append(roles, r)
	}
	if errors.Is(sc.Err(), bufio.ErrTooLong) {
		return nil, fmt.Errorf("roles %s:%d: line longer than 16 MiB, the most one line may hold", path, line)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("roles %s:%d: %w", path, line, err)
	}
	return roles, nil
}

func sortRoles(rs []Role) {
	slices.SortFunc(rs, func(a, b Role) int { return strings.Compare(a.Name, b.Name) })
}

// Question is one interview question; Role, when set, limits it to that
// role (RoleBench's questions are role-specific).
type Question struct {
	// Role is the role the question is for; empty: every role.
	Role string `json:"role,omitempty"`
	// Text is the question.
	Text string `json:"question"`
}

// LoadQuestions reads an interview's questions, recognised by content:
//
//   - text: one question per line, blank lines and lines starting with #
//     skipped; every role is asked every question;
//   - Character-LLM interview files: a JSON array of {"question", ...}
//     objects (the replies in them are ignored);
//   - RoleBench JSONL: one {"role", "question", ...} object per line; each
//     question is asked of its role only.
//
// Questions are trimmed and each (role, question) is kept once, in file
// order. A malformed line is an error naming the file and line.
func LoadQuestions(path string) ([]Question, error) {
	b, err := fsx.ReadFile(path, MaxListFile)
	if err != nil {
		return nil, fmt.Errorf("questions: %w", err)
	}
	var qs []Question
	seen := map[Question]bool{}
	add := func(q Question) {
		q.Role, q.Text = strings.TrimSpace(q.Role), strings.TrimSpace(q.Text)
		if q.Text != "" && !seen[q] {
			seen[q] = true
			qs = append(qs, q)
		}
	}
	trim := bytes.TrimSpace(b)
	switch {
	case len(trim) > 0 && trim[0] == '[':
		var items []Question
		if err := json.Unmarshal(trim, &items); err != nil {
			return nil, fmt.Errorf("questions %s: want a JSON array of {\"question\"} objects: %w", path, err)
		}
		for _, q := range items {
			add(q)
		}
	case len(trim) > 0 && trim[0] == '{':
		for n, l := range strings.Split(string(b), "\n") {
			if l = strings.TrimSpace(l); l == "" {
				continue
			}
			var q Question
			if err := json.Unmarshal([]byte(l), &q); err != nil {
				return nil, fmt.Errorf("questions %s:%d: want {\"role\", \"question\"}: %w", path, n+1, err)
			}
			add(q)
		}
	default:
		for _, l := range strings.Split(string(b), "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
				add(Question{Text: l})
			}
		}
	}
	if len(qs) == 0 {
		return nil, fmt.Errorf("questions %s: no questions", path)
	}
	return qs, nil
}

// MaxListFile is the size limit of a roles or questions file (64 MiB:
// hundreds of thousands of roles); a larger file, a device or a FIFO is an
// error naming it.
const MaxListFile = 64 << 20

// MaxJournalFile is the size limit of a journal (4 GiB); the journal is
// read line by line, so the limit only stops a wrong path from being read
// without end.
const MaxJournalFile = 4 << 30
