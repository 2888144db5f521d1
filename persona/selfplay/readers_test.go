package selfplay

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/internal/fsx"
	"github.com/roleprint/roleprint/internal/fsx/fsxtest"
)

// TestReadersRefuseDevicesAndFIFOs gives the roles, questions and journal
// readers /dev/zero (which grew `selfplay --roles /dev/zero` to 8 GB) and a
// FIFO with no writer: each is an error naming the path, at once.
func TestReadersRefuseDevicesAndFIFOs(t *testing.T) {
	fsxtest.RefusesNonRegular(t, "roles.tsv", map[string]func(string) error{
		"LoadRoles":     func(p string) error { _, err := LoadRoles(p); return err },
		"LoadQuestions": func(p string) error { _, err := LoadQuestions(p); return err },
		"OpenJournal": func(p string) error {
			j, err := OpenJournal(p)
			if err == nil {
				j.Close()
			}
			return err
		},
	})
	big := filepath.Join(t.TempDir(), "roles.tsv")
	if err := os.WriteFile(big, []byte(strings.Repeat("a\tb\n", MaxListFile/4+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	var le *fsx.LimitError
	if _, err := LoadRoles(big); !errors.As(err, &le) || !strings.Contains(err.Error(), big) || !strings.Contains(err.Error(), "64 MiB") {
		t.Errorf("roles over the limit: %v", err)
	}
}
