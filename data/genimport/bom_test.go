package genimport

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// A RoleBench JSONL saved with a UTF-8 BOM (and CR line ends, as an old
// editor writes them) reads like the plain file: the generated formats go
// through the importers' reading layer.
func TestReadRoleBenchBOMAndCR(t *testing.T) {
	src := "testdata/rolebench/rolebench-eng/instruction-generalization/role_specific/test.jsonl"
	plain, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "rolebench-eng", "instruction-generalization", "role_specific")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	odd := "\ufeff" + strings.ReplaceAll(strings.ReplaceAll(string(plain), "\r\n", "\n"), "\n", "\r")
	path := filepath.Join(dir, "test.jsonl")
	if err := os.WriteFile(path, []byte(odd), 0o644); err != nil {
		t.Fatal(err)
	}
	want, _, err := ReadRoleBench([]string{src}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := ReadRoleBench([]string{path}, Options{})
	if err != nil {
		t.Fatalf("BOM + CR file: %v", err)
	}
	if !reflect.DeepEqual(rowsOf(got, nil), rowsOf(want, nil)) {
		t.Fatalf("rows %q, want %q", rowsOf(got, nil), rowsOf(want, nil))
	}
}
