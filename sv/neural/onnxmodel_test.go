package neural

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
)

// onnxReference is what scripts/make-onnx-fixtures.py wrote beside each
// fixture: inputs and PyTorch's last_hidden_state.
type onnxReference struct {
	InputIDs      [][]int64 `json:"input_ids"`
	AttentionMask [][]int64 `json:"attention_mask"`
	Shape         []int     `json:"last_hidden_state_shape"`
	Hidden        []float64 `json:"last_hidden_state"`
	Tokenization  []struct {
		Text string  `json:"text"`
		IDs  []int32 `json:"ids"`
	} `json:"tokenization"`
}

func loadReference(t *testing.T, dir string) onnxReference {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "reference.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r onnxReference
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// hiddenStates runs the ONNX graph converted by onnx-gomlx (with the
// weights as variables of a fresh store) on the reference inputs.
func hiddenStates(t *testing.T, m *ONNXModel, backendName string, ref onnxReference) []float32 {
	t.Helper()
	net, err := NewNetwork(m, MeanHead{}, backendName, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer net.Close()
	n, tt := len(ref.InputIDs), len(ref.InputIDs[0])
	ids := make([]int32, 0, n*tt)
	mask := make([]bool, 0, n*tt)
	for i := range ref.InputIDs {
		for j := range ref.InputIDs[i] {
			ids = append(ids, int32(ref.InputIDs[i][j]))
			mask = append(mask, ref.AttentionMask[i][j] == 1)
		}
	}
	exec, err := model.NewExec(net.Backend, net.Store, func(scope *model.Scope, ids, mask *Node) *Node {
		return m.rawOutput(scope.Store().Scope(ModelScope), ids, mask)
	})
	if err != nil {
		t.Fatal(err)
	}
	defer exec.Finalize()
	out, err := exec.Exec(tensors.FromFlatDataAndDimensions(ids, n, tt), tensors.FromFlatDataAndDimensions(mask, n, tt))
	if err != nil {
		t.Fatal(err)
	}
	got, err := flatFloat32(out[0])
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestONNXParity(t *testing.T) {
	backends := []string{"go", "onnx"}
	for _, fixture := range []string{"bert", "roberta"} {
		dir := filepath.Join("testdata", "onnx", fixture)
		m, err := NewONNXModel(fixture, ONNXConfig{Path: filepath.Join(dir, "model.onnx")})
		if err != nil {
			t.Fatal(err)
		}
		ref := loadReference(t, dir)
		for _, b := range backends {
			if b == "onnx" && !onnxAvailable() {
				continue
			}
			got := hiddenStates(t, m, b, ref)
			if len(got) != len(ref.Hidden) {
				t.Fatalf("%s/%s: %d values, want %d", fixture, b, len(got), len(ref.Hidden))
			}
			var worst float64
			for i := range got {
				worst = math.Max(worst, math.Abs(float64(got[i])-ref.Hidden[i]))
			}
			t.Logf("%s on %s: max |GoMLX − PyTorch| = %.2g", fixture, b, worst)
			if worst > 1e-5 {
				t.Errorf("%s on %s: hidden states differ from PyTorch by %g (> 1e-5)", fixture, b, worst)
			}
		}
	}
}

func TestONNXFixtureTokenizers(t *testing.T) {
	// The fixture script tokenizes sentences with reference WordPiece and
	// byte-level BPE implementations; sugarme's must give the same ids.
	for _, fixture := range []string{"bert", "roberta"} {
		dir := filepath.Join("testdata", "onnx", fixture)
		tok, err := LoadTokenizer(filepath.Join(dir, "tokenizer.json"))
		if err != nil {
			t.Fatal(err)
		}
		ref := loadReference(t, dir)
		if len(ref.Tokenization) == 0 {
			t.Fatal("reference.json has no tokenization examples")
		}
		for _, ex := range ref.Tokenization {
			got := tok.Encode(ex.Text, 64)
			if !reflect.DeepEqual(got, ex.IDs) {
				t.Errorf("%s: %q → %v, reference %v", fixture, ex.Text, got, ex.IDs)
			}
		}
		// Truncation keeps the closing special token.
		long := tok.Encode(ref.Tokenization[2].Text, 5)
		want := ref.Tokenization[2].IDs
		if len(long) != 5 || long[4] != want[len(want)-1] || long[0] != want[0] {
			t.Errorf("%s: truncated to %v", fixture, long)
		}
	}
}

func TestONNXEncoderFineTunes(t *testing.T) {
	var goLosses []float64
	for _, b := range []string{"go", "onnx"} {
		if b == "onnx" && !onnxAvailable() {
			continue
		}
		opts := sv.EncoderOptions{Backend: b, Seed: 3, Settings: map[string]string{
			"model": "testdata/onnx/bert/model.onnx", "max_len": "12",
			SetEpochs: "2", SetBatchPairs: "8", SetLearningRate: "2e-3", SetMaxUtterances: "4"}}
		enc, err := sv.NewEncoder(ONNXName+sv.FineTunedSuffix, opts)
		if err != nil {
			t.Fatal(err)
		}
		if enc.Dim() != 32 {
			t.Fatalf("dim %d", enc.Dim())
		}
		train := synthCorpus(1, 8, 96)
		test := synthCorpus(2, 8, 96)
		before, after := trainAUC(t, enc, train, test)
		res := enc.(*Encoder).LastTrainResult()
		t.Logf("onnx fixture on %s: AUC %.3f → %.3f, loss %.4f → %.4f", b, before, after, res.Losses[0], res.Losses[len(res.Losses)-1])
		if !(stats.Mean(res.Losses[len(res.Losses)-4:]) < stats.Mean(res.Losses[:4])) || !(after > before) {
			t.Fatalf("ONNX-loaded encoder did not learn on %s", b)
		}
		if b == "go" {
			goLosses = res.Losses
		} else {
			for i := range goLosses {
				if d := goLosses[i] - res.Losses[i]; d > 1e-3 || d < -1e-3 {
					t.Fatalf("step %d: loss %.6f on go, %.6f on %s", i+1, goLosses[i], res.Losses[i], b)
				}
			}
		}
		_ = enc.(sv.Closer).Close()
	}
}

func TestPretrainedMissingExport(t *testing.T) {
	t.Setenv("HF_HUB_CACHE", t.TempDir()) // not the user's Hugging Face cache
	_, err := sv.NewEncoder("roberta", sv.EncoderOptions{CacheDir: t.TempDir()})
	if !errors.Is(err, ErrNoONNXExport) {
		t.Fatalf("roberta without export: %v", err)
	}
}
