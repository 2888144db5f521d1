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

// write is Write and WriteSeeker: a Pending file, fn, Commit.
func write(path string, perm os.FileMode, fn func(f *os.File) error) error {
	p, err := Create(path, perm)
	if err != nil {
		return err
	}
	if err := fn(p.File); err != nil {
		p.Abort()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return p.Commit()
}

// Pending is a file being written atomically, for writers that stay open
// across calls (data.ParquetWriter): write to File, then Commit to move it
// into place, or Abort to discard it.
type Pending struct {
	// File is the temporary file in path's folder.
	File *os.File
	path string
	perm os.FileMode
	done bool
}

// Create starts a Pending file for path with permissions perm. The
// folder must exist. It refuses a path that is a folder or one of the
// running command's inputs (Protect) with an *OverwriteError.
func Create(path string, perm os.FileMode) (*Pending, error) {
	if err := checkProtected(path); err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	return &Pending{File: tmp, path: path, perm: perm}, nil
}

// Commit syncs and closes the file, sets its permissions (os.CreateTemp
// makes 0600 files) and renames it to the path; on any error the temporary
// file is removed, an existing file at the path is left untouched, and the
// error names the path. A second Commit, or one after Abort, does nothing.
func (p *Pending) Commit() (err error) {
	if p.done {
		return nil
	}
	p.done = true
	name := p.File.Name()
	defer func() {
		if err != nil {
			p.File.Close()
			os.Remove(name)
			err = fmt.Errorf("write %s: %w", p.path, err)
		}
	}()
	if err = p.File.Sync(); err != nil {
		return err
	}
	if err = p.File.Close(); err != nil {
		return err
	}
	if err = os.Chmod(name, p.perm); err != nil {
		return err
	}
	return os.Rename(name, p.path)
}

// Abort discards the file; the path is left as it was. It does nothing
// after Commit, so `defer p.Abort()` is the usual guard.
func (p *Pending) Abort() {
	if p.done {
		return
	}
	p.done = true
	p.File.Close()
	os.Remove(p.File.Name())
}

// WriteFileAll is WriteFile after creating path's folder and its parents
// (permissions 0755) when missing.
func WriteFileAll(path string, data []byte, perm os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return WriteFile(path, data, perm)
}
