package kernel

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/corpus"
)

// TestImportCachesAndSkips imports a tiny TBBT-format corpus from a fake
// shared folder, checks that the second call reads the Parquet cache (the
// source is gone by then), and that an absent corpus is a note, not an
// error.
func TestImportCachesAndSkips(t *testing.T) {
	shared := t.TempDir()
	dir := filepath.Join(shared, "corpora", "tbbt", "preprocessing", "raw_corpus")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(RepoRoot(), "data", "importers", "testdata", "tbbt", "1_1.txt"))
	if err != nil {
		t.Skipf("importer fixture missing: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "1_1.txt"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(data.SharedEnv, shared)
	nb, _, stdout, _ := testNotebook(t, false)
	nb.Dir = filepath.Join(t.TempDir(), "out", "nb")
	c := corpus.MustLookup("tbbt")
	first, ok, err := nb.Import(t.Context(), c)
	if err != nil || !ok || len(first) == 0 {
		t.Fatalf("import: %d utterances, ok %v, %v", len(first), ok, err)
	}
	if !strings.Contains(stdout.String(), "imported tbbt (tbbt)") {
		t.Errorf("no import line: %q", stdout)
	}
	cache := filepath.Join(filepath.Dir(nb.Dir), "corpora", "tbbt.parquet")
	if _, err := os.Stat(cache); err != nil {
		t.Fatalf("no cache: %v", err)
	}
	os.RemoveAll(dir)
	again, ok, err := nb.Import(t.Context(), c)
	if err != nil || !ok || len(again) != len(first) || again[0].Text != first[0].Text {
		t.Fatalf("cached import: %d vs %d utterances, %v %v", len(again), len(first), ok, err)
	}
	stdout.Reset()
	none, ok, err := nb.Import(t.Context(), corpus.MustLookup("friends"))
	if err != nil || ok || none != nil {
		t.Fatalf("absent corpus: %v %v %v", none, ok, err)
	}
	if !strings.Contains(stdout.String(), `note: shared corpus "friends-fangj-html" not found`) {
		t.Errorf("no note: %q", stdout)
	}
}

func TestCached(t *testing.T) {
	nb, _, _, stderr := testNotebook(t, false)
	calls := 0
	mk := func(path string) error {
		calls++
		if err := os.MkdirAll(path, 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(path, "x.txt"), []byte("x"), 0o644)
	}
	for range 2 {
		p, err := nb.Cached("pairs-abc", mk)
		if err != nil || filepath.Base(p) != "pairs-abc" {
			t.Fatalf("%q %v", p, err)
		}
		if _, err := os.Stat(filepath.Join(p, "x.txt")); err != nil {
			t.Fatal(err)
		}
	}
	if calls != 1 {
		t.Errorf("made %d times", calls)
	}
	// A failing make leaves nothing behind and reports.
	_, err := nb.Cached("broken", func(path string) error {
		os.WriteFile(path, []byte("half"), 0o644)
		return errors.New("disk full")
	})
	if err == nil || !strings.Contains(stderr.String(), "error: disk full") {
		t.Errorf("%v %q", err, stderr)
	}
	ents, _ := os.ReadDir(nb.Dir)
	for _, e := range ents {
		if e.Name() != "pairs-abc" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
	if _, err := nb.Cached("../escape", mk); err == nil {
		t.Error("path as name accepted")
	}
}
