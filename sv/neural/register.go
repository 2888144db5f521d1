package neural

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/roleprint/roleprint/internal/options"

	"github.com/roleprint/roleprint/sv"
	"github.com/roleprint/roleprint/sv/backend"
	"github.com/roleprint/roleprint/sv/baseline"
)

// ModelFactory builds an utterance model from encoder options (settings
// documented by each model).
type ModelFactory func(opts sv.EncoderOptions) (UtteranceModel, error)

// PretrainedOptions are the settings of the pretrained rows ("onnx",
// the paper's "roberta", "sbert", "stel", "lisa", "luar", and their "_ft"
// rows; `roleprint config roberta`): what picks and shapes the model,
// which the model reads from the settings itself, and the encoder's head
// and training. Registering them makes a misspelled key an error listing
// the valid ones rather than a setting nobody reads.
type PretrainedOptions struct {
	// Model is the path of an ONNX export to run instead of the row's
	// checkpoint (required for "onnx"). Default "".
	Model string `opt:"model" json:"model"`
	// Tokenizer is the path of the export's tokenizer.json (or vocab.txt).
	// Default "": the one beside the model.
	Tokenizer string `opt:"tokenizer" json:"tokenizer"`
	// Output is the ONNX output holding token states or sentence vectors.
	// Default "": last_hidden_state when present, else the first output.
	Output string `opt:"output" json:"output"`
	// Pooling of token states into an utterance vector: "mean" or "cls".
	// Default "": the repository's sentence-transformers pooling, else mean.
	Pooling string `opt:"pooling" json:"pooling"`
	// MaxLen caps token ids per utterance. Default 0: the repository's
	// max_seq_length, else 64 (LUAR: 32).
	MaxLen int `opt:"max_len" json:"max_len"`
	// Dim is the utterance-vector length of an ONNX model. Default 0:
	// found by running the model once.
	Dim int `opt:"dim" json:"dim"`
	// Checkpoint is the Hub model (ORG/NAME[@REV], fetched by `roleprint
	// setup --model`) a paper row runs instead of the paper's. Default "":
	// the paper's checkpoint (PaperCheckpoints).
	Checkpoint string `opt:"checkpoint" json:"checkpoint"`
	// Heads overrides the attention-head count of a safetensors model.
	// Default 0: config.json's (LUAR, whose config.json lacks it: hidden /
	// 64).
	Heads int `opt:"heads" json:"heads"`
	// Encoder holds the head, centring and training settings.
	Encoder EncoderConfig `opt:",squash" json:"encoder"`
}

// RegisterModel registers the encoder name with sv for a model that reads
// its own settings from opts (the ONNX models): sv.NewEncoder(name, opts)
// builds the model with factory and wraps it in an Encoder whose
// configuration is defaults overridden by opts (EncoderConfigFromOptions).
// The row's settings are PretrainedOptions (registered with
// sv.RegisterOptions, so an unknown key is an error). Rows with their own
// typed options struct use RegisterRow instead. Call it from an init
// function.
func RegisterModel(name string, factory ModelFactory, defaults EncoderConfig) {
	resolve := func(opts sv.EncoderOptions) (PretrainedOptions, error) {
		o := PretrainedOptions{Encoder: defaults}
		if err := options.Apply(&o, opts.Settings); err != nil {
			return o, err
		}
		applyEncoderFields(&o.Encoder, opts)
		return o, nil
	}
	sv.RegisterOptions(name, func(opts sv.EncoderOptions) (any, error) { return resolve(opts) })
	sv.RegisterEncoder(name, func(opts sv.EncoderOptions) (sv.Encoder, error) {
		if _, err := resolve(opts); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
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
		return newSVEncoder(m, cfg)
	})
}

// RegisterRow registers the encoder name (rows "name" and "name_ft") with
// a typed options struct O, with no code per key: defaults returns O's
// Default…() value, encoder points at the EncoderConfig inside an O (head,
// centring, training) and build makes the model from the resolved O. The
// options are also registered with sv (sv.RegisterOptions), so `roleprint
// config name` lists every key and the run manifest records the resolved
// O; an unknown setting is an error listing the valid keys.
func RegisterRow[O any](name string, defaults func() O, encoder func(*O) *EncoderConfig, build func(o O, opts sv.EncoderOptions) (UtteranceModel, error)) {
	resolve := func(opts sv.EncoderOptions) (O, error) {
		o := defaults()
		if err := options.Apply(&o, opts.Settings); err != nil {
			return o, err
		}
		applyEncoderFields(encoder(&o), opts)
		if _, err := NewHead(encoder(&o).Head); err != nil {
			return o, err
		}
		return o, nil
	}
	sv.RegisterOptions(name, func(opts sv.EncoderOptions) (any, error) { return resolve(opts) })
	sv.RegisterEncoder(name, func(opts sv.EncoderOptions) (sv.Encoder, error) {
		o, err := resolve(opts)
		if err != nil {
			return nil, err
		}
		m, err := build(o, opts)
		if err != nil {
			return nil, err
		}
		cfg := *encoder(&o)
		cfg.Name = name
		return newSVEncoder(m, cfg)
	})
}

func newSVEncoder(m UtteranceModel, cfg EncoderConfig) (sv.Encoder, error) {
	e, err := NewEncoder(m, cfg)
	if err != nil {
		return nil, err
	}
	return e.AsSV(), nil
}

// Setting keys of EncoderConfig and TrainConfig (their `opt` tags), for
// code that sets one by name (`roleprint train`'s flags).
const (
	SetHeadKey         = "head"              // EncoderConfig.Head
	SetWeights         = "weights"           // EncoderConfig.Weights
	SetEpochs          = "epochs"            // TrainConfig.Epochs
	SetBatchPairs      = "batch_pairs"       // TrainConfig.BatchPairs
	SetMicroBatchPairs = "micro_batch_pairs" // TrainConfig.MicroBatchPairs
	SetLearningRate    = "lr"                // TrainConfig.LearningRate
	SetMaxUtterances   = "max_utterances"    // TrainConfig.MaxUtterances
	SetMaxTokens       = "max_tokens"        // TrainConfig.MaxTokens
	SetMaxSteps        = "max_steps"         // TrainConfig.MaxSteps
	SetCheckpointDir   = "checkpoint_dir"    // TrainConfig.CheckpointDir
	SetCheckpointEvery = "checkpoint_every"  // TrainConfig.CheckpointEvery
	SetWarmup          = "warmup"            // TrainConfig.WarmupFraction
	SetMargin          = "margin"            // TrainConfig.Margin
	SetCenter          = "center"            // EncoderConfig.Center
	SetCenterTexts     = "center_texts"      // EncoderConfig.CenterTexts
)

// EncoderConfigFromOptions overrides defaults with opts: Backend, Seed,
// BatchSize and Logf from their fields, the EncoderConfig and TrainConfig
// keys from Settings (other keys are left to the model). A malformed value
// is an error naming the key.
func EncoderConfigFromOptions(opts sv.EncoderOptions, defaults EncoderConfig) (EncoderConfig, error) {
	c := defaults
	if _, err := options.ApplyKnown(&c, opts.Settings); err != nil {
		return c, err
	}
	applyEncoderFields(&c, opts)
	if _, err := NewHead(c.Head); err != nil {
		return c, err
	}
	return c, nil
}

// applyEncoderFields copies opts' fields into c: backend, seed (also the
// trainer's), batch size, notes, and the runner's work folder as the
// checkpoint folder when none is set (so an interrupted fine-tuning
// resumes from its last checkpoint).
func applyEncoderFields(c *EncoderConfig, opts sv.EncoderOptions) {
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
	if c.Train.CheckpointDir == "" && opts.WorkDir != "" {
		c.Train.CheckpointDir = filepath.Join(opts.WorkDir, "checkpoints")
	}
}

// TransformerOptions are the settings of the rows "transformer",
// "transformer_ft", "luar-scratch" and "luar-scratch_ft" (`roleprint config transformer`):
// the network's shape, its GloVe initialisation and the encoder's head
// and training. DefaultTransformerOptions gives every default.
type TransformerOptions struct {
	// Model is the network's shape (TransformerConfig).
	Model TransformerConfig `opt:",squash" json:"model"`
	// GloVe initialises the whole-word token embeddings: "true" takes the
	// GloVe vectors of `roleprint setup glove`, another value is the path
	// of a word-vector file in sv/baseline's format. Default "" (random
	// initialisation; "false" too).
	GloVe string `opt:"glove" json:"glove"`
	// Encoder holds the head, centring and training settings.
	Encoder EncoderConfig `opt:",squash" json:"encoder"`
}

// DefaultTransformerOptions returns the defaults of row name
// (TransformerName or LUARScratchName): DefaultTransformerConfig, no GloVe,
// DefaultEncoderConfig with the learning rate of a from-scratch model
// (1e-3) and, for luar-scratch, the attention head.
func DefaultTransformerOptions(name string) TransformerOptions {
	o := TransformerOptions{Model: DefaultTransformerConfig(), Encoder: DefaultEncoderConfig()}
	o.Encoder.Train.LearningRate = FromScratchLearningRate
	if name == LUARScratchName {
		o.Encoder.Head = "attention"
	}
	return o
}

// FromScratchLearningRate is the learning rate of the from-scratch
// transformer rows.
const FromScratchLearningRate = 1e-3

// TransformerFromOptions builds the from-scratch transformer of the
// resolved options o; the seed is opts.Seed and "glove=true" reads the
// GloVe of opts.CacheDir.
func TransformerFromOptions(name string, o TransformerOptions, opts sv.EncoderOptions) (*Transformer, error) {
	c := o.Model
	c.Seed = opts.Seed
	if g := o.GloVe; g != "" && g != "false" && g != "0" {
		path := g
		var err error
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
	// LUARScratchName is the from-scratch transformer with the
	// LUAR-style attention head (rows "luar-scratch", "luar-scratch_ft"),
	// a look-alike trained from scratch; "luar" is the published model.
	LUARScratchName = "luar-scratch"
	// LUARName is the paper's LUAR row: the published checkpoint
	// (PaperCheckpoints) in the published architecture (luar.go).
	LUARName = "luar"
)

func init() {
	for _, name := range []string{TransformerName, LUARScratchName} {
		RegisterRow(name, func() TransformerOptions { return DefaultTransformerOptions(name) },
			func(o *TransformerOptions) *EncoderConfig { return &o.Encoder },
			func(o TransformerOptions, opts sv.EncoderOptions) (UtteranceModel, error) {
				return TransformerFromOptions(name, o, opts)
			})
	}
	registerDefaultRows()
}

// registerDefaultRows makes the GoMLX rows candidates of the default
// `roleprint reproduce` run (sv.RegisterRow; sv/table2 selects them) and installs sv/backend's
// backend rules as sv's probe. Every row is calibrated on the run's backend
// (sv/table2 calibrates: a few training steps, 256 of the run's utterances
// embedded twice; cached). The committed costs below are the fallback when
// a calibration cannot run, and what a skipped row's note uses to name a
// faster backend; they come from the throughput measured on 2 idle cores
// (embedding 2,275 utterances/s on onnx and 292 on go for the
// transformer, ~150 and ~9 for USE-Lite; training ~1.4 steps/s on onnx
// and 0.2 on go, 32 pairs × 2 × 8 utterances × 32 tokens; USE-Lite_ft's
// 16 × 4 × 32-piece steps ~0.8/s on onnx). The xla:cuda figures are rough
// estimates for a GPU. The USE-Lite rows are registered here, beside the
// trainer they use, and become candidates only when sv/uselite is linked.
func registerDefaultRows() {
	sv.SetBackendProbe(probeBackend)
	perText := func(go_, onnx, cuda float64, limit int, fixed float64) map[string]sv.RowCost {
		c := func(s float64) sv.RowCost {
			return sv.RowCost{Fixed: fixed, PerEvalText: s, TokenLimit: limit, Source: "committed (sv/neural/register.go)"}
		}
		return map[string]sv.RowCost{backend.Go: c(go_), backend.ONNX: c(onnx), backend.XLACUDA: c(cuda)}
	}
	withStep := func(m map[string]sv.RowCost, go_, onnx, cuda float64) map[string]sv.RowCost {
		for b, s := range map[string]float64{backend.Go: go_, backend.ONNX: onnx, backend.XLACUDA: cuda} {
			c := m[b]
			c.PerStep = s
			m[b] = c
		}
		return m
	}
	// Calibration steps accumulate gradients over micro-batches of 4 pairs:
	// the same update (tested in the trainer), a few per cent slower per
	// step, so the estimate errs long; but ONNX Runtime's activations for a
	// full 32-pair batch made the calibrating first run of a build peak at
	// 2.8 GiB (1.1 GiB with micro-batches of 4), above the main job's 1.5 GiB.
	calib := map[string]string{SetMaxSteps: fmt.Sprint(sv.CalibrationSteps), SetMicroBatchPairs: "4"}
	sv.RegisterRow(sv.Row{
		Name: TransformerName, GoMLX: true, With: TransformerName + sv.FineTunedSuffix,
		Costs:     perText(1.0/292, 1.0/2275, 1.0/20000, 32, 2),
		Calibrate: true,
		Why:       "the untrained encoder, to show what fine-tuning adds",
	})
	sv.RegisterRow(sv.Row{
		Name: TransformerName + sv.FineTunedSuffix, GoMLX: true,
		Costs: withStep(perText(1.0/292, 1.0/2275, 1.0/20000, 32, 8), 5, 0.7, 0.1),
		Steps: trainSteps(DefaultTrainConfig()),
		// Its CPU budget (one epoch, at most 150 steps) is the cpu
		// preset's (sv/table2/table2_presets.go).
		Calibrate:           true,
		CalibrationSettings: calib,
		Why:                 "the from-scratch transformer fine-tuned with the paper's contrastive loss",
	})
	sv.RegisterRow(sv.Row{
		Name: "use-lite", GoMLX: true, Assets: []string{"use-lite"},
		Costs:     perText(1.0/9, 1.0/150, 1.0/1000, 128, 3),
		Calibrate: true,
		Why:       "the pretrained Universal Sentence Encoder Lite",
	})
	sv.RegisterRow(sv.Row{
		Name: "use-lite" + sv.FineTunedSuffix, GoMLX: true, Assets: []string{"use-lite"},
		Costs: withStep(perText(1.0/9, 1.0/150, 1.0/1000, 128, 10), 9, 1.2, 0.05),
		Steps: trainSteps(DefaultTrainConfig()),
		// docs/use-lite.md's recipe (200 steps of 16 pairs × 4 utterances
		// × 32 pieces) is the cpu preset's (sv/table2/table2_presets.go).
		Calibrate:           true,
		CalibrationSettings: calib,
		Why:                 "USE-Lite fine-tuned with the paper's contrastive loss",
	})
}

// trainSteps returns a DefaultRow.Steps for a row trained by Train: the
// steps of its epochs of batch_pairs batches over the workload's training
// pairs (the trainer's count), capped by max_steps; settings missing or
// invalid fall back to def's.
func trainSteps(def TrainConfig) func(w sv.Workload, settings map[string]string) int {
	return func(w sv.Workload, settings map[string]string) int {
		get := func(k string, d int) int {
			if v, err := strconv.Atoi(strings.TrimSpace(settings[k])); err == nil && v >= 0 {
				return v
			}
			return d
		}
		batch := max(1, get(SetBatchPairs, def.BatchPairs))
		total := (w.TrainPairs + batch - 1) / batch * max(1, get(SetEpochs, def.Epochs))
		if m := get(SetMaxSteps, def.MaxSteps); m > 0 && m < total {
			total = m
		}
		return total
	}
}

// probeBackend resolves a backend name as GoMLX encoders will, and names
// the setup step of ONNX Runtime when it is not installed.
func probeBackend(name string) (sv.BackendInfo, error) {
	var info sv.BackendInfo
	if strings.TrimSpace(name) == "" {
		info.Name, info.Reason = backend.DefaultWithReason()
	} else {
		canon, err := backend.Resolve(name)
		if err != nil {
			return info, err
		}
		info.Name, info.Reason = canon, "requested with --backend "+name
	}
	if _, err := backend.ONNXRuntimeLibrary(); err != nil {
		info.Setups = map[string]string{backend.ONNX: "roleprint setup " + backend.ONNXRuntimeStep}
	}
	return info, nil
}
