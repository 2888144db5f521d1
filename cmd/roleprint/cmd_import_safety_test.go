package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
)

func TestImportRefusesToOverwriteInputs(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "1_1.txt")
	const episode = "Scene: A flat.\nSheldon: Hello there, Leonard.\nLeonard: Hi, Sheldon.\n"
	os.WriteFile(in, []byte(episode), 0o644)
	link := filepath.Join(dir, "link.parquet")
	os.Symlink(in, link)
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"out is the input", []string{"--out", in, "--force", in}, "would overwrite the input"},
		{"out is the input by another path", []string{"--out", filepath.Join(dir, ".", "1_1.txt"), "--force", in}, "would overwrite the input"},
		{"out is a link to the input", []string{"--out", link, in}, "would overwrite the input"},
		{"out is a file of an input folder", []string{"--out", in, "--force", dir}, "would overwrite the input"},
		{"out is not .parquet", []string{"--out", filepath.Join(dir, "x.csv"), in}, "does not end in .parquet"},
	}
	for _, c := range cases {
		args := append([]string{"import", "--format", "tbbt"}, c.args...)
		code, _, stderr := runImportCLI(t, args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and %q", c.name, code, stderr, c.want)
		}
		if b, err := os.ReadFile(in); err != nil || string(b) != episode {
			t.Fatalf("%s: the input was changed: %q %v", c.name, b, err)
		}
	}
	// --force allows another extension; the corpus is still Parquet.
	other := filepath.Join(dir, "out", "corpus.bin")
	if code, _, stderr := runImportCLI(t, "import", "--format", "tbbt", "--force", "--out", other, in); code != 0 {
		t.Fatalf("--force: exit %d: %s", code, stderr)
	}
	if utts, err := data.ReadUtterances(other); err != nil || len(utts) != 2 {
		t.Errorf("forced output: %d rows, %v", len(utts), err)
	}
}

func TestImportSetDelimiterSemicolon(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "semi.csv")
	os.WriteFile(in, []byte("speaker;text\nAnn;Hello there, Ben.\nBen;Hi, Ann.\n"), 0o644)
	for _, set := range [][]string{{"--set", "delimiter=;"}, {"--set", "delimiter=;,normalize=false"}, {"--set", "normalize=true;delimiter=;"}} {
		out := filepath.Join(dir, "c.parquet")
		args := append(append([]string{"import", "--format", "lines"}, set...), "--out", out, in)
		code, _, stderr := runImportCLI(t, args...)
		if code != 0 {
			t.Errorf("%v: exit %d: %s", set, code, stderr)
			continue
		}
		utts, err := data.ReadUtterances(out)
		if err != nil || len(utts) != 2 || utts[0].Text != "Hello there, Ben." || utts[1].Speaker != "Ben" {
			t.Errorf("%v: %v %+v", set, err, utts)
		}
	}
	kv := keyValues{}
	if err := kv.Set("a=1;b=2,c=x,y"); err != nil || kv["a"] != "1" || kv["b"] != "2" || kv["c"] != "x,y" {
		t.Errorf("keyValues: %v %v", kv, err)
	}
}

func TestImportJSONListsSkippedFiles(t *testing.T) {
	dir := t.TempDir()
	rel := filepath.Join(dir, "release")
	os.MkdirAll(rel, 0o755)
	os.WriteFile(filepath.Join(rel, "1_1.txt"), []byte("Scene: A flat.\nSheldon: Hello there, Leonard.\nLeonard: Hi, Sheldon.\nSheldon: Bye.\n"), 0o644)
	os.WriteFile(filepath.Join(rel, "README.txt"), []byte("About this release.\n"), 0o644)
	os.WriteFile(filepath.Join(rel, "1_1-bak.txt"), []byte("Scene: old.\n"), 0o644)
	os.WriteFile(filepath.Join(rel, "empty.txt"), nil, 0o644)
	out := filepath.Join(dir, "c.parquet")
	// No --format: detected from the content, said on stderr.
	code, stdout, stderr := runImportCLI(t, "import", "--out", out, "--json", rel)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "format: tbbt (detected: ") {
		t.Errorf("stderr does not say the detected format: %s", stderr)
	}
	var got struct {
		Format   string `json:"format"`
		Detected struct {
			Format string `json:"format"`
		} `json:"detected"`
		SkippedFiles int `json:"skipped_files"`
		Skipped      []struct {
			File   string `json:"file"`
			Reason string `json:"reason"`
		} `json:"skipped"`
	}
	decodeOneJSON(t, stdout, &got)
	reasons := map[string]string{}
	for _, s := range got.Skipped {
		reasons[filepath.Base(s.File)] = s.Reason
	}
	if got.Format != "tbbt" || got.Detected.Format != "tbbt" || got.SkippedFiles != 3 ||
		reasons["README.txt"] != "README" || reasons["1_1-bak.txt"] != "backup copy of 1_1.txt" || reasons["empty.txt"] != "zero-byte file" {
		t.Errorf("got %+v", got)
	}
	// The text summary lists them one per line.
	code, stdout, _ = runImportCLI(t, "import", "--format", "tbbt", "--out", out, rel)
	if code != 0 || !strings.Contains(stdout, "skipped 3 files") || !strings.Contains(stdout, "README.txt: README\n") {
		t.Errorf("text summary:\n%s", stdout)
	}
}
