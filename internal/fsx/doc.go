// Package fsx holds the project's one atomic file write: the data goes to
// a temporary file in the destination's folder, is synced, given its
// permissions and renamed over the destination, so a reader sees either
// the old file or the whole new one, never a half-written file. It also
// holds the one way to read an input file (read.go): regular files only,
// at most a given size.
//
// fsx imports only the standard library; every package may use it.
package fsx
