package fsx

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
)

// Output is one path a command writes: a file (an --out corpus, a
// --latex file, a journal) or a folder it writes files into.
type Output struct {
	// Flag names the output on the command line ("--out"), for messages.
	Flag string
	// Path is the flag's value.
	Path string
	// Dir marks a folder the command writes files into; otherwise Path
	// is one file.
	Dir bool
	// Writes lists, for a folder, the files the command may write in it,
	// as slash-separated patterns relative to the folder (path.Match
	// syntax; a pattern ending in "/" stands for everything under that
	// subfolder). An input inside the folder matching one is refused.
	Writes []string
}

// OverwriteError is a refused output: writing it would replace an input,
// or the path is of the wrong kind (a folder given as a file, a file
// given as a folder, a file that is not one of ours at a journal path).
type OverwriteError struct {
	// Flag and Output are the refused output, Input the path it would
	// replace (empty when the refusal is about the output alone).
	Flag, Output, Input string
	// Reason says why, in words that follow the output's name.
	Reason string
}

func (e *OverwriteError) Error() string {
	name := e.Output
	if e.Flag != "" {
		name = e.Flag + " " + e.Output
	}
	return name + " " + e.Reason
}

// input is one input path with what identifies it.
type input struct {
	path string // as given
	abs  string // absolute, cleaned
	real string // abs with symbolic links resolved (abs if that fails)
	info os.FileInfo
}

func newInput(p string) (input, bool) {
	st, err := os.Stat(p)
	if err != nil {
		return input{}, false
	}
	in := input{path: p, abs: absClean(p), info: st}
	in.real = realPath(in.abs)
	return in, true
}

func absClean(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	return a
}

// realPath resolves the symbolic links of abs; for a path that does not
// exist it resolves the folder and keeps the name.
func realPath(abs string) string {
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	if r, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return filepath.Join(r, filepath.Base(abs))
	}
	return abs
}

// same reports whether the file at p (st its Stat, nil when missing) is
// the input: the same path once cleaned and links resolved, or the same
// file by identity (a hard link, a symbolic link to it).
func (in input) same(p string, st os.FileInfo) bool {
	a := absClean(p)
	if a == in.abs || realPath(a) == in.real {
		return true
	}
	return st != nil && os.SameFile(st, in.info)
}

// CheckOutputs refuses, before any work is done, outputs that would
// replace an input or are of the wrong kind:
//
//   - a file output that is an input (by path, through a symbolic link,
//     or a hard link to it: the same device and inode);
//   - a file output that is an existing folder, and a folder output that
//     is an existing file;
//   - a folder output that is an input folder (a verifier bundle given
//     as --out), or holds an input where the command writes one of its
//     files (Output.Writes);
//   - two file outputs that are one file.
//
// Inputs that do not exist are ignored (the command reports them). An
// input folder stands for itself only: files read from inside it are
// checked by the command once it knows them. The error is an
// *OverwriteError naming both paths.
func CheckOutputs(inputs []string, outs ...Output) error {
	var ins []input
	for _, p := range inputs {
		if p == "" {
			continue
		}
		if in, ok := newInput(p); ok {
			ins = append(ins, in)
		}
	}
	var files []input
	for _, o := range outs {
		if o.Path == "" {
			continue
		}
		st, err := os.Stat(o.Path)
		if err != nil {
			st = nil
		}
		if o.Dir {
			if st != nil && !st.IsDir() {
				return &OverwriteError{Flag: o.Flag, Output: o.Path, Reason: "is a file, not a folder: give a folder (this command writes several files into it)"}
			}
			for _, in := range ins {
				if in.info.IsDir() && in.same(o.Path, st) {
					return &OverwriteError{Flag: o.Flag, Output: o.Path, Input: in.path,
						Reason: fmt.Sprintf("is the input folder %s: refusing to write into it; choose another output folder", in.path)}
				}
			}
			if err := checkDir(o, ins); err != nil {
				return err
			}
			continue
		}
		if st != nil && st.IsDir() {
			return &OverwriteError{Flag: o.Flag, Output: o.Path, Reason: "is a folder: give a file path (this command writes one file there)"}
		}
		for _, in := range ins {
			if in.info.IsDir() {
				continue
			}
			if in.same(o.Path, st) {
				return overwrite(o, in.path)
			}
		}
		for _, f := range files {
			if f.same(o.Path, st) {
				return &OverwriteError{Flag: o.Flag, Output: o.Path, Input: f.path,
					Reason: fmt.Sprintf("is the same file as the output %s: give each output its own path", f.path)}
			}
		}
		if st != nil {
			if f, ok := newInput(o.Path); ok {
				files = append(files, f)
			}
		} else {
			a := absClean(o.Path)
			files = append(files, input{path: o.Path, abs: a, real: realPath(a)})
		}
	}
	return nil
}

func overwrite(o Output, in string) error {
	return &OverwriteError{Flag: o.Flag, Output: o.Path, Input: in,
		Reason: fmt.Sprintf("would overwrite the input %s: refusing; choose another output path", in)}
}

// checkDir refuses a folder output holding an input file where the
// command writes one of its files.
func checkDir(o Output, ins []input) error {
	dir := realPath(absClean(o.Path))
	for _, in := range ins {
		if in.info.IsDir() {
			continue
		}
		rel, err := filepath.Rel(dir, in.real)
		if err != nil || rel == "." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || rel == ".." {
			continue
		}
		rel = filepath.ToSlash(rel)
		for _, w := range o.Writes {
			if matchWrite(w, rel) {
				return &OverwriteError{Flag: o.Flag, Output: o.Path, Input: in.path,
					Reason: fmt.Sprintf("is a folder this command writes %s into, which would overwrite the input %s: refusing; choose another output folder or move the input", w, in.path)}
			}
		}
	}
	return nil
}

// matchWrite matches rel against a Writes pattern.
func matchWrite(pattern, rel string) bool {
	if strings.HasSuffix(pattern, "/") {
		return strings.HasPrefix(rel, pattern)
	}
	ok, _ := path.Match(pattern, rel)
	return ok
}

// protected holds the inputs of the running command (Protect); every
// atomic write checks it, so a write the command's declared outputs did
// not foresee still cannot replace an input.
var protected struct {
	mu   sync.Mutex
	next int
	sets map[int][]input
}

// Protect marks the existing files among paths as inputs of the running
// command until release is called: Create, Write, WriteFile and
// WriteSeeker then refuse to replace them (by path, link or identity).
// Folders are not protected (writing into an input folder is allowed;
// CheckOutputs and the command guard the files read from it).
func Protect(paths ...string) (release func()) {
	var add []input
	for _, p := range paths {
		if p == "" {
			continue
		}
		if in, ok := newInput(p); ok && !in.info.IsDir() {
			add = append(add, in)
		}
	}
	protected.mu.Lock()
	defer protected.mu.Unlock()
	if protected.sets == nil {
		protected.sets = map[int][]input{}
	}
	id := protected.next
	protected.next++
	protected.sets[id] = add
	return func() {
		protected.mu.Lock()
		defer protected.mu.Unlock()
		delete(protected.sets, id)
	}
}

// checkProtected returns an *OverwriteError when writing path would
// replace a protected input, or path is a folder.
func checkProtected(p string) error {
	st, err := os.Stat(p)
	if err != nil {
		st = nil
	}
	if st != nil && st.IsDir() {
		return &OverwriteError{Output: p, Reason: "is a folder: cannot write a file there"}
	}
	protected.mu.Lock()
	defer protected.mu.Unlock()
	for _, set := range protected.sets {
		for _, in := range set {
			if in.same(p, st) {
				return overwrite(Output{Path: p}, in.path)
			}
		}
	}
	return nil
}

// maxHeaderLine bounds the first line CheckOwned reads.
const maxHeaderLine = 1 << 20

// CheckOwned refuses to append to or rewrite an existing file at path
// that this project did not write: its first line must satisfy ours
// (a journal's header, a cache's first entry). A missing or empty file is
// ours to create. what names the kind of file for the message ("selfplay
// journal"); flag is the option that chose the path. The first line is
// read up to 1 MiB.
func CheckOwned(flag, p, what string, ours func(firstLine []byte) bool) error {
	st, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s %s: %w", flag, p, err)
	}
	if st.IsDir() {
		return &OverwriteError{Flag: flag, Output: p, Reason: "is a folder: give a file path for the " + what}
	}
	// A device or FIFO is refused before it is opened: opening a FIFO
	// blocks until a writer comes, and a device reads without end.
	f, _, err := OpenRegular(p, 0)
	if err != nil {
		return fmt.Errorf("%s: %w", flag, err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(io.LimitReader(f, maxHeaderLine), 64<<10)
	line, err := r.ReadSlice('\n')
	for errors.Is(err, bufio.ErrBufferFull) {
		more, e := r.ReadSlice('\n')
		line, err = append(append([]byte(nil), line...), more...), e
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("%s %s: %w", flag, p, err)
	}
	if len(line) == 0 {
		return nil
	}
	if !ours(bytes.TrimRight(line, "\r\n")) {
		return &OverwriteError{Flag: flag, Output: p,
			Reason: fmt.Sprintf("exists and is not a %s (its first line is not one): refusing to write to it; move it or choose another path", what)}
	}
	return nil
}
