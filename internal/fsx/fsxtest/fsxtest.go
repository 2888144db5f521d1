// Package fsxtest is test support for readers built on fsx: the check that
// a reader refuses what is not a regular file (an endless device, a FIFO
// with no writer) at once, with an error naming the path; and WriteFile,
// the fixture writer tests share.
package fsxtest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/roleprint/roleprint/internal/fsx"
)

// Wait is how long Within lets a read run before it counts as blocked: a
// reader that refuses a device or FIFO returns in microseconds, one that
// opens a FIFO with no writer never returns.
const Wait = 5 * time.Second

// WriteFile writes content to rel under dir, making the folders on the
// way, and returns the file's path; t fails at once on an error.
func WriteFile(t testing.TB, dir, rel, content string) string {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// FIFO makes a named pipe called name (the file name a reader expects,
// "roles.tsv") in a fresh temporary folder and returns its path.
func FIFO(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Within runs read in a goroutine and returns its error; when read has not
// returned after Wait, t fails at once naming what (a reader blocked on a
// FIFO would otherwise hang the test binary).
func Within(t testing.TB, what string, read func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- read() }()
	select {
	case err := <-done:
		return err
	case <-time.After(Wait):
		t.Fatalf("%s: still reading after %v", what, Wait)
		return nil
	}
}

// RefusesNonRegular gives each reader /dev/zero and a FIFO with no writer
// called name, and fails t unless each call returns within Wait an error
// that is fsx.ErrNotRegular and names the path. The readers' keys name
// them in failures.
func RefusesNonRegular(t testing.TB, name string, readers map[string]func(path string) error) {
	t.Helper()
	fifo := FIFO(t, name)
	for reader, read := range readers {
		for _, p := range []string{"/dev/zero", fifo} {
			what := reader + "(" + p + ")"
			err := Within(t, what, func() error { return read(p) })
			if !errors.Is(err, fsx.ErrNotRegular) || !strings.Contains(err.Error(), p) {
				t.Errorf("%s: %v, want an error naming it as not a regular file", what, err)
			}
		}
	}
}
