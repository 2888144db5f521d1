package llm_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/llm"
)

// Transcribe posts the file as multipart with verbose_json and word
// timestamps, sends a userinfo key as Bearer and never prints it, and
// reads words at the top level or inside segments (whisper.cpp).
func TestTranscribeVerboseJSON(t *testing.T) {
	var got struct {
		format, grans, model, auth string
		size                       int
	}
	reply := `{"text": "hi there", "language": "en", "duration": 1.0, "words": [{"word": " hi", "start": 0.1, "end": 0.3}, {"word": "there", "start": 0.35, "end": 0.8}]}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/audio/transcriptions" {
			http.Error(w, `{"error": {"message": "no such endpoint; key sk-secret-123456 rejected"}}`, 404)
			return
		}
		if err := r.ParseMultipartForm(32 << 20); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		got.format, got.model, got.auth = r.FormValue("response_format"), r.FormValue("model"), r.Header.Get("Authorization")
		got.grans = strings.Join(r.MultipartForm.Value["timestamp_granularities[]"], ",")
		f, _, _ := r.FormFile("file")
		b, _ := io.ReadAll(f)
		got.size = len(b)
		fmt.Fprint(w, reply)
	}))
	defer srv.Close()
	dir := t.TempDir()
	p := filepath.Join(dir, "a.wav")
	if err := os.WriteFile(p, []byte("RIFF\x24\x00\x00\x00WAVEfake audio bytes"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := strings.Replace(srv.URL, "http://", "http://u:sk-secret-123456@", 1) + "/v1"
	tr, err := llm.Transcribe(context.Background(), llm.ASRConfig{BaseURL: base, Model: "whisper-1"}, p)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(p)
	if got.format != "verbose_json" || !strings.Contains(got.grans, "word") || got.model != "whisper-1" || got.auth != "Bearer sk-secret-123456" || got.size != int(st.Size()) {
		t.Fatalf("server saw %+v", got)
	}
	if len(tr.Words) != 2 || tr.Words[0] != (llm.TimedWord{Word: "hi", Start: 0.1, End: 0.3}) {
		t.Fatalf("words %+v", tr.Words)
	}
	reply = `{"text": "hi", "segments": [{"start": 0, "end": 1, "text": "hi", "words": [{"word": "hi", "start": 0.2, "end": 0.4}]}]}`
	if tr, err = llm.Transcribe(context.Background(), llm.ASRConfig{BaseURL: srv.URL + "/v1"}, p); err != nil || len(tr.Words) != 1 || tr.Words[0].Start != 0.2 {
		t.Fatalf("segment words: %+v %v", tr, err)
	}
	reply = `{"text": "hi", "segments": [{"start": 0, "end": 1, "text": "hi"}]}`
	if _, err = llm.Transcribe(context.Background(), llm.ASRConfig{BaseURL: srv.URL + "/v1"}, p); err == nil || !strings.Contains(err.Error(), "timestamp_granularities") {
		t.Fatalf("no word timestamps accepted: %v", err)
	}
	_, err = llm.Transcribe(context.Background(), llm.ASRConfig{BaseURL: strings.Replace(srv.URL, "http://", "http://u:sk-secret-123456@", 1) + "/wrong"}, p)
	if err == nil || strings.Contains(err.Error(), "sk-secret") || !strings.Contains(err.Error(), "404") {
		t.Fatalf("404: %v", err)
	}
}

// The audio endpoints join their path before a query key, send it, and
// never print it, also when the connection is refused.
func TestAudioEndpointsKeepAndHideQueryKey(t *testing.T) {
	const secret = "SECRET-a1b2c3"
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.URL.Path+" "+r.URL.Query().Get("key"))
		http.Error(w, "denied for key "+secret, 403)
	}))
	defer srv.Close()
	p := filepath.Join(t.TempDir(), "a.wav")
	if err := os.WriteFile(p, []byte("RIFF\x24\x00\x00\x00WAVEfake"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, base := range []string{srv.URL + "/v1?key=" + secret, "http://127.0.0.1:1/v1?key=" + secret} {
		_, err := llm.Transcribe(ctx, llm.ASRConfig{BaseURL: base, Model: "w"}, p)
		if err == nil || strings.Contains(err.Error(), secret) || !strings.Contains(err.Error(), "/v1/audio/transcriptions?key=REDACTED") {
			t.Errorf("transcribe %s: %v", llm.RedactURL(base), err)
		}
		_, err = llm.Speak(ctx, llm.TTSConfig{BaseURL: base, Model: "t", Voice: "v"}, "hi")
		if err == nil || strings.Contains(err.Error(), secret) || !strings.Contains(err.Error(), "/v1/audio/speech?key=REDACTED") {
			t.Errorf("speak %s: %v", llm.RedactURL(base), err)
		}
	}
	if want := []string{"/v1/audio/transcriptions " + secret, "/v1/audio/speech " + secret}; fmt.Sprint(paths) != fmt.Sprint(want) {
		t.Errorf("server saw %v, want %v", paths, want)
	}
}
