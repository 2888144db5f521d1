package genimport

import (
	"os"
	"path/filepath"
	"testing"
)

// RoleGPT opens some answers with the role's name or one word of it, in
// any case ("VITTI:", "Salieri:"): removed by that rule, for roles no list
// of known characters holds; another name stays.
func TestRoleBenchStripsRolePrefix(t *testing.T) {
	p := filepath.Join(t.TempDir(), "rolegpt_baseline.jsonl")
	os.WriteFile(p, []byte(`{"role": "Paul Vitti", "question": "Q?", "generated": ["VITTI: It's not easy.", "Vitti: Look.", "Paul Vitti: Fine.", "Man: That is not me."]}
{"role": "Antonio Salieri", "question": "Q?", "generated": ["Salieri: Well, I must admit it.", "Mozart: Not him."]}
`), 0o644)
	utts, _, err := ReadRoleBench([]string{p}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"It's not easy.", "Look.", "Fine.", "Man: That is not me.", "Well, I must admit it.", "Mozart: Not him."}
	if len(utts) != len(want) {
		t.Fatalf("%d rows, want %d", len(utts), len(want))
	}
	for i, u := range utts {
		if u.Text != want[i] {
			t.Errorf("row %d: %q, want %q", i, u.Text, want[i])
		}
	}
}
