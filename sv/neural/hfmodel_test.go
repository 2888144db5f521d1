package neural

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/roleprint/roleprint/data/hub"
	"github.com/roleprint/roleprint/data/hub/hubtest"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
)

// sentenceReference is the part of reference.json written for the Hub
// tests: PyTorch's sentence vectors of the tokenizer sentences.
type sentenceReference struct {
	Tokenization []struct {
		Text string `json:"text"`
	} `json:"tokenization"`
	Pooling    string      `json:"sentence_pooling"`
	Embeddings [][]float64 `json:"sentence_embeddings"`
}

// publishFixture serves testdata/onnx/FIXTURE on a stand-in Hub as
// repository id (model.onnx as onnx/model.onnx, as sentence-transformers
// repositories hold it), fetches it into a fresh Hugging Face cache
// (HF_HUB_CACHE for the rest of the test) and returns the stand-in.
func publishFixture(t *testing.T, fixture string, ids ...string) *hubtest.Hub {
	t.Helper()
	h := hubtest.New(t)
	files, err := hubtest.ReadDir(filepath.Join("testdata", "onnx", fixture), map[string]string{"model.onnx": "onnx/model.onnx", "reference.json": ""})
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	t.Setenv("HF_HUB_CACHE", cache)
	t.Setenv("HF_HUB_OFFLINE", "")
	c := hub.Client{Endpoint: h.URL, CacheDir: cache}
	for _, id := range ids {
		h.Add(id, "main", files)
		ref, err := hub.ParseRef(id)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := c.Download(context.Background(), ref, func(f []hub.File) ([]string, error) { return hub.TextEncoderFiles(id, f) }); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

func TestHFEncoderMatchesPyTorch(t *testing.T) {
	for _, fixture := range []string{"bert", "roberta"} {
		h := publishFixture(t, fixture, "test/tiny-"+fixture)
		h.Close() // everything below runs from the cache alone
		var ref sentenceReference
		if err := readJSON(filepath.Join("testdata", "onnx", fixture, "reference.json"), &ref); err != nil {
			t.Fatal(err)
		}
		if len(ref.Embeddings) != len(ref.Tokenization) || len(ref.Embeddings) == 0 {
			t.Fatalf("%s: reference has %d sentence vectors for %d sentences", fixture, len(ref.Embeddings), len(ref.Tokenization))
		}
		texts := make([]string, len(ref.Tokenization))
		for i, x := range ref.Tokenization {
			texts[i] = x.Text
		}
		for _, b := range []string{"go", "onnx"} {
			if b == "onnx" && !onnxAvailable() {
				continue
			}
			enc, err := sv.NewEncoder("hf:test/tiny-"+fixture, sv.EncoderOptions{Backend: b})
			if err != nil {
				t.Fatal(err)
			}
			got, err := enc.Encode(context.Background(), texts, nil)
			if err != nil {
				t.Fatal(err)
			}
			var worst float64
			for i := range got {
				for j := range got[i] {
					worst = math.Max(worst, math.Abs(float64(got[i][j])-ref.Embeddings[i][j]))
				}
			}
			t.Logf("%s (%s pooling) on %s: max |RolePrint − PyTorch| = %.2g", fixture, ref.Pooling, b, worst)
			if worst > 1e-5 {
				t.Errorf("%s on %s: sentence vectors differ from PyTorch's by %g (> 1e-5)", fixture, b, worst)
			}
			_ = enc.(sv.Closer).Close()
		}
	}
}

func TestHFEncoderFineTunes(t *testing.T) {
	h := publishFixture(t, "bert", "test/tiny-bert")
	h.Close()
	enc, err := sv.NewEncoder("hf:test/tiny-bert"+sv.FineTunedSuffix, sv.EncoderOptions{Backend: "go", Seed: 3, Settings: map[string]string{
		"max_len": "12", SetEpochs: "1", SetBatchPairs: "8", SetLearningRate: "2e-3", SetMaxUtterances: "4"}})
	if err != nil {
		t.Fatal(err)
	}
	defer enc.(sv.Closer).Close()
	train := synthCorpus(1, 8, 96)
	test := synthCorpus(2, 8, 96)
	before, after := trainAUC(t, enc, train, test)
	res := enc.(*Encoder).LastTrainResult()
	t.Logf("hf:test/tiny-bert_ft: %d steps, AUC %.3f → %.3f, loss %.4f → %.4f", len(res.Losses), before, after, res.Losses[0], res.Losses[len(res.Losses)-1])
	if len(res.Losses) != 12 || !(stats.Mean(res.Losses[len(res.Losses)-3:]) < stats.Mean(res.Losses[:3])) || !(after > before) {
		t.Fatal("the Hub model did not learn")
	}
}

func TestHFEncoderErrors(t *testing.T) {
	h := publishFixture(t, "bert", "test/tiny-bert")
	t.Setenv("HF_HUB_CACHE", t.TempDir()) // an empty cache
	_, err := sv.NewEncoder("hf:test/tiny-bert", sv.EncoderOptions{Backend: "go"})
	if !errors.Is(err, hub.ErrNotCached) || !strings.Contains(err.Error(), "roleprint setup --model test/tiny-bert") {
		t.Fatalf("missing model: %v", err)
	}
	if _, err := sv.NewEncoder("hf:not a model", sv.EncoderOptions{}); err == nil {
		t.Fatal("malformed reference accepted")
	}
	cache := t.TempDir()
	t.Setenv("HF_HUB_CACHE", cache)
	c := hub.Client{Endpoint: h.URL, CacheDir: cache}
	fetch := func(id string, files map[string][]byte) {
		t.Helper()
		h.Add(id, "main", files)
		if _, _, err := c.Download(context.Background(), hub.Ref{ID: id, Revision: "main"}, func(f []hub.File) ([]string, error) { return hub.TextEncoderFiles(id, f) }); err != nil {
			t.Fatal(err)
		}
	}
	fetch("test/safetensors-only", map[string][]byte{"config.json": []byte("{}"), "tokenizer.json": []byte("{}"), "model.safetensors": []byte("weights")})
	_, err = sv.NewEncoder("hf:test/safetensors-only", sv.EncoderOptions{Backend: "go"})
	if !errors.Is(err, ErrNoONNXExport) || !strings.Contains(err.Error(), "optimum-cli export onnx --model test/safetensors-only") {
		t.Fatalf("safetensors-only: %v", err)
	}
	files, _ := hubtest.ReadDir(filepath.Join("testdata", "onnx", "bert"), map[string]string{"model.onnx": "onnx/model.onnx", "reference.json": ""})
	files["modules.json"] = []byte(`[{"idx":0,"name":"0","path":"","type":"sentence_transformers.models.Transformer"},{"idx":1,"name":"1","path":"1_Pooling","type":"sentence_transformers.models.Pooling"},{"idx":2,"name":"2","path":"2_Dense","type":"sentence_transformers.models.Dense"}]`)
	fetch("test/dense", files)
	if _, err := sv.NewEncoder("hf:test/dense", sv.EncoderOptions{Backend: "go"}); !errors.Is(err, ErrUnsupportedModel) || !strings.Contains(err.Error(), "Dense") {
		t.Fatalf("Dense module: %v", err)
	}
}

func TestPaperPresetsFromHFCache(t *testing.T) {
	// The tiny model stands in for the paper's SBERT checkpoint.
	sbert, _ := PaperCheckpointFor("sbert")
	h := publishFixture(t, "bert", sbert.Checkpoint)
	h.Close()
	enc, err := sv.NewEncoder("sbert", sv.EncoderOptions{Backend: "go", CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if enc.Dim() != 32 {
		t.Fatalf("sbert from the cache: dim %d", enc.Dim())
	}
	_ = enc.(sv.Closer).Close()
	_, err = sv.NewEncoder("stel", sv.EncoderOptions{Backend: "go", CacheDir: t.TempDir()})
	if !errors.Is(err, ErrNoONNXExport) || !strings.Contains(err.Error(), "roleprint setup --model stel") || !strings.Contains(err.Error(), "AnnaWegmann/Style-Embedding") {
		t.Fatalf("stel absent: %v", err)
	}
	_, err = sv.NewEncoder("lisa", sv.EncoderOptions{Backend: "go", CacheDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "not published") {
		t.Fatalf("lisa: %v", err)
	}
	// checkpoint= points a preset at another cached model.
	enc, err = sv.NewEncoder("lisa", sv.EncoderOptions{Backend: "go", CacheDir: t.TempDir(), Settings: map[string]string{"checkpoint": sbert.Checkpoint}})
	if err != nil {
		t.Fatal(err)
	}
	_ = enc.(sv.Closer).Close()
}

// renameOutput rewrites an ONNX model so that its graph output from is
// called to (the producing node's output too).
func renameOutput(t *testing.T, raw []byte, from, to string) []byte {
	t.Helper()
	e, err := newONNXEditor(raw)
	if err != nil {
		t.Fatal(err)
	}
	outs := e.graph.Get(e.graph.Descriptor().Fields().ByName("output")).List()
	for i := 0; i < outs.Len(); i++ {
		vi := outs.Get(i).Message()
		fd := vi.Descriptor().Fields().ByName("name")
		if vi.Get(fd).String() == from {
			vi.Set(fd, protoreflect.ValueOfString(to))
		}
	}
	nodeOut := e.nd.Fields().ByName("output")
	for i := 0; i < e.nodes.Len(); i++ {
		l := e.nodes.Get(i).Message().Mutable(nodeOut).List()
		for j := 0; j < l.Len(); j++ {
			if l.Get(j).String() == from {
				l.Set(j, protoreflect.ValueOfString(to))
			}
		}
	}
	b, err := e.marshal()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestTaskHeadExportRefused(t *testing.T) {
	// A fill-mask export (FacebookAI/roberta-large's model.onnx may be
	// one) names its output "logits": refused rather than pooled.
	raw, err := os.ReadFile(filepath.Join("testdata", "onnx", "bert", "model.onnx"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "model.onnx"), renameOutput(t, raw, "last_hidden_state", "logits"), 0o644); err != nil {
		t.Fatal(err)
	}
	tok, _ := os.ReadFile(filepath.Join("testdata", "onnx", "bert", "tokenizer.json"))
	os.WriteFile(filepath.Join(dir, "tokenizer.json"), tok, 0o644)
	_, err = NewONNXModel("onnx", ONNXConfig{Path: filepath.Join(dir, "model.onnx")})
	if err == nil || !strings.Contains(err.Error(), "feature-extraction") {
		t.Fatalf("logits export: %v", err)
	}
	// Named explicitly, the output is the user's choice.
	if _, err := NewONNXModel("onnx", ONNXConfig{Path: filepath.Join(dir, "model.onnx"), Output: "logits"}); err != nil {
		t.Fatal(err)
	}
}

func TestPretrainedRowsRejectUnknownSettings(t *testing.T) {
	for _, row := range []string{"roberta", "sbert_ft", "stel", "lisa", "luar_ft", ONNXName} {
		_, err := sv.NewEncoder(row, sv.EncoderOptions{Backend: "go", CacheDir: t.TempDir(), Settings: map[string]string{"epoch": "5"}})
		if err == nil || !strings.Contains(err.Error(), `unknown setting "epoch"`) || !strings.Contains(err.Error(), "epochs") {
			t.Errorf("%s with a misspelled setting: %v", row, err)
		}
		if err := sv.CheckScopedSetting(row, "epoch"); err == nil {
			t.Errorf("--set %s.epoch accepted", row)
		}
		for _, key := range []string{"checkpoint", "model", "max_len", "pooling", "heads", "epochs", "micro_batch_pairs"} {
			if err := sv.CheckScopedSetting(row, key); err != nil {
				t.Errorf("%s.%s: %v", row, key, err)
			}
		}
	}
}
