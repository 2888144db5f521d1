package selfplay

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzRolesAndJournal reads arbitrary bytes as a roles file (TSV and JSON),
// a questions file and a journal: each reader returns its result or an
// error naming the file, never panics; a journal that opens holds only
// entries with keys and accepts a new entry.
func FuzzRolesAndJournal(f *testing.F) {
	for _, s := range []string{"Ann\tA teacher.\nBob\tA pilot.\n", `[{"name": "Ann", "description": "A teacher."}]`, "# c\n\nAnn\t\n",
		"Ann\tq1\n*\tq2\n", `{"key":"a","reply":"x"}` + "\n" + `{"key":"b"`, "\ufeffAnn\tA\r\n", "\x00\xff\t\n", `[{"name": 1}]`} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		named := func(what, p string, err error) {
			if err != nil && !strings.Contains(err.Error(), p) {
				t.Fatalf("%s: error without the file name: %v", what, err)
			}
		}
		for _, name := range []string{"roles.tsv", "roles.json"} {
			p := filepath.Join(dir, name)
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			roles, err := LoadRoles(p)
			named("LoadRoles", p, err)
			for _, r := range roles {
				if strings.TrimSpace(r.Name) == "" {
					t.Fatalf("LoadRoles(%q): a role without a name", b)
				}
			}
		}
		q := filepath.Join(dir, "questions.tsv")
		os.WriteFile(q, b, 0o644)
		_, err := LoadQuestions(q)
		named("LoadQuestions", q, err)
		jp := filepath.Join(dir, "journal.jsonl")
		os.WriteFile(jp, b, 0o644)
		j, err := OpenJournal(jp)
		named("OpenJournal", jp, err)
		if err == nil {
			if err := j.Add(Entry{Key: "fuzz-new"}); err != nil {
				t.Fatal(err)
			}
			if _, ok := j.Get("fuzz-new"); !ok {
				t.Fatal("journal lost the entry just added")
			}
			j.Close()
		}
	})
}
