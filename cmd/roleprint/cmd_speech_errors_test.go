package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// A missing corpus file is named once, with what went wrong, by the
// speech verbs and by the judge's --audio-corpus.
func TestCorpusErrorsNameTheFileOnce(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "absent.parquet")
	for _, args := range [][]string{
		{"speech", "profile", "--in", missing},
		{"speech", "reference", "--in", missing},
		{"judge", "--protocol", "voxrole", "--audio-corpus", missing, "x.jsonl"},
	} {
		code, _, stderr := runPersonaCLI(t, args...)
		if code != 1 || strings.Count(stderr, missing) != 1 || !strings.Contains(stderr, "no such file") {
			// data.ReadUtterances says "read PATH: no such file or
			// directory" (internal/fsx drops the OS error's own copy of
			// the path), and no caller adds it again.
			t.Errorf("%v: exit %d: %s", args, code, stderr)
		}
	}
}
