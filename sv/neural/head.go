package neural

import (
	"fmt"
	"math"

	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX's idiom.
	"github.com/gomlx/gomlx/ml/model"
)

// HeadInit is implemented by set heads with variables: Init creates them
// (host-side, from seed) before the first graph is built.
type HeadInit interface {
	Init(scope *model.Scope, dim int, seed int64) error
}

// MeanHead is the paper's hierarchical pooling: a set's vector is the mean
// of its utterance vectors. It has no variables.
type MeanHead struct{}

// Name implements SetHead.
func (MeanHead) Name() string { return "mean" }

// Dim implements SetHead.
func (MeanHead) Dim(in int) int { return in }

// Graph implements SetHead.
func (MeanHead) Graph(_ *model.Scope, utts, mask *Node) *Node { return maskedMean(utts, mask) }

// AttentionHead is a LUAR-style set head (Rivera-Soto et al., 2021: an
// episode's comment vectors pass through self-attention and are pooled into
// one author vector). Here: one pre-LayerNorm multi-head self-attention
// block across a set's utterance vectors (residual), then attention pooling
// with a learned query, then a linear layer. LUAR max-pools after the
// attention; a learned-query softmax pooling is used instead because its
// gradient is smooth and needs only ops every backend has.
type AttentionHead struct {
	// Heads is the number of attention heads; the utterance width must be a
	// multiple. Default 4.
	Heads int `json:"heads"`
}

// Name implements SetHead.
func (h AttentionHead) Name() string { return "attention" }

// Dim implements SetHead.
func (h AttentionHead) Dim(in int) int { return in }

func (h AttentionHead) heads() int {
	if h.Heads <= 0 {
		return 4
	}
	return h.Heads
}

// Init implements HeadInit.
func (h AttentionHead) Init(scope *model.Scope, d int, seed int64) error {
	nh := h.heads()
	if d%nh != 0 {
		return fmt.Errorf("attention head: utterance width %d is not a multiple of %d heads", d, nh)
	}
	hd := d / nh
	std := 1 / math.Sqrt(float64(d))
	initVariable(scope, seed, "ln_gain", paramInit{kind: "ones"}, d)
	initVariable(scope, seed, "ln_bias", paramInit{kind: "zeros"}, d)
	for _, w := range []string{"q", "k", "v"} {
		initVariable(scope, seed, w+"_w", paramInit{kind: "normal", std: std}, d, nh, hd)
	}
	initVariable(scope, seed, "o_w", paramInit{kind: "normal", std: std / math.Sqrt2}, nh, hd, d)
	initVariable(scope, seed, "pool_query", paramInit{kind: "normal", std: std}, d)
	initVariable(scope, seed, "pool_ln_gain", paramInit{kind: "ones"}, d)
	initVariable(scope, seed, "pool_ln_bias", paramInit{kind: "zeros"}, d)
	initVariable(scope, seed, "out_w", paramInit{kind: "normal", std: std}, d, d)
	initVariable(scope, seed, "out_b", paramInit{kind: "zeros"}, d)
	return nil
}

// Graph implements SetHead.
func (h AttentionHead) Graph(scope *model.Scope, utts, mask *Node) *Node {
	g := utts.Graph()
	d := utts.Shape().Dimensions[2]
	nh := h.heads()
	keyBias := InsertAxes(MulScalar(OneMinus(ConvertDType(mask, utts.DType())), maskBias), 1, 1) // [B,1,1,U]
	x := layerNorm(utts, param(scope, g, "ln_gain"), param(scope, g, "ln_bias"))
	q := Einsum("bud,dhe->buhe", x, param(scope, g, "q_w"))
	k := Einsum("bud,dhe->buhe", x, param(scope, g, "k_w"))
	v := Einsum("bud,dhe->buhe", x, param(scope, g, "v_w"))
	att := Softmax(Add(MulScalar(Einsum("bqhe,bkhe->bhqk", q, k), 1/math.Sqrt(float64(d/nh))), keyBias), -1)
	o := Einsum("bqhe,hef->bqf", Einsum("bhqk,bkhe->bqhe", att, v), param(scope, g, "o_w"))
	x = Add(utts, o)
	// Learned-query attention pooling over real utterances.
	y := layerNorm(x, param(scope, g, "pool_ln_gain"), param(scope, g, "pool_ln_bias"))
	logits := MulScalar(Einsum("bud,d->bu", y, param(scope, g, "pool_query")), 1/math.Sqrt(float64(d)))
	w := Softmax(Add(logits, MulScalar(OneMinus(ConvertDType(mask, utts.DType())), maskBias)), -1)
	pooled := Einsum("bud,bu->bd", x, w)
	return addBias(Einsum("bd,df->bf", pooled, param(scope, g, "out_w")), param(scope, g, "out_b"))
}

// NewHead returns the set head called name: "mean" (default) or
// "attention" (LUAR-style).
func NewHead(name string) (SetHead, error) {
	switch name {
	case "", "mean":
		return MeanHead{}, nil
	case "attention", "luar":
		return AttentionHead{}, nil
	}
	return nil, fmt.Errorf("unknown set head %q: use mean or attention", name)
}
