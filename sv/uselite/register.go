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
// installed package (Options.ModelDir).
const SettingModelDir = "model_dir"

// DefaultLearningRate is the fine-tuning learning rate of use-lite_ft in
// DefaultOptions (the `lr` setting overrides it).
const DefaultLearningRate = 5e-5

// Options are the settings of the rows "use-lite" and "use-lite_ft"
// (`roleprint config use-lite`); DefaultOptions gives every default.
type Options struct {
	// ModelDir is a folder with model.json, its shards and vocab.json to
	// use instead of the installed package. Default "" (the package that
	// `roleprint setup use-lite` installs in the run's cache).
	ModelDir string `opt:"model_dir" json:"model_dir"`
	// Encoder holds the head, centring and training settings.
	Encoder neural.EncoderConfig `opt:",squash" json:"encoder"`
}

// DefaultOptions returns the USE-Lite rows' defaults: neural's
// DefaultEncoderConfig with learning rate DefaultLearningRate.
func DefaultOptions() Options {
	o := Options{Encoder: neural.DefaultEncoderConfig()}
	o.Encoder.Train.LearningRate = DefaultLearningRate
	return o
}

func init() {
	neural.RegisterRow(Name, DefaultOptions, func(o *Options) *neural.EncoderConfig { return &o.Encoder },
		func(o Options, opts sv.EncoderOptions) (neural.UtteranceModel, error) {
			m, err := modelFromOptions(o.ModelDir, opts.CacheDir)
			if err != nil {
				return nil, err
			}
			return &Utterance{Model: m}, nil
		})
}

// modelFromOptions loads the model from dir, the cache folder, or the
// default cache.
func modelFromOptions(dir, cacheDir string) (*Model, error) {
	if dir != "" {
		return Load(dir)
	}
	if cacheDir != "" {
		dir := filepath.Join(cacheDir, "npm", "node_modules", filepath.FromSlash(NpmPackage), "dist")
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
