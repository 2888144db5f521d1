package frontend

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"testing"

	"github.com/roleprint/roleprint/internal/fsx"
	"github.com/roleprint/roleprint/internal/fsx/fsxtest"
	"github.com/roleprint/roleprint/speech"
)

// TestAudioReadersRefuseDevicesAndFIFOs gives every front-end audio reader
// an endless device and a FIFO with no writer: each returns an error
// naming the path at once, instead of reading without bound or blocking.
func TestAudioReadersRefuseDevicesAndFIFOs(t *testing.T) {
	ctx := context.Background()
	fsxtest.RefusesNonRegular(t, "clip.wav", map[string]func(string) error{
		"Decode": func(p string) error { _, err := Decode(ctx, p, DecodeOptions{CacheDir: "off"}); return err },
		"ConvertWAV": func(p string) error {
			_, cleanup, err := ConvertWAV(ctx, p, DecodeOptions{CacheDir: "off"})
			if err == nil {
				cleanup()
			}
			return err
		},
		"AnalyzeAny": func(p string) error {
			_, err := AnalyzeAny(ctx, p, "", speech.DefaultConfig(), DecodeOptions{CacheDir: "off"})
			return err
		},
	})
}

// TestDecodeSizeLimit checks that Decode refuses a file over its limit.
func TestDecodeSizeLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.wav")
	s := &speech.Sound{Rate: 16000, Samples: make([]float64, 8000)}
	for i := range s.Samples {
		s.Samples[i] = 0.5 * math.Sin(2*math.Pi*220*float64(i)/16000)
	}
	if err := speech.WriteWAV(path, s, 16); err != nil {
		t.Fatal(err)
	}
	var le *fsx.LimitError
	if _, err := Decode(context.Background(), path, DecodeOptions{MaxBytes: 1 << 10, CacheDir: "off"}); !errors.As(err, &le) {
		t.Errorf("Decode over the limit: %v", err)
	}
	if _, err := Decode(context.Background(), path, DecodeOptions{MaxBytes: 1 << 20, CacheDir: "off"}); err != nil {
		t.Errorf("Decode under the limit: %v", err)
	}
}
