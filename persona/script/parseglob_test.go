package script

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseGlobJoinsFilesInOrder(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"2_b.txt": "Scene: Two.\nBob: Second.\n", "1_a.txt": "Scene: One.\nAda: First.\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := ParseGlob("both", filepath.Join(dir, "*.txt"), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	utts := s.Utterances("x", false)
	if s.Name != "both" || len(utts) != 2 || utts[0].Text != "First." || utts[1].Text != "Second." {
		t.Errorf("script %q: %+v", s.Name, utts)
	}
	if _, err := ParseGlob("none", filepath.Join(dir, "*.csv"), ParseOptions{}); err == nil || !strings.Contains(err.Error(), "*.csv") {
		t.Errorf("no match: %v", err)
	}
}
