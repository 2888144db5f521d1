package neural

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data/hub"
	"github.com/roleprint/roleprint/data/hub/hubtest"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
)

// publishSafetensors serves testdata/safetensors/FIXTURE on a stand-in Hub
// as repository id (without its reference.json), fetches it into a fresh
// Hugging Face cache (HF_HUB_CACHE for the rest of the test) as `setup
// --model` does, and returns the stand-in.
func publishSafetensors(t *testing.T, fixture, id string, extra map[string][]byte) *hubtest.Hub {
	t.Helper()
	h := hubtest.New(t)
	files, err := hubtest.ReadDir(filepath.Join("testdata", "safetensors", fixture), map[string]string{"reference.json": ""})
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range extra {
		files[k] = v
	}
	cache := t.TempDir()
	t.Setenv("HF_HUB_CACHE", cache)
	t.Setenv("HF_HUB_OFFLINE", "")
	c := hub.Client{Endpoint: h.URL, CacheDir: cache}
	h.Add(id, "main", files)
	if _, got, err := c.Download(context.Background(), hub.Ref{ID: id, Revision: "main"}, func(f []hub.File) ([]string, error) { return hub.TextEncoderFiles(id, f) }); err != nil {
		t.Fatal(err)
	} else if !containsString(got, "model.safetensors") {
		t.Fatalf("setup fetched %v, not the safetensors weights", got)
	}
	return h
}

func containsString(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func vecsDiff(t *testing.T, got [][]float32, want [][]float64) float64 {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d vectors, want %d", len(got), len(want))
	}
	var worst float64
	for i := range got {
		if len(got[i]) != len(want[i]) {
			t.Fatalf("vector %d has %d values, want %d", i, len(got[i]), len(want[i]))
		}
		for j := range got[i] {
			worst = math.Max(worst, math.Abs(float64(got[i][j])-want[i][j]))
		}
	}
	return worst
}

// TestSafetensorsEncoderMatchesPyTorch loads the tiny BERT (BertModel
// names, F32), RoBERTa (RobertaForMaskedLM names under roberta., F16) and
// MPNet (MPNetModel names, relative position bias, all-mpnet-base-v2's
// tokenizer layout) from safetensors through the hf: row and compares the
// sentence vectors with PyTorch's.
func TestSafetensorsEncoderMatchesPyTorch(t *testing.T) {
	for _, fixture := range []string{"bert", "roberta", "mpnet"} {
		id := "test/st-" + fixture
		h := publishSafetensors(t, fixture, id, nil)
		h.Close() // from here on, the cache alone
		var ref sentenceReference
		if err := readJSON(filepath.Join("testdata", "safetensors", fixture, "reference.json"), &ref); err != nil {
			t.Fatal(err)
		}
		texts := make([]string, len(ref.Tokenization))
		for i, x := range ref.Tokenization {
			texts[i] = x.Text
		}
		for _, b := range []string{"go", "onnx"} {
			if b == "onnx" && !onnxAvailable() {
				continue
			}
			enc, err := sv.NewEncoder("hf:"+id, sv.EncoderOptions{Backend: b})
			if err != nil {
				t.Fatal(err)
			}
			e := enc.(*Encoder)
			if _, ok := e.Model().(*BERTModel); !ok || !strings.Contains(e.Describe(), "safetensors") {
				t.Fatalf("%s: model %T (%s), want the GoMLX BERT-family encoder", fixture, e.Model(), e.Describe())
			}
			got, err := enc.Encode(context.Background(), texts, nil)
			if err != nil {
				t.Fatal(err)
			}
			worst := vecsDiff(t, got, ref.Embeddings)
			t.Logf("%s (%s pooling, %s) on %s: max |RolePrint − PyTorch| = %.2g", fixture, ref.Pooling, e.Model().(*BERTModel).cfg.Family, b, worst)
			if worst > 1e-5 {
				t.Errorf("%s on %s: sentence vectors differ from PyTorch's by %g (> 1e-5)", fixture, b, worst)
			}
			_ = enc.(sv.Closer).Close()
		}
	}
}

// luarReference is testdata/safetensors/luar/reference.json.
type luarReference struct {
	MaxLen     int         `json:"max_len"`
	Episodes   [][]string  `json:"episodes"`
	Embeddings [][]float64 `json:"episode_embeddings"`
}

// TestLUARMatchesPyTorch loads the tiny LUAR with the published parameter
// names (transformer.*, linear.*) and config.json as the paper's luar row
// and as hf:ORG/NAME, and compares episode vectors with PyTorch's LUAR.
func TestLUARMatchesPyTorch(t *testing.T) {
	p, _ := PaperCheckpointFor(LUARName)
	h := publishSafetensors(t, "luar", p.Checkpoint, nil)
	h.Close()
	var ref luarReference
	if err := readJSON(filepath.Join("testdata", "safetensors", "luar", "reference.json"), &ref); err != nil {
		t.Fatal(err)
	}
	// An ONNX export placed by hand where the other presets take one is
	// not LUAR (it lacks the episode head): luar ignores it.
	rpCache := t.TempDir()
	placed := filepath.Join(rpCache, "models", LUARName)
	os.MkdirAll(placed, 0o755)
	for _, f := range []string{"model.onnx", "tokenizer.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", "onnx", "roberta", f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(placed, f), b, 0o644)
	}
	for _, name := range []string{LUARName, "hf:" + p.Checkpoint} {
		for _, b := range []string{"go", "onnx"} {
			if b == "onnx" && !onnxAvailable() {
				continue
			}
			enc, err := sv.NewEncoder(name, sv.EncoderOptions{Backend: b, CacheDir: rpCache})
			if err != nil {
				t.Fatal(err)
			}
			se, ok := enc.(sv.SetEncoder)
			if !ok || enc.Dim() != 16 {
				t.Fatalf("%s: a set encoder of dim 16 expected (LUAR's projection), got %T dim %d", name, enc, enc.Dim())
			}
			got, err := se.EncodeSets(context.Background(), ref.Episodes, nil)
			if err != nil {
				t.Fatal(err)
			}
			worst := vecsDiff(t, got, ref.Embeddings)
			t.Logf("%s on %s: max |RolePrint − PyTorch LUAR| = %.2g over %d episodes", name, b, worst, len(got))
			if worst > 1e-5 {
				t.Errorf("%s on %s: episode vectors differ from PyTorch's by %g (> 1e-5)", name, b, worst)
			}
			// An utterance alone is an episode of one (the second longer
			// than the 32-token truncation).
			one, err := enc.Encode(context.Background(), []string{ref.Episodes[2][0], ref.Episodes[4][0]}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if d := vecsDiff(t, one, [][]float64{ref.Embeddings[2], ref.Embeddings[4]}); d > 1e-5 {
				t.Errorf("%s: Encode of a one-utterance episode differs from PyTorch's by %g", name, d)
			}
			_ = enc.(sv.Closer).Close()
		}
	}
}

// TestLUARFineTunesFromCheckpoint fine-tunes luar_ft (the published
// architecture, from the tiny checkpoint) a few steps: the loss falls, the
// AUC rises and the projection's weights move.
func TestLUARFineTunesFromCheckpoint(t *testing.T) {
	p, _ := PaperCheckpointFor(LUARName)
	h := publishSafetensors(t, "luar", p.Checkpoint, nil)
	h.Close()
	testLUARFineTuning(t, "go")
}

func testLUARFineTuning(t *testing.T, backendName string) []float64 {
	enc, err := sv.NewEncoder(LUARName+sv.FineTunedSuffix, sv.EncoderOptions{Backend: backendName, Seed: 5, CacheDir: t.TempDir(), Settings: map[string]string{
		"max_len": "12", SetEpochs: "1", SetBatchPairs: "8", SetLearningRate: "2e-3", SetMaxUtterances: "4"}})
	if err != nil {
		t.Fatal(err)
	}
	defer enc.(sv.Closer).Close()
	net, err := enc.(headEncoder).Network()
	if err != nil {
		t.Fatal(err)
	}
	if net.Head.Name() != "luar" {
		t.Fatalf("head %s, want luar", net.Head.Name())
	}
	w0 := weightsOf(t, net)
	before, after := trainAUC(t, enc, synthCorpus(1, 8, 96), synthCorpus(2, 8, 96))
	res := enc.(headEncoder).LastTrainResult()
	t.Logf("luar_ft: %d steps, AUC %.3f → %.3f, loss %.4f → %.4f", len(res.Losses), before, after, res.Losses[0], res.Losses[len(res.Losses)-1])
	if !(stats.Mean(res.Losses[len(res.Losses)-3:]) < stats.Mean(res.Losses[:3])) || !(after > before) {
		t.Fatal("luar_ft did not learn")
	}
	w1 := weightsOf(t, net)
	for _, k := range []string{HeadScope + "/linear.weight", ModelScope + "/encoder.layer.0.attention.self.query.weight"} {
		if w0[k] == nil {
			t.Fatalf("no variable %s", k)
		}
		if maxDiff(t, map[string][]float32{k: w0[k]}, map[string][]float32{k: w1[k]}) == 0 {
			t.Errorf("%s did not change", k)
		}
	}
	return res.Losses
}

// TestLUARFineTuningOnONNX: the episode head's max pooling and the
// backbone train on ONNX Runtime too, with the losses of the go backend
// (up to the racing embedding-gradient scatter of ONNX Runtime, which
// makes later steps drift: docs/training.md).
func TestLUARFineTuningOnONNX(t *testing.T) {
	requireONNX(t)
	p, _ := PaperCheckpointFor(LUARName)
	h := publishSafetensors(t, "luar", p.Checkpoint, nil)
	h.Close()
	ref := testLUARFineTuning(t, "go")
	got := testLUARFineTuning(t, "onnx")
	if d := math.Abs(ref[0] - got[0]); d > 1e-4 {
		t.Fatalf("first step: loss %.6f on go, %.6f on onnx", ref[0], got[0])
	}
}

// writeSnapshot makes a cache-like snapshot folder of the given files.
func writeSnapshot(t *testing.T, id string, files map[string][]byte) hub.Snapshot {
	t.Helper()
	dir := t.TempDir()
	for n, b := range files {
		p := filepath.Join(dir, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return hub.Snapshot{Ref: hub.Ref{ID: id, Revision: "main"}, Commit: strings.Repeat("a", 40), Dir: dir}
}

func fixtureFiles(t *testing.T, fixture string) map[string][]byte {
	t.Helper()
	files, err := hubtest.ReadDir(filepath.Join("testdata", "safetensors", fixture), map[string]string{"reference.json": ""})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestSafetensorsModelErrors(t *testing.T) {
	opts := sv.EncoderOptions{}
	load := func(files map[string][]byte) error {
		_, err := ModelFromSnapshot("hf:test/x", writeSnapshot(t, "test/x", files), opts)
		return err
	}
	expect := func(what string, err error, parts ...string) {
		t.Helper()
		if err == nil {
			t.Fatalf("%s: no error", what)
		}
		for _, p := range parts {
			if !strings.Contains(err.Error(), p) {
				t.Fatalf("%s: error %q does not say %q", what, err, p)
			}
		}
	}
	// Pickles other than pytorch_model.bin only: refused with a conversion route.
	err := load(map[string][]byte{"config.json": []byte(`{"model_type":"bert"}`), "tokenizer.json": []byte("{}"), "model.pt": []byte("pickle")})
	expect("pickle-only", err, "no ONNX export", "optimum-cli export onnx --model test/x")
	// A family not implemented: named, with the route.
	files := fixtureFiles(t, "bert")
	files["config.json"] = []byte(`{"model_type":"deberta-v2","hidden_size":32}`)
	err = load(files)
	expect("deberta-v2", err, `model_type "deberta-v2"`, "optimum-cli")
	if !errors.Is(err, ErrUnsupportedModel) {
		t.Fatalf("deberta-v2: %v", err)
	}
	// A configuration the weights do not match: the file and tensor named.
	files = fixtureFiles(t, "bert")
	files["config.json"] = []byte(strings.Replace(string(files["config.json"]), `"intermediate_size": 64`, `"intermediate_size": 48`, 1))
	expect("shape mismatch", load(files), "model.safetensors", "encoder.layer.0.intermediate.dense.weight", "[64 32]", "[48 32]")
	files = fixtureFiles(t, "bert")
	files["config.json"] = []byte(strings.Replace(string(files["config.json"]), `"num_hidden_layers": 2`, `"num_hidden_layers": 3`, 1))
	expect("missing layer", load(files), "encoder.layer.2.")
	// A truncated weights file: its last tensor's range leaves the file.
	files = fixtureFiles(t, "bert")
	st := files["model.safetensors"]
	files["model.safetensors"] = st[:len(st)-10]
	expect("truncated", load(files), "model.safetensors", "outside the data section")
	// A header length beyond the file.
	files = fixtureFiles(t, "bert")
	bad := append([]byte(nil), st...)
	binary.LittleEndian.PutUint64(bad, uint64(len(st)))
	files["model.safetensors"] = bad
	expect("header length", load(files), "header length")
	// max_len beyond the position table.
	files = fixtureFiles(t, "roberta")
	_, err = ModelFromSnapshot("hf:test/x", writeSnapshot(t, "test/x", files), sv.EncoderOptions{Settings: map[string]string{"max_len": "39"}})
	expect("max_len", err, "max_len 39", "at most 38")
	// LUAR without model.safetensors or pytorch_model.bin: the route through transformers.
	files = fixtureFiles(t, "luar")
	delete(files, "model.safetensors")
	files["model.pt"] = []byte("a pickle")
	err = load(files)
	expect("luar pickle", err, "trust_remote_code=True", "safe_serialization=True", "luar.checkpoint")
	// LUAR whose projection contradicts its configuration.
	files = fixtureFiles(t, "luar")
	files["config.json"] = []byte(strings.Replace(string(files["config.json"]), `"embedding_size": 16`, `"embedding_size": 512`, 1))
	expect("luar embedding size", load(files), "embedding_size is 512")
}

func TestFloat16Conversion(t *testing.T) {
	for _, c := range []struct {
		h    uint16
		want float32
	}{{0x3c00, 1}, {0xc000, -2}, {0x7bff, 65504}, {0x0001, float32(math.Ldexp(1, -24))}, {0x8000, float32(math.Copysign(0, -1))},
		{0x3555, 0.333251953125}, {0x7c00, float32(math.Inf(1))}} {
		if got := float16ToFloat32(c.h); got != c.want || math.Signbit(float64(got)) != math.Signbit(float64(c.want)) {
			t.Errorf("%#04x: %g, want %g", c.h, got, c.want)
		}
	}
	if !math.IsNaN(float64(float16ToFloat32(0x7e00))) {
		t.Error("0x7e00 is not NaN")
	}
}

// TestMPNetRelativeBuckets compares MPNet's relative-position buckets with
// transformers' for every offset a 512-token input has (the logarithmic
// buckets' boundaries depend on float32 rounding).
func TestMPNetRelativeBuckets(t *testing.T) {
	var ref struct {
		Rel     []int `json:"relative_positions"`
		Buckets []int `json:"relative_buckets"`
	}
	if err := readJSON(filepath.Join("testdata", "safetensors", "mpnet", "reference.json"), &ref); err != nil {
		t.Fatal(err)
	}
	if len(ref.Rel) != 1023 || len(ref.Buckets) != len(ref.Rel) {
		t.Fatalf("reference has %d offsets and %d buckets", len(ref.Rel), len(ref.Buckets))
	}
	for i, r := range ref.Rel {
		if got := relativeBucket(r, 32); got != ref.Buckets[i] {
			t.Errorf("offset %d: bucket %d, PyTorch's %d", r, got, ref.Buckets[i])
		}
	}
}

func TestLUARNotCached(t *testing.T) {
	t.Setenv("HF_HUB_CACHE", t.TempDir())
	_, err := sv.NewEncoder(LUARName, sv.EncoderOptions{Backend: "go", CacheDir: t.TempDir()})
	if !errors.Is(err, hub.ErrNotCached) || !strings.Contains(err.Error(), "roleprint setup --model luar") || strings.Contains(err.Error(), "model.onnx") {
		t.Fatalf("luar not fetched: %v", err)
	}
}
