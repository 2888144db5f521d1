package neural

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/roleprint/roleprint/sv"
	"github.com/roleprint/roleprint/sv/backend"
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
	SetCenter          = "center"            // EncoderConfig.Center
	SetCenterTexts     = "center_texts"      // EncoderConfig.CenterTexts
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
	var err error
	if c.Center, err = opts.Bool(SetCenter, c.Center); err != nil {
		return c, err
	}
	if c.CenterTexts, err = opts.Int(SetCenterTexts, c.CenterTexts); err != nil {
		return c, err
	}
	t := &c.Train
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
// embed_dim, ngram_buckets, ngram_min, ngram_max, ngram_slots (character
// n-gram features, see TransformerConfig), vocab (a vocab.txt or
// tokenizer.json) and glove (true: the
// GloVe vectors of `roleprint setup glove`; or the path of a word-vector
// file in sv/baseline's format). The seed is opts.Seed.
func TransformerFromOptions(name string, opts sv.EncoderOptions, base TransformerConfig) (*Transformer, error) {
	c := base
	var err error
	for _, kv := range []struct {
		key string
		dst *int
	}{{"layers", &c.Layers}, {"dim", &c.Dim}, {"heads", &c.Heads}, {"ffn_dim", &c.FFNDim}, {"max_len", &c.MaxLen}, {"embed_dim", &c.EmbedDim},
		{"ngram_buckets", &c.NGramBuckets}, {"ngram_min", &c.NGramMin}, {"ngram_max", &c.NGramMax}, {"ngram_slots", &c.NGramSlots}} {
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
	registerDefaultRows()
}

// registerDefaultRows makes the GoMLX rows candidates of the default
// `roleprint reproduce` run (sv.SelectDefaultRows) and installs sv/backend's
// backend rules as sv's probe. Every row is calibrated on the run's backend
// (sv.CalibrateRow: a few training steps, 256 of the run's utterances
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
	calib := map[string]string{SetMaxSteps: fmt.Sprint(sv.CalibrationSteps)}
	sv.RegisterDefaultRow(sv.DefaultRow{
		Name: TransformerName, GoMLX: true, With: TransformerName + sv.FineTunedSuffix,
		Costs:     perText(1.0/292, 1.0/2275, 1.0/20000, 32, 2),
		Calibrate: true,
		Why:       "the untrained encoder, to show what fine-tuning adds",
	})
	sv.RegisterDefaultRow(sv.DefaultRow{
		Name: TransformerName + sv.FineTunedSuffix, GoMLX: true,
		Costs: withStep(perText(1.0/292, 1.0/2275, 1.0/20000, 32, 8), 5, 0.7, 0.1),
		Steps: trainSteps(DefaultTrainConfig()),
		// One epoch of 32-pair batches (67 steps on the embedded corpus),
		// capped at 150 steps so that larger corpora stay near a minute per
		// round on ONNX Runtime; the trainer's other defaults (8 utterances
		// × 32 tokens per set, lr 1e-3) apply.
		Settings:            map[string]string{SetEpochs: "1", SetBatchPairs: "32", SetMaxSteps: "150"},
		Calibrate:           true,
		CalibrationSettings: calib,
		Why:                 "the from-scratch transformer fine-tuned with the paper's contrastive loss",
	})
	sv.RegisterDefaultRow(sv.DefaultRow{
		Name: "use-lite", GoMLX: true, Assets: []string{"use-lite"},
		Costs:     perText(1.0/9, 1.0/150, 1.0/1000, 128, 3),
		Calibrate: true,
		Why:       "the pretrained Universal Sentence Encoder Lite",
	})
	sv.RegisterDefaultRow(sv.DefaultRow{
		Name: "use-lite" + sv.FineTunedSuffix, GoMLX: true, Assets: []string{"use-lite"},
		Costs: withStep(perText(1.0/9, 1.0/150, 1.0/1000, 128, 10), 9, 1.2, 0.05),
		Steps: trainSteps(DefaultTrainConfig()),
		// docs/use-lite.md's recipe, which beat the frozen model on the
		// shared corpora: 200 steps of 16 pairs × 4 utterances × 32 pieces.
		Settings:            map[string]string{SetMaxSteps: "200", SetBatchPairs: "16", SetMaxUtterances: "4", SetMaxTokens: "32", SetLearningRate: "1e-4"},
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
