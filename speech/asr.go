package speech

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"github.com/roleprint/roleprint/persona/llm"

	"github.com/roleprint/roleprint/internal/fsx"
)

// ASRConfig points at an OpenAI-compatible transcription endpoint
// (POST BASE/audio/transcriptions): OpenAI, faster-whisper servers
// (speaches), whisper.cpp's server started with
// --inference-path /v1/audio/transcriptions, vLLM.
type ASRConfig struct {
	// BaseURL is the API root ending in /v1. A key in its userinfo is
	// sent as the Bearer key and never printed.
	BaseURL string `json:"base_url"`
	// Model is the model name ("whisper-1", "Systran/faster-whisper-small").
	Model string `json:"model"`
	// APIKey is sent as "Authorization: Bearer KEY" when not empty.
	APIKey string `json:"-"`
	// Language is the ISO-639-1 hint ("en"); empty lets the model detect.
	Language string `json:"language,omitempty"`
	// Prompt is an optional decoding prompt (names, spellings).
	Prompt string `json:"prompt,omitempty"`
	// Timeout bounds one request. Default 10 min.
	Timeout time.Duration `json:"-"`
	// HTTPClient is the client used; nil means a new one.
	HTTPClient *http.Client `json:"-"`
}

// TimedWord is one recognised word with its span in seconds.
type TimedWord struct {
	// Word is the word as recognised, trimmed.
	Word string `json:"word"`
	// Start and End are seconds from the start of the audio.
	Start float64 `json:"start"`
	End   float64 `json:"end"`
}

// TranscriptSegment is one segment of a verbose_json transcript.
type TranscriptSegment struct {
	// Start and End are the segment's span in seconds.
	Start float64 `json:"start"`
	End   float64 `json:"end"`
	// Text is the segment's text.
	Text string `json:"text"`
	// Words are the segment's timed words (whisper.cpp puts them here).
	Words []TimedWord `json:"words,omitempty"`
}

// Transcript is a word-timed transcription.
type Transcript struct {
	// Text is the full text.
	Text string `json:"text"`
	// Language is the language the server reports.
	Language string `json:"language,omitempty"`
	// Duration is the audio's duration in seconds, when reported.
	Duration float64 `json:"duration,omitempty"`
	// Words are the timed words: the reply's top-level words (OpenAI,
	// faster-whisper) or, when it has none, its segments' words
	// (whisper.cpp).
	Words []TimedWord `json:"words"`
	// Segments are the reply's segments.
	Segments []TranscriptSegment `json:"segments,omitempty"`
}

// Transcribe sends an audio file to the transcription endpoint asking
// for verbose_json with word timestamps, and returns the timed words. The
// file is sent as it is; convert it first (ConvertWAV) for servers that
// take only 16 kHz WAV. A reply without word timestamps is an error that
// says so. Errors never show the key.
func Transcribe(ctx context.Context, cfg ASRConfig, audioPath string) (*Transcript, error) {
	base, key := cfg.BaseURL, cfg.APIKey
	if base == "" {
		return nil, fmt.Errorf("asr: no base URL (--asr-base-url, e.g. http://127.0.0.1:8000/v1)")
	}
	if u, k := splitUserinfo(base); k != "" {
		base = u
		if key == "" {
			key = k
		}
	}
	base = strings.TrimSuffix(strings.TrimRight(base, "/"), "/audio/transcriptions")
	url := base + "/audio/transcriptions"
	shown := llm.RedactURL(url)
	f, _, err := fsx.OpenRegular(audioPath, DefaultMaxAudioBytes)
	if err != nil {
		return nil, fmt.Errorf("asr: %w", err)
	}
	defer f.Close()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("file", filepath.Base(audioPath))
	if err != nil {
		return nil, fmt.Errorf("asr: %w", err)
	}
	if _, err := io.Copy(fw, f); err != nil {
		return nil, fmt.Errorf("asr: read %s: %w", audioPath, err)
	}
	fields := [][2]string{{"model", cfg.Model}, {"response_format", "verbose_json"},
		{"timestamp_granularities[]", "word"}, {"timestamp_granularities[]", "segment"}, {"language", cfg.Language}, {"prompt", cfg.Prompt}}
	for _, kv := range fields {
		if kv[1] != "" {
			if err := mw.WriteField(kv[0], kv[1]); err != nil {
				return nil, fmt.Errorf("asr: %w", err)
			}
		}
	}
	if err := mw.Close(); err != nil {
		return nil, fmt.Errorf("asr: %w", err)
	}
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Minute
	}
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, http.MethodPost, url, &body)
	if err != nil {
		return nil, fmt.Errorf("asr: %s: %v", shown, llm.RedactText(err.Error(), key))
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{}
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("asr: %s: %s", shown, llm.RedactText(err.Error(), key))
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	if err != nil {
		return nil, fmt.Errorf("asr: %s: %w", shown, err)
	}
	if resp.StatusCode/100 != 2 {
		hint := ""
		if resp.StatusCode == 404 {
			hint = " (check the base URL, which should end in /v1; whisper.cpp's server needs --inference-path /v1/audio/transcriptions)"
		}
		return nil, fmt.Errorf("asr: %s: HTTP %d: %s%s", shown, resp.StatusCode, llm.RedactText(snippetText(raw, 300), key), hint)
	}
	var t Transcript
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, fmt.Errorf("asr: %s: reply is not verbose_json (%v); starts %q", shown, err, snippetText(raw, 120))
	}
	if len(t.Words) == 0 {
		for _, s := range t.Segments {
			t.Words = append(t.Words, s.Words...)
		}
	}
	for i := range t.Words {
		t.Words[i].Word = strings.TrimSpace(t.Words[i].Word)
	}
	if len(t.Words) == 0 {
		return nil, fmt.Errorf("asr: %s: the reply has no word timestamps (want verbose_json with timestamp_granularities[]=word; %d segments, text %q)", shown, len(t.Segments), snippetText([]byte(t.Text), 80))
	}
	return &t, nil
}

func snippetText(b []byte, n int) string {
	s := strings.TrimSpace(string(b))
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// splitUserinfo removes the userinfo of a URL and returns the credential
// it carried (password, else user name).
func splitUserinfo(raw string) (string, string) {
	i := strings.Index(raw, "://")
	if i < 0 {
		return raw, ""
	}
	rest := raw[i+3:]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	at := strings.LastIndex(rest[:end], "@")
	if at < 0 {
		return raw, ""
	}
	info := rest[:at]
	key := info
	if c := strings.IndexByte(info, ':'); c >= 0 {
		key = info[c+1:]
	}
	return raw[:i+3] + rest[at+1:], key
}
