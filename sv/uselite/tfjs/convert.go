package tfjs

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/gobackend"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/support/exceptions"
)

// Options configure Build. The zero value is usable.
type Options struct {
	// Trainable decides which Const nodes become variables of the store
	// (trainable, so a GoMLX trainer fine-tunes them); the others are
	// graph constants. Default (nil): DefaultTrainable.
	Trainable func(name string, shape shapes.Shape) bool

	// Pinned fixes the value of node outputs at build time, by node name,
	// instead of computing them: for data-dependent values that GoMLX
	// needs static (a dense batch shape computed from the largest sparse
	// index, say). The caller guarantees the pinned value is what the
	// graph would compute for every input it is run with.
	Pinned map[string]*tensors.Tensor
}

// DefaultTrainable makes every float constant with more than one element
// a trainable variable; scalars (epsilons, scales) stay constants.
func DefaultTrainable(_ string, shape shapes.Shape) bool {
	return shape.DType.IsFloat() && shape.Size() > 1
}

// SupportedOps lists, sorted, the TF op types the converter handles
// (Const and Placeholder included).
func SupportedOps() []string {
	out := []string{"Const", "Placeholder"}
	for op := range opRegistry {
		out = append(out, op)
	}
	sort.Strings(out)
	return out
}

// opFunc converts one node given its converted inputs.
type opFunc func(b *builder, n *Node, in []*value) ([]*value, error)

// opSpec describes a registered op.
type opSpec struct {
	fn opFunc
	// padAware ops accept padded inputs (and handle them); the converter
	// rejects padded inputs for the others.
	padAware bool
}

var opRegistry = map[string]opSpec{}

// registerOp adds a converter for a TF op type (at init time).
func registerOp(op string, padAware bool, fn opFunc) {
	if _, dup := opRegistry[op]; dup {
		panic("tfjs: op registered twice: " + op)
	}
	opRegistry[op] = opSpec{fn: fn, padAware: padAware}
}

// builder is what an op function builds with: the graph (the model's, or a
// throw-away graph on the pure-Go backend when folding constants).
type builder struct {
	g       *graph.Graph
	folding bool
}

// node returns v as a node of b's graph (a Const node for build-time
// values, cached).
func (b *builder) node(v *value) *graph.Node {
	if v.c == nil {
		return v.node
	}
	if v.cg != b.g || v.cn == nil {
		v.cg, v.cn = b.g, graph.ConstTensor(b.g, v.c)
	}
	return v.cn
}

// ints returns the contents of a build-time integer value; what names it
// in the error when it is computed at run time.
func (b *builder) ints(v *value, what string) ([]int, error) {
	if v.c == nil {
		return nil, fmt.Errorf("%s must be known when the graph is built (it is computed from run-time data; pin it with Options.Pinned)", what)
	}
	out, err := constInts(v.c)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return out, nil
}

// int returns a build-time integer scalar (or one-element vector).
func (b *builder) int(v *value, what string) (int, error) {
	xs, err := b.ints(v, what)
	if err != nil {
		return 0, err
	}
	if len(xs) != 1 {
		return 0, fmt.Errorf("%s must be a single integer, got %d values", what, len(xs))
	}
	return xs[0], nil
}

// hasOp reports whether b's backend implements op.
func (b *builder) hasOp(op compute.OpType) bool {
	return b.g.Backend().Capabilities().Operations[op]
}

// converter holds the state of one Build call.
type converter struct {
	m      *Model
	g      *graph.Graph
	scope  *model.Scope
	opts   Options
	inputs map[string]*graph.Node
	values map[string][]*value
	main   *builder
}

// Build converts the part of the graph that computes outputs into GoMLX
// nodes of g. inputs maps each Placeholder the outputs depend on to its
// node (a Placeholder may instead be pinned in opts). Trainable Const
// nodes become variables of scope's store, named scope/<TF node name>:
// created with the model's values the first time, reused (with whatever
// values they hold, fine-tuned ones included) after.
//
// Any unsupported op among the needed nodes is reported, with every other
// unsupported op of the model, before anything is built.
func (m *Model) Build(scope *model.Scope, g *graph.Graph, inputs map[string]*graph.Node, outputs []string, opts Options) (out []*graph.Node, err error) {
	if opts.Trainable == nil {
		opts.Trainable = DefaultTrainable
	}
	if bad := m.neededUnsupported(outputs, opts.Pinned); len(bad) > 0 {
		return nil, fmt.Errorf("tfjs: unsupported op types: %s (supported: %s)", strings.Join(bad, ", "), strings.Join(SupportedOps(), ", "))
	}
	c := &converter{m: m, g: g, scope: scope, opts: opts, inputs: inputs,
		values: map[string][]*value{}, main: &builder{g: g}}
	for _, ref := range outputs {
		v, err := c.get(ref)
		if err != nil {
			return nil, err
		}
		if v.pad != nil {
			return nil, fmt.Errorf("tfjs: output %q has a data-dependent length (from Where %q): scatter it back to a static shape first", ref, v.pad.where)
		}
		out = append(out, c.main.node(v))
	}
	return out, nil
}

// InitVariables creates, in scope's store, the variables Build would
// create for the trainable constants (opts.Trainable, default
// DefaultTrainable), holding the model's values; existing variables are
// left as they are. It returns how many variables it created.
func (m *Model) InitVariables(scope *model.Scope, opts Options) (int, error) {
	if opts.Trainable == nil {
		opts.Trainable = DefaultTrainable
	}
	c := &converter{m: m, scope: scope, opts: opts}
	created := 0
	for _, n := range m.Nodes {
		if n.Op != "Const" || !opts.Trainable(n.Name, m.Weights[n.Name].Shape()) {
			continue
		}
		if scope.Store().GetVariable(model.JoinPath(scope.Scope(), n.Name)) != nil {
			continue
		}
		if _, err := c.variable(n); err != nil {
			return created, err
		}
		created++
	}
	return created, nil
}

// neededUnsupported lists the unsupported ops among the nodes outputs
// depend on (stopping at pinned nodes).
func (m *Model) neededUnsupported(outputs []string, pinned map[string]*tensors.Tensor) []string {
	seen := map[string]bool{}
	bad := map[string]string{}
	var visit func(name string)
	visit = func(name string) {
		if seen[name] {
			return
		}
		seen[name] = true
		if _, ok := pinned[name]; ok {
			return
		}
		n := m.byName[name]
		if n == nil {
			return // reported when converting
		}
		if _, ok := opRegistry[n.Op]; !ok && n.Op != "Const" && n.Op != "Placeholder" {
			if _, dup := bad[n.Op]; !dup {
				bad[n.Op] = n.Name
			}
		}
		for _, in := range n.Inputs {
			name, _ := splitOutput(in)
			visit(name)
		}
	}
	for _, ref := range outputs {
		name, _ := splitOutput(ref)
		visit(name)
	}
	var out []string
	for op, name := range bad {
		out = append(out, fmt.Sprintf("%s (node %s)", op, name))
	}
	sort.Strings(out)
	return out
}

// get returns the converted value of an input reference ("node:k").
func (c *converter) get(ref string) (*value, error) {
	name, k := splitOutput(ref)
	outs, err := c.convert(name)
	if err != nil {
		return nil, err
	}
	if k >= len(outs) {
		return nil, fmt.Errorf("tfjs: %q refers to output %d of node %q, which has %d outputs", ref, k, name, len(outs))
	}
	return outs[k], nil
}

// convert converts node name (memoized) and returns its outputs.
func (c *converter) convert(name string) ([]*value, error) {
	if vs, ok := c.values[name]; ok {
		return vs, nil
	}
	if t, ok := c.opts.Pinned[name]; ok {
		vs := []*value{constValue(t)}
		c.values[name] = vs
		return vs, nil
	}
	n := c.m.byName[name]
	if n == nil {
		return nil, fmt.Errorf("tfjs: the graph has no node %q", name)
	}
	var vs []*value
	var err error
	switch n.Op {
	case "Placeholder":
		vs, err = c.placeholder(n)
	case "Const":
		vs, err = c.constant(n)
	default:
		vs, err = c.op(n)
	}
	if err != nil {
		return nil, err
	}
	c.values[name] = vs
	return vs, nil
}

func (c *converter) placeholder(n *Node) ([]*value, error) {
	in := c.inputs[n.Name]
	if in == nil {
		return nil, fmt.Errorf("tfjs: input %q is needed but was not given", n.Name)
	}
	if dt, ok, err := n.AttrDType("dtype"); err == nil && ok && dt != in.DType() {
		return nil, fmt.Errorf("tfjs: input %q must be %s (TF.js narrows integers to int32), got %s", n.Name, dt, in.Shape())
	}
	if dims, ok, err := n.AttrShape("shape"); err == nil && ok {
		bad := len(dims) != in.Rank()
		for i := 0; !bad && i < len(dims); i++ {
			bad = dims[i] >= 0 && dims[i] != in.Shape().Dimensions[i]
		}
		if bad {
			return nil, fmt.Errorf("tfjs: input %q must have shape %v (-1: any), got %s", n.Name, dims, in.Shape())
		}
	}
	return []*value{nodeValue(in)}, nil
}

func (c *converter) constant(n *Node) ([]*value, error) {
	t := c.m.Weights[n.Name]
	if !c.opts.Trainable(n.Name, t.Shape()) {
		return []*value{constValue(t)}, nil
	}
	v, err := c.variable(n)
	if err != nil {
		return nil, err
	}
	return []*value{nodeValue(v.NodeValue(c.g))}, nil
}

// variable returns the store variable of a trainable Const node, creating
// it with the model's value when absent.
func (c *converter) variable(n *Node) (*model.Variable, error) {
	t := c.m.Weights[n.Name]
	path := model.JoinPath(c.scope.Scope(), n.Name)
	v := c.scope.Store().GetVariable(path)
	err := exceptions.TryCatch[error](func() {
		if v == nil {
			// The store owns (and finalizes on update) the tensor it is
			// given: hand it a copy so the model's weights stay intact.
			clone, err := t.LocalClone()
			if err != nil {
				panic(err)
			}
			v = c.scope.Store().VariableWithValue(path, clone)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("tfjs: variable for %q: %w", n.Name, err)
	}
	if !v.Shape().Equal(t.Shape()) {
		return nil, fmt.Errorf("tfjs: variable %s has shape %s but the model's weight is %s", v.Path(), v.Shape(), t.Shape())
	}
	return v, nil
}

// op converts a computing node: folded at build time when every input is
// known, built into the graph otherwise.
func (c *converter) op(n *Node) ([]*value, error) {
	spec, ok := opRegistry[n.Op]
	if !ok {
		return nil, fmt.Errorf("tfjs: node %q: unsupported op %s", n.Name, n.Op)
	}
	ins := make([]*value, len(n.Inputs))
	allConst := true
	for i, ref := range n.Inputs {
		v, err := c.get(ref)
		if err != nil {
			return nil, err
		}
		ins[i] = v
		allConst = allConst && v.isConst()
		if v.pad != nil && !spec.padAware {
			return nil, fmt.Errorf("tfjs: node %q (%s): input %d has a data-dependent length (padded output of Where %q), which this op cannot take", n.Name, n.Op, i, v.pad.where)
		}
	}
	var outs []*value
	var err error
	if allConst && len(ins) > 0 {
		outs, err = fold(spec.fn, n, ins)
	} else {
		outs, err = callOp(c.main, spec.fn, n, ins)
	}
	if err != nil {
		return nil, fmt.Errorf("tfjs: node %q (%s): %w", n.Name, n.Op, err)
	}
	return outs, nil
}

// callOp runs an op function, turning GoMLX panics into errors.
func callOp(b *builder, fn opFunc, n *Node, ins []*value) (outs []*value, err error) {
	exc := exceptions.Try(func() { outs, err = fn(b, n, ins) })
	if exc != nil {
		if e, ok := exc.(error); ok {
			return nil, e
		}
		return nil, fmt.Errorf("%v", exc)
	}
	return outs, err
}

// foldBackend is the pure-Go backend that folds constants, with ops run
// one after the other: folded graphs are tiny, and the default parallel
// scheduler of the Go backend can deadlock.
var foldBackend = sync.OnceValues(func() (compute.Backend, error) { return gobackend.New("ops_sequential") })

// fold evaluates an op whose inputs are all known, with the same op code,
// in a throw-away graph on the pure-Go backend.
func fold(fn opFunc, n *Node, ins []*value) ([]*value, error) {
	backend, err := foldBackend()
	if err != nil {
		return nil, err
	}
	g := graph.NewGraph(backend, "tfjs_fold")
	defer g.Finalize()
	b := &builder{g: g, folding: true}
	outs, err := callOp(b, fn, n, ins)
	if err != nil {
		return nil, err
	}
	var nodes []*graph.Node
	var at []int
	for i, o := range outs {
		if o.c == nil {
			nodes = append(nodes, o.node)
			at = append(at, i)
		}
	}
	if len(nodes) == 0 {
		return outs, nil
	}
	var results []*tensors.Tensor
	exc := exceptions.Try(func() {
		if err = g.Compile(nodes...); err == nil {
			results = g.Run()
		}
	})
	if exc != nil {
		return nil, fmt.Errorf("folding constants: %v", exc)
	}
	if err != nil {
		return nil, fmt.Errorf("folding constants: %w", err)
	}
	folded := make([]*value, len(outs))
	copy(folded, outs)
	for j, i := range at {
		local, err := results[j].LocalClone()
		if err != nil {
			return nil, err
		}
		folded[i] = constValue(local)
	}
	return folded, nil
}

// errPadded is returned by pad-aware ops that cannot handle padding in the
// position they found it.
func errPadded(v *value, where string) error {
	return fmt.Errorf("%s has a data-dependent length (padded output of Where %q) along axis %d, which this op cannot take there", where, v.pad.where, v.pad.axis)
}

// onlyPad returns the common padding of the inputs (nil when none is
// padded), or an error when two inputs carry different paddings.
func onlyPad(ins ...*value) (*padding, error) {
	var p *padding
	for _, v := range ins {
		if v == nil || v.pad == nil {
			continue
		}
		if p != nil && p.count != v.pad.count {
			return nil, errors.New("inputs padded by different Where ops cannot be combined")
		}
		p = v.pad
	}
	return p, nil
}

// dtypeOf returns the dtype attribute attr of n, or fallback.
func dtypeOf(n *Node, attr string, fallback dtypes.DType) (dtypes.DType, error) {
	dt, ok, err := n.AttrDType(attr)
	if err != nil {
		return dtypes.InvalidDType, err
	}
	if !ok {
		return fallback, nil
	}
	return dt, nil
}
