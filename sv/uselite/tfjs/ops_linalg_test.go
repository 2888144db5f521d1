package tfjs

import "testing"

func TestOpMatMul(t *testing.T) {
	a, b := [][]float32{{1, 2}, {3, 4}}, [][]float32{{5, 6}, {7, 8}}
	newGraph(t).input("a", a).input("b", b).
		op("ab", "MatMul", "", "a", "b").
		op("atb", "MatMul", `{"transpose_a": {"b": true}}`, "a", "b").
		op("abt", "MatMul", `{"transpose_b": {"b": true}, "transpose_a": {"b": false}}`, "a", "b").
		check([]string{"ab", "atb", "abt"},
			[][]float32{{19, 22}, {43, 50}}, [][]float32{{26, 30}, {38, 44}}, [][]float32{{17, 23}, {39, 53}})
	newGraph(t).input("a", [][]float32{{1, 2, 3}}).input("b", b).
		op("ab", "MatMul", "", "a", "b").
		checkErr("inner dimensions differ", "ab")
}

func TestOpBatchMatMul(t *testing.T) {
	newGraph(t).input("x", [][][]float32{{{1, 2}}, {{3, 4}}}).input("y", [][][]float32{{{1}, {1}}, {{2}, {0}}}).
		op("z", "BatchMatMul", "", "x", "y").
		check([]string{"z"}, [][][]float32{{{3}}, {{6}}})
	// adj_y transposes y's matrices: x · Iᵀ = x.
	newGraph(t).input("x", [][][]float32{{{1, 2}, {3, 4}}}).input("y", [][][]float32{{{0, 1}, {1, 0}}}).
		op("z", "BatchMatMul", `{"adj_x": {"b": false}, "adj_y": {"b": true}}`, "x", "y").
		op("w", "BatchMatMul", `{"adj_x": {"b": true}}`, "x", "y").
		check([]string{"z", "w"}, [][][]float32{{{2, 1}, {4, 3}}}, [][][]float32{{{3, 1}, {4, 2}}})
	// y without batch axes is broadcast over x's batch.
	newGraph(t).input("x", [][][]float32{{{1, 2}}, {{3, 4}}}).input("y", [][]float32{{1}, {1}}).
		op("z", "BatchMatMulV2", "", "x", "y").
		check([]string{"z"}, [][][]float32{{{3}}, {{7}}})
}

func TestOpConv2D(t *testing.T) {
	nhwc := `"data_format": {"s": [78, 72, 87, 67]}, "strides": {"list": {"i": ["1", "1", "1", "1"]}}, "dilations": {"list": {"i": ["1", "1", "1", "1"]}}`
	// 1×1 filter (the transformer's dense layer): out = 1·c0 + 10·c1.
	newGraph(t).input("x", [][][][]float32{{{{1, 2}, {3, 4}}}}).input("f", [][][][]float32{{{{1}, {10}}}}).
		op("y", "Conv2D", `{`+nhwc+`, "padding": {"s": [86, 65, 76, 73, 68]}}`, "x", "f").
		check([]string{"y"}, [][][][]float32{{{{21}, {43}}}})
	// 2×2 box filter over 1..9.
	img := [][][][]float32{{{{1}, {2}, {3}}, {{4}, {5}, {6}}, {{7}, {8}, {9}}}}
	box := [][][][]float32{{{{1}}, {{1}}}, {{{1}}, {{1}}}}
	newGraph(t).input("x", img).input("f", box).
		op("valid", "Conv2D", `{`+nhwc+`, "padding": {"s": "VkFMSUQ="}}`, "x", "f").
		op("same", "Conv2D", `{`+nhwc+`, "padding": {"s": "U0FNRQ=="}}`, "x", "f").
		op("strided", "Conv2D", `{"strides": {"list": {"i": ["1", "2", "2", "1"]}}, "padding": {"s": "VkFMSUQ="}}`, "x", "f").
		check([]string{"valid", "same", "strided"},
			[][][][]float32{{{{12}, {16}}, {{24}, {28}}}},
			[][][][]float32{{{{12}, {16}, {9}}, {{24}, {28}, {15}}, {{15}, {17}, {9}}}},
			[][][][]float32{{{{12}}}})
}
