package selfplay

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

// TestReadersRefuseDevicesAndFIFOs gives the roles, questions and journal
// readers /dev/zero (which grew `selfplay --roles /dev/zero` to 8 GB) and a
// FIFO with no writer: each is an error naming the path, at once.
func TestReadersRefuseDevicesAndFIFOs(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "roles.tsv")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	readers := map[string]func(string) error{
		"LoadRoles":     func(p string) error { _, err := LoadRoles(p); return err },
		"LoadQuestions": func(p string) error { _, err := LoadQuestions(p); return err },
		"OpenJournal": func(p string) error {
			j, err := OpenJournal(p)
			if err == nil {
				j.Close()
			}
			return err
		},
	}
	for name, read := range readers {
		for _, p := range []string{"/dev/zero", fifo} {
			done := make(chan error, 1)
			go func() { done <- read(p) }()
			select {
			case err := <-done:
				if !errors.Is(err, fsx.ErrNotRegular) || !strings.Contains(err.Error(), p) {
					t.Errorf("%s(%s): %v, want an error naming it as not a regular file", name, p, err)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("%s(%s): still reading after 5 s", name, p)
			}
		}
	}
	big := filepath.Join(t.TempDir(), "roles.tsv")
	if err := os.WriteFile(big, []byte(strings.Repeat("a\tb\n", MaxListFile/4+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	var le *fsx.LimitError
	if _, err := LoadRoles(big); !errors.As(err, &le) || !strings.Contains(err.Error(), big) || !strings.Contains(err.Error(), "64 MiB") {
		t.Errorf("roles over the limit: %v", err)
	}
}
