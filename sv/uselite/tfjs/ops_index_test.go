package tfjs

import (
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/gomlx/core/graph"
)

func TestOpGatherV2(t *testing.T) {
	params := [][]float32{{1, 2}, {3, 4}, {5, 6}}
	newGraph(t).input("p", params).input("rows", []int32{2, 0}).input("cols", [][]int32{{1}, {0}}).input("one", int32(1)).
		constant("zero", int32(0)).constant("ax1", int32(1)).
		op("byRow", "GatherV2", "", "p", "rows", "zero").
		op("byCol", "GatherV2", "", "p", "cols", "ax1").
		op("scalar", "GatherV2", "", "p", "one", "zero").
		check([]string{"byRow", "byCol", "scalar"},
			[][]float32{{5, 6}, {1, 2}},
			[][][]float32{{{2}, {1}}, {{4}, {3}}, {{6}, {5}}},
			[]float32{3, 4})
	// Out-of-range indices are clamped (TF raises on CPU, XLA clamps).
	newGraph(t).input("p", params).input("rows", []int32{7}).constant("zero", int32(0)).
		op("g", "GatherV2", "", "p", "rows", "zero").
		check([]string{"g"}, [][]float32{{5, 6}})
}

func TestOpGatherNd(t *testing.T) {
	newGraph(t).input("p", [][]int32{{1, 2}, {3, 4}}).input("pairs", [][]int32{{1, 0}, {0, 1}}).input("row", [][]int32{{1}}).
		op("elems", "GatherNd", "", "p", "pairs").
		op("slices", "GatherNd", "", "p", "row").
		check([]string{"elems", "slices"}, []int32{3, 2}, [][]int32{{3, 4}})
}

func TestOpScatterNd(t *testing.T) {
	// Duplicate indices add up, as in TF.
	newGraph(t).input("i", [][]int32{{0}, {2}, {0}}).input("u", []float32{1, 2, 3}).constant("shape", []int32{4}).
		op("s", "ScatterNd", "", "i", "u", "shape").
		check([]string{"s"}, []float32{4, 0, 2, 0})
	// Slices.
	newGraph(t).input("i", [][]int32{{1, 0}}).input("u", [][]float32{{5, 6}}).constant("shape", []int32{2, 2, 2}).
		op("s", "ScatterNd", "", "i", "u", "shape").
		check([]string{"s"}, [][][]float32{{{0, 0}, {0, 0}}, {{5, 6}, {0, 0}}})
	// Like tfjs, only as many update rows as index rows are read.
	newGraph(t).input("i", [][]int32{{1}}).input("u", []float32{7, 8}).constant("shape", []int32{3}).
		op("s", "ScatterNd", "", "i", "u", "shape").
		check([]string{"s"}, []float32{0, 7, 0})
}

func TestOpSparseToDense(t *testing.T) {
	newGraph(t).input("i", [][]int32{{0, 1}, {1, 0}}).input("v", []int32{5, 6}).input("d", int32(-1)).
		constant("shape", []int32{2, 3}).
		op("s", "SparseToDense", `{"validate_indices": {"b": true}}`, "i", "shape", "v", "d").
		check([]string{"s"}, [][]int32{{-1, 5, -1}, {6, -1, -1}})
	// 1-D indices and a scalar value.
	newGraph(t).input("i", []int32{0, 2}).input("v", float32(7)).input("d", float32(0)).constant("shape", []int32{4}).
		op("s", "SparseToDense", "", "i", "shape", "v", "d").
		check([]string{"s"}, []float32{7, 0, 7, 0})
}

func TestOpWhere(t *testing.T) {
	// Folded (known input): the exact coordinates.
	newGraph(t).constant("c", [][]bool{{true, false}, {false, true}}).
		op("w", "Where", "", "c").
		check([]string{"w"}, [][]int32{{0, 0}, {1, 1}})
	// At run time the output has a data-dependent length: it cannot be an
	// output as such...
	newGraph(t).input("c", []bool{false, true, false, true}).
		op("w", "Where", "", "c").
		checkErr("data-dependent length", "w")
	// ...but flows through row-wise ops into ScatterNd, which drops the
	// padding rows: out[i] = 10·v[i] where c[i].
	newGraph(t).input("c", []bool{false, true, false, true}).input("v", []float32{1, 2, 3, 4}).
		constant("ten", float32(10)).constant("shape", []int32{4}).
		op("w", "Where", "", "c").
		op("g", "GatherNd", "", "v", "w").
		op("m", "Mul", "", "g", "ten").
		op("s", "ScatterNd", "", "w", "m", "shape").
		check([]string{"s"}, []float32{0, 20, 0, 40})
	// A reduction over the padded rows is refused, naming the node.
	newGraph(t).input("c", []bool{false, true}).input("v", []float32{1, 2}).constant("zero", int32(0)).
		op("w", "Where", "", "c").
		op("g", "GatherNd", "", "v", "w").
		op("bad", "Sum", "", "g", "zero").
		checkErr(`node "bad" (Sum)`, "bad")
}

// TestPaddedSparseClip reproduces USE-Lite's front end: a sparse input whose
// rows at position ≥ limit are dropped with Where before SparseToDense
// (with a pinned dense shape), so padding rows never reach the output.
func TestPaddedSparseClip(t *testing.T) {
	tg := newGraph(t).
		input("idx", [][]int32{{0, 0}, {0, 9}, {0, 1}, {1, 0}}).input("val", []int32{5, 99, 6, 7}).
		constant("b", []int32{0, 1}).constant("e", []int32{0, 2}).constant("st", []int32{1, 1}).
		constant("limit", int32(2)).constant("flat", []int32{-1}).constant("zero", int32(0)).
		constant("shape", []int32{2, 2}).constant("def", int32(-1)).
		op("pos", "StridedSlice", `{"begin_mask": {"i": "1"}, "end_mask": {"i": "1"}, "shrink_axis_mask": {"i": "2"}}`, "idx", "b", "e", "st").
		op("keep", "Less", "", "pos", "limit").
		op("w", "Where", "", "keep").
		op("rows", "Reshape", "", "w", "flat").
		op("gi", "GatherV2", "", "idx", "rows", "zero").
		op("gv", "GatherV2", "", "val", "rows", "zero").
		op("dense", "SparseToDense", "", "gi", "shape", "gv", "def")
	tg.check([]string{"dense"}, [][]int32{{5, 6}, {7, -1}})
}

// TestCumSumCounts checks the matmul-based running count (n not a square,
// n = 1) on every available backend.
func TestCumSumCounts(t *testing.T) {
	for _, n := range []int{1, 7, 40} {
		x := make([]int32, n)
		want := make([]int32, n)
		sum := int32(0)
		for i := range x {
			x[i] = int32(i % 3 % 2) // 0 1 0 0 1 0 ...
			sum += x[i]
			want[i] = sum
		}
		backends := []compute.Backend{testBackend()}
		if ob := onnxBackend(); ob != nil {
			backends = append(backends, ob)
		}
		for _, b := range backends {
			got, err := graph.ExecOnce(b, CumSumCounts, x)
			if err != nil {
				t.Fatal(err)
			}
			if msg := diff(got, tensorOf(t, want)); msg != "" {
				t.Errorf("%s n=%d: %s", b.Name(), n, msg)
			}
		}
	}
}
