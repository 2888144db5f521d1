package frontend

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/roleprint/roleprint/llm"
)

// TTSConfig points at an OpenAI-compatible speech endpoint (POST
// BASE/audio/speech): OpenAI, Kokoro-FastAPI, openedai-speech, speaches.
type TTSConfig struct {
	// BaseURL is the API root ending in /v1 (userinfo key as in ASRConfig).
	BaseURL string `json:"base_url"`
	// Model is the TTS model ("tts-1", "kokoro").
	Model string `json:"model"`
	// Voice is the voice name ("alloy", "af_bella").
	Voice string `json:"voice"`
	// Speed is the speaking speed (0: the server's default, 1.0).
	Speed float64 `json:"speed,omitempty"`
	// APIKey is sent as a Bearer key when not empty.
	APIKey string `json:"-"`
	// Timeout bounds one request. Default 2 min.
	Timeout time.Duration `json:"-"`
	// HTTPClient is the client used; nil means a new one.
	HTTPClient *http.Client `json:"-"`
}

// Synthesize asks the speech endpoint to say text and writes the WAV it
// returns to out (atomically), so a cascaded agent (text model + TTS) can
// be scored like one that speaks. A reply that is not a WAV is an error.
func Synthesize(ctx context.Context, cfg TTSConfig, text, out string) error {
	base, key := cfg.BaseURL, cfg.APIKey
	if base == "" {
		return fmt.Errorf("tts: no base URL (--tts-base-url)")
	}
	if u, k := splitUserinfo(base); k != "" {
		base = u
		if key == "" {
			key = k
		}
	}
	url := strings.TrimSuffix(strings.TrimRight(base, "/"), "/audio/speech") + "/audio/speech"
	shown := llm.RedactURL(url)
	body := map[string]any{"model": cfg.Model, "input": text, "voice": cfg.Voice, "response_format": "wav"}
	if cfg.Speed > 0 {
		body["speed"] = cfg.Speed
	}
	b, _ := json.Marshal(body)
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = 2 * time.Minute
	}
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("tts: %s: %s", shown, llm.RedactText(err.Error(), key))
	}
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{}
	}
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("tts: %s: %s", shown, llm.RedactText(err.Error(), key))
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 512<<20))
	if err != nil {
		return fmt.Errorf("tts: %s: %w", shown, err)
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("tts: %s: HTTP %d: %s", shown, resp.StatusCode, llm.RedactText(snippetText(raw, 300), key))
	}
	if !IsWAV(raw) {
		return fmt.Errorf("tts: %s: the reply is not a WAV file (starts %q; the server may not support response_format=wav)", shown, snippetText(raw, 16))
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return fmt.Errorf("tts: %w", err)
	}
	return llm.WriteFileAtomic(out, raw)
}
