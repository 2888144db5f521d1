package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/sv/table2"
)

// TestReproDemonstration labels a bundle of the embedded corpus alone a
// demonstration with its dev AUC, and no bundle of a corpus file.
func TestReproDemonstration(t *testing.T) {
	scores, labels := []float64{0.1, 0.9, 0.2, 0.8}, []bool{false, true, true, false}
	embedded := &table2.Manifest{Inputs: []table2.InputFile{{Path: "embedded:shakespeare"}}}
	got := table2.DemonstrationLabel(embedded, scores, labels)
	got = strings.ReplaceAll(got, "`", "")
	if !strings.Contains(got, "Shakespeare") || !strings.Contains(got, "dev AUC 0.75") || !strings.Contains(got, "not a verifier for other text") {
		t.Fatalf("embedded corpus: %q", got)
	}
	files := &table2.Manifest{Inputs: []table2.InputFile{{Path: "embedded:shakespeare"}, {Path: "/data/tbbt.parquet"}}}
	if got := table2.DemonstrationLabel(files, scores, labels); got != "" {
		t.Fatalf("with a corpus file: %q, want no label", got)
	}
	var out bytes.Buffer
	e := &env{stdout: &out, stderr: &bytes.Buffer{}}
	reproClosingLine(e, "")
	if out.Len() != 0 {
		t.Fatalf("no bundle: %q", out.String())
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "manifest.json"), []byte("{}"), 0o644)
	os.WriteFile(filepath.Join(dir, "verifier.json"), []byte(`{"format": "roleprint-verifier", "format_version": 1, "manifest": "manifest.json",
		"parts": [{"row": "tfidf", "encoder": "tfidf", "weight": 1}], "demonstration": "`+got+`"}`), 0o644)
	reproClosingLine(e, dir)
	if line := out.String(); !strings.Contains(line, "is a demonstration") || !strings.Contains(line, "not a verifier for other text") ||
		strings.Contains(line, "use it with") {
		t.Fatalf("closing line of a demonstration bundle: %q", line)
	}
}
