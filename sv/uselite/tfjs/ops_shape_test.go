package tfjs

import (
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

func TestOpShape(t *testing.T) {
	newGraph(t).input("x", tensors.FromShape(shapes.Make(dtypes.Float32, 2, 3, 4))).
		op("s", "Shape", `{"out_type": {"type": 3}}`, "x").
		check([]string{"s"}, []int32{2, 3, 4})
}

func TestOpReshape(t *testing.T) {
	newGraph(t).input("x", [][]float32{{1, 2, 3}, {4, 5, 6}}).constant("shape", []int32{3, -1}).
		op("y", "Reshape", "", "x", "shape").
		check([]string{"y"}, [][]float32{{1, 2}, {3, 4}, {5, 6}})
	newGraph(t).input("x", []float32{1, 2, 3}).constant("shape", []int32{2, -1}).
		op("y", "Reshape", "", "x", "shape").
		checkErr("cannot reshape", "y")
}

func TestOpExpandDims(t *testing.T) {
	newGraph(t).input("x", [][]float32{{1, 2}}).constant("axis", int32(-1)).constant("zero", int32(0)).
		op("y", "ExpandDims", "", "x", "axis").op("z", "ExpandDims", "", "x", "zero").
		check([]string{"y", "z"}, [][][]float32{{{1}, {2}}}, [][][]float32{{{1, 2}}})
}

func TestOpSqueeze(t *testing.T) {
	newGraph(t).input("x", [][][]float32{{{1}, {2}}}).
		op("y", "Squeeze", `{"squeeze_dims": {"list": {"i": ["2"]}}}`, "x").
		op("z", "Squeeze", "", "x").
		check([]string{"y", "z"}, [][]float32{{1, 2}}, []float32{1, 2})
	newGraph(t).input("x", [][]float32{{1, 2}}).
		op("y", "Squeeze", `{"squeeze_dims": {"list": {"i": ["1"]}}}`, "x").
		checkErr("dimension is not 1", "y")
}

func TestOpPack(t *testing.T) {
	newGraph(t).input("a", int32(2)).input("b", int32(3)).
		op("v", "Pack", `{"axis": {"i": "0"}, "N": {"i": "2"}}`, "a", "b").
		check([]string{"v"}, []int32{2, 3})
	newGraph(t).input("a", []float32{1, 2}).input("b", []float32{3, 4}).
		op("v", "Pack", `{"axis": {"i": "1"}}`, "a", "b").
		check([]string{"v"}, [][]float32{{1, 3}, {2, 4}})
}

func TestOpConcatV2(t *testing.T) {
	newGraph(t).input("a", [][]float32{{1, 2}}).input("b", [][]float32{{3, 4}}).
		constant("rows", int32(0)).constant("last", int32(-1)).
		op("r", "ConcatV2", `{"N": {"i": "2"}}`, "a", "b", "rows").
		op("c", "ConcatV2", `{"N": {"i": "2"}}`, "a", "b", "last").
		check([]string{"r", "c"}, [][]float32{{1, 2}, {3, 4}}, [][]float32{{1, 2, 3, 4}})
}

func TestOpTranspose(t *testing.T) {
	newGraph(t).input("x", [][]int32{{1, 2, 3}, {4, 5, 6}}).constant("perm", []int32{1, 0}).
		op("y", "Transpose", "", "x", "perm").
		check([]string{"y"}, [][]int32{{1, 4}, {2, 5}, {3, 6}})
}

func TestOpSlice(t *testing.T) {
	newGraph(t).input("x", [][]float32{{1, 2, 3}, {4, 5, 6}}).
		constant("begin", []int32{0, 1}).constant("size", []int32{2, -1}).
		op("y", "Slice", "", "x", "begin", "size").
		check([]string{"y"}, [][]float32{{2, 3}, {5, 6}})
}

func TestOpSplitV(t *testing.T) {
	newGraph(t).input("x", [][]float32{{1, 2, 3, 4, 5, 6}}).
		constant("sizes", []int32{2, -1, 1}).constant("axis", int32(1)).
		op("s", "SplitV", `{"num_split": {"i": "3"}}`, "x", "sizes", "axis").
		check([]string{"s", "s:1", "s:2"}, [][]float32{{1, 2}}, [][]float32{{3, 4, 5}}, [][]float32{{6}})
	newGraph(t).input("x", []float32{1, 2, 3}).
		constant("sizes", []int32{2, 2}).constant("axis", int32(0)).
		op("s", "SplitV", "", "x", "sizes", "axis").
		checkErr("do not add up", "s")
}

// TestSplitOneHot checks the Pad-free split used on ONNX Runtime, and its
// gradient (which is what it exists for).
func TestSplitOneHot(t *testing.T) {
	got, err := graph.ExecOnceN(testBackend(), func(x *graph.Node) []*graph.Node {
		parts := splitOneHot(x, 1, 3)
		loss := graph.ReduceAllSum(graph.Mul(parts[1], parts[1]))
		return append(parts, graph.Gradient(loss, x)[0])
	}, [][]float32{{1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11, 12}})
	if err != nil {
		t.Fatal(err)
	}
	want := []any{[][]float32{{1, 2}, {7, 8}}, [][]float32{{3, 4}, {9, 10}}, [][]float32{{5, 6}, {11, 12}},
		[][]float32{{0, 0, 6, 8, 0, 0}, {0, 0, 18, 20, 0, 0}}}
	for i, w := range want {
		if msg := diff(got[i], tensorOf(t, w)); msg != "" {
			t.Errorf("output %d: %s", i, msg)
		}
	}
}

func TestOpRange(t *testing.T) {
	newGraph(t).constant("a", int32(0)).constant("b", int32(5)).constant("c", int32(2)).
		constant("d", int32(-2)).
		op("r", "Range", "", "a", "b", "c").op("down", "Range", "", "b", "a", "d").
		check([]string{"r", "down"}, []int32{0, 2, 4}, []int32{5, 3, 1})
	newGraph(t).constant("a", float32(0)).constant("b", float32(1)).constant("c", float32(0.25)).
		op("r", "Range", "", "a", "b", "c").
		check([]string{"r"}, []float32{0, 0.25, 0.5, 0.75})
	// The length must be known when the graph is built.
	newGraph(t).constant("a", int32(0)).input("b", int32(5)).constant("c", int32(1)).
		op("r", "Range", "", "a", "b", "c").
		checkErr("must be known", "r")
}
