package neural

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX's idiom.
	"github.com/gomlx/gomlx/ml/model"

	"github.com/roleprint/roleprint/data/hub"
	"github.com/roleprint/roleprint/sv"
)

// LUAR as published (Rivera-Soto et al., 2021, "Learning Universal
// Authorship Representations"; the Hub's rrivera1849/LUAR-MUD and
// LUAR-CRUD, whose custom code is model.py's LUAR class): a RoBERTa
// (sentence-transformers/paraphrase-distilroberta-base-v1, weights under
// "transformer.") encodes each utterance of an episode and mean-pools its
// tokens; a parameter-free scaled dot-product self-attention runs across
// the episode's utterance vectors (softmax(U·Uᵀ/√d)·U); the result is
// max-pooled over the episode and projected by "linear." to the embedding
// size (512). The repositories' config.json holds only LUARConfig's fields
// (embedding_size and attention bucket sizes), not the backbone's, so the
// backbone's widths, layers, vocabulary and positions are read from the
// weights' shapes, and what shapes cannot tell is the published
// backbone's: heads of width 64 (768 wide, 12 heads), layer_norm_eps 1e-5,
// exact GELU, RoBERTa positions from pad_token_id 1 + 1.

// LUARHeadWidth is the attention-head width of LUAR's backbone
// (paraphrase-distilroberta-base-v1: 768 wide, 12 heads).
const LUARHeadWidth = 64

// LUARMaxLen is the default truncation of an utterance in token ids: the
// 32 tokens per comment LUAR was trained with.
const LUARMaxLen = 32

// LUARConversionRoute is how a LUAR checkpoint without model.safetensors
// or pytorch_model.bin gets them: transformers loads it with the
// repository's own code and writes model.safetensors, which a repository
// of the user's serves.
func LUARConversionRoute(id string) string {
	return fmt.Sprintf("python -c 'from transformers import AutoModel; AutoModel.from_pretrained(\"%s\", trust_remote_code=True).save_pretrained(\"DIR\", safe_serialization=True)', "+
		"copy the repository's tokenizer.json into DIR, push DIR to a Hub repository of your own and --set luar.checkpoint=YOU/NAME", id)
}

// PublishedLUAR are the LUAR checkpoints its authors published on the
// Hub (custom code, model_type "LUAR"); `setup --model` fetches their
// weights (model.safetensors, else pytorch_model.bin) even where the
// repository holds an ONNX export.
var PublishedLUAR = []string{"rrivera1849/LUAR-CRUD", "rrivera1849/LUAR-MUD"}

// IsPublishedLUAR reports whether id is one of PublishedLUAR.
func IsPublishedLUAR(id string) bool {
	for _, p := range PublishedLUAR {
		if strings.EqualFold(p, id) {
			return true
		}
	}
	return false
}

// LUARFiles picks what the published LUAR needs from a repository's
// files: its configuration, tokenizer and weights (model.safetensors, else
// pytorch_model.bin, or their shards), never an ONNX export (which would
// hold the encoder without LUAR's episode head). A repository whose only
// weights are other PyTorch pickles is an hub.ErrPickleOnly naming
// LUARConversionRoute.
func LUARFiles(id string, files []hub.File) ([]string, error) {
	out, err := SafetensorsFiles(id, files)
	if errors.Is(err, hub.ErrPickleOnly) {
		return nil, fmt.Errorf("%s: %w; LUAR runs from model.safetensors or pytorch_model.bin (an ONNX export would lack its episode head): %s", id, hub.ErrPickleOnly, LUARConversionRoute(id))
	}
	return out, err
}

// HeadProvider is implemented by utterance models that come with their own
// pretrained set head (the published LUAR): a Network built on such a
// model uses that head whatever the encoder's head setting says.
type HeadProvider interface {
	// SetHead returns the model's set head.
	SetHead() SetHead
}

// headFor returns the set head of an encoder over m: m's own (HeadProvider)
// or the head called name.
func headFor(m UtteranceModel, name string) (SetHead, error) {
	if hp, ok := m.(HeadProvider); ok {
		return hp.SetHead(), nil
	}
	return NewHead(name)
}

// LUARModel is the published LUAR's utterance encoder (a BERTModel: the
// RoBERTa backbone, mean pooling) with its episode head (LUARHead). It
// implements UtteranceModel and HeadProvider.
type LUARModel struct {
	*BERTModel
	head LUARHead
}

// SetHead implements HeadProvider.
func (m *LUARModel) SetHead() SetHead { return m.head }

// Config implements UtteranceModel.
func (m *LUARModel) Config() any {
	return map[string]any{"encoder": m.BERTModel.cfg, "luar_embedding_size": m.head.Embedding}
}

// describe is the model's line in results and manifests.
func (m *LUARModel) describe() string {
	return fmt.Sprintf("LUAR (published architecture: episode self-attention, max pooling, linear to %d) over %s", m.head.Embedding, m.BERTModel.describe())
}

// LUARHead is LUAR's episode head: parameter-free scaled dot-product
// self-attention across a set's utterance vectors, max pooling over the
// set, and the projection linear.weight [Embedding, Hidden], linear.bias
// [Embedding], read from the weights in Dir (safetensors or pytorch_model.bin). Padding
// utterances of a set are masked out of the attention's keys and of the
// max, so a set gives what LUAR gives for an episode of its utterances.
type LUARHead struct {
	// Dir holds the weights (openCheckpointWeights).
	Dir string `json:"dir"`
	// Prefix precedes "weight" and "bias" of the projection ("linear.").
	Prefix string `json:"prefix"`
	// Hidden is the utterance-vector width.
	Hidden int `json:"hidden"`
	// Embedding is the set-vector width (LUAR's embedding_size).
	Embedding int `json:"embedding_size"`
}

// Name implements SetHead.
func (h LUARHead) Name() string { return "luar" }

// Dim implements SetHead.
func (h LUARHead) Dim(int) int { return h.Embedding }

// Init implements HeadInit: the projection's weights from the checkpoint.
func (h LUARHead) Init(scope *model.Scope, d int, _ int64) error {
	if d != h.Hidden {
		return fmt.Errorf("luar head: utterance vectors of %d, the projection reads %d", d, h.Hidden)
	}
	w, err := openCheckpointWeights(h.Dir)
	if err != nil {
		return err
	}
	defer w.Close()
	for _, t := range []bertTensor{{"weight", []int{h.Embedding, h.Hidden}}, {"bias", []int{h.Embedding}}} {
		data, err := w.float32s(h.Prefix+t.name, t.dims)
		if err != nil {
			return err
		}
		scope.Store().VariableWithValue(model.JoinPath(scope.Scope(), "linear."+t.name), tensorFromFloat32(data, t.dims...))
	}
	return nil
}

// Graph implements SetHead.
func (h LUARHead) Graph(scope *model.Scope, utts, mask *Node) *Node {
	g := utts.Graph()
	m := ConvertDType(mask, utts.DType()) // [B, U]
	d := utts.Shape().Dimensions[2]
	scores := MulScalar(Einsum("bqd,bkd->bqk", utts, utts), 1/math.Sqrt(float64(d)))
	scores = Add(scores, InsertAxes(MulScalar(OneMinus(m), maskBias), 1)) // padding keys
	ep := Einsum("bqk,bkd->bqd", Softmax(scores, -1), utts)
	// Max over real utterances; a set without any gives zeros.
	pooled := ReduceMax(Add(ep, InsertAxes(MulScalar(OneMinus(m), maskBias), -1)), 1)
	pooled = Mul(pooled, InsertAxes(MinScalar(ReduceSum(m, 1), 1), -1))
	return linear(pooled, param(scope, g, "linear.weight"), param(scope, g, "linear.bias"))
}

var luarLayerRe = regexp.MustCompile(`^transformer\.encoder\.layer\.(\d+)\.attention\.self\.query\.weight$`)

// LUARFromSnapshot builds the published LUAR from a cached Hub repository
// (config.json's model_type "LUAR"): its weights, model.safetensors
// else pytorch_model.bin (transformer.* and linear.*), its tokenizer.json and embedding_size.
// Settings: max_len (default LUARMaxLen), heads (default hidden / 64).
func LUARFromSnapshot(name string, snap hub.Snapshot, opts sv.EncoderOptions) (*LUARModel, error) {
	var hc hfConfig
	if err := readJSON(snap.Path("config.json"), &hc); err != nil {
		return nil, fmt.Errorf("%s: %s: %w", name, snap.Ref, err)
	}
	if !hasCheckpointWeights(snap.Has) {
		return nil, fmt.Errorf("%s: %s (%s) has neither model.safetensors nor pytorch_model.bin, which RolePrint's LUAR reads (an ONNX export would lack the episode head): %w; convert it: %s",
			name, snap.Ref, snap.Dir, ErrUnsupportedModel, LUARConversionRoute(snap.Ref.ID))
	}
	if !snap.Has("tokenizer.json") {
		return nil, fmt.Errorf("%s: %s (%s) has no tokenizer.json: %w", name, snap.Ref, snap.Dir, ErrUnsupportedModel)
	}
	tokenizer := snap.Path("tokenizer.json")
	w, err := openCheckpointWeights(snap.Dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	defer w.Close()
	where := weightsWhere(w, snap.Dir)
	const pre = "transformer."
	shape := func(n string, rank int) ([]int, error) {
		s := w.shape(pre + n)
		if len(s) != rank {
			return nil, fmt.Errorf("%s: %s: tensor %q is %v; LUAR's backbone needs a rank-%d tensor there", name, where, pre+n, s, rank)
		}
		return s, nil
	}
	words, err := shape("embeddings.word_embeddings.weight", 2)
	if err != nil {
		return nil, err
	}
	pos, err := shape("embeddings.position_embeddings.weight", 2)
	if err != nil {
		return nil, err
	}
	types, err := shape("embeddings.token_type_embeddings.weight", 2)
	if err != nil {
		return nil, err
	}
	ffn, err := shape("encoder.layer.0.intermediate.dense.weight", 2)
	if err != nil {
		return nil, err
	}
	layers := 0
	for _, n := range w.names() {
		if sub := luarLayerRe.FindStringSubmatch(n); sub != nil {
			l, _ := strconv.Atoi(sub[1])
			layers = max(layers, l+1)
		}
	}
	cfg := BERTConfig{Family: "roberta", Hidden: words[1], Layers: layers, Heads: max(1, words[1]/LUARHeadWidth), FFN: ffn[0],
		Vocab: words[0], MaxPositions: pos[0], TypeVocab: types[0], LayerNormEps: 1e-5, Act: "gelu", PositionOffset: 2,
		Prefix: pre, Pooling: "mean", Dir: snap.Dir, Tokenizer: tokenizer, Hub: snap.Ref.ID + "@" + snap.Commit}
	if cfg.Heads, err = opts.Int("heads", cfg.Heads); err != nil {
		return nil, err
	}
	if cfg.MaxLen, err = opts.Int("max_len", LUARMaxLen); err != nil {
		return nil, err
	}
	lw := w.shape("linear.weight")
	if len(lw) != 2 || lw[1] != cfg.Hidden || !equalDims(w.shape("linear.bias"), lw[:1]) {
		return nil, fmt.Errorf("%s: %s: LUAR's projection linear.weight %v / linear.bias %v; expected [embedding_size, %d] and [embedding_size]",
			name, where, lw, w.shape("linear.bias"), cfg.Hidden)
	}
	if hc.EmbeddingSize != 0 && hc.EmbeddingSize != lw[0] {
		return nil, fmt.Errorf("%s: %s: linear.weight has %d rows; config.json's embedding_size is %d", name, where, lw[0], hc.EmbeddingSize)
	}
	bm, err := NewBERTModel(name, cfg)
	if err != nil {
		return nil, err
	}
	return &LUARModel{BERTModel: bm, head: LUARHead{Dir: snap.Dir, Prefix: "linear.", Hidden: cfg.Hidden, Embedding: lw[0]}}, nil
}
