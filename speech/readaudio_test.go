package speech

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/roleprint/roleprint/internal/fsx"
)

// TestAudioReadersRefuseDevicesAndFIFOs gives every audio reader an
// endless device and a FIFO with no writer: each returns an error naming
// the path at once, instead of reading without bound or blocking.
func TestAudioReadersRefuseDevicesAndFIFOs(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "clip.wav")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	readers := map[string]func(string) error{
		"ReadWAV": func(p string) error { _, err := ReadWAV(p); return err },
	}
	for name, read := range readers {
		for _, p := range []string{"/dev/zero", fifo} {
			done := make(chan error, 1)
			go func() { done <- read(p) }()
			select {
			case err := <-done:
				if !errors.Is(err, fsx.ErrNotRegular) || !strings.Contains(err.Error(), p) {
					t.Errorf("%s(%s): %v, want an error naming it as not a regular file", name, p, err)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("%s(%s): still reading after 5 s", name, p)
			}
		}
	}
}

// TestAudioSizeLimit checks that a file over the limit is an error naming
// the file, the limit and the flag that raises it, and that a file under
// it reads.
func TestAudioSizeLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.wav")
	if err := WriteWAV(path, sine(16000, 200, 0.5, 1), 16); err != nil {
		t.Fatal(err)
	}
	_, err := ReadWAVWith(path, ReadOptions{MaxBytes: 1 << 10})
	var le *fsx.LimitError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "1 KiB") || !strings.Contains(err.Error(), "--max-audio-mb") {
		t.Errorf("over the limit: %v", err)
	}
	if _, err := ReadWAVWith(path, ReadOptions{MaxBytes: 1 << 20}); err != nil {
		t.Errorf("under the limit: %v", err)
	}
}
