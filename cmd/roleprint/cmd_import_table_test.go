package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
)

// An R write.table file (.txt, space-separated, quoted, a row-name
// column): import without --format proposes the lines format with the
// exact command, --out included; that command, --set "delimiter= ", and
// --format lines alone (the columns by their content) import it.
func TestImportProposesLinesForATable(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "script.txt")
	os.WriteFile(in, []byte(`"character" "dialogue"
"1" "LUKE" "Hurry up! Come with me!"
"2" "THREEPIO" "Artoo! Where are you?"
"3" "LUKE" "He says \"I found her,\" and keeps repeating."
`), 0o644)
	out := filepath.Join(dir, "sw.parquet")
	code, _, stderr := runImportCLI(t, "import", "--out", out, in)
	want := "roleprint import --format lines --map speaker=character,text=dialogue --out " + out + " " + in
	if code == 0 || !strings.Contains(stderr, want) {
		t.Fatalf("exit %d, stderr %q; want the command %q", code, stderr, want)
	}
	for _, args := range [][]string{
		strings.Fields(want)[1:],
		{"import", "--format", "lines", "--set", "delimiter= ", "--map", "speaker=character,text=dialogue", "--out", out, in},
		{"import", "--format", "lines", "--out", out, in}, // the columns by their content, with a note
	} {
		os.Remove(out)
		if code, _, stderr := runImportCLI(t, args...); code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		utts, err := data.ReadUtterances(out)
		if err != nil || len(utts) != 3 || utts[1].Speaker != "Threepio" || utts[2].Text != `He says "I found her," and keeps repeating.` {
			t.Errorf("%q: %v %+v", args, err, utts)
		}
	}
}
