package tfjs

import (
	"math"
	"testing"
)

// Each TestOp<Name> checks one op type against values worked out by hand,
// both fed at run time and folded at build time.

func TestOpAdd(t *testing.T) {
	newGraph(t).input("x", [][]float32{{1, 2, 3}, {4, 5, 6}}).input("y", []float32{10, 20, 30}).
		op("z", "Add", "", "x", "y").
		check([]string{"z"}, [][]float32{{11, 22, 33}, {14, 25, 36}})
	newGraph(t).input("x", int32(5)).input("y", []int32{1, -1}).
		op("z", "Add", "", "x", "y").
		check([]string{"z"}, []int32{6, 4})
}

func TestOpSub(t *testing.T) {
	newGraph(t).input("x", []float32{5, 7}).input("y", []float32{1}).
		op("z", "Sub", "", "x", "y").
		check([]string{"z"}, []float32{4, 6})
}

func TestOpMul(t *testing.T) {
	newGraph(t).input("x", [][]float32{{1, 2}, {3, 4}}).input("y", [][]float32{{2}, {3}}).
		op("z", "Mul", "", "x", "y").
		check([]string{"z"}, [][]float32{{2, 4}, {9, 12}})
}

func TestOpRealDiv(t *testing.T) {
	newGraph(t).input("x", []float32{1, 4, 9}).input("y", float32(2)).
		op("z", "RealDiv", "", "x", "y").
		check([]string{"z"}, []float32{0.5, 2, 4.5})
}

func TestOpMaximum(t *testing.T) {
	newGraph(t).input("x", []int32{1, 5, -3}).input("y", []int32{2}).
		op("z", "Maximum", "", "x", "y").
		check([]string{"z"}, []int32{2, 5, 2})
}

func TestOpGreater(t *testing.T) {
	newGraph(t).input("x", []int32{1, 2, 3}).input("y", int32(2)).
		op("z", "Greater", "", "x", "y").
		check([]string{"z"}, []bool{false, false, true})
}

func TestOpLess(t *testing.T) {
	newGraph(t).input("x", []float32{1, 2, 3}).input("y", []float32{2, 2, 4}).
		op("z", "Less", "", "x", "y").
		check([]string{"z"}, []bool{true, false, true})
	// Shapes that do not broadcast are an error naming them.
	newGraph(t).input("x", []float32{1, 2, 3}).input("y", []float32{1, 2}).
		op("z", "Less", "", "x", "y").
		checkErr("cannot be broadcast", "z")
}

func TestOpLogicalNot(t *testing.T) {
	newGraph(t).input("x", []bool{true, false}).
		op("z", "LogicalNot", "", "x").
		check([]string{"z"}, []bool{false, true})
}

func TestOpTanh(t *testing.T) {
	newGraph(t).input("x", []float32{0, 1, -2}).
		op("z", "Tanh", "", "x").
		check([]string{"z"}, []float32{0, 0.7615942, -0.9640276})
}

func TestOpSin(t *testing.T) {
	newGraph(t).input("x", []float32{0, math.Pi / 2, 1}).
		op("z", "Sin", "", "x").
		check([]string{"z"}, []float32{0, 1, 0.84147098})
}

func TestOpCos(t *testing.T) {
	newGraph(t).input("x", []float32{0, math.Pi, 1}).
		op("z", "Cos", "", "x").
		check([]string{"z"}, []float32{1, -1, 0.54030231})
}

func TestOpSquare(t *testing.T) {
	newGraph(t).input("x", []float32{-3, 0.5}).
		op("z", "Square", "", "x").
		check([]string{"z"}, []float32{9, 0.25})
}

func TestOpRelu(t *testing.T) {
	newGraph(t).input("x", []float32{-1, 0, 2.5}).
		op("z", "Relu", "", "x").
		check([]string{"z"}, []float32{0, 0, 2.5})
}

func TestOpRsqrt(t *testing.T) {
	newGraph(t).input("x", []float32{4, 0.25, 1}).
		op("z", "Rsqrt", "", "x").
		check([]string{"z"}, []float32{0.5, 2, 1})
}

func TestOpCast(t *testing.T) {
	newGraph(t).input("x", []float32{1.7, -1.7, 0}).
		op("z", "Cast", `{"DstT": {"type": 3}}`, "x").
		check([]string{"z"}, []int32{1, -1, 0})
	newGraph(t).input("x", []bool{true, false}).
		op("z", "Cast", `{"DstT": {"type": "DT_FLOAT"}}`, "x").
		check([]string{"z"}, []float32{1, 0})
	newGraph(t).input("x", []int32{3, 0}).
		op("z", "Cast", `{"DstT": {"type": 10}}`, "x").
		check([]string{"z"}, []bool{true, false})
	// int64 is narrowed to int32, as TF.js does.
	newGraph(t).input("x", []float32{2}).
		op("z", "Cast", `{"DstT": {"type": 9}}`, "x").
		check([]string{"z"}, []int32{2})
}

func TestOpBiasAdd(t *testing.T) {
	newGraph(t).input("x", [][]float32{{1, 2}, {3, 4}}).input("b", []float32{10, 20}).
		op("z", "BiasAdd", `{"data_format": {"s": [78, 72, 87, 67]}}`, "x", "b").
		check([]string{"z"}, [][]float32{{11, 22}, {13, 24}})
	// NCHW adds along axis 1 ("TkNIVw==" is base64 for NCHW).
	newGraph(t).input("x", [][][]float32{{{1, 2}, {3, 4}}}).input("b", []float32{10, 20}).
		op("z", "BiasAdd", `{"data_format": {"s": "TkNIVw=="}}`, "x", "b").
		check([]string{"z"}, [][][]float32{{{11, 12}, {23, 24}}})
}
