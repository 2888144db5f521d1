// Package internal holds what every layer of RolePrint may use and no user
// of the module should: internal/fsx (the one atomic file write and the
// refusal of what is not a regular file), internal/options (settings
// applied by key) and internal/panics (a library's panic as an error).
// Its test, layers_test.go, checks the direction of every import in the
// repository against the table of layers there.
package internal
