package sv

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/roleprint/roleprint/internal/options"
)

// EncoderOptions carries the settings an encoder factory may use. Every
// field is optional; the zero value asks for each encoder's defaults.
type EncoderOptions struct {
	// Backend names the GoMLX backend for GoMLX encoders ("go", "onnx",
	// "xla:cuda"); empty means the sv/backend default. Other encoders
	// ignore it.
	Backend string
	// CacheDir is the asset cache folder (GloVe, USE-Lite, models); empty
	// means assets.CacheDir().
	CacheDir string
	// Seed makes random initialisation and training order reproducible.
	// The runner sets it per round.
	Seed int64
	// BatchSize is how many texts an encoder embeds at a time; 0 means the
	// encoder's default.
	BatchSize int
	// WorkDir is a folder the encoder may use for its own state (training
	// checkpoints, caches) so that an interrupted run resumes; the runner
	// gives each round and encoder its own. Empty means none: keep state
	// in memory only.
	WorkDir string
	// Logf, when not nil, receives notes for the user (stderr in the CLI).
	Logf func(format string, args ...any)
	// Settings holds encoder-specific key/value settings
	// ("layers" → "2", "ngram_max" → "4"), documented by each encoder.
	// Unknown keys are ignored by encoders that do not use them; use the
	// typed getters (Int, Float, Bool, String) to read them with a default.
	Settings map[string]string
}

// String returns Settings[key], or def when the key is absent.
func (o EncoderOptions) String(key, def string) string {
	if v, ok := o.Settings[key]; ok {
		return v
	}
	return def
}

// Int returns Settings[key] parsed as an int, or def when the key is absent.
// A malformed value is an error naming the key.
func (o EncoderOptions) Int(key string, def int) (int, error) {
	v, ok := o.Settings[key]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return def, fmt.Errorf("encoder setting %s=%q: expected an integer", key, v)
	}
	return n, nil
}

// Float returns Settings[key] parsed as a float64, or def when absent.
func (o EncoderOptions) Float(key string, def float64) (float64, error) {
	v, ok := o.Settings[key]
	if !ok {
		return def, nil
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil {
		return def, fmt.Errorf("encoder setting %s=%q: expected a number", key, v)
	}
	return f, nil
}

// Bool returns Settings[key] parsed with strconv.ParseBool, or def when
// absent.
func (o EncoderOptions) Bool(key string, def bool) (bool, error) {
	v, ok := o.Settings[key]
	if !ok {
		return def, nil
	}
	b, err := strconv.ParseBool(strings.TrimSpace(v))
	if err != nil {
		return def, fmt.Errorf("encoder setting %s=%q: expected true or false", key, v)
	}
	return b, nil
}

// With returns a copy of o whose Settings also hold key=value (the copy's
// map is new, so o is not changed).
func (o EncoderOptions) With(key, value string) EncoderOptions {
	m := make(map[string]string, len(o.Settings)+1)
	for k, v := range o.Settings {
		m[k] = v
	}
	m[key] = value
	o.Settings = m
	return o
}

// ParseSettings parses "k=v;k2=v2" (also comma-separated) into a map, the
// form the CLI's --set flag and notebooks use. Blank items are skipped; an
// item without "=" is an error.
func ParseSettings(s string) (map[string]string, error) {
	return options.Parse(s)
}

// EncoderFactory builds a fresh encoder. The runner calls it once per round
// and encoder, so a factory must not share mutable state between the
// encoders it returns.
type EncoderFactory func(opts EncoderOptions) (Encoder, error)

var (
	registryMu sync.RWMutex
	registry   = map[string]EncoderFactory{}
)

// FineTunedSuffix marks a fine-tuned row: the runner reports a Trainable
// encoder "x" trained on a round's training pairs as "x_ft".
const FineTunedSuffix = "_ft"

// RegisterEncoder makes an encoder available by name to NewEncoder, the
// runner and the CLI (`--encoder NAME`). Packages register their encoders
// in an init function. Registering a name twice, an empty name, a name
// ending in "_ft" (reserved for fine-tuned rows) or a nil factory panics:
// these are programming errors found at start-up.
func RegisterEncoder(name string, factory EncoderFactory) {
	switch {
	case name == "" || strings.ContainsAny(name, " ,;="):
		panic(fmt.Sprintf("sv: invalid encoder name %q", name))
	case strings.HasSuffix(name, FineTunedSuffix):
		panic(fmt.Sprintf("sv: encoder name %q ends in %q, which is reserved for fine-tuned rows", name, FineTunedSuffix))
	case factory == nil:
		panic("sv: nil factory for encoder " + name)
	}
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := registry[name]; dup {
		panic("sv: encoder registered twice: " + name)
	}
	registry[name] = factory
}

// SchemeFactory builds an encoder named "SCHEME:REF" (e.g.
// "hf:ORG/NAME"); ref is the text after the colon.
type SchemeFactory func(ref string, opts EncoderOptions) (Encoder, error)

var schemes = map[string]SchemeFactory{}

// RegisterEncoderScheme makes every name "scheme:REF" an encoder built by
// factory (sv/neural registers "hf" for Hugging Face Hub models), so rows,
// `embed`, `score` and `verify` take such names like registered ones; "x_ft"
// fine-tunes them as usual. Registering a scheme twice, a scheme with
// characters other than lower-case letters, or a nil factory panics.
func RegisterEncoderScheme(scheme string, factory SchemeFactory) {
	if scheme == "" || strings.Trim(scheme, "abcdefghijklmnopqrstuvwxyz") != "" || factory == nil {
		panic(fmt.Sprintf("sv: invalid encoder scheme %q", scheme))
	}
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := schemes[scheme]; dup {
		panic("sv: encoder scheme registered twice: " + scheme)
	}
	schemes[scheme] = factory
}

// schemeFactory returns the factory and reference of a "scheme:REF" name.
func schemeFactory(name string) (SchemeFactory, string, bool) {
	scheme, ref, ok := strings.Cut(name, ":")
	if !ok || ref == "" {
		return nil, "", false
	}
	registryMu.RLock()
	defer registryMu.RUnlock()
	f, ok := schemes[scheme]
	return f, ref, ok
}

// EncoderSchemes lists the registered schemes as "scheme:…", sorted, for
// help texts.
func EncoderSchemes() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	var out []string
	for s := range schemes {
		out = append(out, s+":…")
	}
	sort.Strings(out)
	return out
}

// NewEncoder builds the encoder registered as name, or a "scheme:REF"
// name's (RegisterEncoderScheme). A name "x_ft" builds "x" and checks that
// it is Trainable (the caller then trains it). An unknown name is an error
// listing the known ones.
func NewEncoder(name string, opts EncoderOptions) (Encoder, error) {
	base, ft := SplitFineTuned(name)
	registryMu.RLock()
	f, ok := registry[base]
	registryMu.RUnlock()
	if !ok {
		if sf, ref, isScheme := schemeFactory(base); isScheme {
			f, ok = func(o EncoderOptions) (Encoder, error) { return sf(ref, o) }, true
		}
	}
	if !ok {
		return nil, fmt.Errorf("unknown encoder %q (known: %s)", name, strings.Join(append(EncoderNames(), EncoderSchemes()...), ", "))
	}
	enc, err := f(opts)
	if err != nil {
		return nil, fmt.Errorf("encoder %s: %w", name, err)
	}
	if ft {
		if _, ok := enc.(Trainable); !ok {
			return nil, fmt.Errorf("encoder %s: %s cannot be fine-tuned (it does not implement sv.Trainable)", name, base)
		}
	}
	return enc, nil
}

// EncoderNames lists the registered encoder names, sorted.
func EncoderNames() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// SplitFineTuned splits "x_ft" into ("x", true); other names come back
// unchanged with false.
func SplitFineTuned(name string) (base string, fineTuned bool) {
	if b, ok := strings.CutSuffix(name, FineTunedSuffix); ok && b != "" {
		return b, true
	}
	return name, false
}

// IsRegistered reports whether an encoder factory is registered under
// name, or name is "scheme:REF" for a registered scheme.
func IsRegistered(name string) bool {
	registryMu.RLock()
	_, ok := registry[name]
	registryMu.RUnlock()
	if !ok {
		_, _, ok = schemeFactory(name)
	}
	return ok
}
