package neural

import (
	"fmt"
	"math"
)

// TrainConfig holds the contrastive trainer's settings. DefaultTrainConfig
// returns every default (sized for 2 CPU cores; the paper's values are
// given beside them); a zero field means what it says (0 steps of warm-up,
// no step cap), except MicroBatchPairs and MaxTokens, whose 0 is "no split"
// and "the model's MaxLen()". Keys (`opt` tags) are the encoder settings of
// `--set` (`roleprint config transformer_ft`).
type TrainConfig struct {
	// Epochs over the training pairs. Default 1 (paper: 5).
	Epochs int `json:"epochs" opt:"epochs"`
	// BatchPairs is the number of pairs per optimizer step. Default 32
	// (paper: 1024).
	BatchPairs int `json:"batch_pairs"`
	// MicroBatchPairs is the number of pairs per forward/backward pass; when
	// smaller than BatchPairs, gradients are accumulated over
	// ceil(BatchPairs/MicroBatchPairs) passes before one optimizer step,
	// giving the same update as one big batch. Default 0: no split (one
	// pass of BatchPairs).
	MicroBatchPairs int `json:"micro_batch_pairs"`
	// LearningRate is Adam's peak learning rate. Default 2e-5, the paper's
	// value for pretrained encoders; a row's defaults may choose another
	// (1e-3 for the from-scratch transformer, 5e-5 for USE-Lite).
	LearningRate float64 `json:"learning_rate" opt:"lr"`
	// WarmupFraction of the steps over which the learning rate rises
	// linearly from 0; it then decays linearly to 0 at the last step.
	// Default 0.1; 0 means no warm-up.
	WarmupFraction float64 `json:"warmup_fraction" opt:"warmup"`
	// MaxUtterances is the most utterances of a set used per training
	// step; longer sets contribute a random subset (drawn per step from the
	// seed). Default 8. Embedding after training uses every utterance.
	MaxUtterances int `json:"max_utterances"`
	// MaxTokens caps token ids per utterance. Default 0: the model's
	// MaxLen().
	MaxTokens int `json:"max_tokens"`
	// Margin is m in the loss y·d + (1−y)·max(0, m−d). Default 0.5 (paper).
	Margin float64 `json:"margin"`
	// MaxSteps stops training after this many optimizer steps (0: no cap);
	// the learning-rate schedule spans the capped number of steps.
	MaxSteps int `json:"max_steps"`
	// Seed orders the pairs and samples utterances. The encoder sets it
	// from sv.EncoderOptions.Seed (not a setting).
	Seed int64 `json:"seed" opt:"-"`
	// CheckpointDir, when set, receives a checkpoint every CheckpointEvery
	// steps and at the end; training resumes from the newest one there
	// (unless Fresh). Default "" (the runner's per-round work folder).
	CheckpointDir string `json:"checkpoint_dir,omitempty"`
	// CheckpointEvery is the number of optimizer steps between checkpoints.
	// Default 50.
	CheckpointEvery int `json:"checkpoint_every"`
	// KeepCheckpoints is how many checkpoints to keep. Default 2.
	KeepCheckpoints int `json:"keep_checkpoints"`
	// Fresh ignores existing checkpoints in CheckpointDir (they are
	// overwritten as training proceeds). Default false.
	Fresh bool `json:"fresh,omitempty"`
	// SkipDev turns off the loss and AUC on the dev pairs after each epoch
	// (monitoring only; the last epoch's weights are kept), which run when
	// the corpus has dev pairs. Default false.
	SkipDev bool `json:"skip_dev,omitempty"`

	// Logf, when set, receives one line per epoch and checkpoint.
	Logf func(format string, args ...any) `json:"-"`
	// OnStep, when set, is called after every optimizer step with the
	// 1-based step number and the step's mean loss.
	OnStep func(step int, loss float64) `json:"-"`

	// scatterLookups makes the trainer use plain Gather lookups, whose
	// gradient is the racing ScatterSum on onnx (tests and the speed
	// comparison only; see lookup.go).
	scatterLookups bool
}

// PretrainedLearningRate is DefaultTrainConfig's learning rate, the
// paper's for pretrained encoders.
const PretrainedLearningRate = 2e-5

// DefaultTrainConfig returns the trainer's defaults, the one place they
// are written (see each field).
func DefaultTrainConfig() TrainConfig {
	return TrainConfig{Epochs: 1, BatchPairs: 32, LearningRate: PretrainedLearningRate, WarmupFraction: 0.1,
		MaxUtterances: 8, Margin: 0.5, CheckpointEvery: 50, KeepCheckpoints: 2}
}

// PaperTrainConfig returns the paper's settings: 5 epochs, batch 1024,
// learning rate 2e-5, 10 % warm-up.
func PaperTrainConfig() TrainConfig {
	c := DefaultTrainConfig()
	c.Epochs, c.BatchPairs, c.LearningRate = 5, 1024, 2e-5
	return c
}

// resolve fills the two fields whose 0 is derived (MicroBatchPairs: no
// split; MaxTokens: model m's MaxLen()) and validates; every other field
// is used as given.
func (c TrainConfig) resolve(m UtteranceModel) (TrainConfig, error) {
	if c.MicroBatchPairs == 0 || c.MicroBatchPairs > c.BatchPairs {
		c.MicroBatchPairs = c.BatchPairs
	}
	if c.MaxTokens == 0 {
		c.MaxTokens = m.MaxLen()
	}
	switch {
	case c.Epochs < 1 || c.BatchPairs < 1 || c.MicroBatchPairs < 1 || c.MaxUtterances < 1 || c.MaxTokens < 2:
		return c, fmt.Errorf("train: epochs %d, batch_pairs %d, micro_batch_pairs %d, max_utterances %d must be positive and max_tokens %d ≥ 2",
			c.Epochs, c.BatchPairs, c.MicroBatchPairs, c.MaxUtterances, c.MaxTokens)
	case !(c.LearningRate > 0):
		return c, fmt.Errorf("train: lr %g must be positive", c.LearningRate)
	case c.WarmupFraction < 0 || c.WarmupFraction >= 1:
		return c, fmt.Errorf("train: warmup %g must be in [0, 1)", c.WarmupFraction)
	case c.Margin <= 0 || c.Margin > 2:
		return c, fmt.Errorf("train: margin %g must be in (0, 2]", c.Margin)
	case c.MaxSteps < 0 || c.CheckpointEvery < 1 || c.KeepCheckpoints < 1:
		return c, fmt.Errorf("train: max_steps %d must not be negative, checkpoint_every %d and keep_checkpoints %d positive",
			c.MaxSteps, c.CheckpointEvery, c.KeepCheckpoints)
	}
	return c, nil
}

// learningRate is the schedule: linear warm-up over the first warm steps,
// then linear decay to 0 at step total (steps are 1-based).
func learningRate(peak float64, step, warm, total int) float64 {
	if warm > 0 && step <= warm {
		return peak * float64(step) / float64(warm)
	}
	if total <= warm {
		return peak
	}
	return peak * math.Max(0, float64(total-step+1)/float64(total-warm))
}

// warmupSteps is the number of warm-up steps for total steps.
func warmupSteps(frac float64, total int) int {
	return int(math.Ceil(frac * float64(total)))
}
