package tfjs

import (
	"fmt"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

// Shape ops: Shape, Reshape, ExpandDims, Squeeze, Pack, ConcatV2,
// Transpose, Slice, SplitV and Range. StridedSlice is in
// ops_stridedslice.go.

func init() {
	registerOp("Shape", true, opShape)
	registerOp("Reshape", true, opReshape)
	registerOp("ExpandDims", true, opExpandDims)
	registerOp("Squeeze", true, opSqueeze)
	registerOp("Pack", true, opPack)
	registerOp("ConcatV2", true, opConcatV2)
	registerOp("Transpose", true, opTranspose)
	registerOp("Slice", true, opSlice)
	registerOp("SplitV", true, opSplitV)
	registerOp("Range", false, opRange)
}

func wantInputs(in []*value, n int) error {
	if len(in) != n {
		return fmt.Errorf("expects %d inputs, got %d", n, len(in))
	}
	return nil
}

// normAxis maps a possibly negative axis into [0, rank).
func normAxis(axis, rank int) (int, error) {
	if axis < 0 {
		axis += rank
	}
	if axis < 0 || axis >= rank {
		return 0, fmt.Errorf("axis %d out of range for rank %d", axis, rank)
	}
	return axis, nil
}

// opShape returns the static shape (a padded tensor reports its capacity).
func opShape(b *builder, n *Node, in []*value) ([]*value, error) {
	if err := wantInputs(in, 1); err != nil {
		return nil, err
	}
	dims := in[0].dims()
	return []*value{constValue(int32Tensor(dims, len(dims)))}, nil
}

func opReshape(b *builder, n *Node, in []*value) ([]*value, error) {
	if err := wantInputs(in, 2); err != nil {
		return nil, err
	}
	if in[1].pad != nil {
		return nil, errPadded(in[1], "the shape")
	}
	dims, err := b.ints(in[1], "the target shape")
	if err != nil {
		return nil, err
	}
	size := in[0].shape().Size()
	known, unknown := 1, -1
	for i, d := range dims {
		switch {
		case d == -1 && unknown < 0:
			unknown = i
		case d < 0:
			return nil, fmt.Errorf("bad target shape %v", dims)
		default:
			known *= d
		}
	}
	if unknown >= 0 {
		if known == 0 || size%known != 0 {
			return nil, fmt.Errorf("cannot reshape %s to %v", in[0].shape(), dims)
		}
		dims[unknown] = size / known
	} else if known != size {
		return nil, fmt.Errorf("cannot reshape %s (%d elements) to %v", in[0].shape(), size, dims)
	}
	out := graph.Reshape(b.node(in[0]), dims...)
	if in[0].pad == nil {
		return []*value{nodeValue(out)}, nil
	}
	// The padded axis must survive as an axis of the same size whose
	// preceding axes hold as many elements as before.
	p := in[0].pad
	before := 1
	for _, d := range in[0].dims()[:p.axis] {
		before *= d
	}
	prod := 1
	for a, d := range dims {
		if prod == before && d == in[0].dims()[p.axis] {
			return []*value{padded(out, p, a)}, nil
		}
		prod *= d
	}
	return nil, errPadded(in[0], "the reshaped tensor")
}

func opExpandDims(b *builder, n *Node, in []*value) ([]*value, error) {
	if err := wantInputs(in, 2); err != nil {
		return nil, err
	}
	axis, err := b.int(in[1], "the axis")
	if err != nil {
		return nil, err
	}
	rank := in[0].rank()
	if axis < 0 {
		axis += rank + 1
	}
	if axis < 0 || axis > rank {
		return nil, fmt.Errorf("axis %d out of range for rank %d", axis, rank)
	}
	dims := append([]int{}, in[0].dims()[:axis]...)
	dims = append(dims, 1)
	dims = append(dims, in[0].dims()[axis:]...)
	out := graph.Reshape(b.node(in[0]), dims...)
	pa := axisOf(in[0])
	if pa >= axis {
		pa++
	}
	return []*value{padded(out, in[0].pad, pa)}, nil
}

func opSqueeze(b *builder, n *Node, in []*value) ([]*value, error) {
	if err := wantInputs(in, 1); err != nil {
		return nil, err
	}
	axes, err := n.AttrInts("squeeze_dims")
	if err != nil {
		return nil, err
	}
	if axes == nil { // TF 2 name
		if axes, err = n.AttrInts("axis"); err != nil {
			return nil, err
		}
	}
	src := in[0].dims()
	drop := map[int]bool{}
	for _, a := range axes {
		a, err := normAxis(a, len(src))
		if err != nil {
			return nil, err
		}
		if src[a] != 1 {
			return nil, fmt.Errorf("cannot squeeze axis %d of %s: its dimension is not 1", a, in[0].shape())
		}
		drop[a] = true
	}
	if len(axes) == 0 {
		for a, d := range src {
			if d == 1 {
				drop[a] = true
			}
		}
	}
	var dims []int
	pa := axisOf(in[0])
	newPa := -1
	for a, d := range src {
		if drop[a] {
			if a == pa {
				return nil, errPadded(in[0], "the squeezed axis")
			}
			continue
		}
		if a == pa {
			newPa = len(dims)
		}
		dims = append(dims, d)
	}
	out := graph.Reshape(b.node(in[0]), dims...)
	return []*value{padded(out, in[0].pad, newPa)}, nil
}

// opPack stacks its inputs along a new axis.
func opPack(b *builder, n *Node, in []*value) ([]*value, error) {
	if len(in) == 0 {
		return nil, fmt.Errorf("no inputs")
	}
	axis, err := n.AttrInt("axis", 0)
	if err != nil {
		return nil, err
	}
	rank := in[0].rank()
	if axis < 0 {
		axis += rank + 1
	}
	if axis < 0 || axis > rank {
		return nil, fmt.Errorf("axis %d out of range for rank %d", axis, rank)
	}
	p, err := onlyPad(in...)
	if err != nil {
		return nil, err
	}
	nodes := make([]*graph.Node, len(in))
	for i, v := range in {
		if !v.shape().Equal(in[0].shape()) {
			return nil, fmt.Errorf("input %d has shape %s, input 0 has %s", i, v.shape(), in[0].shape())
		}
		if p != nil && v.pad != nil && v.pad.axis != p.axis {
			return nil, errPadded(v, "an input")
		}
		nodes[i] = b.node(v)
	}
	out := graph.Stack(nodes, axis)
	if p == nil {
		return []*value{nodeValue(out)}, nil
	}
	pa := p.axis
	if pa >= axis {
		pa++
	}
	return []*value{padded(out, p, pa)}, nil
}

// opConcatV2 concatenates all inputs but the last (the axis).
func opConcatV2(b *builder, n *Node, in []*value) ([]*value, error) {
	if len(in) < 2 {
		return nil, fmt.Errorf("expects at least 2 inputs, got %d", len(in))
	}
	vals := in[:len(in)-1]
	axis, err := b.int(in[len(in)-1], "the axis")
	if err != nil {
		return nil, err
	}
	if axis, err = normAxis(axis, vals[0].rank()); err != nil {
		return nil, err
	}
	p, err := onlyPad(vals...)
	if err != nil {
		return nil, err
	}
	nodes := make([]*graph.Node, len(vals))
	for i, v := range vals {
		if v.pad != nil && (v.pad.axis == axis || v.pad.axis != p.axis) {
			return nil, errPadded(v, "an input")
		}
		nodes[i] = b.node(v)
	}
	if len(nodes) == 1 {
		return []*value{padded(nodes[0], p, axisOfPad(p))}, nil
	}
	return []*value{padded(graph.Concatenate(nodes, axis), p, axisOfPad(p))}, nil
}

func axisOfPad(p *padding) int {
	if p == nil {
		return -1
	}
	return p.axis
}

func opTranspose(b *builder, n *Node, in []*value) ([]*value, error) {
	if err := wantInputs(in, 2); err != nil {
		return nil, err
	}
	perm, err := b.ints(in[1], "the permutation")
	if err != nil {
		return nil, err
	}
	if len(perm) != in[0].rank() {
		return nil, fmt.Errorf("permutation %v for rank %d", perm, in[0].rank())
	}
	out := graph.TransposeAllAxes(b.node(in[0]), perm...)
	pa := -1
	for i, a := range perm {
		if a == axisOf(in[0]) {
			pa = i
		}
	}
	return []*value{padded(out, in[0].pad, pa)}, nil
}

// opSlice takes x[begin : begin+size] per axis (size -1: to the end).
func opSlice(b *builder, n *Node, in []*value) ([]*value, error) {
	if err := wantInputs(in, 3); err != nil {
		return nil, err
	}
	begin, err := b.ints(in[1], "begin")
	if err != nil {
		return nil, err
	}
	size, err := b.ints(in[2], "size")
	if err != nil {
		return nil, err
	}
	dims := in[0].dims()
	if len(begin) != len(dims) || len(size) != len(dims) {
		return nil, fmt.Errorf("begin %v and size %v for rank %d", begin, size, len(dims))
	}
	specs := make([]graph.SliceAxisSpec, len(dims))
	for a, d := range dims {
		end := begin[a] + size[a]
		if size[a] == -1 {
			end = d
		}
		if begin[a] < 0 || end > d || end <= begin[a] {
			return nil, fmt.Errorf("slice [%d:%d] of axis %d (dimension %d) is empty or out of range", begin[a], end, a, d)
		}
		if a == axisOf(in[0]) && (begin[a] != 0 || end != d) {
			return nil, errPadded(in[0], "the sliced axis")
		}
		specs[a] = graph.AxisRange(begin[a], end)
	}
	return []*value{padded(graph.Slice(b.node(in[0]), specs...), in[0].pad, axisOf(in[0]))}, nil
}

// opSplitV splits x along an axis into pieces of the given sizes (one may
// be -1: the rest). On backends without Pad (ONNX Runtime), whose Slice
// has no gradient there, equal float splits select with a one-hot
// contraction instead, which is exact and differentiable everywhere.
func opSplitV(b *builder, n *Node, in []*value) ([]*value, error) {
	if err := wantInputs(in, 3); err != nil {
		return nil, err
	}
	sizes, err := b.ints(in[1], "size_splits")
	if err != nil {
		return nil, err
	}
	axis, err := b.int(in[2], "the axis")
	if err != nil {
		return nil, err
	}
	if axis, err = normAxis(axis, in[0].rank()); err != nil {
		return nil, err
	}
	if axis == axisOf(in[0]) {
		return nil, errPadded(in[0], "the split axis")
	}
	dim := in[0].dims()[axis]
	known, rest := 0, -1
	for i, s := range sizes {
		if s == -1 && rest < 0 {
			rest = i
		} else if s < 0 {
			return nil, fmt.Errorf("bad size_splits %v", sizes)
		} else {
			known += s
		}
	}
	if rest >= 0 {
		sizes[rest] = dim - known
		known = dim
	}
	if known != dim {
		return nil, fmt.Errorf("size_splits %v do not add up to dimension %d", sizes, dim)
	}
	x := b.node(in[0])
	equal := true
	for _, s := range sizes {
		equal = equal && s == sizes[0] && s > 0
	}
	outs := make([]*value, len(sizes))
	if !b.hasOp(compute.OpTypePad) && equal && x.DType().IsFloat() && len(sizes) > 1 {
		for i, part := range splitOneHot(x, axis, len(sizes)) {
			outs[i] = padded(part, in[0].pad, axisOf(in[0]))
		}
		return outs, nil
	}
	start := 0
	for i, s := range sizes {
		if s == 0 {
			return nil, fmt.Errorf("empty split %d not supported", i)
		}
		out := graph.SliceAxis(x, axis, graph.AxisRange(start, start+s))
		outs[i] = padded(out, in[0].pad, axisOf(in[0]))
		start += s
	}
	return outs, nil
}

// splitOneHot splits x into k equal parts along axis by reshaping the axis
// to [k, size] and contracting the k axis with one-hot vectors: exact, and
// its gradient needs no Pad.
func splitOneHot(x *graph.Node, axis, k int) []*graph.Node {
	size := x.Shape().Dimensions[axis] / k
	dims := append([]int{}, x.Shape().Dimensions[:axis]...)
	dims = append(dims, k, size)
	dims = append(dims, x.Shape().Dimensions[axis+1:]...)
	split := graph.Reshape(x, dims...)
	parts := make([]*graph.Node, k)
	for i := range parts {
		oneHot := make([]float32, k)
		oneHot[i] = 1
		sel := graph.ConvertDType(graph.Const(x.Graph(), oneHot), x.DType())
		// The remaining axes keep their order, so the part takes the
		// split axis's place.
		parts[i] = graph.DotGeneral(split, []int{axis}, nil, sel, []int{0}, nil)
	}
	return parts
}

// opRange is range(start, limit, delta), known at build time.
func opRange(b *builder, n *Node, in []*value) ([]*value, error) {
	if err := wantInputs(in, 3); err != nil {
		return nil, err
	}
	for i, v := range in {
		if !v.isConst() {
			return nil, fmt.Errorf("input %d must be known when the graph is built (the output length depends on it)", i)
		}
	}
	dt := in[0].dtype()
	if dt.IsFloat() {
		var args [3]float64
		for i, v := range in {
			args[i] = scalarFloat(v)
		}
		if args[2] == 0 {
			return nil, fmt.Errorf("delta is 0")
		}
		var data []float32
		for x := args[0]; (args[2] > 0 && x < args[1]) || (args[2] < 0 && x > args[1]); x += args[2] {
			data = append(data, float32(x))
		}
		if len(data) == 0 {
			return nil, fmt.Errorf("empty range %v not supported", args)
		}
		return []*value{constValue(tensors.FromFlatDataAndDimensions(data, len(data)))}, nil
	}
	start, err := b.int(in[0], "start")
	if err != nil {
		return nil, err
	}
	limit, err := b.int(in[1], "limit")
	if err != nil {
		return nil, err
	}
	delta, err := b.int(in[2], "delta")
	if err != nil {
		return nil, err
	}
	if delta == 0 {
		return nil, fmt.Errorf("delta is 0")
	}
	var data []int
	for x := start; (delta > 0 && x < limit) || (delta < 0 && x > limit); x += delta {
		data = append(data, x)
	}
	if len(data) == 0 {
		return nil, fmt.Errorf("empty range(%d, %d, %d) not supported", start, limit, delta)
	}
	if dt != dtypes.Int32 {
		return nil, fmt.Errorf("unsupported dtype %s", dt)
	}
	return []*value{constValue(int32Tensor(data, len(data)))}, nil
}

// scalarFloat returns the first element of a build-time float value.
func scalarFloat(v *value) float64 {
	switch v.dtype() {
	case dtypes.Float32:
		return float64(tensors.MustCopyFlatData[float32](v.c)[0])
	case dtypes.Float64:
		return tensors.MustCopyFlatData[float64](v.c)[0]
	}
	return 0
}
