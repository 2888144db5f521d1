package sv

import (
	"fmt"
	"maps"
	"sort"
	"strings"
	"sync"

	"github.com/roleprint/roleprint/internal/options"
)

// OptionsResolver returns an encoder's fully resolved options for opts:
// its Default…() struct with opts' fields and Settings applied (through
// internal/options, so an unknown setting is an error listing the valid
// ones). The encoder's factory builds from the same struct; the runner
// records it in the manifest and `roleprint config NAME` lists its keys.
type OptionsResolver func(opts EncoderOptions) (any, error)

var (
	optionsMu sync.RWMutex
	resolvers = map[string]OptionsResolver{}
)

// RegisterOptions records the options of encoder name (registered with
// RegisterEncoder, in the same init function). Any struct whose fields
// carry `opt:"key"` (or `json:"key"`) tags works, with no code per row.
// Registering a name twice panics.
func RegisterOptions(name string, resolve OptionsResolver) {
	optionsMu.Lock()
	defer optionsMu.Unlock()
	if _, dup := resolvers[name]; dup || resolve == nil {
		panic("sv: options registered twice or nil: " + name)
	}
	resolvers[name] = resolve
}

// HasOptions reports whether encoder name ("x_ft" means "x") registered
// its options.
func HasOptions(name string) bool {
	base, _ := SplitFineTuned(name)
	optionsMu.RLock()
	defer optionsMu.RUnlock()
	_, ok := resolvers[base]
	return ok
}

// ResolveOptions returns encoder name's resolved options for opts ("x_ft"
// resolves x's). It returns nil, nil for an encoder that has no options
// (liwc, lsm, pos) or did not register them.
func ResolveOptions(name string, opts EncoderOptions) (any, error) {
	base, _ := SplitFineTuned(name)
	optionsMu.RLock()
	r, ok := resolvers[base]
	optionsMu.RUnlock()
	if !ok {
		return nil, nil
	}
	v, err := r(opts)
	if err != nil {
		return nil, fmt.Errorf("encoder %s: %w", name, err)
	}
	return v, nil
}

// OptionKeys lists the settings of encoder name with their types,
// defaults and docs (nil when it has none).
func OptionKeys(name string) ([]options.Key, error) {
	v, err := ResolveOptions(name, EncoderOptions{})
	if err != nil || v == nil {
		return nil, err
	}
	return options.Keys(v), nil
}

// SettingsFor returns the settings of kv that encoder name has, for
// settings meant for several encoders at once (a global `--set` key, the
// parts of "mixed"). An encoder without registered options gets all of kv
// (it reads what it knows with EncoderOptions' getters).
func SettingsFor(name string, kv map[string]string) map[string]string {
	if !HasOptions(name) || len(kv) == 0 {
		return maps.Clone(kv)
	}
	keys, _ := OptionKeys(name)
	known := map[string]bool{}
	for _, k := range keys {
		known[k.Name] = true
	}
	out := map[string]string{}
	for k, v := range kv {
		if known[k] {
			out[k] = v
		}
	}
	return out
}

// CheckGlobalSetting (used by the Table 2 config) returns an error when no encoder of run has setting
// key and every one of them registered its options (so none could read
// it).
func CheckGlobalSetting(key string, run []string) error {
	var valid []string
	for _, n := range run {
		if !HasOptions(n) {
			return nil
		}
		ks, err := OptionKeys(n)
		if err != nil {
			return err
		}
		for _, k := range ks {
			if k.Name == key {
				return nil
			}
			valid = append(valid, k.Name)
		}
	}
	valid = uniqueSorted(valid)
	return fmt.Errorf("setting %q: no encoder of this run has it (theirs: %s; scope one with ENCODER.%s)", key, strings.Join(valid, ", "), key)
}

// CheckScopedSetting returns an error when encoder enc registered options
// without key.
func CheckScopedSetting(enc, key string) error {
	if !HasOptions(enc) {
		return nil
	}
	ks, err := OptionKeys(enc)
	if err != nil {
		return err
	}
	var valid []string
	for _, k := range ks {
		if k.Name == key {
			return nil
		}
		valid = append(valid, k.Name)
	}
	return fmt.Errorf("setting %s.%s: unknown setting %q of %s (valid: %s)", enc, key, key, enc, strings.Join(uniqueSorted(valid), ", "))
}

func uniqueSorted(xs []string) []string {
	sort.Strings(xs)
	out := xs[:0]
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			out = append(out, x)
		}
	}
	return out
}
