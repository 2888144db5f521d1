package neural

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX's idiom.
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/onnx-gomlx/onnx"
	"github.com/gomlx/onnx-gomlx/onnx/parser"

	"github.com/roleprint/roleprint/data/assets"
	"github.com/roleprint/roleprint/sv"

	"github.com/roleprint/roleprint/internal/fsx"
	"github.com/roleprint/roleprint/internal/panics"
)

// ONNXConfig configures a pretrained encoder loaded from a local ONNX
// export (a Hugging Face BERT/RoBERTa/Sentence-BERT/STEL model exported
// with `optimum-cli export onnx` or torch.onnx.export).
type ONNXConfig struct {
	// Path is the model.onnx file.
	Path string `json:"path"`
	// Tokenizer is its tokenizer.json (or vocab.txt). Default: the
	// tokenizer.json (else vocab.txt) beside Path.
	Tokenizer string `json:"tokenizer"`
	// Output is the graph output holding token states [N, T, H] or
	// sentence vectors [N, H]. Default: "last_hidden_state" when present,
	// else the first output.
	Output string `json:"output"`
	// Pooling of token states into the utterance vector: "mean" over real
	// tokens (default; Sentence-BERT's) or "cls". Ignored for [N, H] outputs.
	Pooling string `json:"pooling"`
	// MaxLen is the longest utterance in token ids. Default 64.
	MaxLen int `json:"max_len"`
	// Dim is the vector length; found by running the model once when 0.
	Dim int `json:"dim"`
	// Hub records where a Hugging Face Hub model came from,
	// "ORG/NAME@COMMIT" (set from the cache's snapshot, for manifests);
	// empty for a local export.
	Hub string `json:"hub,omitempty"`
}

// ONNXModel is a pretrained encoder from an ONNX file, converted to a
// GoMLX graph by github.com/gomlx/onnx-gomlx; its weights become trainable
// GoMLX variables (scalar constants stay frozen). It implements
// UtteranceModel, so it fine-tunes with the contrastive trainer (default
// learning rate 2e-5, the paper's).
type ONNXModel struct {
	name   string
	cfg    ONNXConfig
	onnx   onnx.Model
	tok    Tokenizer
	inputs []string
	// weights are the float initializers, fed as graph inputs from
	// variables (see liftWeights).
	weights []onnxWeight
	// cumSums counts CumSum ops rewriteCumSum could not replace: the onnx
	// backend computes them wrongly, so Graph refuses to run there.
	cumSums int
}

// NewONNXModel parses the ONNX file and its tokenizer. name is the row
// name ("roberta", "onnx").
func NewONNXModel(name string, cfg ONNXConfig) (*ONNXModel, error) {
	if cfg.Path == "" {
		return nil, fmt.Errorf("%s: no ONNX model path (set model=PATH)", name)
	}
	if cfg.Pooling == "" {
		cfg.Pooling = "mean"
	}
	if cfg.Pooling != "mean" && cfg.Pooling != "cls" {
		return nil, fmt.Errorf("%s: pooling %q: use mean or cls", name, cfg.Pooling)
	}
	if cfg.MaxLen == 0 {
		cfg.MaxLen = 64
	}
	if cfg.Tokenizer == "" {
		dir := filepath.Dir(cfg.Path)
		for _, f := range []string{"tokenizer.json", "vocab.txt"} {
			if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
				cfg.Tokenizer = filepath.Join(dir, f)
				break
			}
		}
		if cfg.Tokenizer == "" {
			return nil, fmt.Errorf("%s: no tokenizer.json or vocab.txt beside %s (set tokenizer=PATH)", name, cfg.Path)
		}
	}
	raw, err := fsx.ReadFile(cfg.Path, fsx.MaxModel)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	ed, err := newONNXEditor(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", name, cfg.Path, err)
	}
	_, leftCumSums, err := ed.rewriteCumSum()
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", name, cfg.Path, err)
	}
	weights, err := ed.liftWeights(filepath.Dir(cfg.Path))
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", name, cfg.Path, err)
	}
	if raw, err = ed.marshal(); err != nil {
		return nil, fmt.Errorf("%s: %s: %w", name, cfg.Path, err)
	}
	var om onnx.Model
	err = panics.Catch(func() error {
		var e error
		om, e = parser.Parse(raw)
		return e
	})
	if err != nil {
		return nil, fmt.Errorf("%s: reading ONNX model %s: %w", name, cfg.Path, err)
	}
	om = om.WithBaseDir(filepath.Dir(cfg.Path)) // external weight files live beside the model
	// Fused ops (attention, QKV, Dense+GELU) are taken on some backends and
	// not others, and the fused graphs replace weights by combined copies;
	// unfused graphs are the same on every backend and train every weight.
	om.DisableFusion()
	lifted := map[string]bool{}
	for _, w := range weights {
		lifted[w.name] = true
	}
	var names []string
	all, _ := om.Inputs()
	for _, n := range all {
		if !lifted[n] {
			names = append(names, n)
		}
	}
	for _, need := range []string{"input_ids", "attention_mask"} {
		if !slices.Contains(names, need) {
			return nil, fmt.Errorf("%s: ONNX model %s has inputs %q; expected input_ids and attention_mask (a Hugging Face encoder export)", name, cfg.Path, names)
		}
	}
	for _, n := range names {
		if n != "input_ids" && n != "attention_mask" && n != "token_type_ids" {
			return nil, fmt.Errorf("%s: ONNX model %s: unsupported input %q", name, cfg.Path, n)
		}
	}
	outs, _ := om.Outputs()
	if cfg.Output == "" {
		cfg.Output = outs[0]
		if slices.Contains(outs, "last_hidden_state") {
			cfg.Output = "last_hidden_state"
		}
		if cfg.Output == "logits" {
			// A task head's export (fill-mask, classification): its
			// scores are not the encoder's token states.
			return nil, fmt.Errorf("%s: ONNX model %s outputs %q: a task head's scores, not the encoder's token states; export the encoder (optimum-cli export onnx --task feature-extraction) or name another output with output=NAME",
				name, cfg.Path, outs)
		}
	} else if !slices.Contains(outs, cfg.Output) {
		return nil, fmt.Errorf("%s: ONNX model %s has no output %q (outputs: %q)", name, cfg.Path, cfg.Output, outs)
	}
	tok, err := LoadTokenizer(cfg.Tokenizer)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &ONNXModel{name: name, cfg: cfg, onnx: om, tok: tok, inputs: names, weights: weights, cumSums: leftCumSums}, nil
}

// Name implements UtteranceModel.
func (m *ONNXModel) Name() string { return m.name }

// Tokenizer implements UtteranceModel.
func (m *ONNXModel) Tokenizer() Tokenizer { return m.tok }

// MaxLen implements UtteranceModel.
func (m *ONNXModel) MaxLen() int { return m.cfg.MaxLen }

// Config implements UtteranceModel.
func (m *ONNXModel) Config() any { return m.cfg }

// Dim implements UtteranceModel. When the configuration does not give it,
// the output width is read from the model's declared output shape.
func (m *ONNXModel) Dim() int {
	if m.cfg.Dim > 0 {
		return m.cfg.Dim
	}
	names, shapes := m.onnx.Outputs()
	for i, n := range names {
		if n == m.cfg.Output {
			d := shapes[i].Dimensions
			if len(d) > 0 && d[len(d)-1] > 0 {
				return d[len(d)-1]
			}
		}
	}
	return 0
}

// weightVar is the variable name of an ONNX weight (GoMLX names cannot
// hold "/").
func weightVar(onnxName string) string { return "w/" + strings.ReplaceAll(onnxName, "/", "|") }

// Init implements UtteranceModel: the ONNX model's float weights become
// trainable variables (ModelScope/w/NAME); its other initializers
// (integers, scalars) stay constants of the converted graph, kept by
// onnx-gomlx under ModelScope/ONNX.
func (m *ONNXModel) Init(scope *model.Scope) error {
	if m.Dim() <= 0 {
		return fmt.Errorf("%s: the output width of %s is not declared; set dim=N", m.name, m.cfg.Path)
	}
	for _, w := range m.weights {
		scope.Store().VariableWithValue(model.JoinPath(scope.Scope(), weightVar(w.name)), tensorFromFloat32(w.data, w.dims...))
	}
	if err := panics.Catch(func() error { return m.onnx.VariablesToScope(scope) }); err != nil {
		return err
	}
	for v := range scope.IterVariables() {
		if strings.HasPrefix(v.Path(), model.JoinPath(scope.Scope(), "ONNX")+"/") {
			v.SetTrainable(false)
		}
	}
	return nil
}

// rawOutput returns the configured output of the ONNX graph.
func (m *ONNXModel) rawOutput(scope *model.Scope, ids, mask *Node) *Node {
	in := map[string]*Node{
		"input_ids":      ConvertDType(ids, dtypes.Int64),
		"attention_mask": ConvertDType(mask, dtypes.Int64),
	}
	if slices.Contains(m.inputs, "token_type_ids") {
		in["token_type_ids"] = ZerosLike(in["input_ids"])
	}
	for _, w := range m.weights {
		in[w.name] = param(scope, ids.Graph(), weightVar(w.name))
	}
	return m.onnx.CallGraph(scope, ids.Graph(), in, m.cfg.Output)[0]
}

// Graph implements UtteranceModel.
func (m *ONNXModel) Graph(scope *model.Scope, ids, mask *Node) *Node {
	if m.cumSums > 0 && ids.Graph().Backend().Name() == "onnxruntime" {
		panic(fmt.Sprintf("%s: %s has %d CumSum op(s) that the onnx backend computes wrongly (its ReduceWindow); use --backend go or xla",
			m.name, m.cfg.Path, m.cumSums))
	}
	out := m.rawOutput(scope, ids, mask)
	if !out.DType().IsFloat() {
		panic(fmt.Sprintf("%s: output %s is %s, not float", m.name, m.cfg.Output, out.DType()))
	}
	out = ConvertDType(out, dtypes.Float32)
	switch out.Rank() {
	case 2:
		return out
	case 3:
		if m.cfg.Pooling == "cls" {
			return selectPosition(out, 0)
		}
		return maskedMean(out, mask)
	}
	panic(fmt.Sprintf("%s: output %s has shape %s; expected [N, T, H] or [N, H]", m.name, m.cfg.Output, out.Shape()))
}

// ErrNoONNXExport is returned (wrapped) when a pretrained encoder's ONNX
// export is absent.
var ErrNoONNXExport = errors.New("no ONNX export")

// PretrainedONNXPath returns where the export of a known pretrained
// encoder is looked for: $ROLEPRINT_CACHE/models/NAME/model.onnx.
func PretrainedONNXPath(name, cacheDir string) (string, error) {
	if cacheDir != "" {
		return filepath.Join(cacheDir, "models", name, "model.onnx"), nil
	}
	return assets.Path("models", name, "model.onnx")
}

// ONNXFromOptions builds an ONNXModel from settings: model (path of
// model.onnx), tokenizer, output, pooling (mean|cls), max_len, dim. For a
// paper row (PaperCheckpoints) without model=, an export placed by hand at
// PretrainedONNXPath is used when present, else the row's checkpoint (or
// checkpoint=ORG/NAME[@REV]) from the Hugging Face cache, loaded by
// ModelFromSnapshot (its ONNX export, else its safetensors weights).
func ONNXFromOptions(name string, opts sv.EncoderOptions) (UtteranceModel, error) {
	cfg := ONNXConfig{Path: opts.String("model", ""), Tokenizer: opts.String("tokenizer", ""),
		Output: opts.String("output", ""), Pooling: opts.String("pooling", "")}
	var err error
	if cfg.MaxLen, err = opts.Int("max_len", 0); err != nil {
		return nil, err
	}
	if cfg.Dim, err = opts.Int("dim", 0); err != nil {
		return nil, err
	}
	if cfg.Path == "" {
		if _, known := PaperCheckpointFor(name); !known {
			return nil, fmt.Errorf("%s: set model=PATH to an ONNX export (e.g. --set model=/path/model.onnx)", name)
		}
		legacy, err := PretrainedONNXPath(name, opts.CacheDir)
		if err != nil {
			return nil, err
		}
		if _, err := os.Stat(legacy); err != nil || name == LUARName {
			// No export placed by hand (an ONNX export of LUAR's encoder
			// would lack its episode head, so luar never takes one): the
			// paper's checkpoint from the Hugging Face cache.
			snap, err := presetSnapshot(name, opts, legacy)
			if err != nil {
				return nil, err
			}
			return ModelFromSnapshot(name, snap, opts)
		}
		cfg.Path = legacy
	}
	if _, err := os.Stat(cfg.Path); err != nil {
		return nil, fmt.Errorf("%s: %w at %s: place an ONNX export there (model.onnx + tokenizer.json; see docs/models.md) or set model=PATH",
			name, ErrNoONNXExport, cfg.Path)
	}
	return NewONNXModel(name, cfg)
}

// ONNXName is the generic ONNX encoder: `--encoder onnx --set model=PATH`.
const ONNXName = "onnx"

func init() {
	names := []string{ONNXName}
	for _, p := range PaperCheckpoints {
		names = append(names, p.Row)
	}
	slices.Sort(names)
	for _, n := range names {
		RegisterModel(n, func(opts sv.EncoderOptions) (UtteranceModel, error) {
			return ONNXFromOptions(n, opts)
		}, DefaultEncoderConfig())
	}
}
