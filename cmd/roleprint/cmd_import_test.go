package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
)

// runImportCLI runs one command line and returns its exit code and outputs.
func runImportCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// decodeOneJSON decodes exactly one JSON object from s.
func decodeOneJSON(t *testing.T, s string, v any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	if err := dec.Decode(v); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, s)
	}
	if _, err := dec.Token(); err != io.EOF {
		t.Fatalf("stdout holds more than one JSON value:\n%s", s)
	}
}

const importFixtures = "../../data/importers/testdata"

func TestImportJSON(t *testing.T) {
	out := filepath.Join(t.TempDir(), "tbbt.parquet")
	code, stdout, stderr := runImportCLI(t, "import", "--format", "tbbt", "--out", out, "--json", filepath.Join(importFixtures, "tbbt"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got map[string]any
	decodeOneJSON(t, stdout, &got)
	for _, k := range []string{"format", "out", "inputs", "files", "skipped_files", "num_sources", "speakers", "utterances",
		"conversations", "dropped", "dropped_total", "top_speakers", "seconds"} {
		if _, ok := got[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	if got["utterances"] != 9.0 || got["conversations"] != 3.0 || got["speakers"] != 5.0 || got["files"] != 2.0 {
		t.Errorf("counts %v", got)
	}
	dropped := got["dropped"].(map[string]any)
	if dropped["multiple_speakers"] != 3.0 || got["dropped_total"] != 7.0 {
		t.Errorf("dropped %v total %v", dropped, got["dropped_total"])
	}
	top := got["top_speakers"].([]any)[0].(map[string]any)
	if top["speaker"] != "Sheldon" || top["utterances"] != 3.0 {
		t.Errorf("top speaker %v", top)
	}
	utts, err := data.ReadUtterances(out)
	if err != nil || len(utts) != 9 || utts[0].Speaker != "Sheldon" {
		t.Fatalf("written corpus: %d rows, %v", len(utts), err)
	}
}

func TestImportText(t *testing.T) {
	out := filepath.Join(t.TempDir(), "c.parquet")
	code, stdout, stderr := runImportCLI(t, "import", "--format", "lines", "--map", "speaker=who,text=line", "--set", "delimiter=tab",
		"--source", "mine", "--out", out, filepath.Join(importFixtures, "lines", "chat.tsv"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"imported lines: 3 utterances, 2 speakers, 1 conversations", "dropped 1 lines: multiple_speakers 1", "top speakers: Alice (2), Bob (1)"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
}

func TestImportErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "keep.parquet")
	if err := data.WriteUtterances(out, []data.Utterance{{Source: "s", ConversationID: "c", Speaker: "A", Text: "old"}}); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "1_1.txt")
	os.WriteFile(bad, []byte("Scene: x\nSheldon: caf\xe9\n"), 0o644)
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"import", "--out", out, bad}, 1, "cannot tell the format"},
		{[]string{"import", "--format", "nope", "--out", out, bad}, 2, `unknown format "nope"`},
		{[]string{"import", "--format", "tbbt", bad}, 2, "--out"},
		{[]string{"import", "--format", "tbbt", "--out", out}, 2, "no input files"},
		{[]string{"import", "--format", "tbbt", "--out", out, bad, "--json"}, 2, "flags come first"},
		{[]string{"import", "--format", "tbbt", "--map", "speaker=x", "--out", out, bad}, 2, "lines format only"},
		{[]string{"import", "--format", "tbbt", "--set", "oops", "--out", out, bad}, 2, "key=value"},
		{[]string{"import", "--format", "tbbt", "--encoding", "utf-8", "--out", out, bad}, 1, bad + ":2: invalid UTF-8"},
		{[]string{"import", "--format", "tbbt", "--out", out, filepath.Join(dir, "missing.txt")}, 1, "missing.txt: no such file"},
		{[]string{"import", "--format", "meld-csv", "--out", out, filepath.Join(importFixtures, "annomi", "staged.csv")}, 1, "missing column(s)"},
	}
	for _, c := range cases {
		code, _, stderr := runImportCLI(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
	// The failed imports left the earlier file intact and no temporary files.
	utts, err := data.ReadUtterances(out)
	if err != nil || len(utts) != 1 || utts[0].Text != "old" {
		t.Fatalf("output damaged: %v %v", utts, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("leftover files: %v", entries)
	}
}

func TestImportListsFormats(t *testing.T) {
	code, stdout, _ := runImportCLI(t, "import", "--formats")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"tbbt\n", "friends-html\n", "annomi\n", "--set therapist=... (default keep)", "lines\n"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("--formats lacks %q", want)
		}
	}
}
