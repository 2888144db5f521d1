package neural

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX's idiom.
	"github.com/gomlx/gomlx/ml/model"
	"github.com/gomlx/gomlx/ml/nn"

	"github.com/roleprint/roleprint/data/hub"
	"github.com/roleprint/roleprint/sv"
)

// BERTConfig is a BERT-family encoder read from a Hugging Face
// repository's config.json and weights (safetensors or a PyTorch state dict; config.json's names
// in the json tags). The weights' shapes are checked against it.
type BERTConfig struct {
	// Family is "bert" (absolute positions from 0, token types),
	// "roberta" (positions from pad_token_id + 1; RoBERTa, XLM-RoBERTa,
	// CamemBERT and LUAR's backbone) or "mpnet" (RoBERTa's positions, no
	// token types, a relative position bias added to every layer's
	// attention scores).
	Family string `json:"family"`
	// Hidden is the model width (hidden_size) and the vector length.
	Hidden int `json:"hidden_size"`
	// Layers is num_hidden_layers.
	Layers int `json:"num_hidden_layers"`
	// Heads is num_attention_heads.
	Heads int `json:"num_attention_heads"`
	// FFN is intermediate_size.
	FFN int `json:"intermediate_size"`
	// Vocab is vocab_size (the token-embedding rows).
	Vocab int `json:"vocab_size"`
	// MaxPositions is max_position_embeddings.
	MaxPositions int `json:"max_position_embeddings"`
	// TypeVocab is type_vocab_size; token type 0 is used. MPNet has none (0).
	TypeVocab int `json:"type_vocab_size"`
	// RelativeBuckets is MPNet's relative_attention_num_buckets (0 for
	// the other families).
	RelativeBuckets int `json:"relative_attention_num_buckets,omitempty"`
	// LayerNormEps is layer_norm_eps.
	LayerNormEps float64 `json:"layer_norm_eps"`
	// Act is hidden_act: "gelu" (exact), "gelu_new" / "gelu_pytorch_tanh"
	// (tanh approximation) or "relu".
	Act string `json:"hidden_act"`
	// PositionOffset is the position id of the first token: 0 for BERT,
	// pad_token_id + 1 for RoBERTa (whose padding has position
	// pad_token_id).
	PositionOffset int `json:"position_offset"`
	// Prefix is the weights' name prefix before "embeddings.": "" (BertModel,
	// RobertaModel), "bert." / "roberta." (task-head checkpoints),
	// "transformer." (LUAR).
	Prefix string `json:"prefix"`
	// Pooling is "mean" over real tokens or "cls" (the first token).
	Pooling string `json:"pooling"`
	// MaxLen is the longest utterance in token ids, special tokens included.
	MaxLen int `json:"max_len"`
	// Dir is the folder of the weights (model.safetensors, pytorch_model.bin or an index and
	// its shards).
	Dir string `json:"dir"`
	// Tokenizer is the tokenizer.json (or vocab.txt).
	Tokenizer string `json:"tokenizer"`
	// Hub records the Hugging Face repository and commit, "ORG/NAME@COMMIT".
	Hub string `json:"hub,omitempty"`
}

// BERTModel is a BERT-family encoder in GoMLX with pretrained weights from
// safetensors or pytorch_model.bin: embeddings (word, absolute position, token type 0) and
// LayerNorm, then post-LayerNorm blocks of multi-head self-attention and
// a feed-forward layer, as transformers' BertModel, RobertaModel and
// MPNetModel (whose attention adds a relative position bias) compute
// them; mean or CLS pooling as sentence-transformers does. It
// implements UtteranceModel, so it fine-tunes with the contrastive trainer.
// Its variables carry the checkpoint's names without the prefix
// ("encoder.layer.0.attention.self.query.weight").
type BERTModel struct {
	name   string
	cfg    BERTConfig
	tok    Tokenizer
	format string // of the weights: "safetensors" or "PyTorch pickle"
}

// bertTensor is one weight of the encoder: its name without prefix and
// its shape.
type bertTensor struct {
	name string
	dims []int
}

// tensors lists every weight the encoder reads, with the shapes cfg implies.
func (c BERTConfig) tensors() []bertTensor {
	h := c.Hidden
	ts := []bertTensor{
		{"embeddings.word_embeddings.weight", []int{c.Vocab, h}},
		{"embeddings.position_embeddings.weight", []int{c.MaxPositions, h}},
		{"embeddings.LayerNorm.weight", []int{h}},
		{"embeddings.LayerNorm.bias", []int{h}},
	}
	if c.TypeVocab > 0 {
		ts = append(ts, bertTensor{"embeddings.token_type_embeddings.weight", []int{c.TypeVocab, h}})
	}
	if c.RelativeBuckets > 0 {
		ts = append(ts, bertTensor{"encoder.relative_attention_bias.weight", []int{c.RelativeBuckets, c.Heads}})
	}
	n := c.names()
	for l := 0; l < c.Layers; l++ {
		p := fmt.Sprintf("encoder.layer.%d.", l)
		for _, w := range []string{n.q, n.k, n.v, n.o} {
			ts = append(ts, bertTensor{p + w + ".weight", []int{h, h}}, bertTensor{p + w + ".bias", []int{h}})
		}
		ts = append(ts,
			bertTensor{p + n.attnLN + ".weight", []int{h}}, bertTensor{p + n.attnLN + ".bias", []int{h}},
			bertTensor{p + "intermediate.dense.weight", []int{c.FFN, h}}, bertTensor{p + "intermediate.dense.bias", []int{c.FFN}},
			bertTensor{p + "output.dense.weight", []int{h, c.FFN}}, bertTensor{p + "output.dense.bias", []int{h}},
			bertTensor{p + "output.LayerNorm.weight", []int{h}}, bertTensor{p + "output.LayerNorm.bias", []int{h}})
	}
	return ts
}

// layerNames are the names of an encoder block's attention weights.
type layerNames struct{ q, k, v, o, attnLN string }

// names returns the family's attention weight names (transformers'
// BertSelfAttention / MPNetSelfAttention).
func (c BERTConfig) names() layerNames {
	if c.Family == "mpnet" {
		return layerNames{"attention.attn.q", "attention.attn.k", "attention.attn.v", "attention.attn.o", "attention.LayerNorm"}
	}
	return layerNames{"attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense", "attention.output.LayerNorm"}
}

// storedName returns the name of weight n in w: prefix+n, or the
// LayerNorm gamma/beta names of older checkpoints.
func (c BERTConfig) storedName(w *checkpointWeights, n string) string {
	full := c.Prefix + n
	if w.has(full) || !strings.Contains(n, "LayerNorm.") {
		return full
	}
	old := strings.NewReplacer("LayerNorm.weight", "LayerNorm.gamma", "LayerNorm.bias", "LayerNorm.beta").Replace(full)
	if w.has(old) {
		return old
	}
	return full
}

// validate checks the hyperparameters and the weights' presence and
// shapes (headers only; nothing is read).
func (c BERTConfig) validate(w *checkpointWeights) error {
	switch {
	case c.Family != "bert" && c.Family != "roberta" && c.Family != "mpnet":
		return fmt.Errorf("family %q: expected bert, roberta or mpnet", c.Family)
	case c.Family == "mpnet" && (c.RelativeBuckets < 2 || c.TypeVocab != 0):
		return fmt.Errorf("mpnet: relative_attention_num_buckets %d must be at least 2, and there are no token types", c.RelativeBuckets)
	case c.Family != "mpnet" && (c.RelativeBuckets != 0 || c.TypeVocab < 1):
		return fmt.Errorf("%s: type_vocab_size %d must be positive, and there is no relative position bias", c.Family, c.TypeVocab)
	case c.Hidden < 1 || c.Layers < 1 || c.Heads < 1 || c.FFN < 1 || c.Vocab < 1 || c.MaxPositions < 1:
		return fmt.Errorf("hidden_size %d, num_hidden_layers %d, num_attention_heads %d, intermediate_size %d, vocab_size %d and max_position_embeddings %d must be positive",
			c.Hidden, c.Layers, c.Heads, c.FFN, c.Vocab, c.MaxPositions)
	case c.Hidden%c.Heads != 0:
		return fmt.Errorf("hidden_size %d is not a multiple of num_attention_heads %d", c.Hidden, c.Heads)
	case !(c.LayerNormEps > 0):
		return fmt.Errorf("layer_norm_eps %g must be positive", c.LayerNormEps)
	case c.Pooling != "mean" && c.Pooling != "cls":
		return fmt.Errorf("pooling %q: use mean or cls", c.Pooling)
	case c.MaxLen < 2 || c.PositionOffset+c.MaxLen > c.MaxPositions:
		return fmt.Errorf("max_len %d: must be at least 2 and, with positions from %d, fit max_position_embeddings %d (at most %d)",
			c.MaxLen, c.PositionOffset, c.MaxPositions, c.MaxPositions-c.PositionOffset)
	}
	if _, err := activation(c.Act); err != nil {
		return err
	}
	for _, t := range c.tensors() {
		n := c.storedName(w, t.name)
		got := w.shape(n)
		if got == nil {
			return fmt.Errorf("the weights have no tensor %q (a %s encoder of %d layers needs it)", n, c.Family, c.Layers)
		}
		if !equalDims(got, t.dims) {
			return fmt.Errorf("tensor %q has shape %v; config.json implies %v", n, got, t.dims)
		}
	}
	if w.has(c.Prefix + fmt.Sprintf("encoder.layer.%d.%s.weight", c.Layers, c.names().q)) {
		return fmt.Errorf("the weights have more than num_hidden_layers %d layers (%sencoder.layer.%d.*)", c.Layers, c.Prefix, c.Layers)
	}
	return nil
}

func equalDims(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// activation returns hidden_act's function.
func activation(name string) (func(*Node) *Node, error) {
	switch name {
	case "gelu":
		return gelu, nil
	case "gelu_new", "gelu_pytorch_tanh", "gelu_fast":
		return func(x *Node) *Node {
			// 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))
			inner := MulScalar(Add(x, MulScalar(Mul(Mul(x, x), x), 0.044715)), math.Sqrt(2/math.Pi))
			return Mul(MulScalar(x, 0.5), OnePlus(Tanh(inner)))
		}, nil
	case "relu":
		return func(x *Node) *Node { return MaxScalar(x, 0) }, nil
	}
	return nil, fmt.Errorf("hidden_act %q is not implemented (gelu, gelu_new, gelu_pytorch_tanh, relu are)", name)
}

// NewBERTModel checks cfg against the weights in cfg.Dir (names and
// shapes; errors name the file and tensor) and loads the tokenizer. The
// weights are read by Init.
func NewBERTModel(name string, cfg BERTConfig) (*BERTModel, error) {
	w, err := openCheckpointWeights(cfg.Dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	defer w.Close()
	if err := cfg.validate(w); err != nil {
		return nil, fmt.Errorf("%s: %s: %w", name, weightsWhere(w, cfg.Dir), err)
	}
	tok, err := LoadTokenizer(cfg.Tokenizer)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if tok.VocabSize() > cfg.Vocab {
		return nil, fmt.Errorf("%s: tokenizer %s has %d ids, the weights' vocabulary %d rows", name, cfg.Tokenizer, tok.VocabSize(), cfg.Vocab)
	}
	return &BERTModel{name: name, cfg: cfg, tok: tok, format: weightsFormat(w)}, nil
}

// weightsWhere names the weights file(s) for errors.
func weightsWhere(w *checkpointWeights, dir string) string {
	if len(w.files) == 1 {
		return w.files[0].filePath()
	}
	return weightsFormat(w) + " weights in " + dir
}

// weightsFormat names the format of w's files: "safetensors" or "PyTorch
// pickle".
func weightsFormat(w *checkpointWeights) string {
	if len(w.files) > 0 {
		if _, ok := w.files[0].(*pytorchFile); ok {
			return "PyTorch pickle"
		}
	}
	return "safetensors"
}

// Name implements UtteranceModel.
func (m *BERTModel) Name() string { return m.name }

// Dim implements UtteranceModel.
func (m *BERTModel) Dim() int { return m.cfg.Hidden }

// Tokenizer implements UtteranceModel.
func (m *BERTModel) Tokenizer() Tokenizer { return m.tok }

// MaxLen implements UtteranceModel.
func (m *BERTModel) MaxLen() int { return m.cfg.MaxLen }

// Config implements UtteranceModel.
func (m *BERTModel) Config() any { return m.cfg }

// BERTConfig returns the resolved configuration.
func (m *BERTModel) BERTConfig() BERTConfig { return m.cfg }

// Init implements UtteranceModel: the weights are read from the
// weights files into trainable variables.
func (m *BERTModel) Init(scope *model.Scope) error {
	w, err := openCheckpointWeights(m.cfg.Dir)
	if err != nil {
		return err
	}
	defer w.Close()
	for _, t := range m.cfg.tensors() {
		data, err := w.float32s(m.cfg.storedName(w, t.name), t.dims)
		if err != nil {
			return err
		}
		scope.Store().VariableWithValue(model.JoinPath(scope.Scope(), t.name), tensorFromFloat32(data, t.dims...))
	}
	return nil
}

// bertLayerNorm normalises the last axis with the configured epsilon.
func bertLayerNorm(x, gain, bias *Node, eps float64) *Node {
	return nn.LayerNorm(x, []int{x.Rank() - 1}, eps, gain, bias, nil)
}

// linear applies a PyTorch Linear (weight [out, in], bias [out]) to the
// last axis of x.
func linear(x, w, b *Node) *Node {
	lead := "abcdefgh"[:x.Rank()-1] // Einsum takes no ellipsis
	y := Einsum(lead+"i,oi->"+lead+"o", x, w)
	return addBias(y, b)
}

// hiddenStates returns the last hidden states [N, T, Hidden].
func (m *BERTModel) hiddenStates(scope *model.Scope, ids, mask *Node) *Node {
	c := m.cfg
	g := ids.Graph()
	p := func(n string) *Node { return param(scope, g, n) }
	n, t := ids.Shape().Dimensions[0], ids.Shape().Dimensions[1]
	if c.PositionOffset+t > c.MaxPositions {
		panic(fmt.Sprintf("%s: %d tokens per utterance from position %d exceed max_position_embeddings %d", m.name, t, c.PositionOffset, c.MaxPositions))
	}
	act, _ := activation(c.Act)
	x := embed(p("embeddings.word_embeddings.weight"), ids) // [N, T, H]
	posIdx := AddScalar(Iota(g, shapes.Make(dtypes.Int64, t, 1), 0), float64(c.PositionOffset))
	x = Add(x, InsertAxes(Gather(p("embeddings.position_embeddings.weight"), posIdx), 0))
	if c.TypeVocab > 0 {
		// Token type 0 for every token (a single segment), by a one-hot
		// product (its gradient needs no Pad).
		oh := make([]float32, c.TypeVocab)
		oh[0] = 1
		x = Add(x, ExpandLeftToRank(Einsum("vh,v->h", p("embeddings.token_type_embeddings.weight"), Const(g, oh)), 3))
	}
	x = bertLayerNorm(x, p("embeddings.LayerNorm.weight"), p("embeddings.LayerNorm.bias"), c.LayerNormEps)

	keyBias := InsertAxes(MulScalar(OneMinus(ConvertDType(mask, x.DType())), maskBias), 1, 1) // [N, 1, 1, T]
	if c.RelativeBuckets > 0 {
		// MPNet: one bias per head and (query, key) offset, shared by the
		// layers; the buckets are constants, selected by a one-hot product
		// (exact gradients: no scatter).
		keyBias = Add(keyBias, InsertAxes(Einsum("qkb,bh->hqk", Const(g, relativeBucketOneHot(t, c.RelativeBuckets)),
			p("encoder.relative_attention_bias.weight")), 0))
	}
	names := c.names()
	hd := c.Hidden / c.Heads
	scale := 1 / math.Sqrt(float64(hd))
	for l := 0; l < c.Layers; l++ {
		pre := fmt.Sprintf("encoder.layer.%d.", l)
		lin := func(x *Node, w string) *Node { return linear(x, p(pre+w+".weight"), p(pre+w+".bias")) }
		split := func(y *Node) *Node { return Reshape(y, n, t, c.Heads, hd) }
		q := split(lin(x, names.q))
		k := split(lin(x, names.k))
		v := split(lin(x, names.v))
		att := Softmax(Add(MulScalar(Einsum("nqhe,nkhe->nhqk", q, k), scale), keyBias), -1)
		ctx := Reshape(Einsum("nhqk,nkhe->nqhe", att, v), n, t, c.Hidden)
		x = bertLayerNorm(Add(lin(ctx, names.o), x), p(pre+names.attnLN+".weight"), p(pre+names.attnLN+".bias"), c.LayerNormEps)
		f := lin(act(lin(x, "intermediate.dense")), "output.dense")
		x = bertLayerNorm(Add(f, x), p(pre+"output.LayerNorm.weight"), p(pre+"output.LayerNorm.bias"), c.LayerNormEps)
	}
	return x
}

// Graph implements UtteranceModel.
func (m *BERTModel) Graph(scope *model.Scope, ids, mask *Node) *Node {
	x := m.hiddenStates(scope, ids, mask)
	if m.cfg.Pooling == "cls" {
		return selectPosition(x, 0)
	}
	return maskedMean(x, mask)
}

// relativeBucket is MPNet's bucket of a key position minus a query
// position (T5's bidirectional bucketing, max_distance 128), computed with
// the float32 operations transformers' relative_position_bucket uses so
// that the buckets at the logarithmic boundaries agree.
func relativeBucket(rel, buckets int) int {
	const maxDistance = 128
	ret := 0
	n := -rel
	half := buckets / 2
	if n < 0 {
		ret += half
		n = -n
	}
	maxExact := half / 2
	if n < maxExact {
		return ret + n
	}
	v := float32(math.Log(float64(float32(n) / float32(maxExact))))
	v /= float32(math.Log(float64(maxDistance) / float64(maxExact)))
	v *= float32(half - maxExact)
	return ret + min(maxExact+int(v), half-1)
}

// relativeBucketOneHot returns the one-hot [t, t, buckets] of the bucket
// of every (query, key) pair.
func relativeBucketOneHot(t, buckets int) [][][]float32 {
	out := make([][][]float32, t)
	for q := range out {
		out[q] = make([][]float32, t)
		for k := range out[q] {
			row := make([]float32, buckets)
			row[relativeBucket(k-q, buckets)] = 1
			out[q][k] = row
		}
	}
	return out
}

// describe is the model's line in results and manifests.
func (m *BERTModel) describe() string {
	s := fmt.Sprintf("GoMLX %s encoder, %s %s", m.cfg.Family, m.format, m.cfg.Dir)
	if m.cfg.Hub != "" {
		s = "Hugging Face Hub " + m.cfg.Hub + " (" + s + ")"
	}
	return fmt.Sprintf("%s, tokenizer %s, %s pooling, max_len %d", s, m.tok.Name(), m.cfg.Pooling, m.cfg.MaxLen)
}

// hfConfig is the part of a transformers config.json that selects and
// shapes a BERT-family encoder.
type hfConfig struct {
	ModelType    string   `json:"model_type"`
	Archs        []string `json:"architectures"`
	Hidden       int      `json:"hidden_size"`
	Layers       int      `json:"num_hidden_layers"`
	Heads        int      `json:"num_attention_heads"`
	FFN          int      `json:"intermediate_size"`
	Vocab        int      `json:"vocab_size"`
	MaxPositions int      `json:"max_position_embeddings"`
	TypeVocab    *int     `json:"type_vocab_size"`
	LayerNormEps *float64 `json:"layer_norm_eps"`
	Act          string   `json:"hidden_act"`
	PadTokenID   *int     `json:"pad_token_id"`
	PositionType string   `json:"position_embedding_type"`
	// RelativeBuckets is MPNet's relative_attention_num_buckets.
	RelativeBuckets int `json:"relative_attention_num_buckets"`
	// EmbeddingSize is LUAR's projection width (LUARConfig).
	EmbeddingSize int `json:"embedding_size"`
}

// bertFamilies maps config.json's model_type to the family whose
// computation it shares.
var bertFamilies = map[string]string{"bert": "bert", "roberta": "roberta", "xlm-roberta": "roberta", "camembert": "roberta", "mpnet": "mpnet"}

// ModelFromSnapshot builds the utterance model of a cached Hub repository:
// its ONNX export through onnx-gomlx when it has one (ONNXFromSnapshot;
// not for the paper rows marked Safetensors, which run their weights);
// else its weights (model.safetensors, else pytorch_model.bin; or their
// shards) in the GoMLX implementation of its family (config.json's
// model_type: bert; roberta, xlm-roberta, camembert; mpnet; LUAR, which
// has its own set head). A repository with neither (other pickles only)
// is an error naming a conversion route, as is a family not implemented.
func ModelFromSnapshot(name string, snap hub.Snapshot, opts sv.EncoderOptions) (UtteranceModel, error) {
	var hc hfConfig
	if snap.Has("config.json") {
		if err := readJSON(snap.Path("config.json"), &hc); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", name, snap.Ref, err)
		}
		if strings.EqualFold(hc.ModelType, "LUAR") {
			return LUARFromSnapshot(name, snap, opts)
		}
	}
	for _, c := range hub.ONNXCandidates {
		if snap.Has(c) && !safetensorsFirst(name, snap) {
			return ONNXFromSnapshot(name, snap, opts)
		}
	}
	if !hasCheckpointWeights(snap.Has) {
		return ONNXFromSnapshot(name, snap, opts) // its error: no ONNX export (or pickles it does not read)
	}
	if !snap.Has("config.json") {
		return nil, fmt.Errorf("%s: %s (%s) has weights but no config.json: %w", name, snap.Ref, snap.Dir, ErrUnsupportedModel)
	}
	unsupported := func(why string) error {
		return fmt.Errorf("%s: %s (%s) has weights of %s: %w (%w); use an ONNX export of it instead: %s",
			name, snap.Ref, snap.Dir, why, ErrUnsupportedModel, ErrNoONNXExport, hub.ConversionRoute(snap.Ref.ID))
	}
	family, ok := bertFamilies[hc.ModelType]
	switch {
	case !ok:
		return nil, unsupported(fmt.Sprintf("model_type %q, a family RolePrint's GoMLX encoders do not implement (bert, roberta, xlm-roberta, camembert, mpnet and LUAR are)", hc.ModelType))
	case hc.PositionType != "" && hc.PositionType != "absolute":
		return nil, unsupported(fmt.Sprintf("position_embedding_type %q (only absolute positions are implemented)", hc.PositionType))
	}
	st, err := sentenceTransformersSettings(name, snap, opts)
	if err != nil {
		return nil, err
	}
	cfg := BERTConfig{Family: family, Hidden: hc.Hidden, Layers: hc.Layers, Heads: hc.Heads, FFN: hc.FFN, Vocab: hc.Vocab,
		MaxPositions: hc.MaxPositions, TypeVocab: 2, LayerNormEps: 1e-12, Act: hc.Act, Pooling: st.pooling, MaxLen: st.maxLen,
		Dir: snap.Dir, Tokenizer: st.tokenizer, Hub: snap.Ref.ID + "@" + snap.Commit}
	if hc.TypeVocab != nil {
		cfg.TypeVocab = *hc.TypeVocab
	}
	if hc.LayerNormEps != nil {
		cfg.LayerNormEps = *hc.LayerNormEps
	}
	if cfg.Act == "" {
		cfg.Act = "gelu"
	}
	if family == "roberta" || family == "mpnet" {
		pad := 1
		if hc.PadTokenID != nil {
			pad = *hc.PadTokenID
		}
		cfg.PositionOffset = pad + 1
	}
	if family == "mpnet" {
		cfg.TypeVocab, cfg.RelativeBuckets = 0, 32
		if hc.RelativeBuckets > 0 {
			cfg.RelativeBuckets = hc.RelativeBuckets
		}
	}
	if cfg.Heads, err = opts.Int("heads", cfg.Heads); err != nil {
		return nil, err
	}
	if cfg.MaxLen == 0 {
		cfg.MaxLen = min(64, cfg.MaxPositions-cfg.PositionOffset)
	}
	w, err := openCheckpointWeights(snap.Dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	cfg.Prefix, err = encoderPrefix(w)
	w.Close()
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", name, snap.Ref, err)
	}
	return NewBERTModel(name, cfg)
}

// encoderPrefix finds the name prefix of the encoder's weights: what
// precedes "embeddings.word_embeddings.weight" ("", "bert.", "roberta.",
// "transformer.").
func encoderPrefix(w *checkpointWeights) (string, error) {
	const key = "embeddings.word_embeddings.weight"
	var found []string
	for _, n := range w.names() {
		if n == key || strings.HasSuffix(n, "."+key) {
			found = append(found, strings.TrimSuffix(n, key))
		}
	}
	switch len(found) {
	case 0:
		return "", errors.New("no BERT-family encoder in the weights (no tensor named …embeddings.word_embeddings.weight)")
	case 1:
		return found[0], nil
	}
	return "", fmt.Errorf("several encoders in the weights (prefixes %q); RolePrint reads one", found)
}

// stSettings are a repository's sentence-transformers settings.
type stSettings struct {
	tokenizer string
	pooling   string
	maxLen    int
}

// sentenceTransformersSettings reads what ONNX and safetensors models share:
// the tokenizer (tokenizer.json, else vocab.txt), the modules (Transformer,
// Pooling and Normalize are implemented; the cosine ignores Normalize),
// the truncation (max_len setting, else sentence_bert_config.json's
// max_seq_length, else 0 for the caller's default) and the pooling
// (pooling setting, else 1_Pooling/config.json's mean or CLS, else mean).
func sentenceTransformersSettings(name string, snap hub.Snapshot, opts sv.EncoderOptions) (stSettings, error) {
	var s stSettings
	for _, t := range []string{"tokenizer.json", "vocab.txt"} {
		if snap.Has(t) {
			s.tokenizer = snap.Path(t)
			break
		}
	}
	if s.tokenizer == "" {
		return s, fmt.Errorf("%s: %s (%s) has no tokenizer.json or vocab.txt: %w", name, snap.Ref, snap.Dir, ErrUnsupportedModel)
	}
	if snap.Has("modules.json") {
		var mods []sentenceTransformersModule
		if err := readJSON(snap.Path("modules.json"), &mods); err != nil {
			return s, fmt.Errorf("%s: %w", name, err)
		}
		for _, m := range mods {
			switch m.Type {
			case "sentence_transformers.models.Transformer", "sentence_transformers.models.Pooling", "sentence_transformers.models.Normalize":
			default:
				return s, fmt.Errorf("%s: %s: sentence-transformers module %s (%s) is not implemented (Transformer, Pooling and Normalize are): %w",
					name, snap.Ref, m.Type, m.Path, ErrUnsupportedModel)
			}
		}
	}
	var err error
	if s.maxLen, err = opts.Int("max_len", 0); err != nil {
		return s, err
	}
	if s.maxLen == 0 && snap.Has("sentence_bert_config.json") {
		var sb struct {
			MaxSeqLength int `json:"max_seq_length"`
		}
		if err := readJSON(snap.Path("sentence_bert_config.json"), &sb); err != nil {
			return s, fmt.Errorf("%s: %w", name, err)
		}
		s.maxLen = sb.MaxSeqLength // sentence-transformers' truncation
	}
	s.pooling = opts.String("pooling", "")
	if s.pooling == "" {
		s.pooling = "mean"
		if snap.Has("1_Pooling/config.json") {
			var p map[string]any
			if err := readJSON(snap.Path("1_Pooling/config.json"), &p); err != nil {
				return s, fmt.Errorf("%s: %w", name, err)
			}
			switch {
			case p["pooling_mode_cls_token"] == true:
				s.pooling = "cls"
			case p["pooling_mode_mean_tokens"] == true:
				s.pooling = "mean"
			default:
				return s, fmt.Errorf("%s: %s: 1_Pooling/config.json asks for a pooling other than mean or CLS (%v): %w", name, snap.Ref, p, ErrUnsupportedModel)
			}
		}
	}
	return s, nil
}
