package fsxtest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/roleprint/roleprint/internal/fsx"
)

// recorder is a testing.TB that records failures instead of stopping, so
// that the checks themselves can be checked.
type recorder struct {
	*testing.T
	failures []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}

// TestRefusesNonRegular checks that a reader built on fsx passes and that
// one which accepts anything (or refuses without naming the path) fails
// once per path.
func TestRefusesNonRegular(t *testing.T) {
	r := &recorder{T: t}
	RefusesNonRegular(r, "in.txt", map[string]func(string) error{
		"fsx.ReadFile": func(p string) error { _, err := fsx.ReadFile(p, 1<<20); return err },
	})
	if len(r.failures) != 0 {
		t.Errorf("fsx.ReadFile: %q, want no failures", r.failures)
	}
	r = &recorder{T: t}
	RefusesNonRegular(r, "in.txt", map[string]func(string) error{
		"accepts":   func(string) error { return nil },
		"anonymous": func(string) error { return fsx.ErrNotRegular },
	})
	if len(r.failures) != 4 {
		t.Errorf("accepting and anonymous readers: %q, want 4 failures", r.failures)
	}
}

// TestWithinReturnsTheError checks that Within passes on the read's error.
func TestWithinReturnsTheError(t *testing.T) {
	want := errors.New("boom")
	if err := Within(t, "read", func() error { return want }); err != want {
		t.Errorf("Within: %v, want %v", err, want)
	}
}
