package uselite

import (
	"path/filepath"

	"github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/ml/model"
	"github.com/roleprint/roleprint/sv"
	"github.com/roleprint/roleprint/sv/neural"
	"github.com/roleprint/roleprint/sv/uselite/sentencepiece"
	"github.com/roleprint/roleprint/sv/uselite/tfjs"
)

// Name is the registered encoder: rows "use-lite" (the pretrained model)
// and "use-lite_ft" (fine-tuned by sv/neural's contrastive trainer).
const Name = "use-lite"

// SettingModelDir is the encoder setting (`--set model_dir=DIR`) naming a
// folder with model.json, its shards and vocab.json to use instead of the
// installed package.
const SettingModelDir = "model_dir"

// DefaultLearningRate is the fine-tuning learning rate for use-lite_ft
// when none is set (the trainer's `lr` setting overrides it).
const DefaultLearningRate = 5e-5

func init() {
	neural.RegisterModel(Name, func(opts sv.EncoderOptions) (neural.UtteranceModel, error) {
		m, err := modelFromOptions(opts)
		if err != nil {
			return nil, err
		}
		return &Utterance{Model: m}, nil
	}, neural.EncoderConfig{Head: "mean"})
}

// modelFromOptions loads the model from the model_dir setting, the cache
// folder of opts, or the default cache.
func modelFromOptions(opts sv.EncoderOptions) (*Model, error) {
	if dir := opts.String(SettingModelDir, ""); dir != "" {
		return Load(dir)
	}
	if opts.CacheDir != "" {
		dir := filepath.Join(opts.CacheDir, "npm", "node_modules", filepath.FromSlash(NpmPackage), "dist")
		return Load(dir)
	}
	return Default()
}

// Utterance plugs USE-Lite into sv/neural (it implements
// neural.UtteranceModel): the trainer and encoder of that package batch,
// pool, train and checkpoint it like their own models.
type Utterance struct {
	// Model is the loaded USE-Lite.
	Model *Model
}

var _ neural.UtteranceModel = (*Utterance)(nil)

// Name implements neural.UtteranceModel.
func (u *Utterance) Name() string { return Name }

// Dim implements neural.UtteranceModel: 512.
func (u *Utterance) Dim() int { return Dim }

// Tokenizer implements neural.UtteranceModel.
func (u *Utterance) Tokenizer() neural.Tokenizer { return Tokenizer{u.Model.Tokenizer} }

// MaxLen implements neural.UtteranceModel: the model reads 128 pieces.
func (u *Utterance) MaxLen() int { return MaxTokens }

// DefaultLearningRate is read by sv/neural's trainer.
func (u *Utterance) DefaultLearningRate() float64 { return DefaultLearningRate }

// Init implements neural.UtteranceModel: the pretrained weights become the
// scope's variables.
func (u *Utterance) Init(scope *model.Scope) error {
	_, err := u.Model.Graph.InitVariables(scope, tfjs.Options{Trainable: trainable})
	return err
}

// Graph implements neural.UtteranceModel (see Model.Embed); errors panic,
// as GoMLX graph functions do.
func (u *Utterance) Graph(scope *model.Scope, ids, mask *graph.Node) *graph.Node {
	out, err := u.Model.Embed(scope, ids, mask)
	if err != nil {
		panic(err)
	}
	return out
}

// Config implements neural.UtteranceModel.
func (u *Utterance) Config() any {
	return map[string]any{
		"package":    NpmPackage + "@" + NpmVersion,
		"dir":        u.Model.Dir,
		"dim":        Dim,
		"max_tokens": MaxTokens,
		"tokenizer":  Tokenizer{u.Model.Tokenizer}.Name(),
	}
}

// Tokenizer adapts the SentencePiece tokenizer to neural.Tokenizer.
type Tokenizer struct {
	*sentencepiece.Tokenizer
}

var _ neural.Tokenizer = Tokenizer{}

// Name implements neural.Tokenizer.
func (t Tokenizer) Name() string { return "sentencepiece:use-lite-8k" }

// PadID implements neural.Tokenizer (padding is masked; any id works).
func (t Tokenizer) PadID() int32 { return 0 }

// Encode implements neural.Tokenizer: the JavaScript tokenizer's ids, cut
// to maxLen. An empty text (no pieces) gets the unknown id 0, since the
// trainer needs at least one id (TF.js cannot embed an empty text).
func (t Tokenizer) Encode(text string, maxLen int) []int32 {
	ids := t.Tokenizer.Encode(text)
	if len(ids) == 0 {
		ids = []int{0}
	}
	if maxLen > 0 && len(ids) > maxLen {
		ids = ids[:maxLen]
	}
	out := make([]int32, len(ids))
	for i, id := range ids {
		out[i] = int32(id)
	}
	return out
}
