package kernel

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/roleprint/roleprint/internal/fsx"
)

// Key returns a cache key made of a readable name and a short hash of the
// JSON encoding of parts (typically the experiment's configuration), so
// that a changed configuration never loads a stale result.
func Key(name string, parts ...any) string {
	h := sha256.New()
	for _, p := range parts {
		b, err := json.Marshal(p)
		if err != nil {
			b = fmt.Appendf(nil, "%#v", p)
		}
		h.Write(b)
		h.Write([]byte{0})
	}
	return sanitize(name) + "-" + hex.EncodeToString(h.Sum(nil))[:12]
}

// sanitize keeps a key usable as a file name.
func sanitize(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, s)
	if s == "" || s == "." || s == ".." {
		return "result"
	}
	return s
}

// Memo returns the result stored under key in the notebook's cache folder
// (Dir/cache, or Dir/cache-quick in quick mode), or computes it, stores it
// and returns it. GoNB runs every cell as a new program, so this is how a
// later cell reuses what an earlier one computed. Results are stored as
// JSON (readable, diffable) or, when T holds values JSON cannot encode
// (NaN, ±Inf), as gob. A result that fails to load (corrupt, or of a
// changed type) is recomputed; with Fresh set it is always recomputed.
func Memo[T any](nb *Notebook, key string, compute func() (T, error)) (T, error) {
	var zero T
	dir := "cache"
	if nb.Quick {
		dir = "cache-quick"
	}
	base, err := nb.Path(dir, sanitize(key))
	if err != nil {
		return zero, nb.Report(err)
	}
	if !nb.Fresh {
		if v, ok := loadMemo[T](nb, base); ok {
			return v, nil
		}
	}
	v, err := compute()
	if err != nil {
		return zero, nb.Report(err)
	}
	if b, err := json.Marshal(v); err == nil {
		os.Remove(base + ".gob")
		if err := fsx.WriteFile(base+".json", b, 0o644); err != nil {
			return v, nb.Report(fmt.Errorf("kernel: %w", err))
		}
		return v, nil
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(&v); err != nil {
		return v, nb.Report(fmt.Errorf("kernel: caching %s: %w", key, err))
	}
	os.Remove(base + ".json")
	if err := fsx.WriteFile(base+".gob", buf.Bytes(), 0o644); err != nil {
		return v, nb.Report(fmt.Errorf("kernel: %w", err))
	}
	return v, nil
}

// loadMemo loads a cached result from base.json or base.gob.
func loadMemo[T any](nb *Notebook, base string) (T, bool) {
	var v T
	if b, err := os.ReadFile(base + ".json"); err == nil {
		if err := json.Unmarshal(b, &v); err == nil {
			return v, true
		}
		fmt.Fprintf(nb.stdout(), "note: cached %s.json is unreadable; recomputing\n", base)
		return v, false
	}
	if b, err := os.ReadFile(base + ".gob"); err == nil {
		if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&v); err == nil {
			return v, true
		}
		fmt.Fprintf(nb.stdout(), "note: cached %s.gob is unreadable; recomputing\n", base)
	}
	return v, false
}

// Must returns v, or panics with err: for notebook cells, where a panic
// stops the cell with a visible message. Library code returns errors.
func Must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// Check panics if err is not nil (the single-result companion of Must).
func Check(err error) {
	if err != nil {
		panic(err)
	}
}
