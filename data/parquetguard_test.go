package data

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// panicsOnOpen reports whether the library itself panics opening b.
func panicsOnOpen(b []byte) (panicked bool) {
	defer func() { panicked = recover() != nil }()
	_, _ = parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
	return false
}

// TestCorruptedParquetIsAnError flips one byte of a copy of the embedded
// Shakespeare corpus where the library panics (in its footer's page
// index), and checks the reader returns an error naming the file.
func TestCorruptedParquetIsAnError(t *testing.T) {
	orig, err := os.ReadFile(filepath.Join("corpus", "shakespeare.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	var bad []byte
	for i := len(orig) - 9; i > len(orig)-4000 && bad == nil; i-- {
		b := bytes.Clone(orig)
		b[i] ^= 0xff
		if panicsOnOpen(b) {
			bad = b
		}
	}
	if bad == nil {
		t.Fatal("no single-byte flip in the footer makes parquet-go panic any more; pick another corruption")
	}
	path := filepath.Join(t.TempDir(), "shakespeare.parquet")
	if err := os.WriteFile(path, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ReadUtterances(path)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "corrupted") {
		t.Errorf("corrupted file: %v", err)
	}
	// Truncated files are errors too.
	for _, n := range []int{4, 100, len(orig) / 2, len(orig) - 1} {
		os.WriteFile(path, orig[:n], 0o644)
		if _, err := ReadUtterances(path); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("truncated to %d bytes: %v", n, err)
		}
	}
}

// TestByteFlipsOfASmallFile flips bytes of a small corpus file (every
// byte of the footer, every 17th before it; FuzzReadUtterances goes
// further): each read either succeeds or fails with an error naming the file, and
// never panics.
func TestByteFlipsOfASmallFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "small.parquet")
	if err := WriteUtterances(path, sampleUtterances(30)); err != nil {
		t.Fatal(err)
	}
	orig, _ := os.ReadFile(path)
	bad := filepath.Join(dir, "bad.parquet")
	failed := 0
	for i := 0; i < len(orig); i++ {
		if i < len(orig)-160 && i%97 != 0 {
			continue
		}
		b := bytes.Clone(orig)
		b[i] ^= 0xff
		os.WriteFile(bad, b, 0o644)
		if _, err := ReadUtterances(bad); err != nil {
			failed++
			if !strings.Contains(err.Error(), bad) {
				t.Fatalf("flip at %d: error without the file name: %v", i, err)
			}
		}
	}
	if failed == 0 {
		t.Errorf("no flip of %d bytes was detected", len(orig))
	}
}
