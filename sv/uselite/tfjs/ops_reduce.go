package tfjs

import (
	"fmt"
	"sort"

	"github.com/gomlx/gomlx/core/graph"
)

// Reductions (Sum, Mean, Max, Prod with keep_dims) and Softmax.

func init() {
	registerOp("Sum", true, reduceOp(graph.ReduceSum))
	registerOp("Max", true, reduceOp(graph.ReduceMax))
	registerOp("Prod", true, reduceOp(graph.ReduceMultiply))
	registerOp("Mean", true, reduceOp(nil))
	registerOp("Softmax", true, opSoftmax)
}

// reduceOp converts a TF reduction; fn nil means Mean (for integers, TF's
// truncating integer mean).
func reduceOp(fn func(x *graph.Node, axes ...int) *graph.Node) opFunc {
	return func(b *builder, n *Node, in []*value) ([]*value, error) {
		if err := wantInputs(in, 2); err != nil {
			return nil, err
		}
		axesIn, err := b.ints(in[1], "the reduction axes")
		if err != nil {
			return nil, err
		}
		keep := n.AttrBool("keep_dims", false)
		rank := in[0].rank()
		seen := map[int]bool{}
		var axes []int
		for _, a := range axesIn {
			a, err := normAxis(a, rank)
			if err != nil {
				return nil, err
			}
			if a == axisOf(in[0]) {
				return nil, errPadded(in[0], "the reduced axis")
			}
			if !seen[a] {
				seen[a] = true
				axes = append(axes, a)
			}
		}
		sort.Ints(axes)
		x := b.node(in[0])
		if len(axes) == 0 {
			return []*value{padded(x, in[0].pad, axisOf(in[0]))}, nil
		}
		var out *graph.Node
		if fn != nil {
			out = fn(x, axes...)
		} else {
			count := 1
			for _, a := range axes {
				count *= x.Shape().Dimensions[a]
			}
			out = graph.ReduceSum(x, axes...)
			out = graph.Div(out, graph.Scalar(x.Graph(), x.DType(), count))
		}
		var dims []int
		pa := -1
		for a, d := range x.Shape().Dimensions {
			if seen[a] {
				if keep {
					dims = append(dims, 1)
				}
				continue
			}
			if a == axisOf(in[0]) {
				pa = len(dims)
			}
			dims = append(dims, d)
		}
		if keep {
			out = graph.Reshape(out, dims...)
		}
		return []*value{padded(out, in[0].pad, pa)}, nil
	}
}

// opSoftmax is softmax over the last axis.
func opSoftmax(b *builder, n *Node, in []*value) ([]*value, error) {
	if err := wantInputs(in, 1); err != nil {
		return nil, err
	}
	x := b.node(in[0])
	if x.Rank() < 1 || !x.DType().IsFloat() {
		return nil, fmt.Errorf("softmax needs float logits of rank ≥ 1, got %s", x.Shape())
	}
	if axisOf(in[0]) == x.Rank()-1 {
		return nil, errPadded(in[0], "the softmax axis")
	}
	return []*value{padded(graph.Softmax(x, -1), in[0].pad, axisOf(in[0]))}, nil
}
