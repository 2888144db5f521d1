package neural

import (
	"hash/fnv"
	"math"
	"math/rand/v2"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX's idiom: graph ops read like math.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/nn"
)

// The helpers in this file build graphs only from ops that every backend
// of sv/backend implements (ONNX Runtime lacks Pad, Rsqrt, IsFinite, Clamp
// and DynamicSlice), so models written with them train everywhere.

// maskBias is added to attention logits of padding keys. It is large and
// finite, so fully masked rows (padding utterances) stay finite.
const maskBias = -1e9

// paramInit says how initVariable fills a new variable.
type paramInit struct {
	// kind is "normal" (N(0, std²)), "zeros", "ones" or "value".
	kind string
	std  float64
	// value holds kind "value"'s data (row-major).
	value []float32
}

// initVariable creates the float32 variable at path (relative to scope)
// with the given dimensions, filled on the host from a generator seeded by
// (seed, path): the values do not depend on the backend, on the order in
// which variables are created, or on GoMLX's graph RNG. An existing
// variable is left as it is.
func initVariable(scope *model.Scope, seed int64, path string, init paramInit, dims ...int) *model.Variable {
	full := model.JoinPath(scope.Scope(), path)
	if v := scope.Store().GetVariable(full); v != nil {
		return v
	}
	n := 1
	for _, d := range dims {
		n *= d
	}
	data := make([]float32, n)
	switch init.kind {
	case "normal":
		h := fnv.New64a()
		h.Write([]byte(path))
		rng := rand.New(rand.NewPCG(uint64(seed), h.Sum64()))
		for i := range data {
			data[i] = float32(rng.NormFloat64() * init.std)
		}
	case "ones":
		for i := range data {
			data[i] = 1
		}
	case "value":
		copy(data, init.value)
	}
	return scope.Store().VariableWithValue(full, tensors.FromFlatDataAndDimensions(data, dims...))
}

// param returns the value node of the variable at path under scope; the
// variable must exist (Init creates it).
func param(scope *model.Scope, g *Graph, path string) *Node {
	full := model.JoinPath(scope.Scope(), path)
	v := scope.Store().GetVariable(full)
	if v == nil {
		panic("neural: variable " + full + " not found: was the model's Init called on this store?")
	}
	return v.NodeValue(g)
}

// layerNorm normalises the last axis of x and applies gain and bias.
func layerNorm(x, gain, bias *Node) *Node {
	return nn.LayerNorm(x, []int{x.Rank() - 1}, 1e-5, gain, bias, nil)
}

// gelu is the exact GELU, x·Φ(x), as in BERT.
func gelu(x *Node) *Node {
	return Mul(MulScalar(x, 0.5), OnePlus(Erf(MulScalar(x, 1/math.Sqrt2))))
}

// maskedMean averages x [N, T, D] over the positions where mask [N, T]
// (Bool) is true; rows without any true position give zeros.
func maskedMean(x, mask *Node) *Node {
	m := ConvertDType(mask, x.DType())
	sum := Einsum("ntd,nt->nd", x, m)
	count := MaxScalar(ReduceSum(m, 1), 1)
	return Div(sum, InsertAxes(count, -1))
}

// selectPosition returns x[:, pos, :] for x [N, T, D] by a product with a
// one-hot constant, whose gradient needs no Pad (Slice's would).
func selectPosition(x *Node, pos int) *Node {
	t := x.Shape().Dimensions[1]
	oh := make([]float32, t)
	oh[pos] = 1
	return Einsum("ntd,t->nd", x, Const(x.Graph(), oh))
}

// positionRows returns the first t rows of table [maxLen, D] with a Gather
// (gradient: ScatterSum), or the table itself when t == maxLen.
func positionRows(table *Node, t int) *Node {
	if table.Shape().Dimensions[0] == t {
		return table
	}
	idx := Iota(table.Graph(), shapes.Make(dtypes.Int64, t, 1), 0)
	return Gather(table, idx)
}

// embed looks ids [N, T] up in table [V, D] → [N, T, D]. The indices are
// converted to Int64 first: Gather's gradient is a ScatterSum, which ONNX
// Runtime (ScatterND) accepts only with Int64 indices.
func embed(table, ids *Node) *Node {
	return Gather(table, InsertAxes(ConvertDType(ids, dtypes.Int64), -1))
}

// flatFloat32 copies a Float32 tensor's data.
func flatFloat32(t *tensors.Tensor) ([]float32, error) {
	return tensors.CopyFlatData[float32](t)
}

// tensorFromFloat32 wraps data as a tensor with the given dimensions.
func tensorFromFloat32(data []float32, dims ...int) *tensors.Tensor {
	return tensors.FromFlatDataAndDimensions(data, dims...)
}

// addBias adds b, whose shape matches the trailing axes of x, to x.
func addBias(x, b *Node) *Node {
	return Add(x, ExpandLeftToRank(b, x.Rank()))
}
