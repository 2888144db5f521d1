package options

import (
	"reflect"
	"sync"
)

var (
	docsMu sync.RWMutex
	docs   = map[reflect.Type]map[string]string{}
)

// Document records the doc comments of the fields of struct type T, keyed
// by Go field name. The files that `go generate` writes with
// internal/options/optdoc call it from an init function, so that the doc
// comments stay the one source of each key's documentation.
func Document[T any](fields map[string]string) {
	docsMu.Lock()
	defer docsMu.Unlock()
	docs[reflect.TypeFor[T]()] = fields
}

func docFor(t reflect.Type, field string) string {
	docsMu.RLock()
	defer docsMu.RUnlock()
	return docs[t][field]
}
