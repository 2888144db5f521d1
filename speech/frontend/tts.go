package frontend

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/roleprint/roleprint/internal/fsx"
	"github.com/roleprint/roleprint/llm"
)

// Synthesize asks the speech endpoint (llm.Speak) to say text and writes
// the WAV it returns to out (atomically), so a cascaded agent (text model
// + TTS) can be scored like one that speaks. A reply that is not a WAV is
// an error.
func Synthesize(ctx context.Context, cfg llm.TTSConfig, text, out string) error {
	raw, err := llm.Speak(ctx, cfg, text)
	if err != nil {
		return err
	}
	if !IsWAV(raw) {
		return fmt.Errorf("tts: %s: the reply is not a WAV file (starts %q; the server may not support response_format=wav)", llm.RedactURL(cfg.BaseURL), raw[:min(len(raw), 16)])
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return fmt.Errorf("tts: %w", err)
	}
	return fsx.WriteFile(out, raw, 0o644)
}
