package table2

import (
	"strings"
	"testing"

	"github.com/roleprint/roleprint/internal/fsx/fsxtest"
)

// TestSourceHashFollowsTheModulesCode checks the calibration key's source
// version: the same sources give the same hash; a change to a non-test Go
// file changes it; tests, testdata, hidden folders and nested modules do
// not; a folder of another module is refused.
func TestSourceHashFollowsTheModulesCode(t *testing.T) {
	root := t.TempDir()
	write := func(rel, content string) { fsxtest.WriteFile(t, root, rel, content) }
	write("go.mod", "// a comment first\nmodule "+modulePath+"\n\ngo 1.26\n")
	write("sv/a.go", "package sv\n")
	write("sv/a_test.go", "package sv\n")
	h0, err := sourceHash(root)
	if err != nil {
		t.Fatal(err)
	}
	if h, _ := sourceHash(root); h != h0 {
		t.Fatalf("hash not stable: %s then %s", h0, h)
	}
	write("sv/a_test.go", "package sv // edited\n")
	write("sv/testdata/x.go", "package x\n")
	write(".git/x.go", "package x\n")
	write("tools/go.mod", "module other\n")
	write("tools/t.go", "package tools\n")
	if h, _ := sourceHash(root); h != h0 {
		t.Errorf("a test, testdata, a hidden folder or a nested module changed the hash")
	}
	write("sv/a.go", "package sv // edited\n")
	if h, _ := sourceHash(root); h == h0 {
		t.Errorf("an edited Go file kept the hash")
	}
	write("go.mod", "module other\n")
	if _, err := sourceHash(root); err == nil {
		t.Error("another module's folder: no error")
	}
	// This test binary was compiled from this checkout (go test stamps no
	// VCS revision): its version names the sources, not the executable,
	// so every program built from them (each GoNB cell) shares one
	// calibration.
	if v := programVersion(); !strings.Contains(v, " src:") {
		t.Errorf("program version %q of a test binary built from a checkout: want the source hash", v)
	}
}
