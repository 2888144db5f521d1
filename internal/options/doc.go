// Package options is RolePrint's one configuration mechanism: settings
// written "key=value;key2=value2" (the CLI's --set and --pair-set, notebook
// cells and presets) applied onto any options struct by reflection.
//
// A field's key is its `opt:"name"` tag, else its `json:"name"` tag (so a
// config that is already serialised keeps its JSON names as keys); `opt:"-"`
// or `json:"-"` hides a field, and a struct field tagged `opt:",squash"` (or
// embedded without a tag) contributes its own keys at the same level.
// Settable kinds are bool, ints, floats, strings (and named types of them),
// time.Duration and slices of those (items separated by "|"); maps,
// pointers, funcs and interfaces are not settings. Values are converted by
// github.com/go-viper/mapstructure/v2 (weakly typed input, its duration
// hook); the key lookup, the "|" split and the error messages are ours, so that an
// unknown key lists the valid ones and a bad value names the expected type.
//
// Defaults live in one place: a component's Default…() function returns the
// struct with every default set, and its field doc comments say what each
// key means. `go generate` (internal/options/optdoc) copies those doc
// comments into a table registered with Document, which Describe and
// `roleprint config NAME` print beside each key's type and default.
package options
