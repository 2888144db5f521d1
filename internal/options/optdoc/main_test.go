package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratedFilesAreFresh regenerates every options_doc.go of the
// repository and fails when one differs from what is committed (run
// `go generate ./...` after editing an option struct's doc comments).
func TestGeneratedFilesAreFresh(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	var found int
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != root || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.Name() != OutFile {
			return nil
		}
		found++
		types, err := header(path)
		if err != nil {
			t.Error(err)
			return nil
		}
		want, err := Generate(filepath.Dir(path), types)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			return nil
		}
		got, _ := os.ReadFile(path)
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate in %s", path, filepath.Dir(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found == 0 {
		t.Fatal("no options_doc.go found: the walk is broken")
	}
}

// TestGenerateRecordsFieldDocs checks that a field's doc comment reaches
// the table and that an unknown type is an error.
func TestGenerateRecordsFieldDocs(t *testing.T) {
	dir := t.TempDir()
	src := "package p\n\n// O is a test struct.\ntype O struct {\n\t// Rate is the\n\t// learning rate.\n\tRate float64 `opt:\"lr\"`\n\tA, B int\n\tnoDoc int\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := Generate(dir, []string{"O"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte(`"Rate": "Rate is the learning rate."`)) {
		t.Errorf("doc of Rate missing:\n%s", out)
	}
	if bytes.Contains(out, []byte(`"A"`)) {
		t.Errorf("undocumented field recorded:\n%s", out)
	}
	if _, err := Generate(dir, []string{"Missing"}); err == nil {
		t.Error("unknown type: no error")
	}
}
