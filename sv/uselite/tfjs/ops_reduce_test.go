package tfjs

import (
	"math"
	"testing"
)

func TestOpSum(t *testing.T) {
	newGraph(t).input("x", [][]float32{{1, 2, 3}, {4, 5, 6}}).
		constant("one", int32(1)).constant("both", []int32{0, -1}).
		op("rows", "Sum", `{"keep_dims": {"b": false}}`, "x", "one").
		op("kept", "Sum", `{"keep_dims": {"b": true}}`, "x", "one").
		op("all", "Sum", "", "x", "both").
		check([]string{"rows", "kept", "all"}, []float32{6, 15}, [][]float32{{6}, {15}}, float32(21))
}

func TestOpMean(t *testing.T) {
	newGraph(t).input("x", [][]float32{{1, 2, 3}, {4, 5, 6}}).constant("zero", []int32{0}).
		op("m", "Mean", "", "x", "zero").
		check([]string{"m"}, []float32{2.5, 3.5, 4.5})
	// Integer mean truncates, as in TF.
	newGraph(t).input("x", [][]int32{{1, 2}, {4, 5}}).constant("one", int32(1)).
		op("m", "Mean", `{"keep_dims": {"b": true}}`, "x", "one").
		check([]string{"m"}, [][]int32{{1}, {4}})
}

func TestOpMax(t *testing.T) {
	newGraph(t).input("x", [][]int32{{1, 7, 3}, {4, 5, 6}}).constant("zero", int32(0)).
		op("m", "Max", "", "x", "zero").
		check([]string{"m"}, []int32{4, 7, 6})
}

func TestOpProd(t *testing.T) {
	newGraph(t).input("x", [][]int32{{1, 2, 3}, {4, 5, 6}}).constant("one", []int32{1}).
		op("p", "Prod", "", "x", "one").
		check([]string{"p"}, []int32{6, 120})
}

func TestOpSoftmax(t *testing.T) {
	newGraph(t).input("x", [][]float32{{0, float32(math.Ln2)}, {5, 5}}).
		op("s", "Softmax", "", "x").
		check([]string{"s"}, [][]float32{{1.0 / 3, 2.0 / 3}, {0.5, 0.5}})
	// A -1e9 bias (TF's attention padding) gives exactly zero weight.
	newGraph(t).input("x", [][]float32{{1, 2, -1e9}}).
		op("s", "Softmax", "", "x").
		check([]string{"s"}, [][]float32{{0.26894142, 0.73105858, 0}})
}
