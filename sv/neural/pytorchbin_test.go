package neural

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nlpodyssey/gopickle/pytorch"
	"github.com/nlpodyssey/gopickle/types"

	"github.com/roleprint/roleprint/data/hub"
	"github.com/roleprint/roleprint/data/hub/hubtest"
	"github.com/roleprint/roleprint/sv"
)

// pytorchFixture returns the files of testdata/safetensors/FIXTURE with
// its weights replaced by testdata/pytorch/BIN.bin (the same tensors
// written by torch.save).
func pytorchFixture(t *testing.T, fixture, bin string) map[string][]byte {
	t.Helper()
	files := fixtureFiles(t, fixture)
	delete(files, "model.safetensors")
	b, err := os.ReadFile(filepath.Join("testdata", "pytorch", bin+".bin"))
	if err != nil {
		t.Fatal(err)
	}
	files["pytorch_model.bin"] = b
	return files
}

// publishPyTorch serves files on a stand-in Hub as repository id, fetches
// them into a fresh Hugging Face cache as `setup --model` does (checking
// that want, by default pytorch_model.bin, is fetched), stops the
// stand-in and returns the snapshot.
func publishPyTorch(t *testing.T, id string, files map[string][]byte, pick func(string, []hub.File) ([]string, error), want ...string) hub.Snapshot {
	t.Helper()
	h := hubtest.New(t)
	defer h.Close()
	cache := t.TempDir()
	t.Setenv("HF_HUB_CACHE", cache)
	t.Setenv("HF_HUB_OFFLINE", "")
	h.Add(id, "main", files)
	c := hub.Client{Endpoint: h.URL, CacheDir: cache}
	snap, got, err := c.Download(context.Background(), hub.Ref{ID: id, Revision: "main"}, func(f []hub.File) ([]string, error) { return pick(id, f) })
	if err != nil {
		t.Fatal(err)
	}
	if len(want) == 0 {
		want = []string{"pytorch_model.bin"}
	}
	for _, w := range want {
		if !containsString(got, w) {
			t.Fatalf("setup fetched %v, not %s", got, w)
		}
	}
	return snap
}

// TestPyTorchEncoderMatchesPyTorch loads the tiny BERT (F32; in the zip
// format with a transposed weight and a shared storage, and in the legacy
// format), RoBERTa (F16) and MPNet (F32) from pytorch_model.bin through
// the hf: row, with the stand-in Hub stopped, and compares the sentence
// vectors with PyTorch's (the safetensors fixtures' reference.json: the
// same weights).
func TestPyTorchEncoderMatchesPyTorch(t *testing.T) {
	for _, c := range []struct{ fixture, bin string }{{"bert", "bert"}, {"bert", "bert-legacy"}, {"roberta", "roberta"}, {"mpnet", "mpnet"}} {
		id := "test/pt-" + c.bin
		publishPyTorch(t, id, pytorchFixture(t, c.fixture, c.bin), func(id string, f []hub.File) ([]string, error) { return hub.TextEncoderFiles(id, f) })
		var ref sentenceReference
		if err := readJSON(filepath.Join("testdata", "safetensors", c.fixture, "reference.json"), &ref); err != nil {
			t.Fatal(err)
		}
		texts := make([]string, len(ref.Tokenization))
		for i, x := range ref.Tokenization {
			texts[i] = x.Text
		}
		enc, err := sv.NewEncoder("hf:"+id, sv.EncoderOptions{Backend: "go"})
		if err != nil {
			t.Fatal(err)
		}
		e := enc.(*Encoder)
		if _, ok := e.Model().(*BERTModel); !ok || !strings.Contains(e.Describe(), "PyTorch pickle") {
			t.Fatalf("%s: model %T (%s), want the GoMLX BERT-family encoder on the PyTorch weights", c.bin, e.Model(), e.Describe())
		}
		got, err := enc.Encode(context.Background(), texts, nil)
		if err != nil {
			t.Fatal(err)
		}
		worst := vecsDiff(t, got, ref.Embeddings)
		t.Logf("%s.bin: max |RolePrint − PyTorch| = %.2g", c.bin, worst)
		if worst > 1e-5 {
			t.Errorf("%s.bin: sentence vectors differ from PyTorch's by %g (> 1e-5)", c.bin, worst)
		}
		_ = enc.(sv.Closer).Close()
	}
}

// TestPyTorchWeightsEqualSafetensors reads every tensor of each fixture
// from pytorch_model.bin and from model.safetensors: they are equal, bit
// for bit (BF16 and F16 converted alike; strided and shared storages
// gathered).
func TestPyTorchWeightsEqualSafetensors(t *testing.T) {
	for _, c := range []struct{ fixture, bin string }{{"bert", "bert"}, {"bert", "bert-legacy"}, {"roberta", "roberta"}, {"mpnet", "mpnet"}, {"luar", "luar"}} {
		st, err := openSafetensors(filepath.Join("testdata", "safetensors", c.fixture, "model.safetensors"))
		if err != nil {
			t.Fatal(err)
		}
		pt, err := openPyTorch(filepath.Join("testdata", "pytorch", c.bin+".bin"))
		if err != nil {
			t.Fatal(err)
		}
		if a, b := strings.Join(st.names(), ","), strings.Join(pt.names(), ","); a != b {
			t.Fatalf("%s: tensors %s, safetensors %s", c.bin, b, a)
		}
		for _, n := range st.names() {
			want, shape, err := st.float32s(n, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, gotShape, err := pt.float32s(n, shape)
			if err != nil {
				t.Fatalf("%s: %v", c.bin, err)
			}
			if !equalDims(gotShape, shape) || len(got) != len(want) {
				t.Fatalf("%s: %s is %v, want %v", c.bin, n, gotShape, shape)
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("%s: %s[%d] = %g, safetensors %g", c.bin, n, i, got[i], want[i])
				}
			}
		}
		st.Close()
		pt.Close()
	}
}

// TestLUARFromPyTorchMatchesPyTorch runs the published LUAR from a
// pytorch_model.bin (BF16) as the paper's luar row fetches it when the
// repository has no safetensors.
func TestLUARFromPyTorchMatchesPyTorch(t *testing.T) {
	p, _ := PaperCheckpointFor(LUARName)
	publishPyTorch(t, p.Checkpoint, pytorchFixture(t, "luar", "luar"), LUARFiles)
	var ref luarReference
	if err := readJSON(filepath.Join("testdata", "safetensors", "luar", "reference.json"), &ref); err != nil {
		t.Fatal(err)
	}
	enc, err := sv.NewEncoder(LUARName, sv.EncoderOptions{Backend: "go", CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer enc.(sv.Closer).Close()
	got, err := enc.(sv.SetEncoder).EncodeSets(context.Background(), ref.Episodes, nil)
	if err != nil {
		t.Fatal(err)
	}
	worst := vecsDiff(t, got, ref.Embeddings)
	t.Logf("luar from pytorch_model.bin: max |RolePrint − PyTorch LUAR| = %.2g", worst)
	if worst > 1e-5 {
		t.Errorf("episode vectors differ from PyTorch's by %g (> 1e-5)", worst)
	}
}

// TestPyTorchErrors: malformed, truncated and foreign pickles and weights
// that contradict config.json are clear errors naming the file.
func TestPyTorchErrors(t *testing.T) {
	load := func(files map[string][]byte) error {
		_, err := ModelFromSnapshot("hf:test/x", writeSnapshot(t, "test/x", files), sv.EncoderOptions{})
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
	// A pickle that calls os.system: refused at the global, never run.
	files := pytorchFixture(t, "bert", "foreign-global")
	err := load(files)
	expect("foreign global", err, "pytorch_model.bin", "os.system")
	if !errors.Is(err, ErrPyTorchGlobal) {
		t.Fatalf("foreign global: %v is not ErrPyTorchGlobal", err)
	}
	// Truncated, in either format: the file named.
	for _, bin := range []string{"bert", "bert-legacy"} {
		for _, keep := range []int{10, 3000, 60000} {
			files = pytorchFixture(t, "bert", bin)
			files["pytorch_model.bin"] = files["pytorch_model.bin"][:keep]
			expect(bin+" truncated", load(files), "PyTorch checkpoint", "pytorch_model.bin")
		}
	}
	// A forged length (a 64 GiB bytes object in a pickle of a few bytes),
	// in a legacy stream and in a zip archive's data.pkl: refused before
	// anything is allocated for it.
	forged := []byte("\x80\x02\x8e\x00\x00\x00\x00\x10\x00\x00\x00.")
	var zipped bytes.Buffer
	zw := zip.NewWriter(&zipped)
	for name, data := range map[string][]byte{"archive/data.pkl": forged, "archive/version": []byte("3\n")} {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	zw.Close()
	for what, b := range map[string][]byte{"legacy": forged, "zip": zipped.Bytes()} {
		files = pytorchFixture(t, "bert", "bert")
		files["pytorch_model.bin"] = b
		expect("forged length, "+what, load(files), "pytorch_model.bin", "declares 68719476736 bytes")
	}
	// An expanded view (more elements than its storage holds).
	files = pytorchFixture(t, "bert", "expanded")
	expect("expanded view", load(files), "pytorch_model.bin", `tensor "w"`, "expanded view")
	// Data written on a big-endian machine (torch ≥ 2.1's byteorder record).
	zr, err := zip.OpenReader(filepath.Join("testdata", "pytorch", "bert.bin"))
	if err != nil {
		t.Fatal(err)
	}
	var big bytes.Buffer
	zw = zip.NewWriter(&big)
	for _, f := range zr.File {
		if err := zw.Copy(f); err != nil {
			t.Fatal(err)
		}
	}
	w, _ := zw.CreateHeader(&zip.FileHeader{Name: "bert/byteorder", Method: zip.Store})
	w.Write([]byte("big"))
	zw.Close()
	zr.Close()
	files = pytorchFixture(t, "bert", "bert")
	files["pytorch_model.bin"] = big.Bytes()
	expect("big-endian", load(files), "pytorch_model.bin", "bert/byteorder", "little-endian")
	// Not a checkpoint at all.
	files = pytorchFixture(t, "bert", "bert")
	files["pytorch_model.bin"] = []byte("a pickle")
	expect("not a checkpoint", load(files), "pytorch_model.bin", "neither torch.save's zip archive nor its legacy pickle stream")
	// A configuration the weights do not match: the file, tensor and shapes.
	files = pytorchFixture(t, "bert", "bert")
	files["config.json"] = []byte(strings.Replace(string(files["config.json"]), `"intermediate_size": 64`, `"intermediate_size": 48`, 1))
	expect("shape mismatch", load(files), "pytorch_model.bin", "encoder.layer.0.intermediate.dense.weight", "[64 32]", "[48 32]")
	// Safetensors come first: a broken pytorch_model.bin beside them is not read.
	files = fixtureFiles(t, "bert")
	files["pytorch_model.bin"] = []byte("a pickle")
	m, err := ModelFromSnapshot("hf:test/x", writeSnapshot(t, "test/x", files), sv.EncoderOptions{})
	if err != nil || m.(*BERTModel).format != "safetensors" {
		t.Fatalf("safetensors beside a pickle: %v", err)
	}
	// Other pickles only: no ONNX export, the conversion route named.
	files = fixtureFiles(t, "bert")
	delete(files, "model.safetensors")
	files["model.pt"] = []byte("a pickle")
	expect("model.pt", load(files), "no ONNX export", "optimum-cli export onnx --model test/x")
}

// TestPyTorchShards loads the tiny BERT split into two torch.save shards
// by pytorch_model.bin.index.json: PyTorch's vectors; a shard named
// outside the folder and a tensor in two shards are refused.
func TestPyTorchShards(t *testing.T) {
	files := fixtureFiles(t, "bert")
	delete(files, "model.safetensors")
	shards, err := hubtest.ReadDir(filepath.Join("testdata", "pytorch", "bert-shards"), nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range shards {
		files[k] = v
	}
	snap := publishPyTorch(t, "test/shards", files, func(id string, f []hub.File) ([]string, error) { return hub.TextEncoderFiles(id, f) },
		"pytorch_model.bin.index.json", "pytorch_model-00001-of-00002.bin", "pytorch_model-00002-of-00002.bin")
	enc, err := sv.NewEncoder("hf:test/shards", sv.EncoderOptions{Backend: "go"})
	if err != nil {
		t.Fatal(err)
	}
	if d := enc.(*Encoder).Describe(); !strings.Contains(d, "PyTorch pickle") {
		t.Fatalf("sharded: %s", d)
	}
	var ref sentenceReference
	if err := readJSON(filepath.Join("testdata", "safetensors", "bert", "reference.json"), &ref); err != nil {
		t.Fatal(err)
	}
	texts := make([]string, len(ref.Tokenization))
	for i, x := range ref.Tokenization {
		texts[i] = x.Text
	}
	got, err := enc.Encode(context.Background(), texts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if worst := vecsDiff(t, got, ref.Embeddings); worst > 1e-5 {
		t.Errorf("sharded pytorch_model.bin: vectors differ from PyTorch's by %g", worst)
	}
	enc.(sv.Closer).Close()
	dir := t.TempDir()
	for _, f := range []string{"pytorch_model-00001-of-00002.bin", "pytorch_model-00002-of-00002.bin"} {
		b, err := os.ReadFile(snap.Path(f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, f), b, 0o644)
	}
	index := filepath.Join(dir, "pytorch_model.bin.index.json")
	os.WriteFile(index, []byte(`{"weight_map":{"a":"../x.bin"}}`), 0o644)
	if _, err := openCheckpointWeights(dir); err == nil || !strings.Contains(err.Error(), "not a file name") {
		t.Fatalf("shard outside the folder: %v", err)
	}
	// Both shards the same file: every tensor is in two shards.
	os.WriteFile(filepath.Join(dir, "pytorch_model-00002-of-00002.bin"), files["pytorch_model-00001-of-00002.bin"], 0o644)
	os.WriteFile(index, files["pytorch_model.bin.index.json"], 0o644)
	if _, err := openCheckpointWeights(dir); err == nil || !strings.Contains(err.Error(), "is in both") {
		t.Fatalf("two shards with the same tensors: %v", err)
	}
}

// FuzzPyTorch feeds mutated checkpoints to the reader: errors, never a
// panic or a read beyond the file.
func FuzzPyTorch(f *testing.F) {
	for _, n := range []string{"bert-legacy", "foreign-global"} {
		b, err := os.ReadFile(filepath.Join("testdata", "pytorch", n+".bin"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b[:min(len(b), 4096)])
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		p := filepath.Join(t.TempDir(), "pytorch_model.bin")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		pt, err := openPyTorch(p)
		if err != nil {
			return
		}
		defer pt.Close()
		for _, n := range pt.names() {
			pt.float32s(n, nil)
		}
	})
}

// TestRebuildTensorMetadata: torch ≥ 1.13 passes _rebuild_tensor_v2 a
// seventh argument (the tensor's metadata) when it has any; the tensor is
// rebuilt all the same, and other argument counts are errors.
func TestRebuildTensorMetadata(t *testing.T) {
	st := &ptStorage{ptStorageType: ptStorageTypes["FloatStorage"], numel: 6}
	args := []any{st, 0, types.NewTupleFromSlice([]any{2, 3}), types.NewTupleFromSlice([]any{3, 1}), false, nil}
	for _, n := range []int{6, 7} {
		a := append(append([]any(nil), args...), types.NewDict())[:n]
		v, err := rebuildTensorV2{}.Call(a...)
		tensor, ok := v.(*pytorch.Tensor)
		if err != nil || !ok || !equalDims(tensor.Size, []int{2, 3}) || tensor.Source != st {
			t.Fatalf("%d arguments: %v, %v", n, v, err)
		}
	}
	if _, err := (rebuildTensorV2{}).Call(args[:5]...); err == nil {
		t.Fatal("5 arguments: no error")
	}
}
