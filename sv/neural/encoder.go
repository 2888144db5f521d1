package neural

import (
	"context"
	"fmt"
	"os"
	"sync"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/sv"
)

// EncoderConfig configures an Encoder: where it runs, its set head, the
// trainer settings used by Train, and optional weights to start from.
// DefaultEncoderConfig gives the defaults; the `opt` keys are settings
// (Name, Backend, Seed and BatchSize come from sv.EncoderOptions' fields).
type EncoderConfig struct {
	// Name is the encoder's row name; empty means the model's Name().
	Name string `json:"name" opt:"-"`
	// Backend is the GoMLX backend ("" = sv/backend's Default()).
	Backend string `json:"backend" opt:"-"`
	// Seed seeds the head's initialisation and training order.
	Seed int64 `json:"seed" opt:"-"`
	// BatchSize is the number of utterances embedded per graph call.
	// Default 64.
	BatchSize int `json:"batch_size" opt:"-"`
	// Head is the set head: "mean" (the paper's pooling) or "attention"
	// (LUAR-style). Default "mean".
	Head string `json:"head"`
	// Weights, when set, is a checkpoint file or directory (its newest
	// checkpoint) whose weights replace the initial ones, e.g. the output of
	// `roleprint train`. Default "" (the initial weights).
	Weights string `json:"weights,omitempty"`
	// Center subtracts the mean vector of (a sample of) the training texts
	// from every utterance and set vector (see Fit). Default false.
	Center bool `json:"center,omitempty"`
	// CenterTexts caps the training texts the mean is computed from; 0
	// takes every one. Default DefaultCenterTexts (8192).
	CenterTexts int `json:"center_texts,omitempty"`
	// Train configures Train (its keys are settings of this encoder).
	Train TrainConfig `json:"train" opt:",squash"`
	// Logf receives training notes (per epoch, checkpoints).
	Logf func(string, ...any) `json:"-"`
}

// DefaultEncoderConfig returns an encoder's defaults: the mean head,
// DefaultCenterTexts, DefaultTrainConfig. Rows change what they need in
// their own Default…Options.
func DefaultEncoderConfig() EncoderConfig {
	return EncoderConfig{Head: "mean", CenterTexts: DefaultCenterTexts, Train: DefaultTrainConfig()}
}

// Encoder adapts a Network to the sv interfaces: sv.Encoder (utterance
// vectors), sv.Trainable (contrastive fine-tuning on a PairCorpus) and
// sv.Closer. With a head other than the mean, use AsSV, whose value is
// also an sv.SetEncoder (sets embedded through the head); with the mean
// head sv.EmbedSets' own pooling (each distinct text embedded once) is
// already the paper's. The network is built on first use.
type Encoder struct {
	model UtteranceModel
	cfg   EncoderConfig

	mu   sync.Mutex
	net  *Network
	last *TrainResult
	// centerTexts is Fit's sample, center its mean vector under the
	// current weights (nil until computed; reset by Fit and Train).
	centerTexts []string
	center      []float32
}

// Compile-time checks of the sv contracts.
var (
	_ sv.Encoder    = (*Encoder)(nil)
	_ sv.Trainable  = (*Encoder)(nil)
	_ sv.Fitter     = (*Encoder)(nil)
	_ sv.Closer     = (*Encoder)(nil)
	_ sv.SetEncoder = headEncoder{}
)

// headEncoder is an Encoder whose sets go through a learned head.
type headEncoder struct{ *Encoder }

// Unwrap returns the underlying Encoder.
func (h headEncoder) Unwrap() *Encoder { return h.Encoder }

// EncodeSets implements sv.SetEncoder.
func (h headEncoder) EncodeSets(ctx context.Context, sets [][]string, progress sv.Progress) ([][]float32, error) {
	return h.EmbedSets(ctx, sets, progress)
}

// AsSV returns the encoder as the runner should see it: e itself for the
// mean head, or a value that also implements sv.SetEncoder for a learned
// head (so sv.EmbedSets sends whole sets through it).
func (e *Encoder) AsSV() sv.Encoder {
	if h, _ := headFor(e.model, e.cfg.Head); h.Name() != (MeanHead{}).Name() {
		return headEncoder{e}
	}
	return e
}

// NewEncoder wraps model m; nothing is allocated until first use.
func NewEncoder(m UtteranceModel, cfg EncoderConfig) (*Encoder, error) {
	if _, err := NewHead(cfg.Head); err != nil {
		return nil, err
	}
	if cfg.Name == "" {
		cfg.Name = m.Name()
	}
	return &Encoder{model: m, cfg: cfg}, nil
}

// Network returns the encoder's network, building it (and loading
// cfg.Weights) on first use.
func (e *Encoder) Network() (*Network, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.net != nil {
		return e.net, nil
	}
	head, _ := headFor(e.model, e.cfg.Head)
	net, err := NewNetwork(e.model, head, e.cfg.Backend, e.cfg.Seed)
	if err != nil {
		return nil, fmt.Errorf("encoder %s: %w", e.cfg.Name, err)
	}
	if e.cfg.Weights != "" {
		if err := loadWeights(e.cfg.Weights, net); err != nil {
			net.Close()
			return nil, fmt.Errorf("encoder %s: %w", e.cfg.Name, err)
		}
	}
	e.net = net
	return net, nil
}

// loadWeights loads a checkpoint file, or the newest checkpoint of a
// directory.
func loadWeights(path string, net *Network) error {
	st, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("weights: %w", err)
	}
	if st.IsDir() {
		s, err := LoadLatestCheckpoint(path, net)
		if err == nil && s == nil {
			return fmt.Errorf("weights: no checkpoint (ckpt-*.rpck) in %s", path)
		}
		return err
	}
	_, err = LoadCheckpointFile(path, net)
	return err
}

// Name implements sv.Encoder.
func (e *Encoder) Name() string { return e.cfg.Name }

// Model returns the utterance model.
func (e *Encoder) Model() UtteranceModel { return e.model }

// EncoderConfig returns the encoder's configuration.
func (e *Encoder) EncoderConfig() EncoderConfig { return e.cfg }

// Dim implements sv.Encoder: the set-vector length, which is the
// utterance-vector length for the mean and attention heads (Encode gives
// vectors of this length with every head).
func (e *Encoder) Dim() int {
	h, _ := headFor(e.model, e.cfg.Head)
	return h.Dim(e.model.Dim())
}

// Config returns the encoder's configuration and the model's, for
// manifests.
func (e *Encoder) Config() map[string]any {
	return map[string]any{"encoder": e.cfg, "model": e.model.Config(), "tokenizer": e.model.Tokenizer().Name()}
}

// LastTrainResult returns the report of the last Train call, or nil.
func (e *Encoder) LastTrainResult() *TrainResult { return e.last }

// Encode implements sv.Encoder: one utterance vector per text. With the
// attention head each text is treated as a set of one utterance, so the
// vectors live in the same space as EncodeSets'.
func (e *Encoder) Encode(ctx context.Context, texts []string, progress sv.Progress) ([][]float32, error) {
	mean, err := e.centerMean(ctx, func(ctx context.Context, t []string) ([][]float32, error) { return e.encodeRaw(ctx, t, nil) })
	if err != nil {
		return nil, err
	}
	vecs, err := e.encodeRaw(ctx, texts, progress)
	if err != nil {
		return nil, err
	}
	subtractMean(vecs, mean)
	return vecs, nil
}

// encodeRaw is Encode without centring.
func (e *Encoder) encodeRaw(ctx context.Context, texts []string, progress sv.Progress) ([][]float32, error) {
	net, err := e.Network()
	if err != nil {
		return nil, err
	}
	if _, mean := net.Head.(MeanHead); mean {
		return net.EmbedUtterances(ctx, texts, e.cfg.BatchSize, progress)
	}
	sets := make([][]string, len(texts))
	for i, t := range texts {
		sets[i] = []string{t}
	}
	return net.EmbedSets(ctx, sets, e.cfg.BatchSize, progress)
}

// EmbedSets returns one vector per set: the mean of its utterance vectors
// (mean head) or the head's output over all its utterances, centred like
// Encode's when EncoderConfig.Center is set.
func (e *Encoder) EmbedSets(ctx context.Context, sets [][]string, progress sv.Progress) ([][]float32, error) {
	mean, err := e.centerMean(ctx, func(ctx context.Context, t []string) ([][]float32, error) { return e.encodeRaw(ctx, t, nil) })
	if err != nil {
		return nil, err
	}
	net, err := e.Network()
	if err != nil {
		return nil, err
	}
	vecs, err := net.EmbedSets(ctx, sets, e.cfg.BatchSize, progress)
	if err != nil {
		return nil, err
	}
	subtractMean(vecs, mean)
	return vecs, nil
}

// Train implements sv.Trainable: contrastive fine-tuning on c's training
// pairs (dev pairs for monitoring) with cfg.Train; the seed defaults to the
// encoder's.
func (e *Encoder) Train(ctx context.Context, c *pairs.PairCorpus, progress sv.Progress) error {
	net, err := e.Network()
	if err != nil {
		return err
	}
	tc := e.cfg.Train
	if tc.Seed == 0 {
		tc.Seed = e.cfg.Seed
	}
	if tc.Logf == nil {
		tc.Logf = e.cfg.Logf
	}
	res, err := Train(ctx, net, c, tc, progress)
	if err != nil {
		return fmt.Errorf("encoder %s: %w", e.cfg.Name, err)
	}
	e.last = res
	e.mu.Lock()
	e.center = nil // the weights changed: recompute the centring mean
	e.mu.Unlock()
	return nil
}

// Close implements sv.Closer.
func (e *Encoder) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.net != nil {
		e.net.Close()
		e.net = nil
	}
	return nil
}
