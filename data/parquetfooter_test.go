package data

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestParquetFooterLengthCheckedFirst gives the reader a file whose footer
// claims 4 GiB: it must fail naming the file and the footer without
// allocating anything near that (the library sizes a buffer by the claim
// before it reads).
func TestParquetFooterLengthCheckedFirst(t *testing.T) {
	orig, err := os.ReadFile(filepath.Join("corpus", "shakespeare.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, claim := range []uint32{0xffffffff, uint32(len(orig)), uint32(len(orig) - 11)} {
		b := bytes.Clone(orig)
		binary.LittleEndian.PutUint32(b[len(b)-8:], claim)
		path := filepath.Join(dir, "big-footer.parquet")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := ReadUtterances(path)
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "footer of") {
			t.Errorf("footer length %d: %v, want an error naming the file and the footer", claim, err)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
			t.Errorf("footer length %d: reading allocated %d MiB", claim, grew>>20)
		}
	}
	// Files without the magic at both ends are refused before the library
	// sees them.
	for _, b := range [][]byte{[]byte("PAR1PAR1"), append([]byte("XXXX"), orig[4:]...), orig[:len(orig)-1]} {
		path := filepath.Join(dir, "not.parquet")
		os.WriteFile(path, b, 0o644)
		if _, err := ReadUtterances(path); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "not a Parquet file") {
			t.Errorf("%d bytes without the magic: %v", len(b), err)
		}
	}
}
