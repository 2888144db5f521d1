package speech

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/internal/fsx"
	"github.com/roleprint/roleprint/internal/fsx/fsxtest"
)

// TestAudioReadersRefuseDevicesAndFIFOs gives every audio reader an
// endless device and a FIFO with no writer: each returns an error naming
// the path at once, instead of reading without bound or blocking.
func TestAudioReadersRefuseDevicesAndFIFOs(t *testing.T) {
	fsxtest.RefusesNonRegular(t, "clip.wav", map[string]func(string) error{
		"ReadWAV": func(p string) error { _, err := ReadWAV(p); return err },
	})
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
