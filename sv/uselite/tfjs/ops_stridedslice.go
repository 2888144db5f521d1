package tfjs

import (
	"fmt"

	"github.com/gomlx/gomlx/core/graph"
)

func init() {
	registerOp("StridedSlice", true, opStridedSlice)
}

// sliceStep is one input axis of a canonical strided slice: take
// [start, stop) with stride (negative strides walk backwards, stop
// exclusive), and drop the axis when shrink.
type sliceStep struct {
	start, stop, stride int
	shrink              bool
}

// stridedSpec is TF's strided-slice specification resolved against an
// input shape: one step per input axis, plus the output positions where
// new axes of size 1 go.
type stridedSpec struct {
	steps   []sliceStep
	newAxes []int // positions in the output (before dropping shrunk axes)
}

// resolveStridedSlice applies TF's StridedSlice semantics (begin/end/
// strides with begin_mask, end_mask, ellipsis_mask, new_axis_mask and
// shrink_axis_mask; an implicit ellipsis at the end) to input dims.
func resolveStridedSlice(dims, begin, end, strides []int, beginMask, endMask, ellipsisMask, newAxisMask, shrinkMask int) (*stridedSpec, error) {
	if len(begin) != len(end) || len(begin) != len(strides) {
		return nil, fmt.Errorf("begin %v, end %v and strides %v differ in length", begin, end, strides)
	}
	bit := func(mask, i int) bool { return mask&(1<<i) != 0 }
	// Number of spec entries that consume an input axis (not ellipsis,
	// not new axis).
	consuming := 0
	hasEllipsis := false
	for i := range begin {
		switch {
		case bit(ellipsisMask, i):
			if hasEllipsis {
				return nil, fmt.Errorf("more than one ellipsis")
			}
			hasEllipsis = true
		case bit(newAxisMask, i):
		default:
			consuming++
		}
	}
	if consuming > len(dims) {
		return nil, fmt.Errorf("slice specification of %d axes for a rank-%d input", consuming, len(dims))
	}
	spec := &stridedSpec{}
	full := func(a int) sliceStep { return sliceStep{start: 0, stop: dims[a], stride: 1} }
	axis, outPos := 0, 0
	for i := range begin {
		switch {
		case bit(ellipsisMask, i):
			for k := 0; k < len(dims)-consuming; k++ {
				spec.steps = append(spec.steps, full(axis))
				axis++
				outPos++
			}
			continue
		case bit(newAxisMask, i):
			spec.newAxes = append(spec.newAxes, outPos)
			outPos++
			continue
		}
		d, s := dims[axis], strides[i]
		if s == 0 {
			return nil, fmt.Errorf("stride 0 at position %d", i)
		}
		if bit(shrinkMask, i) {
			b := begin[i]
			if b < 0 {
				b += d
			}
			if b < 0 || b >= d {
				return nil, fmt.Errorf("index %d out of range for axis %d of dimension %d", begin[i], axis, d)
			}
			spec.steps = append(spec.steps, sliceStep{start: b, stop: b + 1, stride: 1, shrink: true})
			axis++
			continue
		}
		clamp := func(x int) int {
			if x < 0 {
				x += d
			}
			lo, hi := 0, d
			if s < 0 {
				lo, hi = -1, d-1
			}
			return min(max(x, lo), hi)
		}
		var b, e int
		if bit(beginMask, i) {
			b = map[bool]int{true: 0, false: d - 1}[s > 0]
		} else {
			b = clamp(begin[i])
		}
		if bit(endMask, i) {
			e = map[bool]int{true: d, false: -1}[s > 0]
		} else {
			e = clamp(end[i])
		}
		spec.steps = append(spec.steps, sliceStep{start: b, stop: e, stride: s})
		axis++
		outPos++
	}
	for ; axis < len(dims); axis++ { // implicit trailing ellipsis
		spec.steps = append(spec.steps, full(axis))
	}
	return spec, nil
}

// length is the number of elements a step takes.
func (s sliceStep) length() int {
	if s.stride > 0 {
		return max(0, (s.stop-s.start+s.stride-1)/s.stride)
	}
	return max(0, (s.start-s.stop-s.stride-1)/(-s.stride))
}

func opStridedSlice(b *builder, n *Node, in []*value) ([]*value, error) {
	if err := wantInputs(in, 4); err != nil {
		return nil, err
	}
	var args [3][]int
	for i, what := range []string{"begin", "end", "strides"} {
		var err error
		if args[i], err = b.ints(in[i+1], what); err != nil {
			return nil, err
		}
	}
	var masks [5]int
	for i, name := range []string{"begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"} {
		var err error
		if masks[i], err = n.AttrInt(name, 0); err != nil {
			return nil, err
		}
	}
	dims := in[0].dims()
	spec, err := resolveStridedSlice(dims, args[0], args[1], args[2], masks[0], masks[1], masks[2], masks[3], masks[4])
	if err != nil {
		return nil, err
	}
	x := b.node(in[0])
	ranges := make([]graph.SliceAxisSpec, len(dims))
	var reverse []int
	for a, st := range spec.steps {
		if st.length() == 0 {
			return nil, fmt.Errorf("empty slice of axis %d not supported", a)
		}
		if a == axisOf(in[0]) && (st.start != 0 || st.stop != dims[a] || st.stride != 1 || st.shrink) {
			return nil, errPadded(in[0], "the sliced axis")
		}
		if st.stride < 0 {
			// Walk the reversed axis forwards: index i ↦ d-1-i.
			reverse = append(reverse, a)
			st = sliceStep{start: dims[a] - 1 - st.start, stop: dims[a] - 1 - st.stop, stride: -st.stride}
		}
		ranges[a] = graph.AxisRange(st.start, st.start+(st.length()-1)*st.stride+1).Stride(st.stride)
	}
	if len(reverse) > 0 {
		x = graph.Reverse(x, reverse...)
	}
	x = graph.Slice(x, ranges...)
	// Output dims: drop shrunk axes, insert new ones.
	var out []int
	pa := -1
	for a, st := range spec.steps {
		if st.shrink {
			continue
		}
		if a == axisOf(in[0]) {
			pa = len(out)
		}
		out = append(out, st.length())
	}
	for _, pos := range spec.newAxes {
		if pos > len(out) {
			pos = len(out)
		}
		out = append(out[:pos], append([]int{1}, out[pos:]...)...)
		if pa >= pos {
			pa++
		}
	}
	return []*value{padded(graph.Reshape(x, out...), in[0].pad, pa)}, nil
}
