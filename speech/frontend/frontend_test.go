package frontend_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/llm"
	"github.com/roleprint/roleprint/speech"
	"github.com/roleprint/roleprint/speech/frontend"
)

// tone writes a mono 16-bit WAV of a 220 Hz tone.
func tone(t *testing.T, path string, rate, seconds float64) {
	t.Helper()
	n := int(rate * seconds)
	s := &speech.Sound{Rate: rate, Samples: make([]float64, n)}
	for i := range s.Samples {
		s.Samples[i] = 0.5 * math.Sin(2*math.Pi*220*float64(i)/rate)
	}
	if err := speech.WriteWAV(path, s, 16); err != nil {
		t.Fatal(err)
	}
}

func needFFmpeg(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("ffmpeg not installed (apt-get install ffmpeg)")
	}
}

// toMP3 encodes a WAV as MP3 with ffmpeg.
func toMP3(t *testing.T, wav, mp3 string) {
	t.Helper()
	if out, err := exec.Command("ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-i", wav, "-codec:a", "libmp3lame", "-b:a", "64k", mp3).CombinedOutput(); err != nil {
		t.Skipf("ffmpeg cannot encode MP3 here: %v %s", err, out)
	}
}

// An MP3 decodes through ffmpeg to 16 kHz (or 44.1 kHz) mono, once: the
// conversion is cached by content, so a second decode needs no ffmpeg.
func TestDecodeMP3ThroughFFmpegIsCached(t *testing.T) {
	needFFmpeg(t)
	dir := t.TempDir()
	wav, mp3 := filepath.Join(dir, "a.wav"), filepath.Join(dir, "a.mp3")
	tone(t, wav, 22050, 1.5)
	toMP3(t, wav, mp3)
	cache := filepath.Join(dir, "cache")
	for _, rate := range []int{frontend.ASRRate, frontend.VoxRoleAlignRate} {
		s, err := frontend.Decode(context.Background(), mp3, frontend.DecodeOptions{Rate: rate, CacheDir: cache})
		if err != nil {
			t.Fatal(err)
		}
		if s.Rate != float64(rate) || math.Abs(s.Duration()-1.5) > 0.1 {
			t.Fatalf("decoded at %g Hz, %.3f s; want %d Hz, 1.5 s", s.Rate, s.Duration(), rate)
		}
		f, err := speech.Analyze(s, "", speech.DefaultConfig())
		if err != nil || math.Abs(f.F0MeanHz-220) > 5 {
			t.Fatalf("decoded tone has F0 %.1f Hz (%v), want 220", f.F0MeanHz, err)
		}
	}
	files, _ := filepath.Glob(filepath.Join(cache, "*", "*.wav"))
	if len(files) != 2 {
		t.Fatalf("cache holds %v", files)
	}
	// Cached: a missing ffmpeg does not matter any more...
	if _, err := frontend.Decode(context.Background(), mp3, frontend.DecodeOptions{CacheDir: cache, FFmpeg: "/nonexistent/ffmpeg"}); err != nil {
		t.Fatalf("cached decode needed ffmpeg: %v", err)
	}
	// ...but for a new file it is named, with the Debian package.
	other := filepath.Join(dir, "b.flac")
	os.WriteFile(other, []byte("fLaC not really"), 0o644)
	_, err := frontend.Decode(context.Background(), other, frontend.DecodeOptions{CacheDir: cache, FFmpeg: "/nonexistent/ffmpeg"})
	if !errors.Is(err, frontend.ErrNoFFmpeg) || !strings.Contains(err.Error(), "apt-get install ffmpeg") || !strings.Contains(err.Error(), other) {
		t.Fatalf("missing ffmpeg: %v", err)
	}
	// A file ffmpeg cannot read is named with ffmpeg's reason.
	if _, err := frontend.Decode(context.Background(), other, frontend.DecodeOptions{CacheDir: cache}); err == nil || !strings.Contains(err.Error(), other) {
		t.Fatalf("bad FLAC: %v", err)
	}
}

// A streamed WAV whose header declares a placeholder size fails strictly,
// with a hint, and reads with AllowTruncated; ConvertWAV rewrites it
// with true sizes.
func TestTruncatedStreamWAV(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "stream.wav")
	tone(t, p, 16000, 1)
	b, _ := os.ReadFile(p)
	binary.LittleEndian.PutUint32(b[4:], 0x7ffff024)  // RIFF size as espeak-ng --stdout writes
	binary.LittleEndian.PutUint32(b[40:], 0x7ffff000) // data size
	os.WriteFile(p, b, 0o644)
	if _, err := speech.ReadWAV(p); err == nil || !strings.Contains(err.Error(), "--allow-truncated") {
		t.Fatalf("strict read: %v", err)
	}
	s, err := frontend.Decode(context.Background(), p, frontend.DecodeOptions{AllowTruncated: true, CacheDir: "off"})
	if err != nil || math.Abs(s.Duration()-1) > 0.01 {
		t.Fatalf("allow truncated: %v", err)
	}
	out, cleanup, err := frontend.ConvertWAV(context.Background(), p, frontend.DecodeOptions{AllowTruncated: true, CacheDir: filepath.Join(dir, "c")})
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	if out == p {
		t.Fatal("a truncated WAV was passed on as it is")
	}
	if s2, err := speech.ReadWAV(out); err != nil || len(s2.Samples) != len(s.Samples) {
		t.Fatalf("rewritten WAV: %v", err)
	}
}

// Synthesize writes the server's WAV atomically and refuses a reply that
// is not one.
func TestSynthesize(t *testing.T) {
	dir := t.TempDir()
	ref := filepath.Join(dir, "ref.wav")
	tone(t, ref, 24000, 0.3)
	wavBytes, _ := os.ReadFile(ref)
	var body map[string]any
	mp3 := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		json.NewDecoder(r.Body).Decode(&body)
		if mp3 {
			w.Write([]byte("ID3\x03 mp3 data"))
			return
		}
		w.Write(wavBytes)
	}))
	defer srv.Close()
	out := filepath.Join(dir, "sub", "line.wav")
	cfg := llm.TTSConfig{BaseURL: srv.URL + "/v1", Model: "tts-1", Voice: "alloy"}
	if err := frontend.Synthesize(context.Background(), cfg, "Hello there.", out); err != nil {
		t.Fatal(err)
	}
	if s, err := speech.ReadWAV(out); err != nil || s.Rate != 24000 || body["input"] != "Hello there." || body["response_format"] != "wav" || body["voice"] != "alloy" {
		t.Fatalf("tts: %v %+v", err, body)
	}
	mp3 = true
	if err := frontend.Synthesize(context.Background(), cfg, "x", filepath.Join(dir, "x.wav")); err == nil || !strings.Contains(err.Error(), "not a WAV") {
		t.Fatalf("mp3 reply accepted: %v", err)
	}
}
