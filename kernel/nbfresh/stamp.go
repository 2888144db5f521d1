package nbfresh

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"github.com/roleprint/roleprint/internal/fsx"
)

// SetStamp returns the notebook nb with s stored in metadata.roleprint
// (other fields there, like min_images, are kept). The notebook is written
// as Jupyter writes it (keys sorted, one-space indent, no HTML escaping,
// numbers as they were), so a saved notebook diffs cleanly.
func SetStamp(nb []byte, s Stamp) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(nb))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("nbfresh: not a notebook: %w", err)
	}
	if _, ok := doc["cells"]; !ok {
		return nil, fmt.Errorf("nbfresh: not a notebook: no cells")
	}
	meta, _ := doc["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
		doc["metadata"] = meta
	}
	rp, _ := meta[MetadataKey].(map[string]any)
	if rp == nil {
		rp = map[string]any{}
		meta[MetadataKey] = rp
	}
	rp["code_hash"] = s.CodeHash
	pkgs := make([]any, len(s.Packages))
	for i, p := range s.Packages {
		pkgs[i] = p
	}
	rp["code_packages"] = pkgs
	if s.Quick {
		rp["quick"] = true
	} else {
		delete(rp, "quick")
	}
	return encode(doc)
}

// encode writes v like nbformat: sorted keys, indent 1, UTF-8 as is.
func encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("nbfresh: encoding the notebook: %w", err)
	}
	return buf.Bytes(), nil
}

// Replacement rewrites a machine-specific path in saved outputs (e.g. the
// checkout's or the output root's absolute path) as a placeholder.
type Replacement struct{ Old, New string }

// Save stamps the executed notebook at executed with the hash computed
// before it ran and atomically replaces dst with it: written to a
// temporary file beside dst, then renamed, so an interrupted save leaves dst
// as it was. Each replacement's Old path is rewritten as its New text in
// the saved outputs, in order (put longer paths first), so that committed
// outputs do not carry the paths of the machine that ran them.
func Save(executed, dst string, s Stamp, repl ...Replacement) error {
	b, err := os.ReadFile(executed)
	if err != nil {
		return fmt.Errorf("nbfresh: %w", err)
	}
	for _, r := range repl {
		if r.Old == "" {
			continue
		}
		old, _ := json.Marshal(r.Old)
		nu, _ := json.Marshal(r.New)
		b = bytes.ReplaceAll(b, old[1:len(old)-1], nu[1:len(nu)-1])
	}
	out, err := SetStamp(b, s)
	if err != nil {
		return fmt.Errorf("%s: %w", executed, err)
	}
	if err := fsx.WriteFile(dst, out, 0o644); err != nil {
		return fmt.Errorf("nbfresh: %w", err)
	}
	return nil
}
