package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/kernel"
	"github.com/roleprint/roleprint/kernel/nbfresh"
)

// TestNotebookCheckFresh checks `notebook check --fresh` on an executed
// notebook stamped with the code's hash (fresh) and on one with another
// hash (stale, exit 1, a problem naming the refresh command).
func TestNotebookCheckFresh(t *testing.T) {
	b, err := os.ReadFile(nbFixtures + "good.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	pkgs, hash, err := nbfresh.Current(kernel.RepoRoot(), b)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, h string) string {
		out, err := nbfresh.SetStamp(b, nbfresh.Stamp{CodeHash: h, Packages: pkgs, Quick: true})
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fresh, stale := write("fresh.ipynb", hash), write("stale.ipynb", "sha256:00")
	if code, out, errs := runNotebookCLI(t, "notebook", "check", "--fresh", fresh); code != 0 {
		t.Fatalf("fresh: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ := runNotebookCLI(t, "notebook", "check", "--fresh", "--json", fresh, stale)
	if code != 1 {
		t.Fatalf("stale: exit %d", code)
	}
	var v struct {
		OK        bool `json:"ok"`
		Notebooks []struct {
			Fresh   bool   `json:"fresh"`
			Problem string `json:"problem"`
		} `json:"notebooks"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || v.OK || len(v.Notebooks) != 2 || !v.Notebooks[0].Fresh || v.Notebooks[1].Fresh || v.Notebooks[1].Problem == "" {
		t.Fatalf("json %v: %s", err, out)
	}
}

// TestCheckOutRootRefusesResultsOfOtherCode checks the output root's code
// record: an empty root is stamped and used; a root stamped with the code
// now is used; one stamped with other code, or holding results with no
// stamp, is refused with --save (naming the root and how to clear it) and
// only noted without, its stamp left alone.
func TestCheckOutRootRefusesResultsOfOtherCode(t *testing.T) {
	cur := outRootStamp{CodeHash: "sha256:" + strings.Repeat("a", 64), Packages: []string{"p"}}
	old := outRootStamp{CodeHash: "sha256:" + strings.Repeat("b", 64)}
	stampOf := func(root string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(root, outRootStampName))
		if err != nil {
			return ""
		}
		var s outRootStamp
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		return s.CodeHash
	}
	stamp := func(root string, s outRootStamp) {
		t.Helper()
		b, _ := json.Marshal(s)
		if err := os.WriteFile(filepath.Join(root, outRootStampName), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cache := func(root string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(root, "table2", "cache"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var log bytes.Buffer
	e := &env{stdout: io.Discard, stderr: &log}

	fresh := filepath.Join(t.TempDir(), "new")
	if err := checkOutRoot(e, fresh, cur, true); err != nil || stampOf(fresh) != cur.CodeHash {
		t.Fatalf("a new root: %v, stamp %q", err, stampOf(fresh))
	}
	cache(fresh)
	if err := checkOutRoot(e, fresh, cur, true); err != nil {
		t.Errorf("a root of this code: %v", err)
	}

	other := t.TempDir()
	cache(other)
	stamp(other, old)
	err := checkOutRoot(e, other, cur, true)
	if err == nil || !strings.Contains(err.Error(), "rm -r "+other) || !strings.Contains(err.Error(), "sha256:bbbbbbbbbbb") {
		t.Errorf("results of other code with --save: %v", err)
	}
	if err := checkOutRoot(e, other, cur, false); err != nil || !strings.Contains(log.String(), other) || stampOf(other) != old.CodeHash {
		t.Errorf("without --save: %v, log %q, stamp %q (want the old one kept)", err, log.String(), stampOf(other))
	}

	unknown := t.TempDir()
	cache(unknown)
	if err := checkOutRoot(e, unknown, cur, true); err == nil || !strings.Contains(err.Error(), "no record") {
		t.Errorf("results without a record, --save: %v", err)
	}

	// Only executed notebooks (no results) under an old stamp: restamped.
	executedOnly := t.TempDir()
	if err := os.MkdirAll(filepath.Join(executedOnly, "executed"), 0o755); err != nil {
		t.Fatal(err)
	}
	stamp(executedOnly, old)
	if err := checkOutRoot(e, executedOnly, cur, true); err != nil || stampOf(executedOnly) != cur.CodeHash {
		t.Errorf("a root with executed/ only: %v, stamp %q", err, stampOf(executedOnly))
	}
}

// TestNotebookRunSaveRefusesAStaleRoot runs `notebook run --save` on an
// output root holding results of other code: it fails before executing
// anything (no Jupyter needed), naming the root.
func TestNotebookRunSaveRefusesAStaleRoot(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "02-baselines", "cache"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runNotebookCLI(t, "notebook", "run", "--save", "--out", root, "01-corpora-and-pairs")
	if code != 1 || !strings.Contains(errs, root) || !strings.Contains(errs, "no record") {
		t.Fatalf("exit %d, stderr %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(root, "executed")); !os.IsNotExist(err) {
		t.Errorf("the refused run created %s/executed (stat: %v)", root, err)
	}
}

// TestNotebooksCodeStampCoversEveryNotebook checks that the output root's
// record hashes the packages of all notebooks together.
func TestNotebooksCodeStampCoversEveryNotebook(t *testing.T) {
	s, err := notebooksCodeStamp()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"github.com/roleprint/roleprint/kernel", "github.com/roleprint/roleprint/persona/judge", "github.com/roleprint/roleprint/sv/roleplay"} {
		if !slices.Contains(s.Packages, p) {
			t.Errorf("packages %v lack %s", s.Packages, p)
		}
	}
	if !strings.HasPrefix(s.CodeHash, "sha256:") {
		t.Errorf("hash %q", s.CodeHash)
	}
}
