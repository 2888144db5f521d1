package tfjs

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/gomlx/core/graph"
)

// A two-node model.json in TF.js's format: y = x · w (w from the shards).
const tinyModelJSON = `{
  "format": "graph-model", "generatedBy": "test", "convertedBy": "hand",
  "modelTopology": {"node": [
    {"name": "x", "op": "Placeholder", "attr": {"dtype": {"type": "DT_FLOAT"}, "shape": {"shape": {"dim": [{"size": "-1"}, {"size": "2"}]}}}},
    {"name": "w", "op": "Const", "attr": {"value": {"tensor": {"dtype": "DT_FLOAT"}}, "dtype": {"type": "DT_FLOAT"}}},
    {"name": "k", "op": "Const", "attr": {"dtype": {"type": 3}}},
    {"name": "y", "op": "MatMul", "input": ["x", "w", "^k"], "attr": {"transpose_a": {"b": false}, "T": {"type": 1}}}
  ]},
  "weightsManifest": [{"paths": ["shard1", "shard2"], "weights": [
    {"name": "w", "shape": [2, 1], "dtype": "float32"},
    {"name": "k", "shape": [], "dtype": "int32"}
  ]}]
}`

func le32(vals ...uint32) []byte {
	out := make([]byte, 4*len(vals))
	for i, v := range vals {
		binary.LittleEndian.PutUint32(out[4*i:], v)
	}
	return out
}

// tinyShards splits the weights' bytes over two shards (TF.js cuts shards
// anywhere, even inside a tensor).
func tinyShards() map[string][]byte {
	blob := le32(math.Float32bits(2), math.Float32bits(3), uint32(7))
	return map[string][]byte{"shard1": blob[:6], "shard2": blob[6:]}
}

func TestParseAndRun(t *testing.T) {
	shards := tinyShards()
	m, err := Parse([]byte(tinyModelJSON), func(p string) ([]byte, error) { return shards[p], nil })
	if err != nil {
		t.Fatal(err)
	}
	if m.Format != "graph-model" || len(m.Nodes) != 4 || m.Node("y") == nil {
		t.Fatalf("parsed %+v", m)
	}
	if got := m.Node("y").Inputs; len(got) != 2 {
		t.Errorf("control input kept: %v", got)
	}
	if got := m.Weights["k"].Value(); got != int32(7) {
		t.Errorf("k = %v, want 7", got)
	}
	if got := m.OpCounts(); got["Const"] != 2 || got["MatMul"] != 1 {
		t.Errorf("OpCounts = %v", got)
	}
	if ph := m.Placeholders(); len(ph) != 1 || ph[0].Name != "x" {
		t.Errorf("Placeholders = %v", ph)
	}
	out, err := graph.ExecOnce(testBackend(), func(x *graph.Node) *graph.Node {
		n, err := m.buildPlain(x)
		if err != nil {
			panic(err)
		}
		return n
	}, [][]float32{{1, 1}, {1, 0}})
	if err != nil {
		t.Fatal(err)
	}
	if msg := diff(out, tensorOf(t, [][]float32{{5}, {2}})); msg != "" {
		t.Error(msg)
	}
}

func TestLoadFromDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "model.json"), []byte(tinyModelJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, b := range tinyShards() {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Load(dir); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "shard2"))
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "shard2") {
		t.Errorf("missing shard: %v", err)
	}
}

func TestParseErrors(t *testing.T) {
	shards := tinyShards()
	read := func(p string) ([]byte, error) { return shards[p], nil }
	cases := map[string]string{
		"not json":           `{`,
		"no nodes":           `{"modelTopology": {"node": []}}`,
		"quantized":          strings.Replace(tinyModelJSON, `"dtype": "float32"}`, `"dtype": "float32", "quantization": {"dtype": "uint8", "scale": 0.1, "min": 0}}`, 1),
		"short shards":       strings.Replace(tinyModelJSON, `"shape": [2, 1]`, `"shape": [4, 1]`, 1),
		"extra bytes":        strings.Replace(tinyModelJSON, `"shape": [2, 1]`, `"shape": [1, 1]`, 1),
		"const without data": strings.Replace(tinyModelJSON, `{"name": "k", "shape": [], "dtype": "int32"}`, `{"name": "k2", "shape": [], "dtype": "int32"}`, 1),
		"string weight":      strings.Replace(tinyModelJSON, `"dtype": "int32"`, `"dtype": "string"`, 1),
		"duplicate node":     strings.Replace(tinyModelJSON, `"name": "k", "op"`, `"name": "w", "op"`, 1),
	}
	want := map[string]string{
		"not json": "not a TF.js model.json", "no nodes": "no nodes", "quantized": "quantized",
		"short shards": "needs 16 bytes", "extra bytes": "manifest describes", "const without data": `Const node "k" has no value`,
		"string weight": `dtype "string"`, "duplicate node": "defined twice",
	}
	for name, js := range cases {
		_, err := Parse([]byte(js), read)
		if err == nil || !strings.Contains(err.Error(), want[name]) {
			t.Errorf("%s: want error containing %q, got %v", name, want[name], err)
		}
	}
}

func TestAttributes(t *testing.T) {
	n := &Node{Attrs: map[string]*Attr{
		"i":      mustAttr(t, `{"i": "-3"}`),
		"inum":   mustAttr(t, `{"i": 4}`),
		"s64":    mustAttr(t, `{"s": "TkhXQw=="}`),
		"sbytes": mustAttr(t, `{"s": [86, 65, 76, 73, 68]}`),
		"list":   mustAttr(t, `{"list": {"i": ["1", "2"], "s": []}}`),
		"dtype":  mustAttr(t, `{"type": "DT_INT64"}`),
		"bad":    mustAttr(t, `{"type": 7}`),
	}}
	if v, _ := n.AttrInt("i", 0); v != -3 {
		t.Errorf("i = %d", v)
	}
	if v, _ := n.AttrInt("inum", 0); v != 4 {
		t.Errorf("inum = %d", v)
	}
	if v, _ := n.AttrInt("absent", 9); v != 9 {
		t.Errorf("default = %d", v)
	}
	if s, _ := n.AttrString("s64", ""); s != "NHWC" {
		t.Errorf("s64 = %q", s)
	}
	if s, _ := n.AttrString("sbytes", ""); s != "VALID" {
		t.Errorf("sbytes = %q", s)
	}
	if l, _ := n.AttrInts("list"); fmt.Sprint(l) != "[1 2]" {
		t.Errorf("list = %v", l)
	}
	if dt, ok, _ := n.AttrDType("dtype"); !ok || dt != dtypes.Int32 {
		t.Errorf("DT_INT64 maps to %s, want Int32", dt)
	}
	if _, _, err := n.AttrDType("bad"); err == nil {
		t.Error("string dtype accepted")
	}
}

// buildPlain converts output "y" with input "x" in x's graph (no store).
func (m *Model) buildPlain(x *graph.Node) (*graph.Node, error) {
	c := &converter{m: m, g: x.Graph(), opts: Options{Trainable: func(string, shapes.Shape) bool { return false }},
		inputs: map[string]*graph.Node{"x": x}, values: map[string][]*value{}, main: &builder{g: x.Graph()}}
	v, err := c.get("y")
	if err != nil {
		return nil, err
	}
	return c.main.node(v), nil
}
