package sv

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// closingEncoder is an Encoder whose Close fails with err (nil: succeeds)
// and counts its calls.
type closingEncoder struct {
	err    error
	closed *int
}

func (e closingEncoder) Name() string { return "closing" }
func (e closingEncoder) Dim() int     { return 1 }
func (e closingEncoder) Encode(context.Context, []string, Progress) ([][]float32, error) {
	return nil, nil
}
func (e closingEncoder) Close() error { *e.closed++; return e.err }

// TestCloseAllClosesEveryPart checks that CloseAll closes every Closer part
// even after one fails, and names the combination and every error.
func TestCloseAllClosesEveryPart(t *testing.T) {
	n := 0
	parts := []Encoder{closingEncoder{errors.New("first broke"), &n}, closingEncoder{nil, &n}, closingEncoder{errors.New("third broke"), &n}}
	err := CloseAll("mix", parts)
	if n != 3 {
		t.Errorf("%d of 3 parts closed", n)
	}
	if err == nil || !strings.Contains(err.Error(), "mix: close: first broke; third broke") {
		t.Errorf("err %v", err)
	}
	if err := CloseAll("mix", parts[1:2]); err != nil {
		t.Errorf("one good part: %v", err)
	}
}
