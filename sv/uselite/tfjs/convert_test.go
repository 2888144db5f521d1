package tfjs

import (
	"encoding/json"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
)

// TestEveryOpHasATest requires a TestOp<Name> function for every op type
// the converter supports.
func TestEveryOpHasATest(t *testing.T) {
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	tested := map[string]bool{}
	re := regexp.MustCompile(`^TestOp([A-Za-z0-9]+)$`)
	for _, f := range files {
		src, err := parser.ParseFile(token.NewFileSet(), f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for name := range src.Scope.Objects {
			if m := re.FindStringSubmatch(name); m != nil {
				tested[m[1]] = true
			}
		}
	}
	aliases := map[string]string{"BatchMatMulV2": "BatchMatMul"}
	for _, op := range SupportedOps() {
		if a, ok := aliases[op]; ok {
			op = a
		}
		if !tested[op] {
			t.Errorf("op %s has no TestOp%s", op, op)
		}
	}
	if n := len(SupportedOps()); n < 42 {
		t.Errorf("%d supported ops, the USE-Lite graph needs 42", n)
	}
}

func TestOpConst(t *testing.T) {
	newGraph(t).constant("c", [][]float32{{1, 2}}).
		check([]string{"c"}, [][]float32{{1, 2}})
}

func TestOpPlaceholder(t *testing.T) {
	// (Read through an op: ONNX Runtime's backend returns garbage for a
	// graph output that is a parameter unchanged.)
	tg := newGraph(t).input("x", []int32{1, 2}).op("y", "Relu", "", "x")
	tg.nodes[0].Attrs["dtype"] = mustAttr(t, `{"type": 9}`)
	tg.check([]string{"y"}, []int32{1, 2}) // int64 placeholder fed int32, as in TF.js
	tg.nodes[0].Attrs["shape"] = mustAttr(t, `{"shape": {"dim": [{"size": "-1"}, {"size": "2"}]}}`)
	tg.checkErr(`input "x" must have shape [-1 2]`, "y")
	// An input that is needed but not fed.
	tg2 := newGraph(t).input("x", []float32{1})
	tg2.inputs = nil
	tg2.checkErr(`input "x" is needed but was not given`, "x")
}

func mustAttr(t *testing.T, js string) *Attr {
	t.Helper()
	var a Attr
	if err := json.Unmarshal([]byte(js), &a); err != nil {
		t.Fatal(err)
	}
	return &a
}

func TestUnsupportedOpIsNamed(t *testing.T) {
	tg := newGraph(t).input("x", []float32{1}).op("e", "Erf", "", "x").op("y", "Tanh", "", "e")
	tg.checkErr("unsupported op types: Erf (node e)", "y")
	if got := tg.model(false).Unsupported(); !slices.Equal(got, []string{"Erf (node e)"}) {
		t.Errorf("Unsupported() = %v", got)
	}
}

func TestPinnedSkipsItsInputs(t *testing.T) {
	// "p" would need an unsupported op, but it is pinned.
	tg := newGraph(t).input("x", []float32{1, 2}).op("e", "Erf", "", "x").op("p", "Shape", "", "e").
		op("y", "Reshape", "", "x", "p")
	m := tg.model(false)
	outs, err := model.CallOnceN(testBackend(), model.NewStore(), func(scope *model.Scope, x *graph.Node) []*graph.Node {
		n, err := m.Build(scope, x.Graph(), map[string]*graph.Node{"x": x}, []string{"y"},
			Options{Pinned: map[string]*tensors.Tensor{"p": tensors.FromValue([]int32{2, 1})}})
		if err != nil {
			panic(err)
		}
		return n
	}, []float32{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if msg := diff(outs[0], tensorOf(t, [][]float32{{1}, {2}})); msg != "" {
		t.Error(msg)
	}
}

// TestTrainableConstantsAreVariables checks that float weights become
// variables of the store (named after the node under the scope) and that
// a second build uses their current value.
func TestTrainableConstantsAreVariables(t *testing.T) {
	tg := newGraph(t).input("x", []float32{1, 2}).constant("w", []float32{10, 20}).constant("s", float32(3)).
		op("y", "Mul", "", "x", "w").op("z", "Mul", "", "y", "s")
	m := tg.model(false)
	store := model.NewStore()
	run := func() *tensors.Tensor {
		out, err := model.CallOnce(testBackend(), store, func(scope *model.Scope, x *graph.Node) *graph.Node {
			n, err := m.Build(scope.In("net"), x.Graph(), map[string]*graph.Node{"x": x}, []string{"z"}, Options{})
			if err != nil {
				panic(err)
			}
			return n[0]
		}, []float32{1, 2})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if msg := diff(run(), tensorOf(t, []float32{30, 120})); msg != "" {
		t.Fatal(msg)
	}
	v := store.GetVariable("/net/w")
	if v == nil || !v.Trainable {
		t.Fatalf("no trainable variable /net/w (variables: %v)", variableNames(store))
	}
	if store.GetVariable("/net/s") != nil {
		t.Error("the scalar constant became a variable")
	}
	v.MustSetValue(tensors.FromValue([]float32{1, 1}))
	if msg := diff(run(), tensorOf(t, []float32{3, 6})); msg != "" {
		t.Errorf("after changing the variable: %s", msg)
	}
}

func variableNames(s *model.Store) []string {
	var out []string
	for v := range s.IterVariables() {
		out = append(out, v.Path())
	}
	return out
}

func TestDefaultTrainable(t *testing.T) {
	if !DefaultTrainable("w", shapes.Make(tensorOf(t, []float32{1, 2}).DType(), 2)) {
		t.Error("float vector not trainable")
	}
	if DefaultTrainable("s", tensorOf(t, float32(1)).Shape()) || DefaultTrainable("i", tensorOf(t, []int32{1, 2}).Shape()) {
		t.Error("scalar or integer constant trainable")
	}
}

func TestMultipleOutputsAndBadReference(t *testing.T) {
	tg := newGraph(t).input("x", []float32{1, 2, 3, 4}).constant("sizes", []int32{1, 3}).constant("axis", int32(0)).
		op("s", "SplitV", "", "x", "sizes", "axis").op("y", "Neg", "", "s:5")
	tg.checkErr("unsupported op types: Neg", "y")
	tg.nodes[len(tg.nodes)-1].Op = "Tanh"
	tg.checkErr(`refers to output 5 of node "s"`, "y")
}

func TestSupportedOpsListsTheUSELiteOps(t *testing.T) {
	use := "Add BatchMatMul BiasAdd Cast ConcatV2 Const Conv2D Cos ExpandDims GatherNd GatherV2 Greater Less LogicalNot MatMul Max Maximum Mean Mul Pack Placeholder Prod Range RealDiv Relu Reshape Rsqrt ScatterNd Shape Sin Slice Softmax SparseToDense SplitV Square Squeeze StridedSlice Sub Sum Tanh Transpose Where"
	have := SupportedOps()
	for _, op := range strings.Fields(use) {
		if !slices.Contains(have, op) {
			t.Errorf("%s missing from SupportedOps", op)
		}
	}
}
