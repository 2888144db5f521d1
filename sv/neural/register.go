package neural

import (
	"fmt"
	"path/filepath"

	"github.com/roleprint/roleprint/sv"
	"github.com/roleprint/roleprint/sv/baseline"
)

// ModelFactory builds an utterance model from encoder options (settings
// documented by each model).
type ModelFactory func(opts sv.EncoderOptions) (UtteranceModel, error)

// RegisterModel registers the encoder name with sv: sv.NewEncoder(name,
// opts) builds the model with factory and wraps it in an Encoder whose
// configuration is defaults overridden by opts (EncoderConfigFromOptions),
// so the runner gets the untrained row "name" and the fine-tuned row
// "name_ft". Call it from an init function; sv/uselite registers
// "use-lite" this way.
func RegisterModel(name string, factory ModelFactory, defaults EncoderConfig) {
	sv.RegisterEncoder(name, func(opts sv.EncoderOptions) (sv.Encoder, error) {
		m, err := factory(opts)
		if err != nil {
			return nil, err
		}
		d := defaults
		d.Name = name
		cfg, err := EncoderConfigFromOptions(opts, d)
		if err != nil {
			return nil, err
		}
		e, err := NewEncoder(m, cfg)
		if err != nil {
			return nil, err
		}
		return e.AsSV(), nil
	})
}

// Setting keys read by EncoderConfigFromOptions (sv.EncoderOptions.Settings,
// `--set key=value` on the command line).
const (
	SetHeadKey         = "head"              // mean | attention
	SetWeights         = "weights"           // checkpoint file or directory to start from
	SetEpochs          = "epochs"            // TrainConfig.Epochs
	SetBatchPairs      = "batch_pairs"       // TrainConfig.BatchPairs
	SetMicroBatchPairs = "micro_batch_pairs" // TrainConfig.MicroBatchPairs
	SetLearningRate    = "lr"                // TrainConfig.LearningRate
	SetWarmup          = "warmup"            // TrainConfig.WarmupFraction
	SetMaxUtterances   = "max_utterances"    // TrainConfig.MaxUtterances
	SetMaxTokens       = "max_tokens"        // TrainConfig.MaxTokens
	SetMargin          = "margin"            // TrainConfig.Margin
	SetMaxSteps        = "max_steps"         // TrainConfig.MaxSteps
	SetCheckpointDir   = "checkpoint_dir"    // TrainConfig.CheckpointDir
	SetCheckpointEvery = "checkpoint_every"  // TrainConfig.CheckpointEvery
)

// EncoderConfigFromOptions overrides defaults with opts: Backend, Seed and
// BatchSize from their fields, everything else from Settings (keys above).
// Malformed values are errors naming the key.
func EncoderConfigFromOptions(opts sv.EncoderOptions, defaults EncoderConfig) (EncoderConfig, error) {
	c := defaults
	if opts.Backend != "" {
		c.Backend = opts.Backend
	}
	if opts.Seed != 0 {
		c.Seed = opts.Seed
		c.Train.Seed = opts.Seed
	}
	if opts.BatchSize > 0 {
		c.BatchSize = opts.BatchSize
	}
	if opts.Logf != nil {
		c.Logf = opts.Logf
	}
	c.Head = opts.String(SetHeadKey, c.Head)
	c.Weights = opts.String(SetWeights, c.Weights)
	t := &c.Train
	var err error
	ints := []struct {
		key string
		dst *int
	}{
		{SetEpochs, &t.Epochs}, {SetBatchPairs, &t.BatchPairs}, {SetMicroBatchPairs, &t.MicroBatchPairs},
		{SetMaxUtterances, &t.MaxUtterances}, {SetMaxTokens, &t.MaxTokens}, {SetMaxSteps, &t.MaxSteps},
		{SetCheckpointEvery, &t.CheckpointEvery},
	}
	for _, kv := range ints {
		if *kv.dst, err = opts.Int(kv.key, *kv.dst); err != nil {
			return c, err
		}
	}
	floats := []struct {
		key string
		dst *float64
	}{{SetLearningRate, &t.LearningRate}, {SetWarmup, &t.WarmupFraction}, {SetMargin, &t.Margin}}
	for _, kv := range floats {
		if *kv.dst, err = opts.Float(kv.key, *kv.dst); err != nil {
			return c, err
		}
	}
	t.CheckpointDir = opts.String(SetCheckpointDir, t.CheckpointDir)
	if t.CheckpointDir == "" && opts.WorkDir != "" {
		// The runner's per-round work folder: an interrupted fine-tuning
		// resumes from its last checkpoint.
		t.CheckpointDir = filepath.Join(opts.WorkDir, "checkpoints")
	}
	if _, err := NewHead(c.Head); err != nil {
		return c, err
	}
	return c, nil
}

// TransformerFromOptions builds the from-scratch transformer from
// settings: layers, dim, heads, ffn_dim, max_len, pooling (mean|cls),
// embed_dim, vocab (a vocab.txt or tokenizer.json) and glove (true: the
// GloVe vectors of `roleprint setup glove`; or the path of a word-vector
// file in sv/baseline's format). The seed is opts.Seed.
func TransformerFromOptions(name string, opts sv.EncoderOptions, base TransformerConfig) (*Transformer, error) {
	c := base
	var err error
	for _, kv := range []struct {
		key string
		dst *int
	}{{"layers", &c.Layers}, {"dim", &c.Dim}, {"heads", &c.Heads}, {"ffn_dim", &c.FFNDim}, {"max_len", &c.MaxLen}, {"embed_dim", &c.EmbedDim}} {
		if *kv.dst, err = opts.Int(kv.key, *kv.dst); err != nil {
			return nil, err
		}
	}
	c.Pooling = opts.String("pooling", c.Pooling)
	c.Vocab = opts.String("vocab", c.Vocab)
	c.Seed = opts.Seed
	if g := opts.String("glove", ""); g != "" && g != "false" && g != "0" {
		path := g
		if g == "true" || g == "1" {
			if path, err = baseline.GloVePath(opts.CacheDir); err != nil {
				return nil, err
			}
		}
		wv, err := baseline.ReadWordVectors(path)
		if err != nil {
			return nil, fmt.Errorf("transformer glove=%s: %w", g, err)
		}
		c.GloVe = gloveVectors{wv}
		c.GloVeName = path
	}
	return NewTransformer(name, c)
}

// gloveVectors adapts sv/baseline's word-vector table to WordVectors.
type gloveVectors struct{ wv *baseline.WordVectors }

// Dim implements WordVectors.
func (g gloveVectors) Dim() int { return g.wv.Dim }

// Vector implements WordVectors.
func (g gloveVectors) Vector(word string) []float32 {
	v, ok := g.wv.Vector(word)
	if !ok {
		return nil
	}
	return v
}

// Registered encoder names of this package.
const (
	// TransformerName is the from-scratch transformer (rows "transformer",
	// "transformer_ft").
	TransformerName = "transformer"
	// LUARName is the from-scratch transformer with the LUAR-style
	// attention head (rows "luar", "luar_ft").
	LUARName = "luar"
)

func init() {
	RegisterModel(TransformerName, func(opts sv.EncoderOptions) (UtteranceModel, error) {
		return TransformerFromOptions(TransformerName, opts, DefaultTransformerConfig())
	}, EncoderConfig{Head: "mean"})
	RegisterModel(LUARName, func(opts sv.EncoderOptions) (UtteranceModel, error) {
		return TransformerFromOptions(LUARName, opts, DefaultTransformerConfig())
	}, EncoderConfig{Head: "attention"})
}
