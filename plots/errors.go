package plots

import "fmt"

// errorf returns an error prefixed with the package name.
func errorf(format string, args ...any) error {
	return fmt.Errorf("plots: "+format, args...)
}
