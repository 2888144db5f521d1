package neural

import (
	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
)

// Tokenizer turns one utterance into the token ids a model reads. It is
// the tokenizer half of the plug-in contract: WordPiece (this package),
// a Hugging Face tokenizer.json (this package) and SentencePiece (sv/uselite)
// implement it. Implementations must be safe for concurrent use.
type Tokenizer interface {
	// Name identifies the tokenizer and its vocabulary in manifests
	// ("wordpiece:bert-base-uncased").
	Name() string
	// VocabSize is the number of ids: every id Encode returns is in
	// [0, VocabSize).
	VocabSize() int
	// PadID is the id written into padding positions. Padding is always
	// masked out, so any valid id works; models must not depend on it.
	PadID() int32
	// Encode returns the ids of text, including any special tokens the
	// model expects ([CLS] … [SEP], <s> … </s>), truncated to at most
	// maxLen ids (maxLen ≥ 2). It returns at least one id, even for an
	// empty text.
	Encode(text string, maxLen int) []int32
}

// UtteranceModel is a GoMLX utterance encoder that the contrastive trainer
// can fine-tune: the model half of the plug-in contract. The trainer and
// Encoder own batching, padding, set pooling, the loss, the optimizer,
// checkpoints and the backend; a model only builds the graph from token ids
// to one vector per utterance, with its weights as variables in a GoMLX
// model.Scope.
//
// A model value holds configuration only (no variables, no backend), so
// one value can build graphs for several stores, e.g. the untrained row and
// each round's fine-tuned row.
//
// Contract for Graph:
//   - ids is Int32 [N, T]; mask is Bool [N, T], true on real tokens. Real
//     tokens are left-aligned (mask is true on a prefix of each row).
//   - Rows whose mask is all false are padding utterances (empty slots of a
//     short utterance set). Their output is ignored but must be finite:
//     divide by max(count, 1), mask attention with a large negative number
//     rather than -Inf.
//   - The result is Float32 [N, Dim()]. It need not be normalised (the
//     trainer compares by cosine).
//   - Use scope.IsTraining(g) for dropout and the like; the trainer marks
//     training graphs, Encode builds inference graphs.
//   - Variables come from scope (scope.In("name").VariableWithShape, or
//     VariableWithValue for pretrained weights, or Init). Mark frozen ones
//     with SetTrainable(false); every other variable is trained.
//   - Build only ops every backend has: the ONNX Runtime backend lacks Pad
//     (so do not take gradients through Slice: select with Einsum or a
//     one-hot product), Rsqrt (use 1/Sqrt), IsFinite, Clamp and
//     DynamicSlice; and its ScatterND (the gradient of Gather, e.g. of an
//     embedding lookup) takes only Int64 indices, so convert ids to Int64
//     before a Gather. That ScatterND also races when two rows aim at one
//     place (repeated ids): the Transformer's lookups take an exact plan
//     from the trainer instead (lookup.go); other models' Gathers do not. The backend tests of this package show how to check a
//     model on go and onnx (see CheckModelOnBackends).
type UtteranceModel interface {
	// Name is the encoder's row name ("transformer", "use-lite").
	Name() string
	// Dim is the length of the utterance vectors Graph returns.
	Dim() int
	// Tokenizer turns texts into the ids Graph reads.
	Tokenizer() Tokenizer
	// MaxLen is the default maximum number of token ids per utterance,
	// special tokens included (the trainer's MaxTokens overrides it when
	// set; positional tables must hold at least this many).
	MaxLen() int
	// Init creates or loads the model's variables in scope before any graph
	// is built: pretrained weights with scope.VariableWithValue, or nothing
	// when the variables are created (and randomly initialised) in Graph.
	// It is called once per fresh model.Store, never when a checkpoint is
	// restored.
	Init(scope *model.Scope) error
	// Graph builds the utterance vectors; see the contract above.
	Graph(scope *model.Scope, ids, mask *graph.Node) *graph.Node
	// Config returns the model's resolved hyperparameters (a JSON-encodable
	// struct or map) for manifests and checkpoints.
	Config() any
}

// SetHead pools the utterance vectors of each set into one set vector.
// MeanHead (the paper's hierarchical pooling) is the default; AttentionHead
// is the LUAR-style head. Heads may have variables (in scope).
type SetHead interface {
	// Name identifies the head ("mean", "attention").
	Name() string
	// Dim is the set-vector length for utterance vectors of length in.
	Dim(in int) int
	// Graph maps utts Float32 [B, U, D] and mask Bool [B, U] (true on real
	// utterances, a prefix of each row) to Float32 [B, Dim(D)]. Sets with no
	// real utterance must give finite output.
	Graph(scope *model.Scope, utts, mask *graph.Node) *graph.Node
}
