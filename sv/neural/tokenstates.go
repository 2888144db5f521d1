package neural

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gomlx/compute/dtypes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX's idiom.
	"github.com/gomlx/gomlx/core/tensors"
	"github.com/gomlx/gomlx/ml/model"

	"github.com/roleprint/roleprint/data/hub"
	"github.com/roleprint/roleprint/sv"

	"github.com/roleprint/roleprint/internal/panics"
)

// HiddenStatesOutput is the ONNX output holding the token states after
// layer k (0: the embeddings), the name a Hugging Face model run with
// output_hidden_states=True gives its hidden_states tuple when exported
// with output_names [..., "hidden_states.0", …, "hidden_states.N"]
// (docs/models.md, "Text metrics with Hub models", shows the export).
func HiddenStatesOutput(k int) string { return "hidden_states." + strconv.Itoa(k) }

// TokenStates are one text's tokens and the model's contextual vector of
// each, at one layer.
type TokenStates struct {
	// IDs are the token ids, the tokenizer's special tokens included.
	IDs []int32
	// Special marks the special tokens the tokenizer added ([CLS], [SEP],
	// <s>, </s>).
	Special []bool
	// Vectors are the token states, one per id.
	Vectors [][]float32
}

// TokenModelOptions choose what a TokenModel computes.
type TokenModelOptions struct {
	// Layer is the hidden layer whose token states are returned: 0 is the
	// embedding layer, N (config.json's num_hidden_layers) the last; -1
	// means the last.
	Layer int
	// Backend runs the model ("" = the default backend).
	Backend string
	// MaxLen caps token ids per text, special tokens included. Default:
	// config.json's max_position_embeddings (less RoBERTa's two offset
	// positions), at most 512, as the tokenizer's model_max_length does.
	MaxLen int
}

// TokenModel gives the contextual token states of a Hugging Face Hub
// model's ONNX export at one layer, read from the Hugging Face cache, the
// way BERTScore embeds sentences: byte-level BPE tokenizers (RoBERTa,
// GPT-2) see the text with a space before it (the tokenizer's
// add_prefix_space), others the text trimmed. It is safe for concurrent
// use.
type TokenModel struct {
	name, hubRef, output string
	layer, layers        int
	maxLen               int
	nameOrPath           string
	prefixSpace          bool
	m                    *ONNXModel
	net                  *Network
	special              map[int32]bool

	mu   sync.Mutex
	exec *model.Exec
}

// hfModelConfig is the part of a transformers config.json a TokenModel
// reads.
type hfModelConfig struct {
	ModelType      string `json:"model_type"`
	Layers         int    `json:"num_hidden_layers"`
	MaxPositions   int    `json:"max_position_embeddings"`
	NumLayersAlias int    `json:"n_layer"`
	// NameOrPath is the model save_pretrained saved ("FacebookAI/roberta-large").
	NameOrPath string `json:"_name_or_path"`
}

// NewHFTokenModel builds the token-state model of "ORG/NAME[@REV]" from
// the Hugging Face cache. The layer's output must be in the export: the
// last layer is last_hidden_state in every export; other layers need the
// hidden_states.K outputs (HiddenStatesOutput). A missing one is an error
// saying how to export them.
func NewHFTokenModel(ref string, o TokenModelOptions) (*TokenModel, error) {
	name := HFScheme + ":" + ref
	r, err := hub.ParseRef(ref)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	snap, err := hub.Default().Local(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return newTokenModel(name, snap, o)
}

// NewTokenModelFromDir builds the token-state model of a local folder laid
// out as a Hub repository: model.onnx (or onnx/model.onnx), tokenizer.json
// and config.json, as the export in docs/models.md writes them.
func NewTokenModelFromDir(dir string, o TokenModelOptions) (*TokenModel, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s: not a folder (expected model.onnx, tokenizer.json and config.json in it)", dir)
	}
	return newTokenModel(dir, hub.Snapshot{Ref: hub.Ref{ID: dir}, Dir: dir}, o)
}

// newTokenModel builds the token-state model of a snapshot (Commit empty
// for a local folder).
func newTokenModel(name string, snap hub.Snapshot, o TokenModelOptions) (*TokenModel, error) {
	if !snap.Has("config.json") {
		return nil, fmt.Errorf("%s: %s (%s) has no config.json (the number of layers): %w", name, snap.Ref, snap.Dir, ErrUnsupportedModel)
	}
	var cfg hfModelConfig
	if err := readJSON(snap.Path("config.json"), &cfg); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if cfg.Layers == 0 {
		cfg.Layers = cfg.NumLayersAlias
	}
	if cfg.Layers <= 0 {
		return nil, fmt.Errorf("%s: %s: config.json gives no num_hidden_layers: %w", name, snap.Path("config.json"), ErrUnsupportedModel)
	}
	layer := o.Layer
	if layer < 0 {
		layer = cfg.Layers
	}
	if layer > cfg.Layers {
		return nil, fmt.Errorf("%s: layer %d: the model has layers 0 (embeddings) to %d", name, layer, cfg.Layers)
	}
	maxLen := o.MaxLen
	if maxLen <= 0 {
		maxLen = 512
		if p := cfg.MaxPositions; p > 0 {
			if cfg.ModelType == "roberta" || cfg.ModelType == "xlm-roberta" || cfg.ModelType == "camembert" {
				p -= 2 // positions count from padding_idx + 1
			}
			maxLen = min(maxLen, p)
		}
	}
	// The export's outputs decide where the layer's states come from.
	settings := map[string]string{"max_len": strconv.Itoa(maxLen), "output": HiddenStatesOutput(layer)}
	probe, err := ONNXFromSnapshot(name, snap, sv.EncoderOptions{Settings: map[string]string{"max_len": strconv.Itoa(maxLen)}})
	if err != nil {
		return nil, fmt.Errorf("%w; token states need an export of the encoder itself: docs/models.md (\"Text metrics with Hub models\") exports every layer's states (output_hidden_states=True)", err)
	}
	outs, _ := probe.onnx.Outputs()
	if !slices.Contains(outs, settings["output"]) {
		if layer != cfg.Layers {
			return nil, fmt.Errorf("%s: layer %d of %d: the ONNX export %s has outputs %q, not %s; export the hidden states "+
				"(docs/models.md, \"Text metrics with Hub models\": output_hidden_states=True and output names hidden_states.0 … hidden_states.%d) "+
				"or use the last layer (layer %d, last_hidden_state)",
				name, layer, cfg.Layers, probe.cfg.Path, outs, settings["output"], cfg.Layers, cfg.Layers)
		}
		settings["output"] = probe.cfg.Output // last_hidden_state is the last layer's states
	}
	m, err := ONNXFromSnapshot(name, snap, sv.EncoderOptions{Settings: settings})
	if err != nil {
		return nil, err
	}
	net, err := NewNetwork(m, nil, o.Backend, 0)
	if err != nil {
		return nil, err
	}
	if m.cumSums > 0 && net.Backend.Name() == "onnxruntime" {
		net.Close()
		return nil, fmt.Errorf("%s: %s has %d CumSum op(s) that the onnx backend computes wrongly; use --backend go or xla", name, m.cfg.Path, m.cumSums)
	}
	if snap.Commit == "" {
		m.cfg.Hub = "" // a local folder
	}
	t := &TokenModel{name: name, hubRef: m.cfg.Hub, output: m.cfg.Output, layer: layer, layers: cfg.Layers, maxLen: maxLen, m: m, net: net,
		nameOrPath: cfg.NameOrPath}
	t.prefixSpace, err = byteLevelPreTokenizer(m.cfg.Tokenizer)
	if err != nil {
		net.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	t.special = specialIDs(m.tok)
	return t, nil
}

// byteLevelPreTokenizer reports whether a tokenizer.json pre-tokenizes
// byte-level (RoBERTa, GPT-2) without adding a prefix space itself.
func byteLevelPreTokenizer(path string) (bool, error) {
	if !strings.HasSuffix(strings.ToLower(path), ".json") {
		return false, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	var tj struct {
		Pre json.RawMessage `json:"pre_tokenizer"`
	}
	if err := json.Unmarshal(b, &tj); err != nil {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	type pre struct {
		Type           string `json:"type"`
		AddPrefixSpace bool   `json:"add_prefix_space"`
		PreTokenizers  []pre  `json:"pretokenizers"`
	}
	var p pre
	if len(tj.Pre) > 0 && string(tj.Pre) != "null" {
		if err := json.Unmarshal(tj.Pre, &p); err != nil {
			return false, fmt.Errorf("%s: pre_tokenizer: %w", path, err)
		}
	}
	for _, q := range append([]pre{p}, p.PreTokenizers...) {
		if q.Type == "ByteLevel" {
			return !q.AddPrefixSpace, nil
		}
	}
	return false, nil
}

// specialIDs are the ids a tokenizer adds around a text: those of a probe
// encoded with special tokens that the probe without them lacks.
func specialIDs(tok Tokenizer) map[int32]bool {
	out := map[int32]bool{}
	switch t := tok.(type) {
	case *HFTokenizer:
		t.mu.Lock()
		with, err1 := t.tk.EncodeSingle("a", true)
		without, err2 := t.tk.EncodeSingle("a", false)
		t.mu.Unlock()
		if err1 != nil || err2 != nil {
			return out
		}
		plain := map[int]bool{}
		for _, id := range without.Ids {
			plain[id] = true
		}
		for _, id := range with.Ids {
			if !plain[id] {
				out[int32(id)] = true
			}
		}
	case *WordPiece:
		for i, s := range t.Vocab() {
			if s == "[CLS]" || s == "[SEP]" {
				out[int32(i)] = true
			}
		}
	}
	return out
}

// Name is "hf:ORG/NAME[@REV]".
func (t *TokenModel) Name() string { return t.name }

// Layer is the layer whose states are returned; Layers the model's number
// of layers (the last one's index).
func (t *TokenModel) Layer() int { return t.layer }

// Layers is config.json's num_hidden_layers.
func (t *TokenModel) Layers() int { return t.layers }

// NameOrPath is config.json's _name_or_path: the model a local export
// was saved from ("" when the file does not say).
func (t *TokenModel) NameOrPath() string { return t.nameOrPath }

// MaxLen is the token cap per text.
func (t *TokenModel) MaxLen() int { return t.maxLen }

// Describe names the repository, commit, ONNX file, output and layer, for
// manifests and outputs.
func (t *TokenModel) Describe() string {
	src := "local export"
	if t.hubRef != "" {
		src = "Hugging Face Hub " + t.hubRef
	}
	return fmt.Sprintf("%s (ONNX %s, output %s: layer %d of %d), tokenizer %s, max_len %d",
		src, t.m.cfg.Path, t.output, t.layer, t.layers, t.m.tok.Name(), t.maxLen)
}

// Close releases the compiled graph and the weights.
func (t *TokenModel) Close() error {
	t.mu.Lock()
	if t.exec != nil {
		t.exec.Finalize()
		t.exec = nil
	}
	t.mu.Unlock()
	t.net.Close()
	return nil
}

// Tokenize returns the ids of text as EncodeTokens reads them.
func (t *TokenModel) Tokenize(text string) []int32 {
	text = strings.TrimSpace(text)
	if t.prefixSpace && text != "" {
		text = " " + text
	}
	return t.m.tok.Encode(text, t.maxLen)
}

// EncodeTokens returns the token states of each text, computed in batches
// of texts of similar length; ctx cancels between batches, progress
// counts texts.
func (t *TokenModel) EncodeTokens(ctx context.Context, texts []string, progress sv.Progress) ([]TokenStates, error) {
	items := make([]tokenized, len(texts))
	for i, s := range texts {
		items[i] = tokenized{idx: i, ids: t.Tokenize(s)}
	}
	sort.SliceStable(items, func(a, b int) bool { return len(items[a].ids) < len(items[b].ids) })
	out := make([]TokenStates, len(texts))
	rowsMax := embedBatchRows(32, t.maxLen)
	pad := t.m.tok.PadID()
	for start := 0; start < len(items); start += rowsMax {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		chunk := items[start:min(start+rowsMax, len(items))]
		width := bucket(len(chunk[len(chunk)-1].ids), t.maxLen)
		rows := min(rowsMax, (len(chunk)+7)/8*8)
		ids := make([]int32, rows*width)
		mask := make([]bool, rows*width)
		for r := range rows {
			var seq []int32
			if r < len(chunk) {
				seq = chunk[r].ids
			}
			for j := range width {
				ids[r*width+j] = pad
				if j < len(seq) {
					ids[r*width+j], mask[r*width+j] = seq[j], true
				}
			}
		}
		flat, h, err := t.run(ids, mask, rows, width)
		if err != nil {
			return nil, err
		}
		for r, it := range chunk {
			ts := TokenStates{IDs: it.ids, Special: make([]bool, len(it.ids)), Vectors: make([][]float32, len(it.ids))}
			for j, id := range it.ids {
				ts.Special[j] = t.special[id]
				ts.Vectors[j] = slices.Clone(flat[(r*width+j)*h : (r*width+j+1)*h])
			}
			out[it.idx] = ts
		}
		progress.Report(start+len(chunk), len(items))
	}
	return out, nil
}

// run executes the token-state graph on one padded batch and returns the
// flat [rows, width, H] states and H.
func (t *TokenModel) run(ids []int32, mask []bool, rows, width int) ([]float32, int, error) {
	t.mu.Lock()
	if t.exec == nil {
		e, err := model.NewExec(t.net.Backend, t.net.Store, func(scope *model.Scope, ids, mask *Node) *Node {
			out := t.m.rawOutput(scope.Store().Scope(ModelScope), ids, mask)
			if out.Rank() != 3 || !out.DType().IsFloat() {
				panic(fmt.Sprintf("%s: output %s is %s; expected float token states [N, T, H]", t.name, t.output, out.Shape()))
			}
			return ConvertDType(out, dtypes.Float32)
		})
		if err != nil {
			t.mu.Unlock()
			return nil, 0, err
		}
		t.exec = e
	}
	e := t.exec
	t.mu.Unlock()
	var out []*tensors.Tensor
	err := panics.Catch(func() error {
		var err error
		out, err = e.Exec(tensors.FromFlatDataAndDimensions(ids, rows, width), tensors.FromFlatDataAndDimensions(mask, rows, width))
		return err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("%s on backend %s: %w", t.name, t.net.BackendName, err)
	}
	dims := out[0].Shape().Dimensions
	flat, err := tensors.CopyFlatData[float32](out[0])
	return flat, dims[len(dims)-1], err
}
