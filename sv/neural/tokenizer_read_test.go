package neural

import (
	"errors"
	"testing"

	"github.com/roleprint/roleprint/internal/fsx"
	"github.com/roleprint/roleprint/internal/fsx/fsxtest"
)

// TestLoadTokenizerRefusesFIFOs gives LoadTokenizer a FIFO with no writer
// under both names it reads (vocab.txt, tokenizer.json): an error at
// once, before sugarme would block opening it.
func TestLoadTokenizerRefusesFIFOs(t *testing.T) {
	for _, name := range []string{"vocab.txt", "tokenizer.json"} {
		p := fsxtest.FIFO(t, name)
		err := fsxtest.Within(t, "LoadTokenizer("+name+")", func() error { _, err := LoadTokenizer(p); return err })
		if !errors.Is(err, fsx.ErrNotRegular) {
			t.Errorf("%s: %v, want a not-a-regular-file error", name, err)
		}
	}
}
