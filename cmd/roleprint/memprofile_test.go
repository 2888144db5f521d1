package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// The peak-heap profile is written atomically: after stop the file is a
// whole gzip-compressed pprof profile and no temporary file is left.
func TestPeakHeapProfileWritesProfile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "heap.pprof")
	stop := startPeakHeapProfile(context.Background(), p, t.Logf)
	stop()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Fatalf("heap profile is not gzip data (%d bytes)", len(b))
	}
	es, _ := os.ReadDir(dir)
	if len(es) != 1 {
		t.Errorf("folder holds %d entries, want only heap.pprof", len(es))
	}
}
