package tfjs

import (
	"fmt"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/gomlx/core/graph"
)

// Elementwise ops: TF's numpy-style broadcasting binary ops, the unary math
// ops, Cast and BiasAdd. All are row-wise, so they pass padding through.

func init() {
	registerOp("Add", true, binaryOp(graph.Add))
	registerOp("Sub", true, binaryOp(graph.Sub))
	registerOp("Mul", true, binaryOp(graph.Mul))
	registerOp("RealDiv", true, binaryOp(graph.Div))
	registerOp("Maximum", true, binaryOp(graph.Max))
	registerOp("Greater", true, binaryOp(graph.GreaterThan))
	registerOp("Less", true, binaryOp(graph.LessThan))

	registerOp("LogicalNot", true, unaryOp(graph.LogicalNot))
	registerOp("Tanh", true, unaryOp(graph.Tanh))
	registerOp("Sin", true, unaryOp(graph.Sin))
	registerOp("Cos", true, unaryOp(graph.Cos))
	registerOp("Square", true, unaryOp(func(x *graph.Node) *graph.Node { return graph.Mul(x, x) }))
	registerOp("Relu", true, unaryOp(func(x *graph.Node) *graph.Node {
		return graph.Max(x, graph.ScalarZero(x.Graph(), x.DType()))
	}))
	registerOp("Rsqrt", true, opRsqrt)
	registerOp("Cast", true, opCast)
	registerOp("BiasAdd", true, opBiasAdd)
}

// broadcastPair gives x and y TF's broadcast shape: the lower-rank one gets
// leading axes of size 1, then both are broadcast to the larger dimension
// of each axis.
func broadcastPair(x, y *graph.Node) (*graph.Node, *graph.Node, error) {
	if x.DType() != y.DType() {
		return nil, nil, fmt.Errorf("operands have different dtypes: %s and %s", x.Shape(), y.Shape())
	}
	rank := max(x.Rank(), y.Rank())
	x = expandLeft(x, rank)
	y = expandLeft(y, rank)
	dims := make([]int, rank)
	for i := range dims {
		dx, dy := x.Shape().Dimensions[i], y.Shape().Dimensions[i]
		switch {
		case dx == dy || dy == 1:
			dims[i] = dx
		case dx == 1:
			dims[i] = dy
		default:
			return nil, nil, fmt.Errorf("shapes %s and %s cannot be broadcast together", x.Shape(), y.Shape())
		}
	}
	return broadcastTo(x, dims), broadcastTo(y, dims), nil
}

func expandLeft(x *graph.Node, rank int) *graph.Node {
	if x.Rank() == rank {
		return x
	}
	dims := make([]int, rank)
	for i := range dims {
		dims[i] = 1
	}
	copy(dims[rank-x.Rank():], x.Shape().Dimensions)
	return graph.Reshape(x, dims...)
}

func broadcastTo(x *graph.Node, dims []int) *graph.Node {
	same := true
	for i, d := range x.Shape().Dimensions {
		same = same && d == dims[i]
	}
	if same {
		return x
	}
	return graph.BroadcastToDims(x, dims...)
}

// binaryOp converts a broadcasting binary op.
func binaryOp(fn func(x, y *graph.Node) *graph.Node) opFunc {
	return func(b *builder, n *Node, in []*value) ([]*value, error) {
		if len(in) != 2 {
			return nil, fmt.Errorf("expects 2 inputs, got %d", len(in))
		}
		x, y, err := broadcastPair(b.node(in[0]), b.node(in[1]))
		if err != nil {
			return nil, err
		}
		out := fn(x, y)
		p, err := onlyPad(in...)
		if err != nil || p == nil {
			return []*value{nodeValue(out)}, err
		}
		axis := -1
		for _, v := range in {
			if v.pad == nil {
				continue
			}
			a := v.pad.axis + out.Rank() - v.rank()
			if axis >= 0 && a != axis {
				return nil, errPadded(v, "an operand")
			}
			axis = a
		}
		return []*value{padded(out, p, axis)}, nil
	}
}

// unaryOp converts an elementwise unary op.
func unaryOp(fn func(x *graph.Node) *graph.Node) opFunc {
	return func(b *builder, n *Node, in []*value) ([]*value, error) {
		if len(in) != 1 {
			return nil, fmt.Errorf("expects 1 input, got %d", len(in))
		}
		return []*value{padded(fn(b.node(in[0])), in[0].pad, axisOf(in[0]))}, nil
	}
}

func axisOf(v *value) int {
	if v.pad == nil {
		return -1
	}
	return v.pad.axis
}

// opRsqrt is 1/sqrt(x), built as 1/Sqrt(x): GoMLX has no gradient for
// Rsqrt, and ONNX Runtime's backend lacks the op.
func opRsqrt(b *builder, n *Node, in []*value) ([]*value, error) {
	return unaryOp(func(x *graph.Node) *graph.Node {
		return graph.Div(graph.ScalarOne(x.Graph(), x.DType()), graph.Sqrt(x))
	})(b, n, in)
}

// opCast converts Cast(x) to the DstT dtype; float → int truncates toward
// zero and anything → bool is x != 0, as in TF.
func opCast(b *builder, n *Node, in []*value) ([]*value, error) {
	if len(in) != 1 {
		return nil, fmt.Errorf("expects 1 input, got %d", len(in))
	}
	dst, ok, err := n.AttrDType("DstT")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("missing DstT attribute")
	}
	x := b.node(in[0])
	var out *graph.Node
	switch {
	case x.DType() == dst:
		out = x
	case dst == dtypes.Bool:
		out = graph.NotEqual(x, graph.ScalarZero(x.Graph(), x.DType()))
	default:
		out = graph.ConvertDType(x, dst)
	}
	return []*value{padded(out, in[0].pad, axisOf(in[0]))}, nil
}

// opBiasAdd adds a 1-D bias along the channels axis: the last one for
// NHWC (default), axis 1 for NCHW.
func opBiasAdd(b *builder, n *Node, in []*value) ([]*value, error) {
	if len(in) != 2 {
		return nil, fmt.Errorf("expects 2 inputs, got %d", len(in))
	}
	if in[1].pad != nil {
		return nil, errPadded(in[1], "the bias")
	}
	format, err := n.AttrString("data_format", "NHWC")
	if err != nil {
		return nil, err
	}
	x, bias := b.node(in[0]), b.node(in[1])
	if bias.Rank() != 1 || x.Rank() < 2 {
		return nil, fmt.Errorf("bias must be 1-D and value at least 2-D, got %s and %s", bias.Shape(), x.Shape())
	}
	axis := x.Rank() - 1
	if format == "NCHW" {
		axis = 1
	}
	if x.Shape().Dimensions[axis] != bias.Shape().Dimensions[0] {
		return nil, fmt.Errorf("bias of %d values for a channels axis of %d (%s, %s)", bias.Shape().Dimensions[0], x.Shape().Dimensions[axis], x.Shape(), format)
	}
	dims := make([]int, x.Rank())
	for i := range dims {
		dims[i] = 1
	}
	dims[axis] = bias.Shape().Dimensions[0]
	out := graph.Add(x, graph.BroadcastToDims(graph.Reshape(bias, dims...), x.Shape().Dimensions...))
	return []*value{padded(out, in[0].pad, axisOf(in[0]))}, nil
}
