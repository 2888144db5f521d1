// Package fsx holds the project's one atomic file write: the data goes to
// a temporary file in the destination's folder, is synced, given its
// permissions and renamed over the destination, so a reader sees either
// the old file or the whole new one, never a half-written file. It also
// holds the one way to read an input file (read.go): regular files only,
// at most a given size.
//
// It also holds the guard every writing command uses: CheckOutputs
// refuses, before any work, outputs that would replace an input (by
// path, symbolic or hard link), a folder given as a file and the
// reverse; Protect makes every atomic write refuse the running command's
// inputs; CheckOwned refuses to append to a file that is not one of ours
// at a journal or cache path.
//
// fsx imports only the standard library; every package may use it.
package fsx
