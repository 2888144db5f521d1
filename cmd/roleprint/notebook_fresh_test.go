package main

import (
	"encoding/json"
	"os"
	"path/filepath"
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
