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
	fit := filepath.Join(t.TempDir(), "fit.txt")
	os.WriteFile(fit, []byte(strings.Repeat("I do not know.\nWhat say you, my lord?\nOh my God!\nWe shall see, sir.\n", 3)), 0o644)
	code, stdout, stderr := reproRun("embed", "--encoder", "liwc", "--fit", fit, "--json", in)
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
	code, stdout, _ = reproRun("embed", "--encoder", "lsm", "--fit", fit, in)
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

// TestEmbedRefusesTooFewFitTexts: an encoder fitted on its input's
// statistics refuses two lines (tfidf gave two all-zero vectors and exit
// 0), naming the file, the count and the minimum; --fit with enough lines
// embeds them.
func TestEmbedRefusesTooFewFitTexts(t *testing.T) {
	dir := t.TempDir()
	two := filepath.Join(dir, "two.txt")
	os.WriteFile(two, []byte("Hello there, Leonard.\nHi, Sheldon.\n"), 0o644)
	for _, enc := range []string{"tfidf", "liwc"} {
		code, stdout, stderr := reproRun("embed", "--encoder", enc, two)
		if code == 0 || stdout != "" || !strings.Contains(stderr, "two.txt holds 2") || !strings.Contains(stderr, "at least 10") {
			t.Errorf("%s on two lines: exit %d, stdout %q, stderr %q; want a refusal naming the file, 2 and 10", enc, code, stdout, stderr)
		}
	}
	few := filepath.Join(dir, "few.txt")
	os.WriteFile(few, []byte("a b\nc d\n"), 0o644)
	if code, _, stderr := reproRun("embed", "--encoder", "tfidf", "--fit", few, two); code == 0 || !strings.Contains(stderr, "few.txt holds 2") {
		t.Errorf("--fit with two lines: exit %d, %q", code, stderr)
	}
	fit := filepath.Join(dir, "fit.txt")
	os.WriteFile(fit, []byte(strings.Repeat("Hello there, Leonard.\nHi, Sheldon.\nWhere is Penny?\nThat is my spot.\n", 3)), 0o644)
	code, stdout, stderr := reproRun("embed", "--encoder", "tfidf", "--fit", fit, two)
	if code != 0 || len(strings.Split(strings.TrimSpace(stdout), "\n")) != 2 {
		t.Errorf("--fit with 12 lines: exit %d, stderr %q", code, stderr)
	}
	// All-zero vectors are an error whatever the fit: a vocabulary that
	// none of the lines touch, uncentred.
	digits := filepath.Join(dir, "digits.txt")
	os.WriteFile(digits, []byte(strings.Repeat("0123 4567 89\n", 12)), 0o644)
	code, _, stderr = reproRun("embed", "--encoder", "tfidf", "--fit", digits, "--set", "center=false", two)
	if code == 0 || !strings.Contains(stderr, "all-zero") {
		t.Errorf("all-zero vectors: exit %d, %q", code, stderr)
	}
}

// TestLineTooLong: a line over the limit is an error naming the file,
// the line and the limit, not bufio's "token too long".
func TestLineTooLong(t *testing.T) {
	dir := t.TempDir()
	long := filepath.Join(dir, "long.txt")
	os.WriteFile(long, []byte("short line\n"+strings.Repeat("x", maxLineBytes+10)+"\n"), 0o644)
	code, _, stderr := reproRun("embed", "--encoder", "tfidf", long)
	if code == 0 || !strings.Contains(stderr, "long.txt:2: line longer than 16 MiB") || strings.Contains(stderr, "token too long") {
		t.Errorf("embed: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = reproRun("verify", "--verifier", dir, long, long)
	if code == 0 || !strings.Contains(stderr, "long.txt:2: line longer than 16 MiB") {
		t.Errorf("verify: exit %d, stderr %q", code, stderr)
	}
	roles := filepath.Join(dir, "roles.tsv")
	os.WriteFile(roles, []byte("Ann\tA baker.\nBob\t"+strings.Repeat("x", maxLineBytes+10)+"\n"), 0o644)
	code, _, stderr = reproRun("selfplay", "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--roles", roles, "--out", filepath.Join(dir, "g.parquet"))
	if code == 0 || !strings.Contains(stderr, "roles.tsv:2: line longer than 16 MiB") {
		t.Errorf("selfplay --roles: exit %d, stderr %q", code, stderr)
	}
}
