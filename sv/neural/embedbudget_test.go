package neural

import "testing"

func TestEmbedBatchRows(t *testing.T) {
	for _, c := range []struct{ batch, tokens, want int }{
		{64, 32, 64},   // transformer default: unchanged
		{256, 32, 64},  // capped at the token budget
		{256, 128, 16}, // USE-Lite
		{64, 1024, 8},  // never below 8 rows
		{4, 1024, 4},   // nor above what was asked
		{100, 0, 100},  // unknown length: as asked
	} {
		if got := embedBatchRows(c.batch, c.tokens); got != c.want {
			t.Errorf("embedBatchRows(%d, %d) = %d, want %d", c.batch, c.tokens, got, c.want)
		}
	}
}
