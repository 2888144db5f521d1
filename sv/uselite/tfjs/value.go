package tfjs

import (
	"fmt"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
)

// value is one converted tensor: either known at build time (c) or a node
// of the graph being built. pad is set on tensors derived from a
// data-dependent Where (see the package documentation).
type value struct {
	c    *tensors.Tensor
	node *graph.Node
	pad  *padding

	// Cache of c as a Const node of graph cg.
	cg *graph.Graph
	cn *graph.Node
}

// padding says that along axis only the first count entries are real; the
// rest are padding rows of a static-capacity Where output.
type padding struct {
	axis  int
	count *graph.Node // Int32 scalar in the main graph
	where string      // the Where node the padding comes from
}

func constValue(t *tensors.Tensor) *value { return &value{c: t} }
func nodeValue(n *graph.Node) *value      { return &value{node: n} }

// isConst reports whether the value is known at build time.
func (v *value) isConst() bool { return v.c != nil }

// shape returns the value's shape.
func (v *value) shape() shapes.Shape {
	if v.c != nil {
		return v.c.Shape()
	}
	return v.node.Shape()
}

func (v *value) dtype() dtypes.DType { return v.shape().DType }
func (v *value) rank() int           { return v.shape().Rank() }
func (v *value) dims() []int         { return v.shape().Dimensions }

// padded returns node n as a value carrying padding p along axis (a plain
// value when p is nil).
func padded(n *graph.Node, p *padding, axis int) *value {
	if p == nil {
		return nodeValue(n)
	}
	return &value{node: n, pad: &padding{axis: axis, count: p.count, where: p.where}}
}

// constInts returns the integer contents of a build-time value.
func constInts(t *tensors.Tensor) ([]int, error) {
	var out []int
	var err error
	switch t.DType() {
	case dtypes.Int32:
		tensors.MustConstFlatData(t, func(flat []int32) {
			for _, x := range flat {
				out = append(out, int(x))
			}
		})
	case dtypes.Int64:
		tensors.MustConstFlatData(t, func(flat []int64) {
			for _, x := range flat {
				out = append(out, int(x))
			}
		})
	default:
		err = fmt.Errorf("expected integers, got %s", t.Shape())
	}
	return out, err
}

// int32Tensor builds an Int32 tensor of the given dimensions.
func int32Tensor(data []int, dims ...int) *tensors.Tensor {
	flat := make([]int32, len(data))
	for i, x := range data {
		flat[i] = int32(x)
	}
	return tensors.FromFlatDataAndDimensions(flat, dims...)
}
