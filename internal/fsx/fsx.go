package fsx

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// WriteFile writes data to path atomically with permissions perm (see
// Write). An existing file at path is replaced only if every step
// succeeds.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	return Write(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Write creates a temporary file in path's folder, lets fn write the
// content to it (buffered), syncs it, sets permissions perm (os.CreateTemp
// makes 0600 files) and renames it to path. On any error, including one
// returned by fn, the temporary file is removed, an existing file at path
// is left untouched, and the error names path.
func Write(path string, perm os.FileMode, fn func(w io.Writer) error) error {
	return write(path, perm, func(f *os.File) error {
		bw := bufio.NewWriter(f)
		if err := fn(bw); err != nil {
			return err
		}
		return bw.Flush()
	})
}

// WriteSeeker is Write for encoders that seek back to patch a header
// (WAV): fn gets the temporary file itself, unbuffered.
func WriteSeeker(path string, perm os.FileMode, fn func(w io.WriteSeeker) error) error {
	return write(path, perm, func(f *os.File) error { return fn(f) })
}

// write is Write and WriteSeeker: temporary file, fn, sync, chmod, rename.
func write(path string, perm os.FileMode, fn func(f *os.File) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	name := tmp.Name()
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(name)
			err = fmt.Errorf("write %s: %w", path, err)
		}
	}()
	if err = fn(tmp); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Chmod(name, perm); err != nil {
		return err
	}
	return os.Rename(name, path)
}
