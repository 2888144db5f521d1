package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/hub/hubtest"
	"github.com/roleprint/roleprint/stats"
)

// TestSpeakerModelEndToEnd publishes the tiny speaker model on a stand-in
// Hub, fetches it with `setup --model`, stops the server and runs `speech
// similarity` and `speech reference` with it from the cache.
func TestSpeakerModelEndToEnd(t *testing.T) {
	dir := filepath.Join(speechFixtures, "speaker")
	files, err := hubtest.ReadDir(dir, map[string]string{"reference.json": ""})
	if err != nil {
		t.Fatal(err)
	}
	h := hubtest.New(t)
	h.Add("test/tiny-speaker", "main", files)
	h.Use(t)
	code, stdout, stderr := neuralRun("setup", "--model", "test/tiny-speaker", "--json")
	if code != 0 || !strings.Contains(stdout, `"hf:test/tiny-speaker"`) || !strings.Contains(stdout, "model.onnx") {
		t.Fatalf("setup --model: exit %d: %s\n%s", code, stderr, stdout)
	}
	h.Close()

	var ref struct {
		Embeddings []struct {
			WAV       string    `json:"wav"`
			Embedding []float64 `json:"embedding"`
		} `json:"embeddings"`
	}
	b, _ := os.ReadFile(filepath.Join(dir, "reference.json"))
	if err := json.Unmarshal(b, &ref); err != nil || len(ref.Embeddings) != 3 {
		t.Fatal(err)
	}
	wav := func(i int) string { return filepath.Join("..", "..", filepath.FromSlash(ref.Embeddings[i].WAV)) }
	code, stdout, stderr = runSpeechCLI(t, "similarity", "--json", "--embedder", "hf:test/tiny-speaker", "--reference", wav(0), wav(1), wav(2))
	if code != 0 {
		t.Fatalf("similarity: exit %d: %s", code, stderr)
	}
	var sim struct {
		Embedder string `json:"embedder"`
		Files    []struct {
			Similarity float64 `json:"similarity"`
		} `json:"files"`
	}
	if err := json.Unmarshal([]byte(stdout), &sim); err != nil || sim.Embedder != "hf:test/tiny-speaker" || len(sim.Files) != 2 {
		t.Fatalf("similarity output %s (%v)", stdout, err)
	}
	for i, f := range sim.Files {
		want := stats.Cosine(ref.Embeddings[0].Embedding, ref.Embeddings[i+1].Embedding)
		if math.Abs(f.Similarity-want) > 1e-5 {
			t.Errorf("similarity of %s: %g, PyTorch's embeddings give %g", ref.Embeddings[i+1].WAV, f.Similarity, want)
		}
	}
	// The MFCC statistics stay the default, named as the fallback.
	code, stdout, _ = runSpeechCLI(t, "similarity", "--json", "--reference", wav(0), wav(1), wav(2))
	if code != 0 || !strings.Contains(stdout, "offline fallback") {
		t.Fatalf("similarity with MFCC statistics: exit %d: %s", code, stdout)
	}

	abs, _ := filepath.Abs(filepath.Join(speechFixtures, "espeak"))
	var utts []data.Utterance
	for i, c := range []struct{ speaker, file string }{
		{"OPHELIA", "voice-en-f2-p70-a.wav"}, {"OPHELIA", "voice-en-f2-p70-b.wav"}, {"OPHELIA", "rate-en-m3-p50-s140.wav"},
		{"GHOST", "voice-enus-m1-p30-a.wav"}, {"GHOST", "voice-enus-m1-p30-b.wav"},
	} {
		utts = append(utts, data.Utterance{Source: "espeak", ConversationID: "c", Turn: int32(i), Speaker: c.speaker,
			Text: "She sells sea shells.", AudioPath: filepath.Join(abs, c.file)})
	}
	in := filepath.Join(t.TempDir(), "utts.parquet")
	if err := data.WriteUtterances(in, utts); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = runSpeechCLI(t, "reference", "--json", "--embedder", "hf:test/tiny-speaker", "--in", in)
	if code != 0 {
		t.Fatalf("reference: exit %d: %s", code, stderr)
	}
	var refs struct {
		References []struct {
			Character, Embedder string
			Clips               int
		} `json:"references"`
	}
	if err := json.Unmarshal([]byte(stdout), &refs); err != nil || len(refs.References) != 2 {
		t.Fatalf("reference output %s (%v)", stdout, err)
	}
	for _, r := range refs.References {
		if r.Embedder != "hf:test/tiny-speaker" {
			t.Errorf("%s chosen with %q", r.Character, r.Embedder)
		}
	}
	code, _, stderr = runSpeechCLI(t, "reference", "--embedder", "hf:test/absent", "--in", in)
	if code == 0 || !strings.Contains(stderr, "roleprint setup --model test/absent") {
		t.Errorf("absent speaker model: exit %d: %s", code, stderr)
	}
}
