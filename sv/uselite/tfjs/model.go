package tfjs

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/gomlx/gomlx/core/tensors"
)

// Model is a parsed TF.js graph model: its nodes in file order and the
// values of its weights (every Const node's tensor, from the weights
// manifest and shards).
type Model struct {
	// Nodes lists the graph's nodes in the order of model.json.
	Nodes []*Node
	// Weights maps a Const node's name to its value.
	Weights map[string]*tensors.Tensor
	// Format, GeneratedBy and ConvertedBy are copied from model.json
	// (empty when absent).
	Format, GeneratedBy, ConvertedBy string

	byName map[string]*Node
}

// Node is one node of the graph (a TensorFlow NodeDef).
type Node struct {
	// Name is the node's unique name.
	Name string
	// Op is the TensorFlow op type ("MatMul", "Const", ...).
	Op string
	// Inputs are the data inputs: "node" for a node's first output,
	// "node:k" for its k-th. Control inputs ("^node") are dropped.
	Inputs []string
	// Attrs are the node's attributes, read with the Attr* methods.
	Attrs map[string]*Attr
}

// Attr is one attribute value of a node, as TF.js stores it in JSON.
type Attr struct {
	S      json.RawMessage `json:"s"`
	I      json.RawMessage `json:"i"`
	F      *float64        `json:"f"`
	B      *bool           `json:"b"`
	Type   json.RawMessage `json:"type"`
	Shape  *jsonShape      `json:"shape"`
	Tensor json.RawMessage `json:"tensor"`
	List   *attrList       `json:"list"`
	Func   json.RawMessage `json:"func"`
}

type attrList struct {
	S     []json.RawMessage `json:"s"`
	I     []json.RawMessage `json:"i"`
	F     []float64         `json:"f"`
	B     []bool            `json:"b"`
	Type  []json.RawMessage `json:"type"`
	Shape []jsonShape       `json:"shape"`
}

type jsonShape struct {
	Dim []struct {
		Size json.RawMessage `json:"size"`
	} `json:"dim"`
	UnknownRank bool `json:"unknownRank"`
}

type jsonNode struct {
	Name  string           `json:"name"`
	Op    string           `json:"op"`
	Input []string         `json:"input"`
	Attr  map[string]*Attr `json:"attr"`
}

type jsonWeight struct {
	Name         string          `json:"name"`
	Shape        []int           `json:"shape"`
	DType        string          `json:"dtype"`
	Quantization json.RawMessage `json:"quantization"`
}

type jsonModel struct {
	Format        string `json:"format"`
	GeneratedBy   string `json:"generatedBy"`
	ConvertedBy   string `json:"convertedBy"`
	ModelTopology struct {
		Node []jsonNode `json:"node"`
	} `json:"modelTopology"`
	WeightsManifest []struct {
		Paths   []string     `json:"paths"`
		Weights []jsonWeight `json:"weights"`
	} `json:"weightsManifest"`
}

// Load reads dir/model.json and the weight shards it lists (paths relative
// to dir).
func Load(dir string) (*Model, error) {
	path := filepath.Join(dir, "model.json")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("tfjs: %w", err)
	}
	m, err := Parse(data, func(p string) ([]byte, error) {
		return os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
	})
	if err != nil {
		return nil, fmt.Errorf("tfjs: %s: %w", path, err)
	}
	return m, nil
}

// Parse decodes a model.json document; readShard returns the bytes of a
// weight shard given its path as written in the manifest.
func Parse(modelJSON []byte, readShard func(path string) ([]byte, error)) (*Model, error) {
	var jm jsonModel
	if err := json.Unmarshal(modelJSON, &jm); err != nil {
		return nil, fmt.Errorf("not a TF.js model.json: %w", err)
	}
	if len(jm.ModelTopology.Node) == 0 {
		return nil, fmt.Errorf("not a TF.js graph model: modelTopology has no nodes (a Keras layers model is not supported)")
	}
	m := &Model{
		Format:      jm.Format,
		GeneratedBy: jm.GeneratedBy,
		ConvertedBy: jm.ConvertedBy,
		Weights:     map[string]*tensors.Tensor{},
		byName:      map[string]*Node{},
	}
	for _, jn := range jm.ModelTopology.Node {
		if jn.Name == "" || jn.Op == "" {
			return nil, fmt.Errorf("node without name or op: %+v", jn)
		}
		if _, dup := m.byName[jn.Name]; dup {
			return nil, fmt.Errorf("node %q defined twice", jn.Name)
		}
		n := &Node{Name: jn.Name, Op: jn.Op, Attrs: jn.Attr}
		if n.Attrs == nil {
			n.Attrs = map[string]*Attr{}
		}
		for _, in := range jn.Input {
			if strings.HasPrefix(in, "^") {
				continue // control dependency: irrelevant to a dataflow conversion
			}
			n.Inputs = append(n.Inputs, in)
		}
		m.Nodes = append(m.Nodes, n)
		m.byName[n.Name] = n
	}
	for _, group := range jm.WeightsManifest {
		var blob []byte
		for _, p := range group.Paths {
			b, err := readShard(p)
			if err != nil {
				return nil, fmt.Errorf("weight shard %s: %w", p, err)
			}
			blob = append(blob, b...)
		}
		offset := 0
		for _, w := range group.Weights {
			t, n, err := decodeWeight(w, blob[offset:])
			if err != nil {
				return nil, err
			}
			offset += n
			m.Weights[w.Name] = t
		}
		if offset != len(blob) {
			return nil, fmt.Errorf("weight group %v: manifest describes %d bytes but the shards hold %d", group.Paths, offset, len(blob))
		}
	}
	for _, n := range m.Nodes {
		if n.Op == "Const" && m.Weights[n.Name] == nil {
			return nil, fmt.Errorf("Const node %q has no value in the weights manifest", n.Name)
		}
	}
	return m, nil
}

// Node returns the node called name, or nil.
func (m *Model) Node(name string) *Node { return m.byName[name] }

// OpCounts returns how many nodes use each op type.
func (m *Model) OpCounts() map[string]int {
	counts := map[string]int{}
	for _, n := range m.Nodes {
		counts[n.Op]++
	}
	return counts
}

// Unsupported lists, sorted, the op types of the graph the converter does
// not know, each with the name of one node that uses it
// ("Erf (node bert/gelu/Erf)").
func (m *Model) Unsupported() []string {
	seen := map[string]string{}
	for _, n := range m.Nodes {
		if _, ok := opRegistry[n.Op]; !ok && n.Op != "Const" && n.Op != "Placeholder" {
			if _, dup := seen[n.Op]; !dup {
				seen[n.Op] = n.Name
			}
		}
	}
	out := make([]string, 0, len(seen))
	for op, name := range seen {
		out = append(out, fmt.Sprintf("%s (node %s)", op, name))
	}
	sort.Strings(out)
	return out
}

// Placeholders returns the graph's input nodes in file order.
func (m *Model) Placeholders() []*Node {
	var out []*Node
	for _, n := range m.Nodes {
		if n.Op == "Placeholder" {
			out = append(out, n)
		}
	}
	return out
}

// splitOutput splits "node:k" into ("node", k); "node" is output 0.
func splitOutput(ref string) (string, int) {
	if i := strings.LastIndexByte(ref, ':'); i > 0 {
		if k, err := strconv.Atoi(ref[i+1:]); err == nil {
			return ref[:i], k
		}
	}
	return ref, 0
}
