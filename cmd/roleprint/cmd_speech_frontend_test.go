package main

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"github.com/roleprint/roleprint/speech/frontend"
	"io"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/llm/llmtest"
	"github.com/roleprint/roleprint/speech"
)

// A batch with one bad file reports the good files and names the bad one,
// in the table and with --json (one entry per file), and exits 1.
func TestSpeechFeaturesBatchWithBadFile(t *testing.T) {
	good1 := filepath.Join(speechFixtures, "espeak", "voice-en-f2-p70-a.wav")
	good2 := filepath.Join(speechFixtures, "espeak", "voice-en-f2-p70-b.wav")
	bad := filepath.Join(t.TempDir(), "broken.wav")
	os.WriteFile(bad, []byte("RIFF\x10\x00\x00\x00WAVEjunk"), 0o644)
	code, stdout, stderr := runSpeechCLI(t, "features", "--json", good1, bad, good2)
	if code != 1 || !strings.Contains(stderr, "broken.wav") || !strings.Contains(stderr, "1 of 3") {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	var out struct {
		Files []struct {
			File     string  `json:"file"`
			Error    string  `json:"error"`
			F0MeanHz float64 `json:"f0_mean_hz"`
		} `json:"files"`
		Failed int `json:"failed"`
	}
	decodeOne(t, stdout, &out)
	if len(out.Files) != 3 || out.Failed != 1 || out.Files[1].File != bad || out.Files[1].Error == "" ||
		out.Files[0].Error != "" || out.Files[0].F0MeanHz < 100 || out.Files[2].F0MeanHz < 100 {
		t.Fatalf("json %+v", out)
	}
	code, stdout, _ = runSpeechCLI(t, "features", good1, bad)
	if code != 1 || !strings.Contains(stdout, "voice-en-f2-p70-a.wav") || !strings.Contains(stdout, "FAILED") {
		t.Fatalf("table: exit %d\n%s", code, stdout)
	}
}

// A streamed WAV with placeholder sizes (espeak-ng --stdout > x.wav) needs
// --allow-truncated, which the error names.
func TestSpeechFeaturesAllowTruncated(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(speechFixtures, "espeak", "voice-en-f2-p70-a.wav"))
	if err != nil {
		t.Fatal(err)
	}
	off := 12
	for off+8 <= len(b) && string(b[off:off+4]) != "data" {
		off += 8 + int(binary.LittleEndian.Uint32(b[off+4:]))
	}
	binary.LittleEndian.PutUint32(b[4:], 0x7ffff024)
	binary.LittleEndian.PutUint32(b[off+4:], 0x7ffff000)
	p := filepath.Join(t.TempDir(), "stream.wav")
	os.WriteFile(p, b, 0o644)
	if code, _, stderr := runSpeechCLI(t, "features", p); code != 1 || !strings.Contains(stderr, "--allow-truncated") {
		t.Fatalf("strict: exit %d %s", code, stderr)
	}
	code, stdout, stderr := runSpeechCLI(t, "features", "--allow-truncated", "--json", p)
	if code != 0 {
		t.Fatalf("--allow-truncated: exit %d %s", code, stderr)
	}
	var out struct {
		Files []struct {
			DurationS float64 `json:"duration_s"`
		} `json:"files"`
	}
	decodeOne(t, stdout, &out)
	if len(out.Files) != 1 || out.Files[0].DurationS < 1 {
		t.Fatalf("%s", stdout)
	}
}

// align from an MP3 and a script: the MP3 is decoded (ffmpeg) to a 16 kHz
// WAV, sent to a fake OpenAI-compatible transcription server whose words
// are the script's, aligned, and cut into two-speaker segments.
func TestAlignFromMP3ThroughTranscriptionServer(t *testing.T) {
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("ffmpeg not installed (apt-get install ffmpeg)")
	}
	dir := t.TempDir()
	lines := [][2]string{
		{"Ann", "Good morning, did you sleep at all?"}, {"Bob", "Not a wink, the storm kept me up."},
		{"Ann", "The roof leaked again, I suppose."}, {"Bob", "Right over my desk, of course."},
		{"Ann", "Then we fix it today, together."}, {"Bob", "Fine, but coffee first."},
	}
	var script strings.Builder
	script.WriteString("Scene: The kitchen.\n")
	for _, l := range lines {
		fmt.Fprintf(&script, "%s: %s\n", l[0], l[1])
	}
	scriptPath := filepath.Join(dir, "scene.txt")
	os.WriteFile(scriptPath, []byte(script.String()), 0o644)
	// 12 s of tone as the "episode", encoded as MP3.
	wav, mp3 := filepath.Join(dir, "ep.wav"), filepath.Join(dir, "ep.mp3")
	s := &speech.Sound{Rate: 22050, Samples: make([]float64, 22050*12)}
	for i := range s.Samples {
		s.Samples[i] = 0.3 * math.Sin(2*math.Pi*180*float64(i)/22050)
	}
	if err := speech.WriteWAV(wav, s, 16); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-i", wav, "-codec:a", "libmp3lame", mp3).CombinedOutput(); err != nil {
		t.Skipf("ffmpeg cannot encode MP3: %v %s", err, out)
	}
	// The fake recogniser: the script's words, 0.25 s each, lines 0.5 s apart.
	var words []map[string]any
	tm := 0.2
	for _, l := range lines {
		for _, x := range strings.Fields(l[1]) {
			words = append(words, map[string]any{"word": " " + x, "start": tm, "end": tm + 0.22})
			tm += 0.25
		}
		tm += 0.5
	}
	var uploaded *speech.Sound
	srv := llmtest.New(nil)
	defer srv.Close()
	srv.Handle("/v1/audio/transcriptions", func(rw http.ResponseWriter, r *http.Request) {
		if err := r.ParseMultipartForm(64 << 20); err != nil || r.FormValue("response_format") != "verbose_json" {
			http.Error(rw, "want multipart verbose_json", 400)
			return
		}
		f, _, err := r.FormFile("file")
		if err != nil {
			http.Error(rw, err.Error(), 400)
			return
		}
		b, _ := io.ReadAll(f)
		uploaded, _ = speech.DecodeWAV(b, "upload", speech.ReadOptions{})
		json.NewEncoder(rw).Encode(map[string]any{"text": "…", "language": "en", "duration": 12.0, "words": words})
	})
	transcript := filepath.Join(dir, "words.json")
	code, stdout, stderr := runPersonaCLI(t, "align", "--audio", mp3, "--asr-base-url", srv.BaseURL, "--decode-cache", filepath.Join(dir, "cache"),
		"--min-turns", "3", "--save-transcript", transcript, "--json", scriptPath)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if uploaded == nil || uploaded.Rate != 16000 || math.Abs(uploaded.Duration()-12) > 0.2 {
		t.Fatalf("the server did not get the MP3 as a 16 kHz WAV: %+v", uploaded)
	}
	var res alignJSON
	decodeOne(t, stdout, &res)
	if res.Stats.Lines != 6 || res.Stats.ValidLines != 6 || res.Segments != 1 || res.SegmentTurns != 6 || res.Audio != mp3 {
		t.Fatalf("alignment %+v", res)
	}
	// The saved transcript is a TRANSCRIPT align reads back, same result.
	code, stdout, stderr = runPersonaCLI(t, "align", "--json", "--min-turns", "3", scriptPath, transcript)
	var again alignJSON
	if code != 0 {
		t.Fatalf("re-align: %s", stderr)
	}
	decodeOne(t, stdout, &again)
	if again.Stats != res.Stats || again.Segments != 1 {
		t.Fatalf("saved transcript aligns differently: %+v vs %+v", again.Stats, res.Stats)
	}
	// No server: the flag to set is named.
	if code, _, stderr := runPersonaCLI(t, "align", "--audio", mp3, scriptPath); code != 2 || !strings.Contains(stderr, "--asr-base-url") {
		t.Fatalf("no ASR server: exit %d %s", code, stderr)
	}
}

// speech tts speaks the agent lines of a generated corpus (not the
// greeting) and writes the corpus with audio_path; a rerun reuses them.
func TestSpeechTTSCascade(t *testing.T) {
	dir := t.TempDir()
	ref := filepath.Join(dir, "r.wav")
	s := &speech.Sound{Rate: 24000, Samples: make([]float64, 2400)}
	speech.WriteWAV(ref, s, 16)
	wavBytes, _ := os.ReadFile(ref)
	srv := llmtest.New(nil)
	defer srv.Close()
	var voices []string
	srv.Handle("/v1/audio/speech", func(rw http.ResponseWriter, r *http.Request) {
		var body map[string]any
		json.NewDecoder(r.Body).Decode(&body)
		voices = append(voices, fmt.Sprint(body["voice"]))
		rw.Write(wavBytes)
	})
	gen := []data.Utterance{
		{Source: "selfplay", ConversationID: "A+B#0", Turn: 0, Speaker: "User", Text: "Hello!", AgentModel: "m", Role: "A"},
		{Source: "selfplay", ConversationID: "A+B#0", Turn: 1, Speaker: "A", Text: "Hi.", AgentModel: "m", Role: "A"},
		{Source: "selfplay", ConversationID: "A+B#0", Turn: 2, Speaker: "B", Text: "Yo.", AgentModel: "m", Role: "B"},
	}
	in, out := filepath.Join(dir, "gen.parquet"), filepath.Join(dir, "spoken.parquet")
	data.WriteUtterances(in, gen)
	args := []string{"tts", "--in", in, "--out", out, "--tts-base-url", srv.BaseURL, "--voice", "nova,B=onyx", "--json"}
	code, stdout, stderr := runSpeechCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	var res speechTTSJSON
	decodeOne(t, stdout, &res)
	rows, _ := data.ReadUtterances(out)
	if res.Synthesized != 2 || len(rows) != 3 || rows[0].AudioPath != "" || rows[1].AudioPath == "" || strings.Join(voices, ",") != "nova,onyx" {
		t.Fatalf("tts %+v rows %+v voices %v", res, rows, voices)
	}
	if _, err := speech.ReadWAV(rows[2].AudioPath); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ = runSpeechCLI(t, args...)
	decodeOne(t, stdout, &res)
	if code != 0 || res.Reused != 2 || res.Synthesized != 0 {
		t.Fatalf("rerun %+v", res)
	}
}

// speech tts --text --json speaks one text into a WAV and prints one JSON
// object naming it (it used to print nothing).
func TestSpeechTTSTextJSON(t *testing.T) {
	dir := t.TempDir()
	ref := filepath.Join(dir, "r.wav")
	speech.WriteWAV(ref, &speech.Sound{Rate: 24000, Samples: make([]float64, 2400)}, 16)
	wavBytes, _ := os.ReadFile(ref)
	srv := llmtest.New(nil)
	defer srv.Close()
	srv.Handle("/v1/audio/speech", func(rw http.ResponseWriter, r *http.Request) { rw.Write(wavBytes) })
	out := filepath.Join(dir, "hello.wav")
	code, stdout, stderr := runSpeechCLI(t, "tts", "--text", "Hello there.", "--out", out, "--tts-base-url", srv.BaseURL, "--json")
	if code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	var res speechTTSJSON
	decodeOne(t, stdout, &res)
	if res.Output != out || res.Synthesized != 1 {
		t.Fatalf("tts --text %+v", res)
	}
	if s, err := speech.ReadWAV(out); err != nil || s.Duration() <= 0 {
		t.Fatalf("spoken WAV: %v", err)
	}
}

// speech convert --out-dir refuses a second input of the same name
// instead of overwriting the first one's WAV.
func TestSpeechConvertSameNameTwice(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a", "x.wav"), filepath.Join(dir, "b", "x.wav")
	for i, p := range []string{a, b} {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := speech.WriteWAV(p, &speech.Sound{Rate: float64(frontend.ASRRate), Samples: make([]float64, (i+1)*1600)}, 16); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "out")
	code, stdout, _ := runSpeechCLI(t, "convert", "--out-dir", out, "--json", a, b)
	var res speechConvertJSON
	decodeOne(t, stdout, &res)
	if code == 0 || len(res.Files) != 2 || res.Files[0].Error != "" || !strings.Contains(res.Files[1].Error, "already went to") {
		t.Fatalf("exit %d, %+v", code, res)
	}
	s, err := speech.ReadWAV(filepath.Join(out, "x.wav"))
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(s.Duration()-0.1) > 1e-3 {
		t.Fatalf("out/x.wav lasts %.3f s, want a/x.wav's 0.1 s", s.Duration())
	}
}

// Two lines whose IDs read the same after safeName ("A+B#0", "A B#0") get
// their own recordings: the second must not reuse the first's WAV.
func TestSpeechTTSNameCollision(t *testing.T) {
	dir := t.TempDir()
	ref := filepath.Join(dir, "r.wav")
	speech.WriteWAV(ref, &speech.Sound{Rate: 24000, Samples: make([]float64, 2400)}, 16)
	wavBytes, _ := os.ReadFile(ref)
	srv := llmtest.New(nil)
	defer srv.Close()
	var spoken []string
	srv.Handle("/v1/audio/speech", func(rw http.ResponseWriter, r *http.Request) {
		var body map[string]any
		json.NewDecoder(r.Body).Decode(&body)
		spoken = append(spoken, fmt.Sprint(body["input"]))
		rw.Write(wavBytes)
	})
	gen := []data.Utterance{
		{Source: "selfplay", ConversationID: "A+B#0", Turn: 1, Speaker: "A", Text: "First.", AgentModel: "m", Role: "A"},
		{Source: "selfplay", ConversationID: "A B#0", Turn: 1, Speaker: "A", Text: "Second.", AgentModel: "m", Role: "A"},
	}
	in, out := filepath.Join(dir, "gen.parquet"), filepath.Join(dir, "spoken.parquet")
	data.WriteUtterances(in, gen)
	args := []string{"tts", "--in", in, "--out", out, "--tts-base-url", srv.BaseURL, "--json"}
	code, stdout, stderr := runSpeechCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	var res speechTTSJSON
	decodeOne(t, stdout, &res)
	rows, _ := data.ReadUtterances(out)
	if res.Synthesized != 2 || len(rows) != 2 || rows[0].AudioPath == rows[1].AudioPath || strings.Join(spoken, "|") != "First.|Second." {
		t.Fatalf("tts %+v, spoken %q, audio %q %q", res, spoken, rows[0].AudioPath, rows[1].AudioPath)
	}
	// A rerun finds both recordings again.
	code, stdout, _ = runSpeechCLI(t, args...)
	decodeOne(t, stdout, &res)
	rows2, _ := data.ReadUtterances(out)
	if code != 0 || res.Reused != 2 || len(rows2) != 2 || rows2[1].AudioPath != rows[1].AudioPath {
		t.Fatalf("rerun %+v", res)
	}
}
