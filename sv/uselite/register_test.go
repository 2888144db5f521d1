package uselite

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/sv"
	"github.com/roleprint/roleprint/sv/backend"
	"github.com/roleprint/roleprint/sv/neural"
)

// TestRegisteredEncoder builds "use-lite" and "use-lite_ft" through the sv
// registry and embeds with the first.
func TestRegisteredEncoder(t *testing.T) {
	m := installedModel(t)
	enc, err := sv.NewEncoder(Name, sv.EncoderOptions{Backend: testGo, Settings: map[string]string{SettingModelDir: m.Dir}})
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := enc.(sv.Closer); ok {
		defer c.Close()
	}
	if enc.Name() != Name || enc.Dim() != Dim {
		t.Fatalf("Name %q Dim %d", enc.Name(), enc.Dim())
	}
	texts := []string{"How you doin'?", "", "We were on a break!"}
	var reports []int
	vecs, err := enc.Encode(context.Background(), texts, func(done, total int) { reports = append(reports, done) })
	if err != nil {
		t.Fatal(err)
	}
	if len(vecs) != len(texts) || len(reports) == 0 || reports[len(reports)-1] != len(texts) {
		t.Fatalf("%d vectors, progress %v", len(vecs), reports)
	}
	for i, v := range vecs {
		var n float64
		for _, x := range v {
			n += float64(x) * float64(x)
		}
		if len(v) != Dim || math.Abs(n-1) > 1e-4 {
			t.Errorf("vector %d: length %d, norm² %.6f (want %d, 1)", i, len(v), n, Dim)
		}
	}
	ft, err := sv.NewEncoder(Name+sv.FineTunedSuffix, sv.EncoderOptions{Backend: testGo, Settings: map[string]string{SettingModelDir: m.Dir}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := ft.(sv.Trainable); !ok {
		t.Error("use-lite_ft is not sv.Trainable")
	}
	if c, ok := ft.(sv.Closer); ok {
		c.Close()
	}
	if !slices.Contains(sv.EncoderNames(), Name) {
		t.Errorf("%s not in %v", Name, sv.EncoderNames())
	}
}

func TestTokenizerAdapter(t *testing.T) {
	m := installedModel(t)
	tok := (&Utterance{Model: m}).Tokenizer()
	if got := tok.Encode("", 128); !slices.Equal(got, []int32{0}) {
		t.Errorf("empty text: %v, want [0]", got)
	}
	if got := tok.Encode("A man is playing a guitar.", 3); !slices.Equal(got, []int32{74, 337, 18}) {
		t.Errorf("cut to 3: %v", got)
	}
	if tok.VocabSize() != 8000 {
		t.Errorf("VocabSize %d", tok.VocabSize())
	}
}

// TestBackendsAgree compares vectors and the gradients of every trainable
// variable between the pure-Go backend and ONNX Runtime: an op or a
// gradient a backend lacks, or computes differently, fails here.
func TestBackendsAgree(t *testing.T) {
	m := installedModel(t)
	if _, err := backend.ONNXRuntimeLibrary(); err != nil {
		t.Skipf("ONNX Runtime not installed: %v", err)
	}
	texts := []string{"Could this BE any more obvious?", "Ça va? ☃", "Hi", ""}
	refOut, refGrads := outputsAndGrads(t, m, testGo, texts)
	out, grads := outputsAndGrads(t, m, "onnx", texts)
	maxOut := 0.0
	for i := range refOut {
		if math.IsNaN(float64(refOut[i])) || math.IsInf(float64(refOut[i]), 0) {
			t.Fatalf("non-finite output at %d", i)
		}
		maxOut = math.Max(maxOut, math.Abs(float64(refOut[i]-out[i])))
	}
	worst, worstVar := 0.0, ""
	for path, rg := range refGrads {
		scale, d := 1e-12, 0.0
		for i := range rg {
			if math.IsNaN(float64(rg[i])) || math.IsInf(float64(rg[i]), 0) {
				t.Fatalf("non-finite gradient for %s", path)
			}
			scale = math.Max(scale, math.Abs(float64(rg[i])))
			d = math.Max(d, math.Abs(float64(rg[i]-grads[path][i])))
		}
		if d/scale > worst {
			worst, worstVar = d/scale, path
		}
	}
	t.Logf("onnx vs go: max output diff %.2g, max relative gradient diff %.2g (%s), %d variables", maxOut, worst, worstVar, len(refGrads))
	if maxOut > 1e-4 || worst > 1e-3 {
		t.Errorf("onnx disagrees with go: output diff %.3g, gradient diff %.3g in %s", maxOut, worst, worstVar)
	}
}

// outputsAndGrads returns the utterance vectors of texts on backend b
// and the gradients of Σ v·r (r a fixed pseudo-random matrix) for every
// trainable variable, by variable path.
func outputsAndGrads(t *testing.T, m *Model, b string, texts []string) ([]float32, map[string][]float32) {
	t.Helper()
	be, err := backend.Shared(b)
	if err != nil {
		t.Fatal(err)
	}
	u := &Utterance{Model: m}
	store := model.NewStore()
	if err := u.Init(store.Scope("/model")); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for v := range store.IterVariables() {
		if v.Trainable {
			paths = append(paths, v.Path())
		}
	}
	slices.Sort(paths)
	tokens := make([][]int, len(texts))
	for i, text := range texts {
		for _, id := range u.Tokenizer().Encode(text, 16) {
			tokens[i] = append(tokens[i], int(id))
		}
	}
	// One more row with no tokens: a padding utterance, which must stay
	// finite (sv/neural's contract).
	ids, mask := denseBatch(tokens, len(texts)+1, 16)
	outs, err := model.CallOnceN(be, store, func(scope *model.Scope, ids, mask *graph.Node) []*graph.Node {
		v := u.Graph(scope.Store().Scope("/model"), ids, mask)
		r := make([]float32, v.Shape().Size())
		for i := range r {
			r[i] = float32(math.Sin(float64(i)*0.37)) * 0.1
		}
		obj := graph.ReduceAllSum(graph.Mul(v, graph.Reshape(graph.Const(v.Graph(), r), v.Shape().Dimensions...)))
		vars := make([]*graph.Node, len(paths))
		for i, p := range paths {
			vars[i] = scope.Store().GetVariable(p).NodeValue(v.Graph())
		}
		return append([]*graph.Node{v}, graph.Gradient(obj, vars...)...)
	}, ids, mask)
	if err != nil {
		t.Fatal(err)
	}
	grads := map[string][]float32{}
	for i, p := range paths {
		grads[p] = tensors.MustCopyFlatData[float32](outs[i+1])
	}
	return tensors.MustCopyFlatData[float32](outs[0]), grads
}

// denseBatch lays token lists out as Int32 ids and a Bool mask [rows, length].
func denseBatch(tokens [][]int, rows, length int) (*tensors.Tensor, *tensors.Tensor) {
	ids := make([]int32, rows*length)
	mask := make([]bool, rows*length)
	for r, toks := range tokens {
		for j, id := range toks {
			ids[r*length+j], mask[r*length+j] = int32(id), true
		}
	}
	return tensors.FromFlatDataAndDimensions(ids, rows, length), tensors.FromFlatDataAndDimensions(mask, rows, length)
}

// TestFineTuneSteps runs a few contrastive training steps through
// sv/neural's trainer: the loss is finite and the weights move.
func TestFineTuneSteps(t *testing.T) {
	m := installedModel(t)
	tc := neural.DefaultTrainConfig()
	tc.Epochs, tc.BatchPairs, tc.MaxSteps, tc.MaxUtterances, tc.MaxTokens, tc.LearningRate, tc.SkipDev = 2, 4, 2, 2, 16, 1e-3, true
	enc, err := neural.NewEncoder(&Utterance{Model: m}, neural.EncoderConfig{Backend: testGo, Head: "mean", Seed: 1, Train: tc})
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	probe := []string{"Shall I compare thee to a summer's day?"}
	before, err := enc.Encode(context.Background(), probe, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := enc.Train(context.Background(), styleCorpus(), nil); err != nil {
		t.Fatal(err)
	}
	res := enc.LastTrainResult()
	if res == nil || res.Steps != 2 {
		t.Fatalf("train result %+v", res)
	}
	for _, l := range res.Losses {
		if math.IsNaN(l) || math.IsInf(l, 0) || l < 0 {
			t.Fatalf("loss %v", res.Losses)
		}
	}
	after, err := enc.Encode(context.Background(), probe, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cos := cosine(after[0], f64(before[0])); cos > 0.999999 {
		t.Errorf("training did not change the vectors (cosine %.7f)", cos)
	}
	t.Logf("losses %v; vector moved to cosine %.5f", res.Losses, cosine(after[0], f64(before[0])))
}

func f64(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

// styleCorpus is a tiny pair corpus: two speakers with distinct styles.
func styleCorpus() *pairs.PairCorpus {
	lines := [][]string{
		{"Thou art more lovely and more temperate.", "Wherefore art thou, good sir?", "I shall not, my lord."},
		{"Dude, that game was awesome!", "Pizza and beer tonight?", "No way, man, that's epic."},
	}
	c := &pairs.PairCorpus{Sets: map[string]*pairs.UtteranceSet{}, Tests: map[pairs.TestKey][]pairs.Pair{}}
	for s, texts := range lines {
		for k := 0; k < 2; k++ {
			id := fmt.Sprintf("s%d-%d", s, k)
			rot := append(append([]string{}, texts[k:]...), texts[:k]...)
			c.Sets[id] = &pairs.UtteranceSet{ID: id, Speaker: fmt.Sprint(s), Texts: rot}
		}
	}
	c.Train = []pairs.Pair{
		{ID: "p0", A: "s0-0", B: "s0-1", Label: 1}, {ID: "p1", A: "s0-0", B: "s1-0", Label: 0},
		{ID: "p2", A: "s1-0", B: "s1-1", Label: 1}, {ID: "p3", A: "s0-1", B: "s1-1", Label: 0},
	}
	return c
}
