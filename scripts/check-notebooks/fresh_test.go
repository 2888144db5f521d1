package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/kernel"
	"github.com/roleprint/roleprint/kernel/nbfresh"
)

// TestFresh checks --fresh on an executed notebook stamped with the code's
// hash (passes) and with another hash (fails as stale).
func TestFresh(t *testing.T) {
	b, err := os.ReadFile(fixtures + "good.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	pkgs, hash, err := nbfresh.Current(kernel.RepoRoot(), b)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, h string) string {
		out, err := nbfresh.SetStamp(b, nbfresh.Stamp{CodeHash: h, Packages: pkgs})
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var out, errb bytes.Buffer
	if code := run([]string{"--fresh", write("fresh.ipynb", hash)}, &out, &errb); code != 0 {
		t.Fatalf("fresh notebook: exit %d\n%s%s", code, out.String(), errb.String())
	}
	out.Reset()
	if code := run([]string{"--fresh", write("stale.ipynb", "sha256:0")}, &out, &errb); code != 1 || !strings.Contains(out.String(), "stale: ") {
		t.Fatalf("stale notebook: exit %d\n%s", code, out.String())
	}
}
