package llm

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/roleprint/roleprint/internal/fsx"
)

// cacheVersion enters every key; bump it when the wire request or the
// entry format changes meaning.
const cacheVersion = "roleprint-llm-cache-v1"

// Cache is an on-disk store of chat completions keyed by request. Each
// entry is one JSON file DIR/ab/abcdef….json holding the request and the
// response; entries are written to a temporary file and renamed into place,
// so readers never see half an entry and concurrent writers of one key
// simply race to an identical result.
type Cache struct {
	dir string
}

// OpenCache opens (creating if needed) a cache folder.
func OpenCache(dir string) (*Cache, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("llm cache %s: %w", dir, err)
	}
	return &Cache{dir: dir}, nil
}

// Dir returns the cache folder.
func (c *Cache) Dir() string { return c.dir }

// cacheEntry is the JSON stored per key.
type cacheEntry struct {
	Version  string          `json:"version"`
	Key      string          `json:"key"`
	Created  time.Time       `json:"created"`
	Request  json.RawMessage `json:"request"`
	CacheTag string          `json:"cache_tag,omitempty"`
	Response Response        `json:"response"`
}

// CacheKey returns the hex SHA-256 that identifies a request in the cache.
// req must be the final request (model and temperature filled in). The
// key covers every field sent to the server plus CacheTag, and not the
// base URL or key, so a run can resume against another endpoint serving
// the same model name.
func CacheKey(req Request) string {
	body, _ := json.Marshal(req) // a Request always marshals
	h := sha256.New()
	h.Write([]byte(cacheVersion))
	h.Write([]byte{0})
	h.Write(body)
	h.Write([]byte{0})
	h.Write([]byte(req.CacheTag))
	return hex.EncodeToString(h.Sum(nil))
}

// Path returns the file that holds (or would hold) key's entry.
func (c *Cache) Path(key string) string { return c.path(key) }

func (c *Cache) path(key string) string {
	return filepath.Join(c.dir, key[:2], key+".json")
}

// Get returns the cached response for key. A missing entry is (nil,
// false, nil); an unreadable one is reported as an error and treated as
// missing by the client.
func (c *Cache) Get(key string) (*Response, bool, error) {
	b, err := fsx.ReadFile(c.path(key), fsx.MaxInput)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("llm cache: %w", err)
	}
	var e cacheEntry
	if err := json.Unmarshal(b, &e); err != nil {
		return nil, false, fmt.Errorf("llm cache %s: corrupt entry: %w", c.path(key), err)
	}
	if e.Version != cacheVersion || e.Key != key {
		return nil, false, fmt.Errorf("llm cache %s: entry of another version or key", c.path(key))
	}
	r := e.Response
	r.Cached = true
	return &r, true, nil
}

// Put stores resp under req's key atomically.
func (c *Cache) Put(req Request, resp *Response) error {
	key := CacheKey(req)
	body, _ := json.Marshal(stripAudio(req))
	e := cacheEntry{Version: cacheVersion, Key: key, Created: time.Now().UTC(), Request: body, CacheTag: req.CacheTag, Response: *resp}
	b, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return fmt.Errorf("llm cache: %w", err)
	}
	return fsx.WriteFileAll(c.path(key), b, 0o644)
}

// Len counts the entries in the cache (for reports and tests).
func (c *Cache) Len() (int, error) {
	n := 0
	err := filepath.WalkDir(c.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && filepath.Ext(p) == ".json" && d.Name()[0] != '.' {
			n++
		}
		return nil
	})
	return n, err
}

// stripAudio returns req with every input_audio part's data replaced by
// its SHA-256, for the request copy stored in an entry (the key still
// covers the full data).
func stripAudio(req Request) Request {
	msgs := make([]Message, len(req.Messages))
	for i, m := range req.Messages {
		msgs[i] = m
		if !m.HasAudio() {
			continue
		}
		parts := append([]Part(nil), m.Parts...)
		for k, p := range parts {
			if p.InputAudio != nil {
				h := sha256.Sum256([]byte(p.InputAudio.Data))
				parts[k].InputAudio = &InputAudio{Data: "sha256:" + hex.EncodeToString(h[:]), Format: p.InputAudio.Format}
			}
		}
		msgs[i].Parts = parts
	}
	req.Messages = msgs
	return req
}
