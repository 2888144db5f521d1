package spkemb

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data/hub"
	"github.com/roleprint/roleprint/data/hub/hubtest"
	"github.com/roleprint/roleprint/speech"
)

// publish serves testdata/speaker as a Hub repository and fetches it into
// a fresh Hugging Face cache (HF_HUB_CACHE for the rest of the test).
func publish(t *testing.T, id string) *hubtest.Hub {
	t.Helper()
	files, err := hubtest.ReadDir(filepath.Join("..", "testdata", "speaker"), map[string]string{"reference.json": "", "model.onnx": "tiny_speaker.onnx"})
	if err != nil {
		t.Fatal(err)
	}
	files["avg_model.pt"] = []byte("a PyTorch checkpoint, not fetched")
	h := hubtest.New(t)
	h.Add(id, "main", files)
	cache := t.TempDir()
	t.Setenv("HF_HUB_CACHE", cache)
	c := hub.Client{Endpoint: h.URL, CacheDir: cache}
	_, got, err := c.Download(context.Background(), hub.Ref{ID: id, Revision: "main"}, SpeakerFiles)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, ",") != "config.yaml,tiny_speaker.onnx" {
		t.Fatalf("fetched %v", got)
	}
	return h
}

// tinyModel publishes the tiny test speaker model on a local hub, loads
// it from there (the hub closed, so from the cache) and closes it when t
// ends.
func tinyModel(t *testing.T) *Model {
	t.Helper()
	publish(t, "test/tiny-speaker").Close()
	m, err := FromHub("test/tiny-speaker", DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m
}

func TestEmbeddingMatchesPyTorch(t *testing.T) {
	m := tinyModel(t)
	var ref struct {
		Embeddings []struct {
			WAV       string    `json:"wav"`
			Embedding []float64 `json:"embedding"`
		} `json:"embeddings"`
	}
	b, err := os.ReadFile(filepath.Join("..", "testdata", "speaker", "reference.json"))
	if err != nil || json.Unmarshal(b, &ref) != nil || len(ref.Embeddings) < 2 {
		t.Fatalf("reference: %v", err)
	}
	for _, r := range ref.Embeddings {
		s, err := speech.ReadWAV(filepath.Join("..", "..", filepath.FromSlash(r.WAV)))
		if err != nil {
			t.Fatal(err)
		}
		got, err := m.Embed(s)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(r.Embedding) {
			t.Fatalf("%s: %d dims, want %d", r.WAV, len(got), len(r.Embedding))
		}
		var worst float64
		for i := range got {
			worst = math.Max(worst, math.Abs(got[i]-r.Embedding[i]))
		}
		t.Logf("%s: max |Go − PyTorch| = %.2g", r.WAV, worst)
		if worst > 1e-5 {
			t.Errorf("%s: embedding differs from PyTorch's by %g", r.WAV, worst)
		}
	}
}

func TestFromHubErrors(t *testing.T) {
	t.Setenv("HF_HUB_CACHE", t.TempDir())
	if _, err := FromHub("test/absent", DefaultConfig()); !errors.Is(err, hub.ErrNotCached) || !strings.Contains(err.Error(), "roleprint setup --model test/absent") {
		t.Fatalf("absent model: %v", err)
	}
	if _, err := SpeakerFiles([]hub.File{{Name: "avg_model.pt"}, {Name: "config.yaml"}}); err == nil || !strings.Contains(err.Error(), "export_onnx") {
		t.Fatalf("checkpoint-only repository: %v", err)
	}
}

func TestManyClipLengths(t *testing.T) {
	// More distinct clip lengths than GoMLX keeps compiled graphs for:
	// every clip is embedded, and a clip's vector does not depend on
	// what was embedded before.
	m := tinyModel(t)
	s, err := speech.ReadWAV(filepath.Join("..", "testdata", "espeak", "voice-en-f2-p70-a.wav"))
	if err != nil {
		t.Fatal(err)
	}
	var first []float64
	for i := 0; i < 3*maxGraphs; i++ {
		clip, err := s.Slice(0, 0.5+0.011*float64(i))
		if err != nil {
			t.Fatal(err)
		}
		v, err := m.Embed(clip)
		if err != nil {
			t.Fatalf("clip %d: %v", i, err)
		}
		if i == 0 {
			first = v
		}
	}
	clip, _ := s.Slice(0, 0.5)
	again, err := m.Embed(clip)
	if err != nil {
		t.Fatal(err)
	}
	for i := range first {
		if first[i] != again[i] {
			t.Fatalf("the first clip embeds differently after recompiling: %v vs %v", first[:3], again[:3])
		}
	}
}
