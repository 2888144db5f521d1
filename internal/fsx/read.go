package fsx

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// The project's one way to read an input file. A reader given a path by
// a user (a corpus, an audio clip, a roles table, a journal) opens it with
// OpenRegular or reads it with ReadFile, so every command refuses the same
// things with the same messages:
//
//   - anything but a regular file (a folder, /dev/zero, a FIFO, a
//     socket): a device never ends and a FIFO blocks until a writer comes,
//     so reading one is an unbounded read or a hang;
//   - a file larger than the reader's limit: a *LimitError naming the
//     file, its size and the limit.
//
// The type is checked with Stat before the file is opened (opening a FIFO
// for reading blocks) and again on the open file, so a path swapped in
// between is still refused.

// ErrNotRegular is wrapped by the error for a path that is not a regular
// file; test for it with errors.Is.
var ErrNotRegular = errors.New("not a regular file")

// LimitError is the error for a file larger than a reader accepts.
type LimitError struct {
	// Path is the file.
	Path string
	// Size is its size in bytes (at least Limit+1 when it grew while read).
	Size int64
	// Limit is the most the reader accepts.
	Limit int64
}

// Error implements error.
func (e *LimitError) Error() string {
	return fmt.Sprintf("read %s: file of %d bytes is larger than the limit of %s", e.Path, e.Size, FormatBytes(e.Limit))
}

// FormatBytes writes n as bytes with a binary unit ("1 GiB", "512 MiB",
// "100 bytes").
func FormatBytes(n int64) string {
	for _, u := range []struct {
		shift uint
		name  string
	}{{30, "GiB"}, {20, "MiB"}, {10, "KiB"}} {
		if n >= 1<<u.shift && n%(1<<u.shift) == 0 {
			return fmt.Sprintf("%d %s", n>>u.shift, u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// kind describes a file mode that is not a regular file.
func kind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

// notRegularError is the error for a path that is not a regular file.
type notRegularError struct{ path, kind string }

func (e *notRegularError) Error() string {
	return fmt.Sprintf("read %s: is %s, expected a regular file", e.path, e.kind)
}

// Is makes errors.Is(err, ErrNotRegular) true.
func (e *notRegularError) Is(target error) bool { return target == ErrNotRegular }

// notRegular is the error for a path of mode m.
func notRegular(path string, m os.FileMode) error { return &notRegularError{path, kind(m)} }

// OpenRegular opens path for reading when it is a regular file (symbolic
// links followed) of at most limit bytes (limit ≤ 0: no size limit), and
// returns it with its size. A missing file is an error wrapping
// os.ErrNotExist; anything else than a regular file is an error wrapping
// ErrNotRegular; a larger file is a *LimitError. Every error names path.
func OpenRegular(path string, limit int64) (*os.File, int64, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, 0, fmt.Errorf("read %s: %w", path, unwrapPath(err))
	}
	if !st.Mode().IsRegular() {
		return nil, 0, notRegular(path, st.Mode())
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, fmt.Errorf("read %s: %w", path, unwrapPath(err))
	}
	st, err = f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("read %s: %w", path, err)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, 0, notRegular(path, st.Mode())
	}
	if limit > 0 && st.Size() > limit {
		f.Close()
		return nil, 0, &LimitError{Path: path, Size: st.Size(), Limit: limit}
	}
	return f, st.Size(), nil
}

// ReadFile reads a regular file of at most limit bytes whole (see
// OpenRegular; limit must be positive). A file that grows past the limit
// while it is read is a *LimitError too.
func ReadFile(path string, limit int64) ([]byte, error) {
	if limit <= 0 {
		return nil, fmt.Errorf("read %s: no size limit given", path)
	}
	f, size, err := OpenRegular(path, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, 0, size+1)
	for {
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if int64(len(b)) > limit {
			return nil, &LimitError{Path: path, Size: int64(len(b)), Limit: limit}
		}
		if errors.Is(err, io.EOF) {
			return b, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

// unwrapPath drops the *os.PathError wrapper (its message repeats the
// path), keeping what it wraps for errors.Is.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// MaxInput is the size limit of an input file read by a reader with no
// more specific limit (1 GiB: far above any table, transcript or JSON
// file the commands take, far below what would exhaust memory).
const MaxInput = 1 << 30

// Open is OpenRegular with the MaxInput limit, for readers that stream a
// file (line by line, a CSV reader) instead of reading it whole.
func Open(path string) (*os.File, error) {
	f, _, err := OpenRegular(path, MaxInput)
	return f, err
}

// MaxModel is the size limit of a model file read whole (an ONNX graph,
// an n-gram metric, a training checkpoint): 8 GiB.
const MaxModel = 8 << 30
