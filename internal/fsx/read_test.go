package fsx

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadRefusesWhatIsNotAFile checks the refusals every reader shares:
// a folder, /dev/zero (endless), a FIFO (opening it blocks until a writer
// comes: the call must return at once) and a missing file, each with an
// error naming the path.
func TestReadRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{dir: "a folder", "/dev/zero": "a character device", fifo: "a named pipe"} {
		done := make(chan error, 1)
		go func() {
			_, err := ReadFile(path, 1<<20)
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v, want an error naming it as %s", path, err, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: ReadFile still blocked after 5 s", path)
		}
	}
	missing := filepath.Join(dir, "none.txt")
	if _, err := ReadFile(missing, 10); !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: %v", err)
	}
}

// TestReadLimit checks the size limit: a file at the limit is read whole,
// one byte more is a *LimitError with the file, its size and the limit.
func TestReadLimit(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.txt")
	if err := os.WriteFile(p, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(p, 10); err != nil || string(b) != "0123456789" {
		t.Fatalf("at the limit: %q, %v", b, err)
	}
	_, err := ReadFile(p, 9)
	var le *LimitError
	if !errors.As(err, &le) || le.Size != 10 || le.Limit != 9 || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "9 bytes") {
		t.Errorf("over the limit: %v", err)
	}
	f, size, err := OpenRegular(p, 0)
	if err != nil || size != 10 {
		t.Fatalf("OpenRegular without a limit: %d, %v", size, err)
	}
	f.Close()
	if got := FormatBytes(64 << 20); got != "64 MiB" {
		t.Errorf("FormatBytes(64 MiB) = %q", got)
	}
}
