package data

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// FuzzReadUtterances reads arbitrary bytes as a corpus file: the reader
// must return rows or an error naming the file, never panic.
func FuzzReadUtterances(f *testing.F) {
	p := filepath.Join(f.TempDir(), "seed.parquet")
	if err := WriteUtterances(p, sampleUtterances(5)); err != nil {
		f.Fatal(err)
	}
	seed, _ := os.ReadFile(p)
	f.Add(seed)
	f.Add([]byte("PAR1PAR1"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		// A slow input is reported, with its bytes, like a crash.
		tm := time.AfterFunc(5*time.Second, func() { panic(fmt.Sprintf("input ran for 5 s: %q", b)) })
		defer tm.Stop()
		path := filepath.Join(dir, "c.parquet")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadUtterances(path); err != nil && !strings.Contains(err.Error(), path) {
			t.Fatalf("error without the file name: %v", err)
		}
	})
}
