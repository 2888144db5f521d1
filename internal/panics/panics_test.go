package panics

import (
	"errors"
	"io"
	"testing"
)

// TestCatch checks the four outcomes: no error, f's error, a panicking
// error kept as is, and a panicking string turned into an error.
func TestCatch(t *testing.T) {
	if err := Catch(func() error { return nil }); err != nil {
		t.Errorf("no error: %v", err)
	}
	if err := Catch(func() error { return io.EOF }); err != io.EOF {
		t.Errorf("returned error: %v, want io.EOF", err)
	}
	if err := Catch(func() error { panic(io.ErrUnexpectedEOF) }); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("panicking error: %v, want io.ErrUnexpectedEOF", err)
	}
	if err := Catch(func() error { panic("no op DotGeneral") }); err == nil || err.Error() != "no op DotGeneral" {
		t.Errorf("panicking string: %v", err)
	}
}
