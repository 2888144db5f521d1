package nbfresh

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestRepositoryNotebooksAreFresh fails when a committed notebook's
// outputs are older than the library code it shows: its stored code hash
// differs from the hash of the packages it imports now, or it has none.
// Refresh with `roleprint notebook run --quick --save` (needs Jupyter and
// GoNB); this test needs only the go tool.
func TestRepositoryNotebooksAreFresh(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go tool")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	paths, _ := filepath.Glob(filepath.Join(root, "notebooks", "[0-9]*.ipynb"))
	if len(paths) == 0 {
		t.Skip("no notebooks")
	}
	if os.Getenv("ROLEPRINT_SKIP_NOTEBOOK_FRESHNESS") == "1" {
		t.Skip("ROLEPRINT_SKIP_NOTEBOOK_FRESHNESS=1")
	}
	for _, p := range paths {
		st, err := CheckFile(root, p)
		if err != nil {
			t.Fatal(err)
		}
		if !st.Fresh() {
			t.Error(st)
		}
	}
}
