package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// A key in the query of a base URL never reaches stderr, in llm-verify,
// speech transcribe and speech tts alike, when nothing answers on the
// port (the transport error names the full URL) — and the endpoint path
// is joined before the query.
func TestEndpointQueryKeyNeverPrinted(t *testing.T) {
	clearLLMEnv(t)
	const secret = "SECRET-k3y-9q"
	base := "http://127.0.0.1:1/v1?key=" + secret
	test := writeLLMVerifyRecords(t, "test.jsonl", 2)
	wav := filepath.Join(speechFixtures, "espeak", "voice-en-f2-p70-a.wav")
	for _, c := range []struct {
		args []string
		path string
	}{
		{[]string{"llm-verify", "--llm-base-url", base, "--llm-model", "m", "--llm-cache", "off", "--llm-retries", "1", "--views", "utterances", "--prompts", "zero-shot", test}, "/v1/chat/completions?key=REDACTED"},
		{[]string{"speech", "transcribe", "--asr-base-url", base, "--decode-cache", "off", wav}, "/v1/audio/transcriptions?key=REDACTED"},
		{[]string{"speech", "tts", "--tts-base-url", base, "--text", "hi", "--out", filepath.Join(t.TempDir(), "x.wav")}, "/v1/audio/speech?key=REDACTED"},
	} {
		code, stdout, stderr := scoreCLI(c.args...)
		if code == 0 || strings.Contains(stderr+stdout, secret) || !strings.Contains(stderr, c.path) {
			t.Errorf("%s %s: exit %d\n%s", c.args[0], c.args[1], code, stderr)
		}
	}
}
