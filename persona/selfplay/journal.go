package selfplay

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"

	"github.com/roleprint/roleprint/internal/fsx"
)

// Entry is one completed request in the journal.
type Entry struct {
	// Key is llm.CacheKey of the request: what makes a replay safe.
	Key string `json:"key"`
	// Conversation and Turn locate the reply.
	Conversation string `json:"conversation"`
	Turn         int    `json:"turn"`
	// Speaker is the role that spoke.
	Speaker string `json:"speaker"`
	// Reply is the raw reply text, FinishReason the server's.
	Reply        string `json:"reply"`
	FinishReason string `json:"finish_reason"`
	// Model is the model the server named.
	Model string `json:"model,omitempty"`
	// PromptTokens and CompletionTokens are the usage paid.
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

// Journal is an append-only JSONL file of completed requests. Each entry
// is one write of one line, synced, so a killed run leaves at most a torn
// last line, which Open ignores.
type Journal struct {
	path    string
	mu      sync.Mutex
	f       *os.File
	entries map[string]Entry
}

// OpenJournal reads the journal at path (creating it when missing). A
// malformed line other than a torn last one is an error naming the line.
func OpenJournal(path string) (*Journal, error) {
	j := &Journal{path: path, entries: map[string]Entry{}}
	f, _, err := fsx.OpenRegular(path, MaxJournalFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("journal: %w", err)
	default:
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		var bad error
		badLine := 0
		for line := 1; sc.Scan(); line++ {
			if bad != nil {
				f.Close()
				return nil, fmt.Errorf("journal %s:%d: %w (delete the journal to start afresh)", path, badLine, bad)
			}
			var e Entry
			if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Key == "" {
				if err == nil {
					err = errors.New("entry without key")
				}
				bad, badLine = err, line
				continue
			}
			j.entries[e.Key] = e
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("journal %s: %w", path, err)
		}
		// bad set here means the last line is torn: ignored, rewritten
		// by a later append on a line of its own.
		if bad != nil {
			if err := truncateTornLine(path); err != nil {
				return nil, err
			}
		}
	}
	f, err = os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	j.f = f
	return j, nil
}

// truncateTornLine cuts the file after its last newline.
func truncateTornLine(path string) error {
	b, err := fsx.ReadFile(path, MaxJournalFile)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	n := len(b)
	for n > 0 && b[n-1] != '\n' {
		n--
	}
	if n == len(b) { // ends in a newline: the bad line was complete JSON garbage
		for n = len(b) - 1; n > 0 && b[n-1] != '\n'; n-- {
		}
	}
	if err := os.Truncate(path, int64(n)); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// Path returns the journal file.
func (j *Journal) Path() string { return j.path }

// Len counts the entries.
func (j *Journal) Len() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return len(j.entries)
}

// Get returns the entry of a request key.
func (j *Journal) Get(key string) (Entry, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	e, ok := j.entries[key]
	return e, ok
}

// Add appends e and syncs the file.
func (j *Journal) Add(e Entry) error {
	b, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	b = append(b, '\n')
	j.mu.Lock()
	defer j.mu.Unlock()
	if _, err := j.f.Write(b); err != nil {
		return fmt.Errorf("journal %s: %w", j.path, err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("journal %s: %w", j.path, err)
	}
	j.entries[e.Key] = e
	return nil
}

// Close closes the file.
func (j *Journal) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return nil
	}
	err := j.f.Close()
	j.f = nil
	return err
}
