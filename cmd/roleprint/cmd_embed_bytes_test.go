package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestEmbedReadsBytesThatAreNotUTF8 feeds `embed` the byte strings that
// crashed the WordPiece tokenizer: the lines go through the reading layer
// (Latin-1 "é" decoded) and every encoder gets valid UTF-8; a binary file
// and /dev/zero are errors naming them.
func TestEmbedReadsBytesThatAreNotUTF8(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "a.txt")
	os.WriteFile(in, []byte("caf\xe9\n\xff ok\n\xe2\x80 cut\n"), 0o644)
	lines, err := embedReadLines(in, nil)
	if err != nil || !slices.Equal(lines, []string{"café", "ÿ ok", "â€ cut"}) {
		t.Errorf("embedReadLines: %q, %v", lines, err)
	}
	code, stdout, stderr := reproRun("embed", "--encoder", "transformer", "--json", in)
	var out struct {
		Count int `json:"count"`
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &out) != nil || out.Count != 3 {
		t.Errorf("embed --encoder transformer: exit %d, %q, stderr %q", code, stdout, stderr)
	}
	bin := filepath.Join(dir, "b.png")
	os.WriteFile(bin, []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10"), 0o644)
	for _, p := range []string{bin, "/dev/zero"} {
		code, _, stderr := reproRun("embed", "--encoder", "liwc", p)
		if code != 1 || !strings.Contains(stderr, p) {
			t.Errorf("embed %s: exit %d, stderr %q; want an error naming it", p, code, stderr)
		}
	}
}
