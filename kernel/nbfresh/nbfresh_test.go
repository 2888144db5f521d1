package nbfresh

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/internal/fsx/fsxtest"
)

// writeModule writes a tiny module: package a imports b, c is unused.
func writeModule(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go tool")
	}
	root := t.TempDir()
	files := map[string]string{
		"go.mod":      "module example.com/m\n\ngo 1.22\n",
		"a/a.go":      "package a\n\nimport \"example.com/m/b\"\n\nfunc A() int { return b.B() }\n",
		"b/b.go":      "package b\n\nimport _ \"embed\"\n\n//go:embed table.tsv\nvar table string\n\nfunc B() int { return len(table) }\n",
		"b/table.tsv": "x\t1\n",
		"b/b_test.go": "package b\n",
		"c/c.go":      "package c\n",
	}
	for name, body := range files {
		fsxtest.WriteFile(t, root, name, body)
	}
	return root
}

func notebook(cells ...string) []byte {
	type cell struct {
		CellType string   `json:"cell_type"`
		Source   []string `json:"source"`
		Metadata struct{} `json:"metadata"`
	}
	nb := struct {
		Cells    []cell         `json:"cells"`
		Metadata map[string]any `json:"metadata"`
	}{Metadata: map[string]any{"roleprint": map[string]any{"min_images": 2}}}
	nb.Cells = append(nb.Cells, cell{CellType: "markdown", Source: []string{"uses \"example.com/m/c\" in prose only"}})
	for _, c := range cells {
		nb.Cells = append(nb.Cells, cell{CellType: "code", Source: strings.SplitAfter(c, "\n")})
	}
	b, _ := json.MarshalIndent(nb, "", " ")
	return b
}

func TestHashFollowsTheCodeTheNotebookUses(t *testing.T) {
	root := writeModule(t)
	nb := notebook("%%\nimport (\n\t\"fmt\"\n\t\"example.com/m/a\"\n)\n", "fmt.Println(a.A())")
	pkgs, h0, err := Current(root, nb)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(pkgs, ",") != "example.com/m/a" {
		t.Fatalf("imports %v (markdown cells and non-module imports must not count)", pkgs)
	}
	rehash := func() string {
		_, h, err := Current(root, nb)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	edit := func(name, body string) {
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edit("b/b_test.go", "package b\n\n// a test change\n")
	edit("c/c.go", "package c\n\nfunc C() {}\n")
	if h := rehash(); h != h0 {
		t.Error("a test file or an unused package changed the hash")
	}
	edit("b/table.tsv", "x\t2\n")
	h1 := rehash()
	if h1 == h0 {
		t.Error("an embedded file of a dependency did not change the hash")
	}
	edit("b/b.go", "package b\n\nimport _ \"embed\"\n\n//go:embed table.tsv\nvar table string\n\nfunc B() int { return 2 * len(table) }\n")
	if h := rehash(); h == h1 {
		t.Error("a dependency's source did not change the hash")
	}
	if _, err := Hash(root, []string{"example.com/m/nope"}); err == nil {
		t.Error("unknown package accepted")
	}
}

func TestStampRoundTrip(t *testing.T) {
	root := writeModule(t)
	dir := t.TempDir()
	nb := notebook("import \"example.com/m/a\"\n")
	dst := filepath.Join(dir, "n.ipynb")
	executed := filepath.Join(dir, "executed.ipynb")
	if err := os.WriteFile(executed, nb, 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := CheckFile(root, executed)
	if err != nil {
		t.Fatal(err)
	}
	if st.Fresh() || st.Stored != nil || !strings.Contains(st.String(), "no code hash") {
		t.Errorf("unstamped notebook: %v", st)
	}
	if err := Save(executed, dst, Stamp{CodeHash: st.Current, Packages: st.Packages, Quick: true},
		Replacement{Old: "example.com/m/c", New: "$PKG_C"}); err != nil {
		t.Fatal(err)
	}
	st, err = CheckFile(root, dst)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Fresh() || !st.Stored.Quick {
		t.Errorf("saved notebook: %v", st)
	}
	b, _ := os.ReadFile(dst)
	if !bytes.Contains(b, []byte(`"min_images": 2`)) {
		t.Error("other roleprint metadata lost")
	}
	if bytes.Contains(b, []byte("example.com/m/c")) || !bytes.Contains(b, []byte(`\"$PKG_C\" in prose`)) {
		t.Errorf("replacement not applied:\n%s", b)
	}
	// The code changes: the saved notebook is stale, and says how to refresh.
	if err := os.WriteFile(filepath.Join(root, "a", "a.go"), []byte("package a\n\nfunc A() int { return 3 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err = CheckFile(root, dst)
	if err != nil {
		t.Fatal(err)
	}
	if st.Fresh() || !strings.Contains(st.String(), "roleprint notebook run --quick --save n") {
		t.Errorf("stale notebook: %v", st)
	}
	if err := Save(filepath.Join(dir, "missing.ipynb"), dst, Stamp{}); err == nil {
		t.Error("missing executed notebook accepted")
	}
	if _, err := SetStamp([]byte(`{"metadata": {}}`), Stamp{}); err == nil {
		t.Error("JSON without cells accepted")
	}
}

// TestEncodeKeepsJupyterFormatting checks that re-encoding a notebook as
// nbconvert wrote it (real executed notebooks of nbcheck's tests) gives
// back its bytes, so that a saved notebook's diff is its outputs and stamp
// only.
func TestEncodeKeepsJupyterFormatting(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("..", "nbcheck", "testdata", "*.ipynb"))
	if len(paths) == 0 {
		t.Skip("no notebooks")
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		out, err := encode(v)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(bytes.TrimSpace(out), bytes.TrimSpace(b)) {
			t.Errorf("%s: re-encoding changes the file", p)
		}
	}
}
