package frontend

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"github.com/roleprint/roleprint/speech"
	"os"
	"sync"

	"github.com/roleprint/roleprint/internal/fsx"
)

// featureCache is an append-only JSON-lines file of per-utterance results,
// keyed by the audio file (path, size, modification time), the span, the
// transcript and the analysis configuration. It lets an interrupted corpus
// analysis resume where it stopped: results are appended as each audio file
// is done, and a line cut short by a crash is ignored on the next run.
type featureCache struct {
	mu      sync.Mutex
	f       *os.File
	entries map[string]cacheEntry
	cfgKey  string
}

// cacheEntry is one line of the cache.
type cacheEntry struct {
	Key       string           `json:"key"`
	Features  *speech.Features `json:"features,omitempty"`
	Embedding []float64        `json:"embedding,omitempty"`
	Skipped   string           `json:"skipped,omitempty"`
}

// openFeatureCache loads path (if it exists) and opens it for appending.
func openFeatureCache(path string, cfg CorpusConfig) (*featureCache, error) {
	c := &featureCache{entries: map[string]cacheEntry{}}
	key, err := json.Marshal(struct {
		F speech.Config
		E speech.EmbedConfig
		M float64
		N string `json:",omitempty"` // the neural embedder; absent for the MFCC statistics, whose key stays the one without embedders
	}{cfg.Features, cfg.Embed, cfg.MinDuration, neuralName(cfg)})
	if err != nil {
		return nil, err
	}
	c.cfgKey = string(key)
	needNewline := false
	f, size, err := fsx.OpenRegular(path, 0) // streamed: no size limit
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("feature cache: %w", err)
	default:
		last := make([]byte, 1)
		if size > 0 {
			if _, err := f.ReadAt(last, size-1); err == nil && last[0] != '\n' {
				needNewline = true // a line cut short by a crash: start the next one afresh
			}
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var e cacheEntry
			if json.Unmarshal(sc.Bytes(), &e) == nil && e.Key != "" {
				c.entries[e.Key] = e
			}
		}
		f.Close()
	}
	f, err = os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("feature cache: %w", err)
	}
	c.f = f
	if needNewline {
		if _, err := f.Write([]byte("\n")); err != nil {
			f.Close()
			return nil, fmt.Errorf("feature cache: %w", err)
		}
	}
	return c, nil
}

// key identifies an utterance's analysis.
func (c *featureCache) key(audio string, stat os.FileInfo, start, end float64, text string) string {
	h := sha256.New()
	var size, mtime int64
	if stat != nil {
		size, mtime = stat.Size(), stat.ModTime().UnixNano()
	}
	fmt.Fprintf(h, "%s\x00%d\x00%d\x00%.6f\x00%.6f\x00%s\x00%s", audio, size, mtime, start, end, text, c.cfgKey)
	return hex.EncodeToString(h.Sum(nil))
}

// get returns the cached entry for key, if any.
func (c *featureCache) get(key string) (cacheEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	return e, ok
}

// add appends entries to the file (one line each) and remembers them.
func (c *featureCache) add(es []cacheEntry) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var buf []byte
	for _, e := range es {
		b, err := json.Marshal(e)
		if err != nil {
			return err
		}
		buf = append(append(buf, b...), '\n')
		c.entries[e.Key] = e
	}
	if _, err := c.f.Write(buf); err != nil {
		return fmt.Errorf("feature cache: %w", err)
	}
	return nil
}

// Close closes the file.
func (c *featureCache) Close() error { return c.f.Close() }
