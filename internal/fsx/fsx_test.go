package fsx

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFileCreatesWithPerm(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.txt")
	if err := WriteFile(p, []byte("hello"), 0o640); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil || string(b) != "hello" {
		t.Fatalf("content %q, err %v", b, err)
	}
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Mode().Perm(); got != 0o640 {
		t.Errorf("perm %o, want 640", got)
	}
	assertOnly(t, dir, "out.txt")
}

func TestWriteReplacesExisting(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(p, []byte("old content"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(p, 0o644, func(w io.Writer) error {
		_, err := io.WriteString(w, "new")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	if string(b) != "new" {
		t.Fatalf("content %q, want new", b)
	}
	st, _ := os.Stat(p)
	if got := st.Mode().Perm(); got != 0o644 {
		t.Errorf("perm %o, want 644", got)
	}
	assertOnly(t, dir, "out.txt")
}

func TestWriteFailingFnKeepsOldFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(p, []byte("old content"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(p, 0o644, func(w io.Writer) error {
		io.WriteString(w, "half")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err %v, want boom", err)
	}
	if !strings.Contains(err.Error(), p) {
		t.Errorf("error %q does not name %s", err, p)
	}
	b, _ := os.ReadFile(p)
	if string(b) != "old content" {
		t.Fatalf("content %q, want old content", b)
	}
	assertOnly(t, dir, "out.txt")
}

func TestWriteMissingFolder(t *testing.T) {
	p := filepath.Join(t.TempDir(), "no", "such", "out.txt")
	err := WriteFile(p, []byte("x"), 0o644)
	if err == nil || !strings.Contains(err.Error(), p) {
		t.Fatalf("err %v, want an error naming %s", err, p)
	}
}

// assertOnly fails unless dir holds exactly the named entries (no temp
// files left behind).
func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range es {
		got = append(got, e.Name())
	}
	if strings.Join(got, ",") != strings.Join(names, ",") {
		t.Errorf("folder holds %v, want %v", got, names)
	}
}

func TestWriteSeekerPatchesHeader(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.bin")
	err := WriteSeeker(p, 0o644, func(w io.WriteSeeker) error {
		if _, err := io.WriteString(w, "xxxx-body"); err != nil {
			return err
		}
		if _, err := w.Seek(0, io.SeekStart); err != nil {
			return err
		}
		_, err := io.WriteString(w, "HEAD")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	if string(b) != "HEAD-body" {
		t.Fatalf("content %q, want HEAD-body", b)
	}
	assertOnly(t, dir, "out.bin")
}

// TestPendingCommitAndAbort checks the open-writer form: nothing at the
// path until Commit; Abort (also after a failed write) leaves the old
// file and no temporary; Commit after Abort does nothing.
func TestPendingCommitAndAbort(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rows.bin")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := Create(path, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.File.WriteString("new"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("before Commit the path holds %q, want the old file", b)
	}
	p.Abort()
	if err := p.Commit(); err != nil {
		t.Errorf("Commit after Abort: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("after Abort the path holds %q, want the old file", b)
	}
	assertOnly(t, dir, "rows.bin")

	p, err = Create(path, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Abort()
	if _, err := p.File.WriteString("new"); err != nil {
		t.Fatal(err)
	}
	if err := p.Commit(); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if b, _ := os.ReadFile(path); string(b) != "new" || err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("after Commit: %q, mode %v, %v; want \"new\" with 0644", b, st.Mode().Perm(), err)
	}
	assertOnly(t, dir, "rows.bin")
	if _, err := Create(filepath.Join(dir, "no", "x"), 0o644); err == nil || !strings.Contains(err.Error(), filepath.Join("no", "x")) {
		t.Errorf("Create in a missing folder: %v, want an error naming the path", err)
	}
}

// WriteFileAll creates the missing folder and leaves a readable 0644 file with the new content (not
// CreateTemp's 0600) and no temporary file beside it.
func TestWriteFileAllModeAndContent(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "out.json")
	for _, body := range []string{"first\n", "second\n"} {
		if err := WriteFileAll(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(p)
		if err != nil || string(b) != body {
			t.Fatalf("content %q, %v; want %q", b, err, body)
		}
	}
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o644 {
		t.Fatalf("mode %v, want 0644", st.Mode().Perm())
	}
	if ents, _ := os.ReadDir(filepath.Dir(p)); len(ents) != 1 {
		t.Fatalf("folder holds %d entries, want just out.json", len(ents))
	}
}
