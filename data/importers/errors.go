package importers

import "fmt"

// Pos locates input: a file and a 1-based physical line (for a CSV row,
// the line where the row starts; messages name the data row too).
type Pos struct {
	// File is the path as given to Import (or found walking a folder).
	File string
	// Line is the 1-based physical line; 0 when unknown.
	Line int
}

// String renders "file:line", or "file" when the line is unknown.
func (p Pos) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return p.File
}

// InputError is malformed input: where it is and what was expected. Every
// importer returns one for bad files, so callers can show the place or
// test for it with errors.As.
type InputError struct {
	Pos
	// Msg says what is wrong and what was expected.
	Msg string
	// Err is the class of the problem when it matters to callers
	// (ErrNotText), else nil; errors.Is sees it.
	Err error
}

// Unwrap returns e.Err.
func (e *InputError) Unwrap() error { return e.Err }

// Error renders "file:line: message".
func (e *InputError) Error() string { return e.Pos.String() + ": " + e.Msg }

// Errorf returns an *InputError at pos.
func Errorf(pos Pos, format string, args ...any) error {
	return &InputError{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}
