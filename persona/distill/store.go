package distill

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"sync"

	"github.com/roleprint/roleprint/internal/fsx"
)

// store keeps one JSON file per unit of work under DIR/units/STAGE, named
// after the unit and holding the key of the input it was computed from.
type store struct {
	dir string
	mu  sync.Mutex
	// computed and reused count units per stage.
	computed, reused map[string]int
}

func newStore(dir string) *store {
	return &store{dir: dir, computed: map[string]int{}, reused: map[string]int{}}
}

type unitFile struct {
	Key   string          `json:"key"`
	Value json.RawMessage `json:"value"`
}

// unitKey hashes the backend fingerprint, the stage and the unit's input.
func unitKey(fingerprint, stage string, input any) string {
	b, err := json.Marshal(input)
	if err != nil {
		panic(fmt.Sprintf("distill: unit input not serialisable: %v", err)) // our own types only
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", fingerprint, stage)
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// unitPath names a unit's file: a readable part plus a short hash of the
// full name, so distinct names never collide.
func (s *store) unitPath(stage, name string) string {
	h := sha256.Sum256([]byte(name))
	safe := unsafeName.ReplaceAllString(name, "_")
	if len(safe) > 60 {
		safe = safe[:60]
	}
	return filepath.Join(s.dir, "units", stage, safe+"-"+hex.EncodeToString(h[:4])+".json")
}

// do loads the unit when its stored key matches key, else computes it
// and stores it atomically.
func (s *store) do(stage, name, key string, out any, compute func() error) error {
	p := s.unitPath(stage, name)
	if b, err := fsx.ReadFile(p, fsx.MaxInput); err == nil {
		var u unitFile
		if json.Unmarshal(b, &u) == nil && u.Key == key && json.Unmarshal(u.Value, out) == nil {
			s.count(s.reused, stage)
			return nil
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("read %s: %w", p, err)
	}
	if err := compute(); err != nil {
		return err
	}
	v, err := json.Marshal(out)
	if err != nil {
		return fmt.Errorf("%s %s: %w", stage, name, err)
	}
	b, err := json.MarshalIndent(unitFile{Key: key, Value: v}, "", "  ")
	if err != nil {
		return err
	}
	if err := fsx.WriteFileAll(p, b, 0o644); err != nil {
		return err
	}
	s.count(s.computed, stage)
	return nil
}

func (s *store) count(m map[string]int, stage string) {
	s.mu.Lock()
	m[stage]++
	s.mu.Unlock()
}

// writeJSON writes v as indented JSON atomically.
func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return fsx.WriteFileAll(path, append(b, '\n'), 0o644)
}
