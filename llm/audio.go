package llm

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

	"github.com/roleprint/roleprint/internal/fsx"
)

// Caps on the bodies of the audio endpoints' replies: a verbose_json
// transcript of hours of audio is a few MiB; a WAV of one line of speech at
// 48 kHz is a few MiB, and 512 MiB is over an hour of it.
const (
	MaxTranscriptBytes = 256 << 20
	MaxSpeechBytes     = 512 << 20
	// MaxAudioUploadBytes caps the audio file sent for transcription (the
	// speech package's default cap on audio files it reads).
	MaxAudioUploadBytes = 2 << 30
)

// ASRConfig points at an OpenAI-compatible transcription endpoint
// (POST BASE/audio/transcriptions): OpenAI, faster-whisper servers
// (speaches), whisper.cpp's server started with
// --inference-path /v1/audio/transcriptions, vLLM.
type ASRConfig struct {
	// BaseURL is the API root ending in /v1. A key in its userinfo is
	// sent as the Bearer key; one in its query stays there; neither is
	// ever printed.
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
// file is sent as it is; convert it first (speech/frontend.ConvertWAV)
// for servers that take only 16 kHz WAV. A reply without word timestamps
// is an error that says so. Errors never show the key.
func Transcribe(ctx context.Context, cfg ASRConfig, audioPath string) (*Transcript, error) {
	if cfg.BaseURL == "" {
		return nil, fmt.Errorf("asr: no base URL (--asr-base-url, e.g. http://127.0.0.1:8000/v1)")
	}
	ep, err := newEndpoint(cfg.BaseURL, "audio/transcriptions", cfg.APIKey)
	if err != nil {
		return nil, fmt.Errorf("asr: %w", err)
	}
	shown := ep.shown
	f, _, err := fsx.OpenRegular(audioPath, MaxAudioUploadBytes)
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
	resp, raw, err := post(rctx, cfg.HTTPClient, ep, mw.FormDataContentType(), body.Bytes(), nil, MaxTranscriptBytes, "the cap for a transcript")
	if err != nil {
		return nil, fmt.Errorf("asr: %s: %s", shown, ep.redact(err.Error()))
	}
	if resp.StatusCode/100 != 2 {
		hint := ""
		if resp.StatusCode == 404 {
			hint = " (check the base URL, which should end in /v1; whisper.cpp's server needs --inference-path /v1/audio/transcriptions)"
		}
		return nil, fmt.Errorf("asr: %s: HTTP %d: %s%s", shown, resp.StatusCode, ep.redact(snippet(bytes.TrimSpace(raw), 300)), hint)
	}
	var t Transcript
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, fmt.Errorf("asr: %s: reply is not verbose_json (%v); starts %q", shown, err, snippet(bytes.TrimSpace(raw), 120))
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
		return nil, fmt.Errorf("asr: %s: the reply has no word timestamps (want verbose_json with timestamp_granularities[]=word; %d segments, text %q)", shown, len(t.Segments), snippet([]byte(t.Text), 80))
	}
	return &t, nil
}

// TTSConfig points at an OpenAI-compatible speech endpoint (POST
// BASE/audio/speech): OpenAI, Kokoro-FastAPI, openedai-speech, speaches.
type TTSConfig struct {
	// BaseURL is the API root ending in /v1 (userinfo or query key as in ASRConfig).
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

// Speak asks the speech endpoint to say text as a WAV file and returns the
// reply's bytes as they came (speech/frontend.Synthesize checks them and
// writes the file). Errors never show the key.
func Speak(ctx context.Context, cfg TTSConfig, text string) ([]byte, error) {
	if cfg.BaseURL == "" {
		return nil, fmt.Errorf("tts: no base URL (--tts-base-url)")
	}
	ep, err := newEndpoint(cfg.BaseURL, "audio/speech", cfg.APIKey)
	if err != nil {
		return nil, fmt.Errorf("tts: %w", err)
	}
	shown := ep.shown
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
	resp, raw, err := post(rctx, cfg.HTTPClient, ep, "application/json", b, nil, MaxSpeechBytes, "the cap for synthesized speech")
	if err != nil {
		return nil, fmt.Errorf("tts: %s: %s", shown, ep.redact(err.Error()))
	}
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("tts: %s: HTTP %d: %s", shown, resp.StatusCode, ep.redact(snippet(bytes.TrimSpace(raw), 300)))
	}
	return raw, nil
}
