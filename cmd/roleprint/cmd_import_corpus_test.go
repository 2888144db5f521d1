package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
)

// TestImportCorpusByName checks roleprint import --corpus: the catalog
// listing, the usage errors, and (with a fake shared folder holding one
// TBBT episode) an import by name whose --json names the corpus and the
// catalog's paths.
func TestImportCorpusByName(t *testing.T) {
	code, stdout, _ := runImportCLI(t, "import", "--corpora", "--json")
	var list struct {
		Corpora []struct {
			Name, Format, Dir string
		} `json:"corpora"`
	}
	decodeOneJSON(t, stdout, &list)
	if code != 0 || len(list.Corpora) < 4 || list.Corpora[1].Name != "tbbt" || list.Corpora[1].Format != "tbbt" {
		t.Fatalf("--corpora: code %d, %+v", code, list)
	}
	out := filepath.Join(t.TempDir(), "c.parquet")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"import", "--corpus", "nope", "--out", out}, "friends, tbbt"},
		{[]string{"import", "--corpus", "tbbt", "--out", out, "x.txt"}, "takes no PATH"},
		{[]string{"import", "--corpus", "tbbt", "--format", "annomi", "--out", out}, "--format tbbt"},
	} {
		code, _, stderr := runImportCLI(t, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: code %d, stderr %q, want 2 and %q", c.args, code, stderr, c.want)
		}
	}
	shared := t.TempDir()
	dir := filepath.Join(shared, "corpora", "tbbt", "preprocessing", "raw_corpus")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join("..", "..", "data", "importers", "testdata", "tbbt", "1_1.txt"))
	if err != nil {
		t.Skipf("importer fixture missing: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "1_1.txt"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(data.SharedEnv, shared)
	code, stdout, stderr := runImportCLI(t, "import", "--corpus", "tbbt", "--out", out, "--json")
	var o struct {
		Corpus, Format string
		Inputs         []string
		Utterances     int
	}
	decodeOneJSON(t, stdout, &o)
	if code != 0 || o.Corpus != "tbbt" || o.Format != "tbbt" || len(o.Inputs) != 1 || o.Inputs[0] != dir || o.Utterances == 0 {
		t.Fatalf("import --corpus tbbt: code %d, %+v, stderr %s", code, o, stderr)
	}
	utts, err := data.ReadUtterances(out)
	if err != nil || len(utts) != o.Utterances {
		t.Errorf("written corpus: %d utterances, %v; want %d", len(utts), err, o.Utterances)
	}
	os.RemoveAll(filepath.Join(shared, "corpora", "tbbt"))
	if code, _, stderr := runImportCLI(t, "import", "--corpus", "tbbt", "--out", out); code != 1 || !strings.Contains(stderr, "folder tbbt not found") {
		t.Errorf("absent corpus: code %d, stderr %q", code, stderr)
	}
}
