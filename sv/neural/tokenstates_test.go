package neural

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// layersReference is the part of roberta-layers/reference.json with
// PyTorch's token states.
type layersReference struct {
	Layers       int `json:"layers"`
	HiddenStates []struct {
		Text   string      `json:"text"`
		IDs    []int32     `json:"ids"`
		Layer  int         `json:"layer"`
		States [][]float64 `json:"states"`
	} `json:"hidden_states"`
}

func TestTokenModelMatchesPyTorch(t *testing.T) {
	h := publishFixture(t, "roberta-layers", "test/tiny-roberta-layers")
	h.Close()
	var ref layersReference
	if err := readJSON(filepath.Join("testdata", "onnx", "roberta-layers", "reference.json"), &ref); err != nil {
		t.Fatal(err)
	}
	texts := make([]string, len(ref.HiddenStates))
	for i, x := range ref.HiddenStates {
		texts[i] = x.Text
	}
	for _, b := range []string{"go", "onnx"} {
		if b == "onnx" && !onnxAvailable() {
			continue
		}
		tm, err := NewHFTokenModel("test/tiny-roberta-layers", TokenModelOptions{Layer: ref.HiddenStates[0].Layer, Backend: b})
		if err != nil {
			t.Fatal(err)
		}
		got, err := tm.EncodeTokens(context.Background(), texts, nil)
		if err != nil {
			t.Fatal(err)
		}
		var worst float64
		for i, x := range ref.HiddenStates {
			if !slices.Equal(got[i].IDs, x.IDs) {
				t.Fatalf("%q: ids %v, PyTorch's (with bert_score's prefix space) %v", x.Text, got[i].IDs, x.IDs)
			}
			if !got[i].Special[0] || !got[i].Special[len(x.IDs)-1] || slices.Contains(got[i].Special[1:len(x.IDs)-1], true) {
				t.Errorf("%q: special marks %v, want <s> and </s> only", x.Text, got[i].Special)
			}
			for j := range x.States {
				for k := range x.States[j] {
					worst = math.Max(worst, math.Abs(float64(got[i].Vectors[j][k])-x.States[j][k]))
				}
			}
		}
		t.Logf("layer %d of %d on %s: max |RolePrint − PyTorch| = %.2g (%s)", tm.Layer(), tm.Layers(), b, worst, tm.Describe())
		if worst > 1e-5 {
			t.Errorf("%s: token states differ from PyTorch's by %g (> 1e-5)", b, worst)
		}
		tm.Close()
	}
}

func TestTokenModelLayers(t *testing.T) {
	publishFixture(t, "roberta-layers", "test/tiny-roberta-layers").Close()
	text := []string{"oh the theory of pizza"}
	states := func(ref string, layer int) ([][]float32, *TokenModel) {
		t.Helper()
		tm, err := NewHFTokenModel(ref, TokenModelOptions{Layer: layer, Backend: "go"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { tm.Close() })
		s, err := tm.EncodeTokens(context.Background(), text, nil)
		if err != nil {
			t.Fatal(err)
		}
		return s[0].Vectors, tm
	}
	last, tm := states("test/tiny-roberta-layers", -1)
	if tm.Layer() != 2 || tm.output != "hidden_states.2" {
		t.Fatalf("layer -1: layer %d from %s, want 2 from hidden_states.2", tm.Layer(), tm.output)
	}
	two, _ := states("test/tiny-roberta-layers", 2)
	one, _ := states("test/tiny-roberta-layers", 1)
	if !slices.EqualFunc(last, two, slices.Equal) || slices.EqualFunc(one, two, slices.Equal) {
		t.Fatal("layers 1 and 2 are not told apart")
	}
	if _, err := NewHFTokenModel("test/tiny-roberta-layers", TokenModelOptions{Layer: 3}); err == nil || !strings.Contains(err.Error(), "layers 0 (embeddings) to 2") {
		t.Fatalf("layer 3 of 2: %v", err)
	}

	// An export with last_hidden_state only: the last layer works, others
	// name the export that gives them.
	publishFixture(t, "roberta", "test/tiny-roberta").Close()
	lastOnly, tm := states("test/tiny-roberta", -1)
	if tm.output != "last_hidden_state" || len(lastOnly) == 0 {
		t.Fatalf("last layer of a plain export from %s", tm.output)
	}
	_, err := NewHFTokenModel("test/tiny-roberta", TokenModelOptions{Layer: 1})
	if err == nil || !strings.Contains(err.Error(), "hidden_states.1") || !strings.Contains(err.Error(), "output_hidden_states=True") {
		t.Fatalf("layer 1 of a plain export: %v", err)
	}
}
