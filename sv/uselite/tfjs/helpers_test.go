package tfjs

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/roleprint/roleprint/sv/backend"
)

// testGraph builds a small TF.js graph by hand: inputs (Placeholders fed
// at run time), constants and op nodes.
type testGraph struct {
	t      *testing.T
	nodes  []*Node
	values map[string]*tensors.Tensor // Const weights and Placeholder values
	inputs []string
}

func newGraph(t *testing.T) *testGraph {
	return &testGraph{t: t, values: map[string]*tensors.Tensor{}}
}

func tensorOf(t *testing.T, v any) *tensors.Tensor {
	t.Helper()
	if tt, ok := v.(*tensors.Tensor); ok {
		return tt
	}
	tt, err := tensors.FromAnyValue(v)
	if err != nil {
		t.Fatalf("bad test value %v: %v", v, err)
	}
	return tt
}

// input adds a Placeholder fed with v at run time.
func (tg *testGraph) input(name string, v any) *testGraph {
	tg.nodes = append(tg.nodes, &Node{Name: name, Op: "Placeholder", Attrs: map[string]*Attr{}})
	tg.values[name] = tensorOf(tg.t, v)
	tg.inputs = append(tg.inputs, name)
	return tg
}

// constant adds a Const node.
func (tg *testGraph) constant(name string, v any) *testGraph {
	tg.nodes = append(tg.nodes, &Node{Name: name, Op: "Const", Attrs: map[string]*Attr{}})
	tg.values[name] = tensorOf(tg.t, v)
	return tg
}

// op adds a node; attrs is a JSON object in TF.js's attribute format.
func (tg *testGraph) op(name, op, attrs string, inputs ...string) *testGraph {
	n := &Node{Name: name, Op: op, Inputs: inputs, Attrs: map[string]*Attr{}}
	if attrs != "" {
		if err := json.Unmarshal([]byte(attrs), &n.Attrs); err != nil {
			tg.t.Fatalf("bad attrs %s: %v", attrs, err)
		}
	}
	tg.nodes = append(tg.nodes, n)
	return tg
}

// model returns the graph as a Model; with folded, inputs become Consts
// (so every op is evaluated by constant folding).
func (tg *testGraph) model(folded bool) *Model {
	m := &Model{Weights: map[string]*tensors.Tensor{}, byName: map[string]*Node{}}
	for _, n := range tg.nodes {
		c := *n
		if c.Op == "Placeholder" && folded {
			c.Op = "Const"
		}
		if c.Op == "Const" {
			m.Weights[c.Name] = tg.values[c.Name]
		}
		m.Nodes = append(m.Nodes, &c)
		m.byName[c.Name] = &c
	}
	return m
}

// build converts outputs, feeding the inputs at run time (or folding
// everything), on the pure-Go backend; constants are never variables.
func (tg *testGraph) build(folded bool, outputs ...string) ([]*tensors.Tensor, error) {
	return tg.buildOn(testBackend(), folded, outputs...)
}

// buildOn is build on backend b.
func (tg *testGraph) buildOn(b compute.Backend, folded bool, outputs ...string) ([]*tensors.Tensor, error) {
	m := tg.model(folded)
	var feeds []any
	names := tg.inputs
	if folded {
		names = nil
	}
	for _, name := range names {
		// A tensor fed to one backend cannot be fed to another: copy it.
		clone, err := tg.values[name].LocalClone()
		if err != nil {
			return nil, err
		}
		feeds = append(feeds, clone)
	}
	var buildErr error
	outs, err := model.CallOnceN(b, model.NewStore(), func(scope *model.Scope, g *graph.Graph, params []*graph.Node) []*graph.Node {
		in := map[string]*graph.Node{}
		for i, name := range names {
			in[name] = params[i]
		}
		nodes, err := m.Build(scope, g, in, outputs, Options{Trainable: func(string, shapes.Shape) bool { return false }})
		if err != nil {
			buildErr = err
			return []*graph.Node{graph.Const(g, float32(0))}
		}
		return nodes
	}, feeds...)
	if buildErr != nil {
		return nil, buildErr
	}
	return outs, err
}

// check runs outputs both ways (fed at run time and folded at build time)
// on the pure-Go backend, and fed at run time on ONNX Runtime when it is
// installed, and compares each with want (float tolerance 1e-5).
func (tg *testGraph) check(outputs []string, want ...any) {
	tg.t.Helper()
	type run struct {
		name   string
		b      compute.Backend
		folded bool
	}
	runs := []run{{"go", testBackend(), false}, {"go folded", testBackend(), true}}
	if ob := onnxBackend(); ob != nil {
		runs = append(runs, run{"onnx", ob, false})
	}
	for _, r := range runs {
		got, err := tg.buildOn(r.b, r.folded, outputs...)
		if err != nil {
			tg.t.Fatalf("%s: %v", r.name, err)
		}
		for i, w := range want {
			if msg := diff(got[i], tensorOf(tg.t, w)); msg != "" {
				tg.t.Errorf("%s: output %s: %s", r.name, outputs[i], msg)
			}
		}
	}
}

// onnxBackend returns the shared ONNX Runtime backend, or nil when ONNX
// Runtime is not installed (`roleprint setup onnxruntime`).
func onnxBackend() compute.Backend {
	if _, err := backend.ONNXRuntimeLibrary(); err != nil {
		return nil
	}
	b, err := backend.Shared(backend.ONNX)
	if err != nil {
		return nil
	}
	return b
}

// checkErr requires building outputs (fed at run time) to fail with an
// error containing substr.
func (tg *testGraph) checkErr(substr string, outputs ...string) {
	tg.t.Helper()
	_, err := tg.build(false, outputs...)
	if err == nil || !strings.Contains(err.Error(), substr) {
		tg.t.Fatalf("want an error containing %q, got %v", substr, err)
	}
}

// diff describes how got differs from want ("" when equal, floats within
// 1e-5).
func diff(got, want *tensors.Tensor) string {
	if !reflect.DeepEqual(got.Shape().Dimensions, want.Shape().Dimensions) && !(got.Shape().Size() == 0 && want.Shape().Size() == 0) {
		return fmt.Sprintf("shape %s, want %s (value %v)", got.Shape(), want.Shape(), got.Value())
	}
	if got.DType() != want.DType() {
		return fmt.Sprintf("dtype %s, want %s", got.DType(), want.DType())
	}
	if got.DType().IsFloat() {
		g := tensors.MustCopyFlatData[float32](got)
		w := tensors.MustCopyFlatData[float32](want)
		for i := range g {
			if math.Abs(float64(g[i]-w[i])) > 1e-5*math.Max(1, math.Abs(float64(w[i]))) || math.IsNaN(float64(g[i])) {
				return fmt.Sprintf("value %v, want %v", got.Value(), want.Value())
			}
		}
		return ""
	}
	if !reflect.DeepEqual(got.Value(), want.Value()) {
		return fmt.Sprintf("value %v, want %v", got.Value(), want.Value())
	}
	return ""
}

// i32 / f32 / b make test tensors of a given shape from flat data.
func i32(dims []int, data ...int32) *tensors.Tensor {
	return tensors.FromFlatDataAndDimensions(data, dims...)
}

func f32(dims []int, data ...float32) *tensors.Tensor {
	return tensors.FromFlatDataAndDimensions(data, dims...)
}

func bools(dims []int, data ...bool) *tensors.Tensor {
	return tensors.FromFlatDataAndDimensions(data, dims...)
}

// testBackend is the pure-Go backend with sequential ops (its default
// parallel scheduler can deadlock).
func testBackend() compute.Backend {
	b, err := foldBackend()
	if err != nil {
		panic(err)
	}
	return b
}

var _ = dtypes.Float32
