package selfplay

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
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

// JournalHeader is the first line of every journal: it marks the file as
// a selfplay journal, so OpenJournal never appends to (or cuts the last
// line of) a file that is not one.
const JournalHeader = `{"roleprint":"selfplay-journal","version":1}`

// IsJournalFirstLine reports whether line can start a selfplay journal:
// the header, a torn header (a run killed while creating the file), or
// an entry (a journal without the header line).
func IsJournalFirstLine(line []byte) bool {
	if len(line) > 0 && strings.HasPrefix(JournalHeader, string(line)) {
		return true
	}
	var e Entry
	return json.Unmarshal(line, &e) == nil && e.Key != ""
}

// Journal is an append-only JSONL file of completed requests after a
// header line (JournalHeader). Each entry is one write of one line,
// synced, so a killed run leaves at most a torn last line, which Open
// ignores.
type Journal struct {
	path    string
	mu      sync.Mutex
	f       *os.File
	entries map[string]Entry
}

// OpenJournal reads the journal at path (creating it, with its header,
// when missing or empty). A file whose first line is neither the header
// nor an entry is not a journal: it is refused (an *fsx.OverwriteError
// naming it) and left untouched. A malformed line other than a torn last
// one is an error naming the line.
func OpenJournal(path string) (*Journal, error) {
	if err := fsx.CheckOwned("journal", path, "selfplay journal", IsJournalFirstLine); err != nil {
		return nil, err
	}
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
			if line == 1 && strings.HasPrefix(JournalHeader, sc.Text()) {
				continue
			}
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
	if err := j.writeHeader(); err != nil {
		f.Close()
		return nil, err
	}
	return j, nil
}

// writeHeader starts an empty journal file with JournalHeader, or
// completes a header torn by a killed run.
func (j *Journal) writeHeader() error {
	st, err := j.f.Stat()
	if err != nil {
		return fmt.Errorf("journal %s: %w", j.path, err)
	}
	var head []byte
	if st.Size() > 0 {
		if st.Size() >= int64(len(JournalHeader)+1) {
			return nil
		}
		if head, err = os.ReadFile(j.path); err != nil {
			return fmt.Errorf("journal %s: %w", j.path, err)
		}
		if string(head) == JournalHeader+"\n" || !strings.HasPrefix(JournalHeader, strings.TrimRight(string(head), "\n")) {
			return nil
		}
	}
	if _, err := j.f.WriteString(JournalHeader[len(strings.TrimRight(string(head), "\n")):] + "\n"); err != nil {
		return fmt.Errorf("journal %s: %w", j.path, err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("journal %s: %w", j.path, err)
	}
	return nil
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
