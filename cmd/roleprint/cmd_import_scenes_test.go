package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
)

// writeScript writes an R write.table script of n rows, the speakers in
// turn, as one file that has no scene marks.
func writeScript(t *testing.T, dir string, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(`"character" "dialogue"` + "\n")
	for i := range n {
		fmt.Fprintf(&b, "%q %q %q\n", fmt.Sprint(i+1), []string{"LUKE", "HAN", "LEIA"}[i%3], fmt.Sprintf("Line number %d of the film.", i))
	}
	p := filepath.Join(dir, "film.txt")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// import --scene-lines N: the lines format implied, windows as
// conversations, the rule in the JSON, in the corpus file's metadata and
// in stats (text and JSON).
func TestImportSceneLines(t *testing.T) {
	dir := t.TempDir()
	in := writeScript(t, dir, 40)
	out := filepath.Join(dir, "film.parquet")
	code, stdout, stderr := runImportCLI(t, "import", "--scene-lines", "16", "--json", "--out", out, in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var o struct {
		Format        string            `json:"format"`
		Conversations int               `json:"conversations"`
		Settings      map[string]string `json:"settings"`
		Segmentation  struct {
			Scenes     string `json:"scenes"`
			SceneLines int    `json:"scene_lines"`
			Rule       string `json:"rule"`
		} `json:"segmentation"`
	}
	decodeOneJSON(t, stdout, &o)
	if o.Format != "lines" || o.Conversations != 3 || o.Settings["scene_lines"] != "16" ||
		o.Segmentation.SceneLines != 16 || o.Segmentation.Scenes != "column" || !strings.Contains(o.Segmentation.Rule, "windows of 16") {
		t.Errorf("import JSON %+v", o)
	}
	utts, err := data.ReadUtterances(out)
	if err != nil || utts[0].ConversationID != "film#w1" || utts[39].ConversationID != "film#w3" {
		t.Fatalf("%v; conversations %q … %q", err, utts[0].ConversationID, utts[len(utts)-1].ConversationID)
	}
	info, err := data.ReadImportInfo(out)
	if err != nil || info == nil || info.SceneLines != 16 || info.Format != "lines" || !strings.Contains(info.ConversationRule, "windows of 16") {
		t.Fatalf("metadata %+v, %v", info, err)
	}

	code, stdout, stderr = runImportCLI(t, "stats", out)
	if code != 0 || !strings.Contains(stdout, "windows of 16 kept utterances") {
		t.Errorf("stats: exit %d, %s%s", code, stdout, stderr)
	}
	var st struct {
		Imports []struct {
			File       string `json:"file"`
			SceneLines int    `json:"scene_lines"`
		} `json:"imports"`
	}
	code, stdout, _ = runImportCLI(t, "stats", "--json", out)
	decodeOneJSON(t, stdout, &st)
	if code != 0 || len(st.Imports) != 1 || st.Imports[0].File != out || st.Imports[0].SceneLines != 16 {
		t.Errorf("stats --json imports %+v", st.Imports)
	}

	// Without the flag: one conversation, no rule but the default's.
	code, _, stderr = runImportCLI(t, "import", "--format", "lines", "--out", out, in)
	if info, _ := data.ReadImportInfo(out); code != 0 || info == nil || info.SceneLines != 0 {
		t.Errorf("default: exit %d, %+v: %s", code, info, stderr)
	}
	if utts, _ := data.ReadUtterances(out); len(utts) != 40 || utts[39].ConversationID != "film" {
		t.Errorf("default: %d rows, last in %q", len(utts), utts[39].ConversationID)
	}
}

// A bad --scene-lines or --scenes is a usage error (exit 2) naming what it
// takes, before anything is read or written; a short window is allowed
// with a note that it cannot make Harder pairs.
func TestImportSceneLinesErrors(t *testing.T) {
	dir := t.TempDir()
	in := writeScript(t, dir, 12)
	out := filepath.Join(dir, "film.parquet")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--scene-lines", "1"}, "expected 2 or more lines a window"},
		{[]string{"--scene-lines", "-5"}, "expected 2 or more lines a window"},
		{[]string{"--scene-lines", "ten"}, "invalid value"},
		{[]string{"--scenes", "acts"}, "expected column, headings or blank"},
		{[]string{"--scene-lines", "16", "--set", "scene_lines=8"}, "disagree"},
		{[]string{"--scene-lines", "16", "--format", "tbbt"}, "applies to the lines format only"},
	} {
		args := append(append([]string{"import"}, c.args...), "--out", out, in)
		code, _, stderr := runImportCLI(t, args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, %q; want 2 and %q", c.args, code, stderr, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%q wrote %s", c.args, out)
		}
	}
	code, _, stderr := runImportCLI(t, "import", "--scene-lines", "6", "--out", out, in)
	if code != 0 || !strings.Contains(stderr, "no Harder pairs") {
		t.Errorf("--scene-lines 6: exit %d, %q", code, stderr)
	}
}
