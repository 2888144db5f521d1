// Package panics turns a panic into an error at the boundary of a library
// that reports failures by panicking: GoMLX and onnx-gomlx panic on a
// graph-building error and on an op a backend lacks, and a model loader
// or an encoder must return that as an error instead of crashing the
// command. (gomlx/exceptions.TryCatch[error] re-panics a non-error value
// and rewraps runtime errors, so it does not fit this boundary.)
package panics

import "fmt"

// Catch runs f and returns its error; when f panics it returns the panic
// value instead: as is when it is an error (so errors.Is and errors.As
// see it), formatted with %v otherwise.
func Catch(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(error); ok {
				err = e
			} else {
				err = fmt.Errorf("%v", r)
			}
		}
	}()
	return f()
}
