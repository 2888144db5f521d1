package uselite

import (
	"fmt"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/roleprint/roleprint/sv/uselite/tfjs"
)

// Embed builds the USE-Lite computation into ids' graph: ids Int32
// [batch, length] piece ids (length ≤ MaxTokens) and mask Bool
// [batch, length] marking the real pieces (a sentence's pieces come first
// in its row). It returns the L2-normalised vectors, Float32
// [batch, Dim]. The weights are variables in scope (created from the
// model's values the first time, reused after: fine-tuning changes them);
// all of them are trainable except the timing-signal frequencies.
//
// Each row gets what the TF.js model computes for that sentence (batch
// composition and padding do not change it).
func (m *Model) Embed(scope *model.Scope, ids, mask *graph.Node) (*graph.Node, error) {
	if ids.Rank() != 2 || !mask.Shape().Equal(shapes.Make(dtypes.Bool, ids.Shape().Dimensions...)) || ids.DType() != dtypes.Int32 {
		return nil, fmt.Errorf("use-lite: ids must be Int32 [batch, length] and mask Bool of the same shape, got %s and %s", ids.Shape(), mask.Shape())
	}
	batch, length := ids.Shape().Dimensions[0], ids.Shape().Dimensions[1]
	if length > MaxTokens {
		return nil, fmt.Errorf("use-lite: %d pieces per sentence, the model reads at most %d", length, MaxTokens)
	}
	indices, values := sparseFeed(ids, mask)
	outs, err := m.Graph.Build(scope, ids.Graph(),
		map[string]*graph.Node{inputIndices: indices, inputValues: values},
		[]string{outputNode},
		tfjs.Options{
			Trainable: trainable,
			Pinned:    map[string]*tensors.Tensor{denseShapeNode: tensors.FromValue([]int32{int32(batch), int32(length)})},
		})
	if err != nil {
		return nil, fmt.Errorf("use-lite: %w", err)
	}
	return outs[0], nil
}

// trainable leaves the sinusoid frequencies of the position signal fixed.
func trainable(name string, shape shapes.Shape) bool {
	return tfjs.DefaultTrainable(name, shape) && name != "module_apply_default/Encoder_en/KonaTransformer/Encode/TransformerStack/Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1"
}

// sparseFeed turns a dense batch into the model's sparse inputs: indices
// Int32 [n, 2] of (row, position) and values Int32 [n], n = batch·length.
//
// The real pieces come first, in row-major order (the graph scatters the
// embeddings of its input rows, in input order, onto the positions it
// finds filled, in row-major order, so the order matters); padding rows
// follow at position MaxTokens, which the model's own length clip drops.
// The graph marks empty dense positions with -1, so unknown pieces (id 0)
// are ordinary tokens, and n stays fixed for a batch shape.
func sparseFeed(ids, mask *graph.Node) (indices, values *graph.Node) {
	g := ids.Graph()
	batch, length := ids.Shape().Dimensions[0], ids.Shape().Dimensions[1]
	n := batch * length
	flat := func(x *graph.Node) *graph.Node { return graph.Reshape(x, n) }
	realFlat := flat(mask)
	isReal := graph.ConvertDType(realFlat, dtypes.Int32)
	isPad := graph.ConvertDType(graph.LogicalNot(realFlat), dtypes.Int32)
	one := graph.BroadcastToDims(graph.Scalar(g, dtypes.Int32, 1), n)
	// Destination row of each dense position: real pieces keep their
	// row-major order at the front, padding goes after them.
	destReal := graph.Sub(tfjs.CumSumCounts(isReal), one)
	destPad := graph.Add(graph.BroadcastToDims(graph.ReduceAllSum(isReal), n), graph.Sub(tfjs.CumSumCounts(isPad), one))
	dest := graph.ConvertDType(graph.Reshape(graph.Where(realFlat, destReal, destPad), n, 1), dtypes.Int64)

	pos := flat(graph.Iota(g, shapes.Make(dtypes.Int32, batch, length), 1))
	row := flat(graph.Iota(g, shapes.Make(dtypes.Int32, batch, length), 0))
	zero := graph.BroadcastToDims(graph.Scalar(g, dtypes.Int32, 0), n)
	outside := graph.BroadcastToDims(graph.Scalar(g, dtypes.Int32, MaxTokens), n)
	coords := graph.Stack([]*graph.Node{
		graph.Where(realFlat, row, zero),
		graph.Where(realFlat, pos, outside),
	}, -1)
	vals := graph.Where(realFlat, flat(ids), zero)
	indices = graph.ScatterSum(graph.Zeros(g, shapes.Make(dtypes.Int32, n, 2)), dest, coords, false, true)
	values = graph.ScatterSum(graph.Zeros(g, shapes.Make(dtypes.Int32, n)), dest, vals, false, true)
	return indices, values
}
