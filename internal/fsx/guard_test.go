package fsx

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestCheckOutputs covers each refusal of the guard and what it allows.
func TestCheckOutputs(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.parquet")
	os.WriteFile(in, []byte("data"), 0o644)
	sym := filepath.Join(dir, "sym.parquet")
	os.Symlink(in, sym)
	hard := filepath.Join(dir, "hard.parquet")
	os.Link(in, hard)
	symDir := filepath.Join(t.TempDir(), "linkdir")
	os.Symlink(dir, symDir)
	sub := filepath.Join(dir, "sub")
	os.MkdirAll(sub, 0o755)
	table := filepath.Join(sub, "table2.parquet")
	os.WriteFile(table, []byte("t"), 0o644)
	fig := filepath.Join(sub, "figures", "f.png")
	os.MkdirAll(filepath.Dir(fig), 0o755)
	os.WriteFile(fig, []byte("png"), 0o644)
	writes := []string{"table2.*", "figures/"}
	cases := []struct {
		name   string
		inputs []string
		outs   []Output
		want   string // "" when allowed
	}{
		{"same path", []string{in}, []Output{{Flag: "--out", Path: in}}, "would overwrite the input " + in},
		{"same path, uncleaned", []string{in}, []Output{{Flag: "--out", Path: dir + "/./in.parquet"}}, "would overwrite the input"},
		{"relative and absolute", []string{in}, []Output{{Flag: "--out", Path: relTo(t, in)}}, "would overwrite the input"},
		{"symbolic link", []string{in}, []Output{{Flag: "--out", Path: sym}}, "would overwrite the input " + in},
		{"input through a symbolic link", []string{sym}, []Output{{Flag: "--out", Path: in}}, "would overwrite the input " + sym},
		{"hard link", []string{in}, []Output{{Flag: "--out", Path: hard}}, "would overwrite the input " + in},
		{"folder through a linked folder", []string{in}, []Output{{Flag: "--out", Path: filepath.Join(symDir, "in.parquet")}}, "would overwrite"},
		{"folder given as a file", nil, []Output{{Flag: "--out", Path: sub}}, "is a folder: give a file path"},
		{"file given as a folder", nil, []Output{{Flag: "--out", Path: in, Dir: true}}, "is a file, not a folder"},
		{"input where a folder output writes", []string{table}, []Output{{Flag: "--out", Path: sub, Dir: true, Writes: writes}},
			"writes table2.* into, which would overwrite the input " + table},
		{"input in a written subfolder", []string{fig}, []Output{{Flag: "--out", Path: sub, Dir: true, Writes: writes}}, "would overwrite the input " + fig},
		{"two outputs, one file", nil, []Output{{Flag: "--latex", Path: filepath.Join(dir, "x.tex")}, {Flag: "--out", Path: filepath.Join(dir, "x.tex")}},
			"is the same file as the output"},
		{"folder output is an input folder", []string{sub}, []Output{{Flag: "--out", Path: sub + "/", Dir: true, Writes: writes}}, "is the input folder " + sub},
		{"other file", []string{in}, []Output{{Flag: "--out", Path: filepath.Join(dir, "new.parquet")}}, ""},
		{"input in a folder output, not written", []string{in}, []Output{{Flag: "--out", Path: dir, Dir: true, Writes: writes}}, ""},
		{"input folder holding the output", []string{dir}, []Output{{Flag: "--out", Path: filepath.Join(dir, "new.parquet")}}, ""},
		{"missing input", []string{filepath.Join(dir, "absent")}, []Output{{Flag: "--out", Path: filepath.Join(dir, "absent")}}, ""},
	}
	for _, c := range cases {
		err := CheckOutputs(c.inputs, c.outs...)
		if c.want == "" {
			if err != nil {
				t.Errorf("%s: %v, want no error", c.name, err)
			}
			continue
		}
		var ow *OverwriteError
		if !errors.As(err, &ow) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.outs[len(c.outs)-1].Path) {
			t.Errorf("%s: %v, want an *OverwriteError naming the output and %q", c.name, err, c.want)
		}
	}
}

func relTo(t *testing.T, p string) string {
	wd, _ := os.Getwd()
	r, err := filepath.Rel(wd, p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestProtect: while protected, every atomic write refuses the input (by
// path and through a link) and a folder; after release it is allowed.
func TestProtect(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.txt")
	os.WriteFile(in, []byte("input"), 0o644)
	sym := filepath.Join(dir, "sym.txt")
	os.Symlink(in, sym)
	release := Protect(in, dir, "")
	for _, p := range []string{in, sym} {
		if err := WriteFile(p, []byte("x"), 0o644); err == nil || !strings.Contains(err.Error(), "would overwrite the input "+in) {
			t.Errorf("write %s while protected: %v", p, err)
		}
	}
	if err := WriteFile(filepath.Join(dir, "other.txt"), []byte("x"), 0o644); err != nil {
		t.Errorf("write into a protected input's folder: %v", err)
	}
	if err := WriteFile(dir, []byte("x"), 0o644); err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("write over a folder: %v", err)
	}
	if b, _ := os.ReadFile(in); string(b) != "input" {
		t.Fatalf("protected input changed: %q", b)
	}
	release()
	if err := WriteFile(in, []byte("x"), 0o644); err != nil {
		t.Errorf("write after release: %v", err)
	}
}

// TestCheckOwned: a missing or empty file is ours to create; one whose
// first line the predicate accepts is ours; anything else is refused
// and left as it was.
func TestCheckOwned(t *testing.T) {
	dir := t.TempDir()
	ours := func(l []byte) bool { return string(l) == "HEADER" }
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(s), 0o644)
		return p
	}
	for _, c := range []struct {
		path string
		ok   bool
	}{
		{filepath.Join(dir, "absent"), true},
		{write("empty", ""), true},
		{write("ours", "HEADER\nentry\n"), true},
		{write("ours-crlf", "HEADER\r\nentry\n"), true},
		{write("header-only", "HEADER"), true},
		{write("notes", "my notes\nmore\n"), false},
		{write("blank-first", "\nHEADER\n"), false},
		{write("long", strings.Repeat("x", 3<<20)), false},
		{dir, false},
	} {
		err := CheckOwned("--journal", c.path, "test journal", ours)
		if c.ok != (err == nil) {
			t.Errorf("%s: %v, want ok=%v", filepath.Base(c.path), err, c.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "--journal "+c.path) {
			t.Errorf("%s: %v does not name the flag and the path", c.path, err)
		}
	}
}

// TestLock: a held lock is refused naming its pid; a stale one is taken
// over with a note; a lock without a pid is refused; release removes it.
func TestLock(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.lock")
	release, err := Lock(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); strings.TrimSpace(string(b)) != strconv.Itoa(os.Getpid()) {
		t.Errorf("lock holds %q, want this pid", b)
	}
	if _, err := Lock(path, nil); err == nil || !strings.Contains(err.Error(), "pid "+strconv.Itoa(os.Getpid())) {
		t.Errorf("second Lock: %v", err)
	}
	release()
	if _, err := os.Stat(path); err == nil {
		t.Error("release left the lock")
	}
	p := exec.Command(os.Args[0], "-test.run=^$")
	if err := p.Run(); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, []byte(strconv.Itoa(p.Process.Pid)+"\n"), 0o644)
	var notes []string
	release, err = Lock(path, func(f string, a ...any) { notes = append(notes, f) })
	if err != nil || len(notes) != 1 || !strings.Contains(notes[0], "stale lock") {
		t.Fatalf("stale lock: %v, notes %q", err, notes)
	}
	release()
	os.WriteFile(path, []byte("not a pid"), 0o644)
	if _, err := Lock(path, nil); err == nil || !strings.Contains(err.Error(), "holds no process id") {
		t.Errorf("lock without a pid: %v", err)
	}
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		t.Errorf("temporary files left: %v", es)
	}
}
