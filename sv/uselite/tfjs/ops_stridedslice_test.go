package tfjs

import "testing"

func TestOpStridedSlice(t *testing.T) {
	x := [][]int32{{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}}
	cases := []struct {
		what                string
		begin, end, strides []int32
		masks               string
		want                any
	}{
		{"x[1:3, ::2]", []int32{1, 0}, []int32{3, 0}, []int32{1, 2}, `"end_mask": {"i": "2"}`,
			[][]int32{{5, 7}, {9, 11}}},
		{"x[:, -1]", []int32{0, -1}, []int32{0, 0}, []int32{1, 1}, `"begin_mask": {"i": "1"}, "end_mask": {"i": "1"}, "shrink_axis_mask": {"i": "2"}`,
			[]int32{4, 8, 12}},
		{"x[::-1, 1]", []int32{0, 1}, []int32{0, 2}, []int32{-1, 1}, `"begin_mask": {"i": "1"}, "end_mask": {"i": "1"}, "shrink_axis_mask": {"i": "2"}`,
			[]int32{10, 6, 2}},
		{"x[..., 1:3]", []int32{0, 1}, []int32{0, 3}, []int32{1, 1}, `"ellipsis_mask": {"i": "1"}`,
			[][]int32{{2, 3}, {6, 7}, {10, 11}}},
		{"x[None, 0]", []int32{0, 0}, []int32{0, 1}, []int32{1, 1}, `"new_axis_mask": {"i": "1"}, "shrink_axis_mask": {"i": "2"}`,
			[][]int32{{1, 2, 3, 4}}},
		{"x[-2:, :-1]", []int32{-2, 0}, []int32{0, -1}, []int32{1, 1}, `"end_mask": {"i": "1"}, "begin_mask": {"i": "2"}`,
			[][]int32{{5, 6, 7}, {9, 10, 11}}},
		{"x[2:0:-1, 3:0:-2]", []int32{2, 3}, []int32{0, 0}, []int32{-1, -2}, ``,
			[][]int32{{12, 10}, {8, 6}}},
		{"x[1] (implicit trailing axes)", []int32{1}, []int32{2}, []int32{1}, `"shrink_axis_mask": {"i": "1"}`,
			[]int32{5, 6, 7, 8}},
	}
	for _, c := range cases {
		t.Run(c.what, func(t *testing.T) {
			attrs := "{" + c.masks + "}"
			if c.masks == "" {
				attrs = ""
			}
			newGraph(t).input("x", x).constant("b", c.begin).constant("e", c.end).constant("s", c.strides).
				op("y", "StridedSlice", attrs, "x", "b", "e", "s").
				check([]string{"y"}, c.want)
		})
	}
	// Shape bookkeeping as in the USE graph: shape[1:] of a [2, 3, 4] shape.
	newGraph(t).input("shape", []int32{2, 3, 4}).constant("b", []int32{1}).constant("e", []int32{0}).constant("s", []int32{1}).
		op("y", "StridedSlice", `{"end_mask": {"i": "1"}}`, "shape", "b", "e", "s").
		check([]string{"y"}, []int32{3, 4})
	// Out-of-range shrink index.
	newGraph(t).input("x", x).constant("b", []int32{5}).constant("e", []int32{6}).constant("s", []int32{1}).
		op("y", "StridedSlice", `{"shrink_axis_mask": {"i": "1"}}`, "x", "b", "e", "s").
		checkErr("out of range", "y")
}

func TestResolveStridedSliceLengths(t *testing.T) {
	// Python slicing of range(10): len(range(10)[b:e:s]).
	cases := [][4]int{{0, 10, 3, 4}, {9, -11, -1, 10}, {8, 2, -2, 3}, {-3, 10, 1, 3}, {5, 5, 1, 0}}
	for _, c := range cases {
		spec, err := resolveStridedSlice([]int{10}, []int{c[0]}, []int{c[1]}, []int{c[2]}, 0, 0, 0, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := spec.steps[0].length(); got != c[3] {
			t.Errorf("range(10)[%d:%d:%d] has %d elements, got %d", c[0], c[1], c[2], c[3], got)
		}
	}
	if _, err := resolveStridedSlice([]int{3}, []int{0}, []int{1}, []int{0}, 0, 0, 0, 0, 0); err == nil {
		t.Error("stride 0 accepted")
	}
}
