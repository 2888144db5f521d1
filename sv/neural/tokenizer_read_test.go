package neural

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/roleprint/roleprint/internal/fsx"
)

// TestLoadTokenizerRefusesFIFOs gives LoadTokenizer a FIFO with no writer
// under both names it reads (vocab.txt, tokenizer.json): an error at
// once, before sugarme would block opening it.
func TestLoadTokenizerRefusesFIFOs(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"vocab.txt", "tokenizer.json"} {
		p := filepath.Join(dir, name)
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			_, err := LoadTokenizer(p)
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, fsx.ErrNotRegular) {
				t.Errorf("%s: %v, want a not-a-regular-file error", name, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: LoadTokenizer still blocked after 5 s", name)
		}
	}
}
