package neural

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX's idiom.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/roleprint/roleprint/internal/panics"
	"github.com/roleprint/roleprint/sv/backend"
)

// BackendComparison says how far a model's utterance vectors and
// gradients on one backend are from those on the pure-Go backend (the
// reference), for the same weights and inputs.
type BackendComparison struct {
	// Backend is the canonical backend name.
	Backend string `json:"backend"`
	// MaxOutputDiff is the largest absolute difference of an utterance
	// vector coordinate; MaxGradDiff of a gradient coordinate, relative to
	// the largest gradient magnitude of that variable on the reference.
	MaxOutputDiff float64 `json:"max_output_diff"`
	MaxGradDiff   float64 `json:"max_grad_rel_diff"`
	// WorstVariable is the variable with the largest gradient difference.
	WorstVariable string `json:"worst_variable"`
}

// CompareBackends runs model m (fresh variables from m.Init) on the go
// backend and on each named backend, on texts, and compares the utterance
// vectors and the gradients of every trainable variable of the objective
// Σ v·r (r a fixed pseudo-random matrix). Plug-in models use it in their
// tests (see sv/uselite): an op a backend lacks shows up as an error
// naming the op and the backend.
func CompareBackends(m UtteranceModel, texts []string, backends ...string) ([]BackendComparison, error) {
	ref, err := modelOutputsAndGrads(m, texts, backend.Go)
	if err != nil {
		return nil, err
	}
	var out []BackendComparison
	for _, b := range backends {
		canon, err := backend.Resolve(b)
		if err != nil {
			return nil, err
		}
		got, err := modelOutputsAndGrads(m, texts, canon)
		if err != nil {
			return nil, err
		}
		c := BackendComparison{Backend: canon}
		for i := range ref.out {
			c.MaxOutputDiff = math.Max(c.MaxOutputDiff, math.Abs(float64(ref.out[i]-got.out[i])))
		}
		// Gradients are compared relative to the variable's largest
		// reference gradient, floored at 1e-3 of the largest of all (a
		// variable whose gradient is pure rounding noise is not a mismatch).
		var global float64
		for _, rg := range ref.grads {
			for _, x := range rg {
				global = math.Max(global, math.Abs(float64(x)))
			}
		}
		for path, rg := range ref.grads {
			gg, ok := got.grads[path]
			if !ok || len(gg) != len(rg) {
				return nil, fmt.Errorf("backend %s: no gradient for %s", canon, path)
			}
			var scale, diff float64
			for i := range rg {
				scale = math.Max(scale, math.Abs(float64(rg[i])))
				diff = math.Max(diff, math.Abs(float64(rg[i]-gg[i])))
			}
			if scale = math.Max(scale, 1e-3*global); scale > 0 {
				diff /= scale
			}
			if diff >= c.MaxGradDiff {
				c.MaxGradDiff, c.WorstVariable = diff, path
			}
		}
		out = append(out, c)
	}
	return out, nil
}

type outputsAndGrads struct {
	out   []float32
	grads map[string][]float32
}

func modelOutputsAndGrads(m UtteranceModel, texts []string, backendName string) (*outputsAndGrads, error) {
	net, err := NewNetwork(m, MeanHead{}, backendName, 1)
	if err != nil {
		return nil, err
	}
	defer net.Close()
	t := m.MaxLen()
	n := len(texts)
	ids := make([]int32, n*t)
	mask := make([]bool, n*t)
	tok := m.Tokenizer()
	for i, text := range texts {
		seq := tok.Encode(text, t)
		for j := 0; j < t; j++ {
			if j < len(seq) {
				ids[i*t+j], mask[i*t+j] = seq[j], true
			} else {
				ids[i*t+j] = tok.PadID()
			}
		}
	}
	rng := rand.New(rand.NewPCG(42, 42))
	r := make([]float32, n*m.Dim())
	for i := range r {
		r[i] = float32(rng.NormFloat64())
	}
	var vars []*model.Variable
	for v := range net.Store.IterVariables() {
		if v.Trainable && v.DType().IsFloat() {
			vars = append(vars, v)
		}
	}
	sort.Slice(vars, func(i, j int) bool { return vars[i].Path() < vars[j].Path() })
	var used []string
	exec, err := model.NewExec(net.Backend, net.Store, func(scope *model.Scope, in []*Node) []*Node {
		g := in[0].Graph()
		v := net.utteranceGraph(scope, in[0], in[1])
		obj := ReduceAllSum(Mul(v, in[2]))
		var nodes []*Node
		used = used[:0]
		for _, x := range vars {
			if x.InUseByGraph(g) {
				nodes = append(nodes, x.NodeValue(g))
				used = append(used, x.Path())
			}
		}
		return append([]*Node{v}, Gradient(obj, nodes...)...)
	})
	if err != nil {
		return nil, err
	}
	defer exec.Finalize()
	var res []*tensors.Tensor
	if err := panics.Catch(func() error {
		var e error
		res, e = exec.Exec(tensors.FromFlatDataAndDimensions(ids, n, t), tensors.FromFlatDataAndDimensions(mask, n, t),
			tensors.FromFlatDataAndDimensions(r, n, m.Dim()))
		return e
	}); err != nil {
		return nil, fmt.Errorf("%s on backend %s: %w", m.Name(), backendName, err)
	}
	og := &outputsAndGrads{grads: map[string][]float32{}}
	if og.out, err = flatFloat32(res[0]); err != nil {
		return nil, err
	}
	for i, p := range used {
		if og.grads[p], err = flatFloat32(res[i+1]); err != nil {
			return nil, err
		}
	}
	return og, nil
}
