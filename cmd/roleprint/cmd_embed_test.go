package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEmbedJSON(t *testing.T) {
	in := filepath.Join(t.TempDir(), "lines.txt")
	os.WriteFile(in, []byte("I do not know.\nWhat say you, my lord?\nOh my God!\n\n"), 0o644)
	code, stdout, stderr := reproRun("embed", "--encoder", "liwc", "--json", in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out struct {
		Encoder string      `json:"encoder"`
		Dim     int         `json:"dim"`
		Count   int         `json:"count"`
		Vectors [][]float64 `json:"vectors"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	if out.Encoder != "liwc" || out.Count != 3 || len(out.Vectors) != 3 || len(out.Vectors[0]) != out.Dim || out.Dim < 20 {
		t.Fatalf("output %+v", out)
	}
	// Plain output: one line of Dim numbers per utterance.
	code, stdout, _ = reproRun("embed", "--encoder", "lsm", in)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if code != 0 || len(lines) != 3 || len(strings.Fields(lines[0])) != 9 {
		t.Errorf("plain output: exit %d, %q", code, stdout)
	}
}

func TestEmbedErrors(t *testing.T) {
	dir := t.TempDir()
	gap := filepath.Join(dir, "gap.txt")
	os.WriteFile(gap, []byte("one\n\ntwo\n"), 0o644)
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"embed", gap}, 2, "--encoder is required"},
		{[]string{"embed", "--encoder", "nope", gap}, 1, `unknown encoder "nope"`},
		{[]string{"embed", "--encoder", "liwc", gap}, 1, "gap.txt:2: empty line"},
		{[]string{"embed", "--encoder", "liwc", filepath.Join(dir, "absent.txt")}, 1, "absent.txt"},
		{[]string{"embed", "--encoder", "liwc_ft", gap}, 2, "roleprint train"},
	}
	for _, c := range cases {
		code, _, stderr := reproRun(c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d (want %d), stderr %q lacks %q", c.args, code, c.code, stderr, c.want)
		}
	}
}
