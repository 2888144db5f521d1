package tfjs

import (
	"fmt"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

// Indexing ops: GatherV2, GatherNd, ScatterNd, SparseToDense and Where
// (the one op with a data-dependent output shape; see the package doc).

func init() {
	registerOp("GatherV2", true, opGatherV2)
	registerOp("GatherNd", true, opGatherNd)
	registerOp("ScatterNd", true, opScatterNd)
	registerOp("SparseToDense", true, opSparseToDense)
	registerOp("Where", true, opWhere)
}

// clampIndices clamps the last axis of idx (k components) to
// [0, dims[i]-1], so the padding rows of a Where (which hold out-of-range
// coordinates) gather something harmless on every backend.
func clampIndices(idx *graph.Node, dims []int) *graph.Node {
	g := idx.Graph()
	hi := make([]int64, len(dims))
	for i, d := range dims {
		hi[i] = int64(d - 1)
	}
	upper := graph.Const(g, hi)
	if idx.Rank() == 0 {
		upper = graph.Reshape(upper)
	}
	upper = graph.BroadcastToDims(expandLeft(upper, idx.Rank()), idx.Shape().Dimensions...)
	lower := graph.ZerosLike(idx)
	return graph.Max(lower, graph.Min(idx, upper))
}

// toIndex converts gather/scatter indices to Int64: ONNX Runtime's
// ScatterND (also the gradient of a Gather) takes only Int64 indices.
func toIndex(x *graph.Node) *graph.Node {
	if x.DType() == dtypes.Int64 {
		return x
	}
	return graph.ConvertDType(x, dtypes.Int64)
}

// opGatherV2 is params.take(indices, axis) (batch_dims 0). Out-of-range
// indices are clamped (TF raises on CPU).
func opGatherV2(b *builder, n *Node, in []*value) ([]*value, error) {
	if err := wantInputs(in, 3); err != nil {
		return nil, err
	}
	if bd, err := n.AttrInt("batch_dims", 0); err != nil || bd != 0 {
		return nil, fmt.Errorf("batch_dims=%d not supported (err %v)", bd, err)
	}
	params, indices := b.node(in[0]), toIndex(b.node(in[1]))
	axis, err := b.int(in[2], "the axis")
	if err != nil {
		return nil, err
	}
	if axis, err = normAxis(axis, params.Rank()); err != nil {
		return nil, err
	}
	if axisOf(in[0]) == axis {
		return nil, errPadded(in[0], "the gathered axis of params")
	}
	p, err := onlyPad(in[0], in[1])
	if err != nil {
		return nil, err
	}
	pd := params.Shape().Dimensions
	ir := indices.Rank()
	if axis != 0 {
		perm := []int{axis}
		for a := range pd {
			if a != axis {
				perm = append(perm, a)
			}
		}
		params = graph.TransposeAllAxes(params, perm...)
	}
	idx := clampIndices(graph.ExpandAxes(indices, -1), []int{pd[axis]})
	out := graph.Gather(params, idx) // [indices..., params without axis...]
	if axis != 0 {
		// Move the params axes before `axis` in front of the indices axes.
		var perm []int
		for a := 0; a < axis; a++ {
			perm = append(perm, ir+a)
		}
		for a := 0; a < ir; a++ {
			perm = append(perm, a)
		}
		for a := ir + axis; a < out.Rank(); a++ {
			perm = append(perm, a)
		}
		out = graph.TransposeAllAxes(out, perm...)
	}
	pa := -1
	if in[1].pad != nil {
		pa = axis + in[1].pad.axis
	}
	if in[0].pad != nil {
		a := in[0].pad.axis
		if a > axis {
			a += ir - 1
		}
		if pa >= 0 && pa != a {
			return nil, errPadded(in[0], "params")
		}
		pa = a
	}
	return []*value{padded(out, p, pa)}, nil
}

// opGatherNd gathers slices of params at the coordinates in the last axis
// of indices (clamped, see opGatherV2).
func opGatherNd(b *builder, n *Node, in []*value) ([]*value, error) {
	if err := wantInputs(in, 2); err != nil {
		return nil, err
	}
	if in[0].pad != nil {
		return nil, errPadded(in[0], "params")
	}
	params, indices := b.node(in[0]), toIndex(b.node(in[1]))
	if indices.Rank() < 1 {
		return nil, fmt.Errorf("indices must have rank ≥ 1, got %s", indices.Shape())
	}
	k := indices.Shape().Dimensions[indices.Rank()-1]
	if k > params.Rank() {
		return nil, fmt.Errorf("indices %s index %d axes of params %s", indices.Shape(), k, params.Shape())
	}
	if axisOf(in[1]) == indices.Rank()-1 {
		return nil, errPadded(in[1], "the index vectors")
	}
	idx := clampIndices(indices, params.Shape().Dimensions[:k])
	return []*value{padded(graph.Gather(params, idx), in[1].pad, axisOf(in[1]))}, nil
}

// validRows returns a Bool [rows] mask of the real rows of a padded value
// (nil when v is not padded along axis 0).
func validRows(g *graph.Graph, v *value, rows int) *graph.Node {
	if v.pad == nil {
		return nil
	}
	iota := graph.Iota(g, shapes.Make(dtypes.Int32, rows), 0)
	return graph.LessThan(iota, graph.BroadcastToDims(v.pad.count, rows))
}

// scratchRows routes the index rows that are not valid (the padding rows
// of a Where) to a scratch row past the end of axis 0 of an output of
// shape dims: it returns the indices (Int64 [rows, k], k ≥ 1), where
// invalid rows hold (dims[0], 0, …), and the output shape to scatter into,
// dims with one more row on axis 0. The caller drops that row with
// dropScratchRow after the scatter.
//
// Why not keep the padding rows in place with zero updates: GoMLX's
// ScatterSum is ONNX's ScatterND(reduction="add") on the onnx backend, and
// ONNX Runtime's CPU kernel applies the updates in parallel with plain
// read-add-write, so updates to the same place from two threads can be
// lost (microsoft/onnxruntime#18048, #23396). Zero updates aimed at the
// real coordinate (0, 0, …) thus raced with its real update and could wipe
// the first token of the first sentence of a batch, intermittently. Sent
// to the scratch row, the padding rows only collide with each other, on
// memory that is dropped; the real rows of a Where are distinct, so every
// kept element gets exactly one write.
func scratchRows(indices, valid *graph.Node, dims []int) (*graph.Node, []int) {
	g := indices.Graph()
	rows, k := indices.Shape().Dimensions[0], indices.Shape().Dimensions[1]
	scratch := make([]int64, k)
	scratch[0] = int64(dims[0])
	m := graph.BroadcastToDims(graph.ExpandAxes(valid, -1), rows, k)
	routed := graph.Where(m, toIndex(indices), graph.BroadcastToDims(graph.Const(g, [][]int64{scratch}), rows, k))
	ext := append([]int{dims[0] + 1}, dims[1:]...)
	return routed, ext
}

// dropScratchRow removes the scratch row added by scratchRows (the last
// row of axis 0).
func dropScratchRow(x *graph.Node) *graph.Node {
	return resizeRows(x, x.Shape().Dimensions[0]-1)
}

// maskRows zeroes the rows of x (axis 0) where valid is false.
func maskRows(x, valid *graph.Node) *graph.Node {
	if valid == nil {
		return x
	}
	m := valid
	for m.Rank() < x.Rank() {
		m = graph.ExpandAxes(m, -1)
	}
	m = graph.BroadcastToDims(m, x.Shape().Dimensions...)
	return graph.Where(m, x, graph.ZerosLike(x))
}

// resizeRows makes x have rows rows along axis 0: the first rows when it
// has more, zero rows appended when it has fewer. It uses Gather/Scatter
// rather than Slice/Concatenate so its gradient needs no Pad.
func resizeRows(x *graph.Node, rows int) *graph.Node {
	have := x.Shape().Dimensions[0]
	if have == rows {
		return x
	}
	g := x.Graph()
	if have > rows {
		idx := graph.Iota(g, shapes.Make(dtypes.Int64, rows, 1), 0)
		return graph.Gather(x, idx)
	}
	idx := graph.Iota(g, shapes.Make(dtypes.Int64, have, 1), 0)
	dims := append([]int{rows}, x.Shape().Dimensions[1:]...)
	return graph.ScatterSum(graph.Zeros(g, shapes.Make(x.DType(), dims...)), idx, x, true, true)
}

// opScatterNd adds updates into zeros of the given shape at the
// coordinates in indices. Like tfjs, it reads as many update rows as
// indices has rows (TF requires them equal); rows of indices past a Where's
// count are dropped.
func opScatterNd(b *builder, n *Node, in []*value) ([]*value, error) {
	if err := wantInputs(in, 3); err != nil {
		return nil, err
	}
	dims, err := b.ints(in[2], "the output shape")
	if err != nil {
		return nil, err
	}
	indices, updates := toIndex(b.node(in[0])), b.node(in[1])
	if indices.Rank() < 1 {
		return nil, fmt.Errorf("indices must have rank ≥ 1, got %s", indices.Shape())
	}
	k := indices.Shape().Dimensions[indices.Rank()-1]
	if k > len(dims) {
		return nil, fmt.Errorf("indices %s index %d axes of shape %v", indices.Shape(), k, dims)
	}
	if (in[0].pad != nil && in[0].pad.axis != 0) || (in[1].pad != nil && in[1].pad.axis != 0) {
		return nil, fmt.Errorf("only rows (axis 0) of indices and updates may have a data-dependent length")
	}
	slice := dims[k:]
	// Flatten to rows: indices [N, k], updates [M, slice...].
	nRows := indices.Shape().Size() / max(k, 1)
	indices = graph.Reshape(indices, nRows, k)
	uSize := updates.Shape().Size()
	sliceSize := 1
	for _, d := range slice {
		sliceSize *= d
	}
	if sliceSize == 0 || uSize%sliceSize != 0 {
		return nil, fmt.Errorf("updates %s do not hold whole slices of %v", updates.Shape(), slice)
	}
	updates = graph.Reshape(updates, append([]int{uSize / sliceSize}, slice...)...)
	if mRows := updates.Shape().Dimensions[0]; mRows != nRows {
		if mRows < nRows && in[0].pad == nil {
			return nil, fmt.Errorf("%d index rows but only %d update rows", nRows, mRows)
		}
		updates = resizeRows(updates, nRows)
	}
	valid := validRows(b.g, in[0], nRows)
	if valid != nil && k > 0 && len(dims) > 0 {
		// Padding rows write to a scratch row (see scratchRows).
		routed, ext := scratchRows(indices, valid, dims)
		zeros := graph.Zeros(b.g, shapes.Make(updates.DType(), ext...))
		return []*value{nodeValue(dropScratchRow(graph.ScatterSum(zeros, routed, updates, false, false)))}, nil
	}
	if valid != nil {
		// k = 0: every row adds to the whole output; zero the padding.
		updates = maskRows(updates, valid)
	}
	zeros := graph.Zeros(b.g, shapes.Make(updates.DType(), dims...))
	return []*value{nodeValue(graph.ScatterSum(zeros, indices, updates, false, false))}, nil
}

// opSparseToDense builds a dense tensor of output_shape holding
// default_value except at sparse_indices, which get sparse_values (rows of
// a padded Where past its count are dropped; duplicate indices, which TF
// rejects, add up).
func opSparseToDense(b *builder, n *Node, in []*value) ([]*value, error) {
	if err := wantInputs(in, 4); err != nil {
		return nil, err
	}
	dims, err := b.ints(in[1], "the output shape")
	if err != nil {
		return nil, err
	}
	if in[3].pad != nil {
		return nil, errPadded(in[3], "the default value")
	}
	for _, v := range []*value{in[0], in[2]} {
		if v.pad != nil && v.pad.axis != 0 {
			return nil, errPadded(v, "an input")
		}
	}
	g := b.g
	indices := toIndex(b.node(in[0]))
	r := len(dims)
	switch indices.Rank() {
	case 0:
		indices = graph.Reshape(indices, 1, 1)
	case 1:
		if r == 1 {
			indices = graph.Reshape(indices, indices.Shape().Dimensions[0], 1)
		} else {
			indices = graph.Reshape(indices, 1, indices.Shape().Dimensions[0])
		}
	}
	if indices.Rank() != 2 || indices.Shape().Dimensions[1] != r {
		return nil, fmt.Errorf("indices %s do not index a rank-%d shape", in[0].shape(), r)
	}
	rows := indices.Shape().Dimensions[0]
	values := b.node(in[2])
	dt := values.DType()
	if dt == dtypes.Bool {
		values = graph.ConvertDType(values, dtypes.Int32)
	}
	if values.Rank() == 0 {
		values = graph.BroadcastToDims(values, rows)
	}
	if values.Rank() != 1 || values.Shape().Dimensions[0] != rows {
		return nil, fmt.Errorf("%d index rows but values %s", rows, in[2].shape())
	}
	var p *padding
	for _, v := range []*value{in[0], in[2]} {
		if v.pad != nil {
			p = v.pad
		}
	}
	ones := graph.OnesLike(values)
	outDims := dims
	if p != nil {
		// Padding rows write to a scratch row (see scratchRows).
		indices, outDims = scratchRows(indices, validRows(g, &value{pad: p}, rows), dims)
	}
	shape := shapes.Make(values.DType(), outDims...)
	sum := graph.ScatterSum(graph.Zeros(g, shape), indices, values, false, false)
	hit := graph.GreaterThan(graph.ScatterSum(graph.Zeros(g, shape), indices, ones, false, false), graph.Zeros(g, shape))
	def := b.node(in[3])
	if def.DType() == dtypes.Bool {
		def = graph.ConvertDType(def, dtypes.Int32)
	}
	if def.DType() != values.DType() {
		return nil, fmt.Errorf("default value %s and values %s differ in dtype", in[3].shape(), in[2].shape())
	}
	out := graph.Where(hit, sum, graph.BroadcastToDims(graph.Reshape(def), outDims...))
	if p != nil {
		out = dropScratchRow(out)
	}
	if dt == dtypes.Bool {
		out = graph.NotEqual(out, graph.ZerosLike(out))
	}
	return []*value{nodeValue(out)}, nil
}

// opWhere lists the coordinates (Int32 [count, rank], row-major order) of
// the true elements of its input. Known inputs are folded exactly; at run
// time the output has capacity rows (the input's size) with the count
// known to the graph, and padding rows hold the input's dimensions (out of
// range).
func opWhere(b *builder, n *Node, in []*value) ([]*value, error) {
	if len(in) != 1 {
		return nil, fmt.Errorf("only the one-input form (coordinates of true elements) is supported, got %d inputs", len(in))
	}
	if in[0].pad != nil {
		return nil, errPadded(in[0], "the condition")
	}
	dims := in[0].dims()
	r := len(dims)
	if r == 0 {
		return nil, fmt.Errorf("the condition must have rank ≥ 1")
	}
	if in[0].isConst() {
		return []*value{constValue(whereConst(in[0].c))}, nil
	}
	g := b.g
	cond := b.node(in[0])
	if cond.DType() != dtypes.Bool {
		cond = graph.NotEqual(cond, graph.ZerosLike(cond))
	}
	size := cond.Shape().Size()
	flat := graph.ConvertDType(graph.Reshape(cond, size), dtypes.Int32)
	count := graph.ReduceAllSum(flat)
	dest := graph.SubScalar(CumSumCounts(flat), 1)
	dest = graph.Where(graph.Reshape(graph.ConvertDType(flat, dtypes.Bool), size), dest, graph.BroadcastToDims(graph.Scalar(g, dtypes.Int32, size), size))
	// Coordinates of every element, row-major.
	iota := graph.Iota(g, shapes.Make(dtypes.Int32, size, 1), 0)
	strides := make([]int32, r)
	dimsI := make([]int32, r)
	stride := 1
	for a := r - 1; a >= 0; a-- {
		strides[a] = int32(stride)
		dimsI[a] = int32(dims[a])
		stride *= dims[a]
	}
	coords := graph.Div(graph.BroadcastToDims(iota, size, r), graph.BroadcastToDims(graph.Const(g, [][]int32{strides}), size, r))
	coords = graph.Rem(coords, graph.BroadcastToDims(graph.Const(g, [][]int32{dimsI}), size, r))
	// Compact the true elements to the front (false ones go to row size).
	out := graph.ScatterSum(graph.Zeros(g, shapes.Make(dtypes.Int32, size+1, r)), toIndex(graph.Reshape(dest, size, 1)), coords, false, true)
	out = graph.Slice(out, graph.AxisRange(0, size))
	valid := graph.LessThan(iota, graph.BroadcastToDims(count, size, 1))
	sentinel := graph.BroadcastToDims(graph.Const(g, [][]int32{dimsI}), size, r)
	out = graph.Where(graph.BroadcastToDims(valid, size, r), out, sentinel)
	return []*value{{node: out, pad: &padding{axis: 0, count: count, where: n.Name}}}, nil
}

// CumSumCounts is the running sum of a 1-D Int32 tensor of small
// non-negative counts (totals below 2^24).
//
// Why not graph.CumSum: it is a window reduction with padding, which the
// ONNX Runtime backend ignores (every element gets the full sum). Here the
// n values are laid out as a [k, b] matrix (b ≈ √n, zero-padded); a
// product with a triangular matrix of ones gives the running sums within
// rows and another the offsets of the rows. Float32 matmuls are exact for
// these integers, and run on every backend.
func CumSumCounts(x *graph.Node) *graph.Node {
	g := x.Graph()
	n := x.Shape().Dimensions[0]
	b := 1
	for b*b < n {
		b++
	}
	k := (n + b - 1) / b
	xf := graph.ConvertDType(x, dtypes.Float32)
	if k*b > n {
		xf = graph.Concatenate([]*graph.Node{xf, graph.Zeros(g, shapes.Make(dtypes.Float32, k*b-n))}, 0)
	}
	m := graph.Reshape(xf, k, b)
	within := graph.DotGeneral(m, []int{1}, nil, triangle(g, b, true), []int{0}, nil) // [k, b]
	totals := graph.ReduceSum(m, 1)                                                   // [k]
	offsets := graph.DotGeneral(totals, []int{0}, nil, triangle(g, k, false), []int{0}, nil)
	out := graph.Add(within, graph.BroadcastToDims(graph.Reshape(offsets, k, 1), k, b))
	out = graph.Reshape(out, k*b)
	if k*b > n {
		out = graph.Slice(out, graph.AxisRange(0, n))
	}
	return graph.ConvertDType(out, dtypes.Int32)
}

// triangle is the [n, n] Float32 matrix t[i][j] = 1 for i ≤ j (inclusive)
// or i < j.
func triangle(g *graph.Graph, n int, inclusive bool) *graph.Node {
	data := make([]float32, n*n)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			if j > i || inclusive {
				data[i*n+j] = 1
			}
		}
	}
	return graph.Const(g, tensors.FromFlatDataAndDimensions(data, n, n))
}

// whereConst is Where on a known tensor.
func whereConst(t *tensors.Tensor) *tensors.Tensor {
	dims := t.Shape().Dimensions
	r := len(dims)
	var truth []bool
	t.MustConstFlatData(func(flat any) {
		switch f := flat.(type) {
		case []bool:
			truth = append(truth, f...)
		case []int32:
			for _, x := range f {
				truth = append(truth, x != 0)
			}
		case []float32:
			for _, x := range f {
				truth = append(truth, x != 0)
			}
		}
	})
	var coords []int
	for i, ok := range truth {
		if !ok {
			continue
		}
		c := make([]int, r)
		rest := i
		for a := r - 1; a >= 0; a-- {
			c[a] = rest % dims[a]
			rest /= dims[a]
		}
		coords = append(coords, c...)
	}
	return int32Tensor(coords, len(coords)/r, r)
}
