package table2

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
)

// Transfer to unseen corpora, leave-one-corpus-out: for each corpus C of
// the inputs, every trainable row of the plan is trained on the other
// corpora (one Table 2 round of their pairs), saved as a verifier bundle
// and evaluated on C as `roleprint eval` evaluates a bundle (every
// speaker of C unseen; Hard and Harder within C; several pair-sampling
// seeds; adapted without labels to C; untuned encoders fitted on C alone
// scoring the very same pairs; the paired bootstrap of the AUC
// difference). The folds' scores on the corpora they never trained on
// also calibrate the run's own bundle (transfer_calibrate.go).
//
// Evaluation lives in package sv/evaluate, which imports this package; it
// installs itself with RegisterHeldOutEvaluator, as model packages
// register their encoders with sv.

// HeldOutEvaluator evaluates a saved bundle on utterances of corpora it
// was not trained on. sv/evaluate registers the one `roleprint eval`
// uses, with its defaults.
type HeldOutEvaluator struct {
	// Eval evaluates the bundle in dir on utts.
	Eval func(ctx context.Context, dir string, utts []data.Utterance, o HeldOutOptions) (*HeldOutEval, error)
	// Seeds, Vs, Replicates, Confidence and Adapt are the evaluator's
	// defaults (`roleprint eval`'s): the pair-sampling seeds, the encoders
	// compared, the paired bootstrap's replicates and confidence level and
	// the adaptation mode. AsSaved is its mode that scores the bundle as
	// saved (`eval --adapt none`). ECEBins is its ECE's number of bins.
	Seeds      []int64
	Vs         []string
	Replicates int
	Confidence float64
	Adapt      string
	AsSaved    string
	ECEBins    int
}

// HeldOutOptions are what a transfer fold asks of the evaluator: every
// field resolved by Resolve (TransferPlan).
type HeldOutOptions struct {
	Seeds []int64
	Vs    []string
	// Replicates and Confidence are the paired bootstrap's.
	Replicates int
	Confidence float64
	Adapt      string
	// Pairs is the pair protocol (the plan's: its filters and caps).
	Pairs *pairs.PairConfig
	// Backend and BatchSize build the bundle's GoMLX parts and the Vs
	// encoders; Logf and Progress receive notes and progress.
	Backend   string
	BatchSize int
	Logf      func(string, ...any)
	Progress  func(stage string, done, total int)
}

// HeldOutEval is an evaluation of a bundle on one held-out corpus: rows
// of the bundle (Encoder is the bundle's row name) and of each Vs
// encoder per level, the comparisons of the bundle with each, and the
// bundle's own pair scores as scored (HeldOutOptions.Adapt).
type HeldOutEval struct {
	Rows        []HeldOutRow        `json:"rows"`
	Comparisons []HeldOutComparison `json:"comparisons"`
	Scores      []HeldOutScores     `json:"scores"`
	Adapted     []string            `json:"adapted"`
	Notes       []string            `json:"notes"`
}

// LevelMetrics are a scorer's metrics on one level's test pairs over the
// evaluation rounds: AUCMean and AUCStd, AccMean and F1Mean (macro-F1) of
// its decisions, EERMean (all percent), and the mean expected
// calibration error of its probabilities, ECE (a fraction). The rows of
// `eval` (sv/evaluate's EvalRow), of a held-out fold (HeldOutRow) and of
// the transfer table (TransferRow) embed it.
type LevelMetrics struct {
	AUCMean stats.Float `json:"auc_mean"`
	AUCStd  stats.Float `json:"auc_std"`
	AccMean stats.Float `json:"acc_mean"`
	F1Mean  stats.Float `json:"f1_mean"`
	EERMean stats.Float `json:"eer_mean"`
	ECE     stats.Float `json:"ece"`
}

// HeldOutRow is one encoder on one level of the held-out corpus, over the
// seeds (as sv/evaluate's EvalRow).
type HeldOutRow struct {
	Encoder string `json:"encoder"`
	Level   string `json:"level"`
	LevelMetrics
	Pairs  int `json:"pairs"`
	Rounds int `json:"rounds"`
}

// HeldOutComparison is the paired bootstrap of the bundle's AUC against
// another encoder's on one level.
type HeldOutComparison struct {
	Level string `json:"level"`
	Comparison
}

// HeldOutScores are the bundle's scores of one level's pairs in one
// round (pair order) and whether each pair is the same speaker.
type HeldOutScores struct {
	Level    string    `json:"level"`
	Round    int       `json:"round"`
	Scores   []float64 `json:"scores"`
	Positive []bool    `json:"positive"`
}

var (
	heldOutMu   sync.Mutex
	heldOutEval *HeldOutEvaluator
)

// RegisterHeldOutEvaluator installs the evaluator transfer folds use
// (sv/evaluate calls it in its init; a later call replaces it).
func RegisterHeldOutEvaluator(e HeldOutEvaluator) {
	heldOutMu.Lock()
	defer heldOutMu.Unlock()
	heldOutEval = &e
}

// registeredHeldOutEvaluator returns the installed evaluator, or an error
// saying what to import.
func registeredHeldOutEvaluator() (*HeldOutEvaluator, error) {
	heldOutMu.Lock()
	defer heldOutMu.Unlock()
	if heldOutEval == nil || heldOutEval.Eval == nil {
		return nil, fmt.Errorf("transfer: no held-out evaluator is registered (import github.com/roleprint/roleprint/sv/evaluate)")
	}
	return heldOutEval, nil
}

// TransferCalibrationLevel is the level whose held-out scores calibrate
// P(same): Hard, two speakers of one show, where a verdict on a new show
// is used. Harder pairs are left out (their AUC is below chance for every
// scorer measured: a scene's topic outweighs its speakers, and a
// calibration fitted there would read a shared scene as one speaker);
// Base pairs do not exist within one held-out corpus.
const TransferCalibrationLevel = string(pairs.Hard)

// TransferPlan is the transfer folds of a plan (Plan.Transfer), resolved
// by Resolve: which rows are trained, which corpora are held out, on
// which seeds, evaluated how.
type TransferPlan struct {
	// Corpora are the inputs' corpora (pairs.CorpusOf of each
	// utterance's source), sorted; each is held out once.
	Corpora []string `json:"corpora"`
	// Rows are the trainable (fine-tuned) rows of the plan, each trained
	// per fold and evaluated as a bundle of its own. When the run's
	// mixed_ft (its verifier bundle) mixes more than one part, a bundle
	// with its parts and weights is trained and evaluated per fold too
	// (row mixed_ft), so that the calibration fits the bundle's scores.
	Rows []string `json:"rows"`
	// Seed is the training seed of every fold (one round of the fold's
	// pairs, built with the plan's pair settings).
	Seed int64 `json:"seed"`
	// EvalSeeds, Vs and Adapt are the evaluation's pair-sampling seeds,
	// compared encoders and adaptation mode, Replicates and Confidence its
	// paired bootstrap's replicates and confidence level (`roleprint
	// eval`'s defaults); ECEBins the bins of its ECE. AsSaved is the evaluator's mode that
	// scores the bundle as saved: every fold also scores the very same
	// held-out pairs that way (without the Vs encoders), so that the
	// bundle carries a calibration of each kind of score.
	EvalSeeds  []int64  `json:"eval_seeds"`
	Vs         []string `json:"vs"`
	Replicates int      `json:"bootstrap_replicates"`
	Confidence float64  `json:"confidence"`
	Adapt      string   `json:"adapt"`
	AsSaved    string   `json:"as_saved"`
	ECEBins    int      `json:"ece_bins"`
	// CalibrationLevel is the level whose pooled held-out scores
	// calibrate the bundle (TransferCalibrationLevel); every held-out pair
	// weighs the same in the fit (a corpus by its pairs: measured against
	// each corpus weighing the same, the cross-fitted ECE was lower on
	// three held-out corpora of four, docs/training.md).
	CalibrationLevel string `json:"calibration_level"`
	// Folds are the folds, one per corpus that forms evaluation pairs
	// (pairs.BuildEvalPairs with the plan's pair settings); a corpus that
	// forms none is trained on in the other folds, never held out, and
	// Notes say so.
	Folds []TransferFold `json:"folds"`
	Notes []string       `json:"notes,omitempty"`
	// EstimatedSeconds is the folds' expected cost (in the plan's
	// Estimate): the rows' per-round estimates scaled by each fold's
	// share of the utterances, for training on the other corpora and
	// for evaluating on the held-out one, once per evaluation seed and
	// pass (adapted, and as saved), with the Vs encoders in the adapted
	// pass (foldSeconds; rough: the evaluation is not calibrated on its
	// own).
	EstimatedSeconds float64 `json:"estimated_seconds"`
}

// TransferFold is one fold: a corpus held out, the others trained on.
type TransferFold struct {
	// HeldOut is the corpus evaluated on; TrainedOn the others, trained on.
	HeldOut   string   `json:"held_out"`
	TrainedOn []string `json:"trained_on"`
	// HeldOutUtterances and TrainUtterances count the utterances of each
	// side; EstimatedSeconds is the fold's share of
	// TransferPlan.EstimatedSeconds.
	HeldOutUtterances int     `json:"held_out_utterances"`
	TrainUtterances   int     `json:"train_utterances"`
	EstimatedSeconds  float64 `json:"estimated_seconds"`
}

// Name is the fold's folder name under the checkpoints ("heldout-C").
func (f TransferFold) Name() string { return "heldout-" + safeFileName(f.HeldOut) }

// safeFileName keeps letters, digits, '-', '_' and '.' of s.
func safeFileName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, s)
}

// corpusUtterances groups utterances by corpus (pairs.CorpusOf of their
// source), keeping their order; names are sorted.
func corpusUtterances(utts []data.Utterance) (names []string, by map[string][]data.Utterance) {
	by = map[string][]data.Utterance{}
	for _, u := range utts {
		c := pairs.CorpusOf(u.Source)
		if _, ok := by[c]; !ok {
			names = append(names, c)
		}
		by[c] = append(by[c], u)
	}
	slices.Sort(names)
	return names, by
}

// resolveTransfer resolves the transfer folds of cfg's rows (run) for
// in with the pair settings pc: at least two corpora, at least one
// trainable row, an evaluator registered, a fold per corpus that forms
// evaluation pairs. est is the plan's estimate without the folds.
func resolveTransfer(cfg Config, run []string, in Inputs, pc pairs.PairConfig, est Estimate) (*TransferPlan, error) {
	names, by := corpusUtterances(in.Utterances)
	if len(names) < 2 {
		return nil, fmt.Errorf("transfer: leave-one-corpus-out needs at least 2 corpora, the inputs hold %d (%s): a corpus is the dataset an utterance's source names (the part before '/'), one per input file as imported; give two corpora or more",
			len(names), strings.Join(names, ", "))
	}
	var rows []string
	for _, n := range run {
		if _, ft := sv.SplitFineTuned(n); ft {
			rows = append(rows, n)
		}
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("transfer: no trainable row among %s: the folds train the fine-tuned (_ft) rows; add one (e.g. ngram-metric_ft)", strings.Join(run, ", "))
	}
	ev, err := registeredHeldOutEvaluator()
	if err != nil {
		return nil, err
	}
	if len(ev.Seeds) == 0 {
		return nil, fmt.Errorf("transfer: the held-out evaluator has no pair-sampling seeds")
	}
	if ev.Replicates <= 0 || !(ev.Confidence > 0 && ev.Confidence < 1) {
		return nil, fmt.Errorf("transfer: the held-out evaluator's bootstrap (%d replicates, confidence %g) is not resolved: want ≥ 1 replicate and a level in (0, 1)", ev.Replicates, ev.Confidence)
	}
	tp := &TransferPlan{Corpora: names, Rows: rows, Seed: cfg.Seed, EvalSeeds: slices.Clone(ev.Seeds), Vs: slices.Clone(ev.Vs),
		Replicates: ev.Replicates, Confidence: ev.Confidence, Adapt: ev.Adapt, AsSaved: ev.AsSaved, ECEBins: ev.ECEBins, CalibrationLevel: TransferCalibrationLevel}
	if tp.AsSaved == "" {
		return nil, fmt.Errorf("transfer: the held-out evaluator names no mode that scores a bundle as saved")
	}
	// Per-round cost of the trained rows and of the compared (Vs)
	// encoders that are rows of the plan (a Vs encoder the plan does not
	// run has no estimate and is not counted).
	var perRound, vsPerRound float64
	for _, e := range est.Estimates {
		if slices.Contains(rows, e.Row) {
			perRound += e.Seconds
		}
		if slices.Contains(tp.Vs, e.Row) {
			vsPerRound += e.Seconds
		}
	}
	passes := 2 // the adapted evaluation and the as-saved one
	if tp.AsSaved == tp.Adapt {
		passes = 1
	}
	total := float64(len(in.Utterances))
	for _, c := range names {
		if _, err := pairs.BuildEvalPairs(by[c], pc, tp.EvalSeeds[:1]); err != nil {
			tp.Notes = append(tp.Notes, fmt.Sprintf("%s is never held out (trained on in the other folds): it forms no evaluation pairs: %v", c, err))
			continue
		}
		held := float64(len(by[c]))
		f := TransferFold{HeldOut: c, HeldOutUtterances: len(by[c]), TrainUtterances: len(in.Utterances) - len(by[c])}
		for _, o := range names {
			if o != c {
				f.TrainedOn = append(f.TrainedOn, o)
			}
		}
		if total > 0 {
			f.EstimatedSeconds = foldSeconds(perRound, vsPerRound, est.Workload.PairsSeconds, held/total, len(tp.EvalSeeds), passes)
		}
		tp.EstimatedSeconds += f.EstimatedSeconds
		tp.Folds = append(tp.Folds, f)
	}
	if len(tp.Folds) == 0 {
		return nil, fmt.Errorf("transfer: no corpus of %s forms evaluation pairs under the pair settings: %s", strings.Join(names, ", "), strings.Join(tp.Notes, "; "))
	}
	return tp, nil
}

// foldSeconds is the estimate of one transfer fold whose held-out corpus
// holds the share heldShare of the utterances, from the per-round Table
// 2 estimates of the trained rows (perRound), of the compared encoders
// (vsPerRound) and of building the pairs (pairsSeconds). Training is one
// round on the other corpora: (perRound + pairsSeconds) × (1 −
// heldShare). Evaluation runs passes passes over the held-out pairs
// (adapted, and as saved), each one round per evaluation seed, every
// round costing the trained rows' per-round estimate scaled by the held
// share; the compared encoders are fitted and score the same pairs in
// the first (adapted) pass only: heldShare × seeds × (passes × perRound
// + vsPerRound). A round's cost is a Table 2 round's scaled by the share
// of utterances, which the evaluation's embedding, adaptation and
// bootstrap are assumed to follow (rough: none of them is calibrated on
// its own).
func foldSeconds(perRound, vsPerRound, pairsSeconds, heldShare float64, seeds, passes int) float64 {
	train := (perRound + pairsSeconds) * (1 - heldShare)
	eval := heldShare * float64(seeds) * (float64(passes)*perRound + vsPerRound)
	return train + eval
}
