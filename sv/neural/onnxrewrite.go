package neural

import (
	"encoding/binary"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/roleprint/roleprint/internal/fsx"
)

// Two small repairs let Hugging Face exports train on every backend. Both
// are written here because the libraries involved offer no option for them.
//
//  1. GoMLX defines no gradient for Identity, which torch.onnx.export emits
//     for tied or deduplicated initializers (e.g. equal LayerNorm weights).
//     Its gradient is the identity; init registers it in GoMLX's VJP table
//     (the extension point GoMLX documents for new ops) when absent.
//  2. RoBERTa computes positions with a CumSum over an Int32 mask. GoMLX
//     lowers CumSum to ReduceWindow, and the ONNX Runtime backend's
//     ReduceWindow (an AveragePool in disguise) fails on integers and
//     returns wrong sums on floats (checked: CumSum([1 1 1 0 0]) gives
//     [5 5 5 3.75 3]). rewriteCumSum replaces each last-axis CumSum of the
//     ONNX graph by an exact equivalent without ReduceWindow:
//     Cast(MatMul(Cast(x, float), U), type(x)) with U[i][j] = (i ≤ j),
//     editing the ONNX protobuf generically through its registered
//     descriptor. CumSums it cannot prove equivalent are counted, and the
//     model refuses to run on the onnx backend (ONNXModel.Graph).

func init() {
	if _, ok := graph.VJPRegistration[graph.NodeTypeIdentity]; !ok {
		graph.VJPRegistration[graph.NodeTypeIdentity] = func(_ *graph.Node, v []*graph.Node, _ shapes.Shape) []*graph.Node {
			return []*graph.Node{v[0]}
		}
	}
}

// ONNX enum values used below.
const (
	onnxFloat     = 1 // TensorProto.FLOAT
	onnxInt32     = 6 // TensorProto.INT32
	onnxInt64     = 7 // TensorProto.INT64
	onnxAttrInt   = 2 // AttributeProto.INT
	onnxAttrInts  = 7 // AttributeProto.INTS
	onnxAttrTensr = 4 // AttributeProto.TENSOR
)

// onnxEditor edits a dynamic ONNX ModelProto.
type onnxEditor struct {
	model   *dynamicpb.Message
	graph   protoreflect.Message
	nodes   protoreflect.List
	nd, ad  protoreflect.MessageDescriptor // NodeProto, AttributeProto
	td      protoreflect.MessageDescriptor // TensorProto
	f       func(md protoreflect.MessageDescriptor, name string) protoreflect.FieldDescriptor
	produce map[string]protoreflect.Message // output name → node
	inputs  map[string]protoreflect.Message // graph input name → ValueInfoProto
	inits   map[string]protoreflect.Message // initializer name → TensorProto
	rank    map[string]int
}

func fieldOf(md protoreflect.MessageDescriptor, name string) protoreflect.FieldDescriptor {
	fd := md.Fields().ByName(protoreflect.Name(name))
	if fd == nil {
		panic("onnx schema has no field " + string(md.FullName()) + "." + name)
	}
	return fd
}

func newONNXEditor(model []byte) (e *onnxEditor, err error) {
	// onnx-gomlx registers the ONNX schema under the proto package "protos".
	d, err := protoregistry.GlobalFiles.FindDescriptorByName("protos.ModelProto")
	if err != nil {
		d, err = protoregistry.GlobalFiles.FindDescriptorByName("onnx.ModelProto")
	}
	if err != nil {
		return nil, fmt.Errorf("onnx descriptors not registered: %w", err)
	}
	md, ok := d.(protoreflect.MessageDescriptor)
	if !ok {
		return nil, fmt.Errorf("ModelProto is not a message")
	}
	m := dynamicpb.NewMessage(md)
	if err := proto.Unmarshal(model, m); err != nil {
		return nil, fmt.Errorf("parsing ONNX model: %w", err)
	}
	defer func() {
		if r := recover(); r != nil {
			e, err = nil, fmt.Errorf("unexpected ONNX schema: %v", r)
		}
	}()
	e = &onnxEditor{model: m, f: fieldOf, produce: map[string]protoreflect.Message{},
		inputs: map[string]protoreflect.Message{}, inits: map[string]protoreflect.Message{}, rank: map[string]int{}}
	gfd := fieldOf(md, "graph")
	e.graph = m.Mutable(gfd).Message()
	gd := gfd.Message()
	nodesFD := fieldOf(gd, "node")
	e.nodes = e.graph.Mutable(nodesFD).List()
	e.nd = nodesFD.Message()
	e.ad = fieldOf(e.nd, "attribute").Message()
	initFD := fieldOf(gd, "initializer")
	e.td = initFD.Message()
	for i := 0; i < e.nodes.Len(); i++ {
		n := e.nodes.Get(i).Message()
		outs := n.Get(fieldOf(e.nd, "output")).List()
		for j := 0; j < outs.Len(); j++ {
			e.produce[outs.Get(j).String()] = n
		}
	}
	ins := e.graph.Get(fieldOf(gd, "input")).List()
	for i := 0; i < ins.Len(); i++ {
		v := ins.Get(i).Message()
		e.inputs[v.Get(fieldOf(v.Descriptor(), "name")).String()] = v
	}
	inits := e.graph.Get(initFD).List()
	for i := 0; i < inits.Len(); i++ {
		t := inits.Get(i).Message()
		e.inits[t.Get(fieldOf(e.td, "name")).String()] = t
	}
	return e, nil
}

func (e *onnxEditor) op(n protoreflect.Message) string {
	return n.Get(fieldOf(e.nd, "op_type")).String()
}

func (e *onnxEditor) strs(n protoreflect.Message, field string) []string {
	l := n.Get(fieldOf(e.nd, field)).List()
	out := make([]string, l.Len())
	for i := range out {
		out[i] = l.Get(i).String()
	}
	return out
}

// attr returns the node's attribute called name, or nil.
func (e *onnxEditor) attr(n protoreflect.Message, name string) protoreflect.Message {
	l := n.Get(fieldOf(e.nd, "attribute")).List()
	for i := 0; i < l.Len(); i++ {
		a := l.Get(i).Message()
		if a.Get(fieldOf(e.ad, "name")).String() == name {
			return a
		}
	}
	return nil
}

// int64Tensor reads a TensorProto of int64 or int32 values (int64_data,
// int32_data or raw_data) as int64s, with its dims.
func (e *onnxEditor) int64Tensor(t protoreflect.Message) ([]int64, []int64, bool) {
	dt := t.Get(fieldOf(e.td, "data_type")).Int()
	if dt != onnxInt64 && dt != onnxInt32 {
		return nil, nil, false
	}
	dl := t.Get(fieldOf(e.td, "dims")).List()
	dims := make([]int64, dl.Len())
	for i := range dims {
		dims[i] = dl.Get(i).Int()
	}
	var vals []int64
	field := "int64_data"
	if dt == onnxInt32 {
		field = "int32_data"
	}
	vl := t.Get(fieldOf(e.td, field)).List()
	for i := 0; i < vl.Len(); i++ {
		vals = append(vals, vl.Get(i).Int())
	}
	if raw := t.Get(fieldOf(e.td, "raw_data")).Bytes(); len(raw) > 0 {
		vals = vals[:0]
		if dt == onnxInt64 {
			for i := 0; i+8 <= len(raw); i += 8 {
				vals = append(vals, int64(binary.LittleEndian.Uint64(raw[i:])))
			}
		} else {
			for i := 0; i+4 <= len(raw); i += 4 {
				vals = append(vals, int64(int32(binary.LittleEndian.Uint32(raw[i:]))))
			}
		}
	}
	return dims, vals, true
}

// constInt64 returns the values of a constant int64 tensor by name.
func (e *onnxEditor) constInt64(name string) ([]int64, bool) {
	if t, ok := e.inits[name]; ok {
		_, v, ok := e.int64Tensor(t)
		return v, ok
	}
	if n, ok := e.produce[name]; ok && e.op(n) == "Constant" {
		if a := e.attr(n, "value"); a != nil {
			_, v, ok := e.int64Tensor(a.Get(fieldOf(e.ad, "t")).Message())
			return v, ok
		}
	}
	return nil, false
}

// elementwise ops whose output rank is the largest input rank.
var onnxElementwise = map[string]bool{"Cast": true, "Not": true, "Equal": true, "Greater": true, "Less": true,
	"GreaterOrEqual": true, "LessOrEqual": true, "Mul": true, "Add": true, "Sub": true, "Div": true, "And": true,
	"Or": true, "Neg": true, "Abs": true, "Identity": true, "Where": true}

// rankOf returns the rank of the named value when it can be derived from
// graph inputs, constants and elementwise ops, else -1.
func (e *onnxEditor) rankOf(name string) int {
	if r, ok := e.rank[name]; ok {
		return r
	}
	e.rank[name] = -1 // guards cycles
	r := -1
	if v, ok := e.inputs[name]; ok {
		typ := v.Get(fieldOf(v.Descriptor(), "type")).Message()
		tt := typ.Get(fieldOf(typ.Descriptor(), "tensor_type")).Message()
		sh := tt.Get(fieldOf(tt.Descriptor(), "shape")).Message()
		r = sh.Get(fieldOf(sh.Descriptor(), "dim")).List().Len()
	} else if t, ok := e.inits[name]; ok {
		r = t.Get(fieldOf(e.td, "dims")).List().Len()
	} else if n, ok := e.produce[name]; ok {
		switch op := e.op(n); {
		case op == "Constant":
			if a := e.attr(n, "value"); a != nil {
				r = a.Get(fieldOf(e.ad, "t")).Message().Get(fieldOf(e.td, "dims")).List().Len()
			}
		case onnxElementwise[op]:
			for _, in := range e.strs(n, "input") {
				ri := e.rankOf(in)
				if ri < 0 {
					r = -1
					break
				}
				r = max(r, ri)
			}
		}
	}
	e.rank[name] = r
	return r
}

// dtypeOf returns the ONNX type of a value produced by a Cast or a graph
// input, or 0 when unknown.
func (e *onnxEditor) dtypeOf(name string) int64 {
	if v, ok := e.inputs[name]; ok {
		typ := v.Get(fieldOf(v.Descriptor(), "type")).Message()
		tt := typ.Get(fieldOf(typ.Descriptor(), "tensor_type")).Message()
		return tt.Get(fieldOf(tt.Descriptor(), "elem_type")).Int()
	}
	if n, ok := e.produce[name]; ok && e.op(n) == "Cast" {
		if a := e.attr(n, "to"); a != nil {
			return a.Get(fieldOf(e.ad, "i")).Int()
		}
	}
	return 0
}

// node appends a node.
func (e *onnxEditor) node(op string, ins []string, out string, attrs ...protoreflect.Message) {
	n := dynamicpb.NewMessage(e.nd)
	n.Set(fieldOf(e.nd, "op_type"), protoreflect.ValueOfString(op))
	n.Set(fieldOf(e.nd, "name"), protoreflect.ValueOfString(out+"/node"))
	for _, in := range ins {
		n.Mutable(fieldOf(e.nd, "input")).List().Append(protoreflect.ValueOfString(in))
	}
	n.Mutable(fieldOf(e.nd, "output")).List().Append(protoreflect.ValueOfString(out))
	for _, a := range attrs {
		n.Mutable(fieldOf(e.nd, "attribute")).List().Append(protoreflect.ValueOfMessage(a))
	}
	e.nodes.Append(protoreflect.ValueOfMessage(n))
}

func (e *onnxEditor) intAttr(name string, v int64) protoreflect.Message {
	a := dynamicpb.NewMessage(e.ad)
	a.Set(fieldOf(e.ad, "name"), protoreflect.ValueOfString(name))
	a.Set(fieldOf(e.ad, "type"), protoreflect.ValueOfEnum(onnxAttrInt))
	a.Set(fieldOf(e.ad, "i"), protoreflect.ValueOfInt64(v))
	return a
}

// int64TensorMsg builds an int64 TensorProto.
func (e *onnxEditor) int64TensorMsg(dims []int64, vals ...int64) protoreflect.Message {
	t := dynamicpb.NewMessage(e.td)
	t.Set(fieldOf(e.td, "data_type"), protoreflect.ValueOfInt32(onnxInt64))
	for _, d := range dims {
		t.Mutable(fieldOf(e.td, "dims")).List().Append(protoreflect.ValueOfInt64(d))
	}
	for _, v := range vals {
		t.Mutable(fieldOf(e.td, "int64_data")).List().Append(protoreflect.ValueOfInt64(v))
	}
	return t
}

// tensorAttr builds a TENSOR attribute.
func (e *onnxEditor) tensorAttr(name string, t protoreflect.Message) protoreflect.Message {
	a := dynamicpb.NewMessage(e.ad)
	a.Set(fieldOf(e.ad, "name"), protoreflect.ValueOfString(name))
	a.Set(fieldOf(e.ad, "type"), protoreflect.ValueOfEnum(onnxAttrTensr))
	a.Set(fieldOf(e.ad, "t"), protoreflect.ValueOfMessage(t))
	return a
}

// rewriteCumSum replaces every provably last-axis CumSum by a triangular
// MatMul (see the comment at the top of the file) and returns how many it
// replaced and how many CumSums it left.
func (e *onnxEditor) rewriteCumSum() (replaced, left int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("rewriting CumSum: %v", r)
		}
	}()
	n0 := e.nodes.Len()
	for i := 0; i < n0; i++ {
		n := e.nodes.Get(i).Message()
		if e.op(n) != "CumSum" {
			continue
		}
		ins, outs := e.strs(n, "input"), e.strs(n, "output")
		excl, rev := e.attr(n, "exclusive"), e.attr(n, "reverse")
		axis, ok := e.constInt64(ins[1])
		rank := e.rankOf(ins[0])
		typ := e.dtypeOf(ins[0])
		if !ok || len(axis) != 1 || rank < 1 || typ == 0 ||
			(excl != nil && excl.Get(fieldOf(e.ad, "i")).Int() != 0) || (rev != nil && rev.Get(fieldOf(e.ad, "i")).Int() != 0) {
			left++
			continue
		}
		if a := axis[0]; a != -1 && a != int64(rank-1) {
			left++
			continue
		}
		x, y := ins[0], outs[0]
		p := fmt.Sprintf("roleprint_cumsum_%d/", replaced)
		// Detach the CumSum: nothing consumes its output any more.
		n.Mutable(fieldOf(e.nd, "output")).List().Set(0, protoreflect.ValueOfString(p+"unused"))
		// U = upper-triangular ones [T, T], T = the last dimension of x.
		// (Built from Shape(start=-1), Concat and ConstantOfShape: onnx-gomlx
		// folds them into constants; a scalar Gather would trip the onnx
		// backend when folding.)
		e.node("Shape", []string{x}, p+"t", e.intAttr("start", -1))
		e.node("Concat", []string{p + "t", p + "t"}, p+"tt", e.intAttr("axis", 0))
		e.node("ConstantOfShape", []string{p + "tt"}, p+"ones", e.tensorAttr("value", e.int64TensorMsg([]int64{1}, 1)))
		e.node("Cast", []string{p + "ones"}, p+"ones_f", e.intAttr("to", onnxFloat))
		e.node("Trilu", []string{p + "ones_f"}, p+"upper_f", e.intAttr("upper", 1))
		e.node("Cast", []string{x}, p+"x_f", e.intAttr("to", onnxFloat))
		e.node("MatMul", []string{p + "x_f", p + "upper_f"}, p+"sum_f")
		e.node("Cast", []string{p + "sum_f"}, y, e.intAttr("to", typ))
		replaced++
	}
	return replaced, left, nil
}

// onnxWeight is a float initializer lifted into a graph input: its name in
// the ONNX graph, dims and values.
type onnxWeight struct {
	name string
	dims []int
	data []float32
}

// liftWeights moves every float initializer with more than one element
// (and no "const" in its name) out of the initializer list into the
// graph's inputs, and returns them. ONNXModel then feeds its own GoMLX
// variables for them. Why: onnx-gomlx turns initializers into constants on
// backends that ask for it (the ONNX Runtime backend does), so they could
// not be trained there; graph inputs are always left to the caller.
// baseDir resolves external data files.
func (e *onnxEditor) liftWeights(baseDir string) ([]onnxWeight, error) {
	gd := e.graph.Descriptor()
	initFD, inputFD := fieldOf(gd, "initializer"), fieldOf(gd, "input")
	inits := e.graph.Mutable(initFD).List()
	inputs := e.graph.Mutable(inputFD).List()
	vd := inputFD.Message() // ValueInfoProto
	var lifted []onnxWeight
	kept := 0
	for i := 0; i < inits.Len(); i++ {
		t := inits.Get(i).Message()
		name := t.Get(fieldOf(e.td, "name")).String()
		dl := t.Get(fieldOf(e.td, "dims")).List()
		dims := make([]int, dl.Len())
		size := 1
		for j := range dims {
			dims[j] = int(dl.Get(j).Int())
			size *= dims[j]
		}
		if t.Get(fieldOf(e.td, "data_type")).Int() != onnxFloat || size <= 1 || strings.Contains(strings.ToLower(name), "const") {
			inits.Set(kept, inits.Get(i))
			kept++
			continue
		}
		data, err := e.floatData(t, size, baseDir)
		if err != nil {
			return nil, fmt.Errorf("initializer %q: %w", name, err)
		}
		lifted = append(lifted, onnxWeight{name: name, dims: dims, data: data})
		// Declare it as a graph input of the same type and shape.
		v := dynamicpb.NewMessage(vd)
		v.Set(fieldOf(vd, "name"), protoreflect.ValueOfString(name))
		typ := v.Mutable(fieldOf(vd, "type")).Message()
		tt := typ.Mutable(fieldOf(typ.Descriptor(), "tensor_type")).Message()
		tt.Set(fieldOf(tt.Descriptor(), "elem_type"), protoreflect.ValueOfInt32(onnxFloat))
		sh := tt.Mutable(fieldOf(tt.Descriptor(), "shape")).Message()
		dimList := sh.Mutable(fieldOf(sh.Descriptor(), "dim")).List()
		for _, d := range dims {
			dm := dimList.NewElement().Message()
			dm.Set(fieldOf(dm.Descriptor(), "dim_value"), protoreflect.ValueOfInt64(int64(d)))
			dimList.Append(protoreflect.ValueOfMessage(dm))
		}
		inputs.Append(protoreflect.ValueOfMessage(v))
	}
	inits.Truncate(kept)
	return lifted, nil
}

// floatData reads a float TensorProto's values: float_data, raw_data, or
// an external data file (location/offset/length) under baseDir.
func (e *onnxEditor) floatData(t protoreflect.Message, size int, baseDir string) ([]float32, error) {
	out := make([]float32, 0, size)
	if fl := t.Get(fieldOf(e.td, "float_data")).List(); fl.Len() > 0 {
		for i := 0; i < fl.Len(); i++ {
			out = append(out, float32(fl.Get(i).Float()))
		}
		return out, nil
	}
	raw := t.Get(fieldOf(e.td, "raw_data")).Bytes()
	if ext := t.Get(fieldOf(e.td, "external_data")).List(); ext.Len() > 0 {
		var loc string
		var off, n int64 = 0, -1
		for i := 0; i < ext.Len(); i++ {
			kv := ext.Get(i).Message()
			k := kv.Get(fieldOf(kv.Descriptor(), "key")).String()
			v := kv.Get(fieldOf(kv.Descriptor(), "value")).String()
			switch k {
			case "location":
				loc = v
			case "offset":
				off, _ = strconv.ParseInt(v, 10, 64)
			case "length":
				n, _ = strconv.ParseInt(v, 10, 64)
			}
		}
		if n < 0 {
			n = int64(size) * 4
		}
		f, _, err := fsx.OpenRegular(filepath.Join(baseDir, loc), 0) // read in ranges
		if err != nil {
			return nil, fmt.Errorf("external data: %w", err)
		}
		defer f.Close()
		raw = make([]byte, n)
		if _, err := f.ReadAt(raw, off); err != nil {
			return nil, fmt.Errorf("external data %s: %w", loc, err)
		}
	}
	if len(raw) != size*4 {
		return nil, fmt.Errorf("%d bytes of data for %d floats", len(raw), size)
	}
	for i := 0; i < size; i++ {
		out = append(out, math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:])))
	}
	return out, nil
}

// marshal serialises the edited model.
func (e *onnxEditor) marshal() ([]byte, error) {
	b, err := proto.Marshal(e.model)
	if err != nil {
		return nil, fmt.Errorf("writing rewritten ONNX model: %w", err)
	}
	return b, nil
}
