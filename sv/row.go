package sv

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/roleprint/roleprint/data/pairs"
)

// Row is an encoder package's own description of its row in the default
// Table 2 run (`roleprint reproduce` without --encoders): what it needs
// and what it costs, so that the runner (sv/table2) can include it when
// this machine can afford it for the run's inputs and say why when it
// cannot. An encoder package registers its rows beside its encoders
// (RegisterRow in an init function), so no model package depends on the
// runner; the runner reads them with Rows.
//
// A row registers its own cost model (Costs, and Steps for a trainer that
// runs by steps). A pure-Go fine-tuned row that passes over the training
// pairs, for instance, registers per-utterance and per-pair costs measured
// with a command named in a comment:
//
//	sv.RegisterRow(sv.Row{Name: "style_ft",
//		Costs: map[string]sv.RowCost{"": {Fixed: 0.5, PerEvalText: 2e-5, PerTrainText: 1e-5, PerTrainPair: 3e-5}},
//		Why:   "a sparse style metric trained on the pairs"})
//
// and may set Calibrate to have the runner measure them on this machine
// instead (a CPU row's calibration fits, trains and embeds like a GoMLX
// row's; a trainer without Steps trains once on the round's pairs and
// gets PerTrainPair). A row not marked Quick must fit the run's budget
// with the rows before it.
type Row struct {
	// Name is the row ("tfidf", "transformer_ft").
	Name string `json:"name"`
	// Assets are the `roleprint setup` steps the row needs ("glove",
	// "use-lite"); the row is skipped, naming the command, while one is
	// not installed.
	Assets []string `json:"assets,omitempty"`
	// GoMLX marks a row that runs on a GoMLX compute backend; its Costs
	// are then keyed by backend, and Calibrate measures them on the run's
	// backend.
	GoMLX bool `json:"gomlx,omitempty"`
	// Costs are the row's committed cost models (RowCost: seconds per
	// eval utterance, per token, per training text, pair or step, plus a
	// fixed part per round), by canonical backend name ("go", "onnx",
	// "xla:cuda") for a GoMLX row, under "" for the others. A row
	// registers its own: a pure-Go trainer (a sparse style metric) its
	// PerTrainPair, a GoMLX trainer its PerStep with Steps, an encoder its
	// PerEvalText or PerEvalToken. A CPU row's figures are measured
	// constants (say with which command in a comment); a GoMLX row's are
	// the fallback when it is not calibrated, and what a skipped row's
	// note uses to name a faster backend. A GoMLX row without a cost for
	// the run's backend (committed or calibrated) is not a default there.
	Costs map[string]RowCost `json:"costs"`
	// Steps returns the training steps one round takes for workload w
	// with the row's effective encoder settings (the preset's row
	// settings below the user's); nil for rows that do not train by steps.
	Steps func(w Workload, settings map[string]string) int `json:"-"`
	// Calibrate, for a GoMLX row, lets the runner measure the row's
	// per-unit costs on this machine's backend (CalibrationSteps steps and
	// CalibrationTexts of the run's own utterances; cached).
	// CalibrationSettings are encoder settings for that short run on top
	// of the row's (e.g. a small max_steps).
	Calibrate           bool              `json:"calibrate,omitempty"`
	CalibrationSettings map[string]string `json:"calibration_settings,omitempty"`
	// Quick includes the row in the quick preset's default rows.
	// Fine-tuned and other GoMLX rows are not: the preset must stay under
	// a minute on 2 cores.
	Quick bool `json:"quick,omitempty"`
	// With names the row this one is shown beside: it is a default only
	// together with that row, and its cost counts with it (the untrained
	// "transformer" beside "transformer_ft").
	With string `json:"with,omitempty"`
	// Why says in a few words what the row adds (for the selection note).
	Why string `json:"why,omitempty"`
}

// CalibrationTexts and CalibrationSteps size one row's calibration: it
// embeds CalibrationTexts of the run's utterances twice and trains
// CalibrationSteps steps.
const (
	CalibrationTexts = 256
	CalibrationSteps = 5
)

var (
	rowsMu       sync.Mutex
	rows         []Row
	backendProbe BackendProbe
)

// RegisterRow adds a candidate row of the default Table 2 run, after those
// registered before it (the table's row order). Packages call it from an
// init function next to RegisterEncoder; registering a name twice or an
// empty name panics.
func RegisterRow(r Row) {
	if r.Name == "" {
		panic("sv: default row without a name")
	}
	rowsMu.Lock()
	defer rowsMu.Unlock()
	for _, o := range rows {
		if o.Name == r.Name {
			panic("sv: default row registered twice: " + r.Name)
		}
	}
	rows = append(rows, r.clone())
}

// Rows returns the registered candidate rows in registration order (a
// copy): the baselines' (sv/table2 registers the CPU baselines of its
// default encoders), then the rows other packages registered (sv/baseline:
// ngram-metric; sv/neural: transformer, transformer_ft, use-lite,
// use-lite_ft).
func Rows() []Row {
	rowsMu.Lock()
	defer rowsMu.Unlock()
	out := make([]Row, len(rows))
	for i, r := range rows {
		out[i] = r.clone()
	}
	return out
}

func (r Row) clone() Row {
	r.Assets = slices.Clone(r.Assets)
	r.Costs = maps.Clone(r.Costs)
	r.CalibrationSettings = maps.Clone(r.CalibrationSettings)
	return r
}

// BackendInfo is what a BackendProbe reports about a GoMLX backend.
type BackendInfo struct {
	// Name is the canonical backend ("go", "onnx", "xla:cuda").
	Name string `json:"name"`
	// Reason says why it was chosen ("ONNX Runtime found at ...",
	// "--backend go").
	Reason string `json:"reason"`
	// Setups maps backends that are not installed to the command that
	// installs them ("onnx" → "roleprint setup onnxruntime"), so a row
	// skipped as too slow here can say what would enable it.
	Setups map[string]string `json:"setups,omitempty"`
}

// BackendProbe resolves a backend name ("" = the automatic choice) the way
// GoMLX encoders will. sv/neural installs sv/backend's rules with
// SetBackendProbe; sv itself links no GoMLX.
type BackendProbe func(name string) (BackendInfo, error)

// SetBackendProbe installs the probe DetectBackend uses.
func SetBackendProbe(p BackendProbe) {
	rowsMu.Lock()
	defer rowsMu.Unlock()
	backendProbe = p
}

// DetectBackend resolves name ("" = automatic) with the installed probe.
// Without one (a program that links no GoMLX encoders) it returns an
// empty Name and says so in Reason; an invalid name is the probe's error.
func DetectBackend(name string) (BackendInfo, error) {
	rowsMu.Lock()
	probe := backendProbe
	rowsMu.Unlock()
	if probe == nil {
		return BackendInfo{Reason: "no GoMLX encoders in this program"}, nil
	}
	return probe(name)
}

// Workload is what one round of a Table 2 run processes, measured on the
// actual inputs (MeasureWorkload on the first round's pair corpus): the
// sizes that each row's RowCost multiplies by its per-unit speeds.
type Workload struct {
	// Embedded is true for the embedded Shakespeare corpus (no input
	// files); it chooses the run's budget.
	Embedded bool `json:"embedded"`
	// EvalTexts are the distinct utterances of the dev and test sets (what
	// every encoder embeds once per round); EvalWords their
	// whitespace-separated words.
	EvalTexts int `json:"eval_texts"`
	EvalWords int `json:"eval_words"`
	// TrainTexts are the distinct utterances of the training pairs' sets
	// (what a Fitter is fitted on); TrainPairs the training pairs.
	TrainTexts int `json:"train_texts"`
	TrainPairs int `json:"train_pairs"`
	// Sets counts the round's utterance sets.
	Sets int `json:"sets"`
	// PairsSeconds is the time one round's pairs took to build (measured
	// while measuring the workload; 0 when unknown).
	PairsSeconds float64 `json:"pairs_s"`
	// LoadSeconds is the one-time cost of the run outside its rounds:
	// reading the inputs (measured by the caller; 0 when unknown).
	LoadSeconds float64 `json:"load_s"`

	// evalWords holds each distinct eval text's word count, for
	// EvalTokens.
	evalWords []int32
}

// MeasureWorkload returns the workload of one round with corpus c (nil:
// the zero workload).
func MeasureWorkload(c *pairs.PairCorpus) Workload {
	var w Workload
	if c == nil {
		return w
	}
	w.Sets = len(c.Sets)
	w.TrainPairs = len(c.Train)
	seen := map[string]bool{}
	for _, s := range EvalSets(c) {
		for _, t := range s.Texts {
			if !seen[t] {
				seen[t] = true
				n := int32(len(strings.Fields(t)))
				w.evalWords = append(w.evalWords, n)
				w.EvalWords += int(n)
			}
		}
	}
	w.EvalTexts = len(w.evalWords)
	w.TrainTexts = len(TrainTexts(c, 0))
	return w
}

// EvalTokens returns the token slots the eval texts fill when each text
// is cut to limit tokens (limit ≤ 0: no cut), counting a text's words plus
// one (an end or class token; tokenizers that split punctuation are
// absorbed in the per-token speed).
func (w Workload) EvalTokens(limit int) int {
	if w.evalWords == nil {
		// A hand-built workload: spread the words evenly.
		if w.EvalTexts == 0 {
			return 0
		}
		per := w.EvalWords/w.EvalTexts + 1
		if limit > 0 {
			per = min(per, limit)
		}
		return per * w.EvalTexts
	}
	var n int
	for _, c := range w.evalWords {
		t := int(c) + 1
		if limit > 0 {
			t = min(t, limit)
		}
		n += t
	}
	return n
}

// String summarises the workload for notes: "9,243 eval utterances,
// 2,700 training pairs per round".
func (w Workload) String() string {
	return fmt.Sprintf("%s eval utterances, %s training pairs per round", thousands(w.EvalTexts), thousands(w.TrainPairs))
}

// thousands formats n with commas (9243 → "9,243").
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// RowCost is a row's cost model: the seconds one round takes as a sum of
// per-unit costs times the round's measured sizes (Workload), plus the
// training steps the row takes for that workload (Row.Steps):
//
//	Fixed + PerEvalText·EvalTexts + PerEvalToken·EvalTokens(TokenLimit)
//	      + PerTrainText·TrainTexts + PerTrainPair·TrainPairs + PerStep·steps
//
// A CPU baseline's costs are committed constants (measured with the
// command given beside them); a GoMLX row's come from a short calibration
// on this machine's backend, and committed ones per backend are its
// fallback.
type RowCost struct {
	// Fixed is per round: building the encoder, loading a model,
	// compiling graphs.
	Fixed float64 `json:"fixed_s,omitempty"`
	// PerEvalText and PerEvalToken are the embedding cost per distinct
	// dev/test utterance and per token slot (texts cut to TokenLimit
	// tokens; 0 = no cut).
	PerEvalText  float64 `json:"per_eval_text_s,omitempty"`
	PerEvalToken float64 `json:"per_eval_token_s,omitempty"`
	TokenLimit   int     `json:"token_limit,omitempty"`
	// PerTrainText is the fitting cost per distinct training utterance
	// (a Fitter's vocabulary, a tagger).
	PerTrainText float64 `json:"per_train_text_s,omitempty"`
	// PerTrainPair is the training cost per training pair (a trainer
	// that passes over all pairs: a sparse metric in pure Go).
	PerTrainPair float64 `json:"per_train_pair_s,omitempty"`
	// PerStep is the cost of one training step (a GoMLX trainer's fixed-
	// shape batch); Row.Steps says how many a round takes.
	PerStep float64 `json:"per_step_s,omitempty"`
	// Source says where the figures come from ("committed: ...",
	// "calibrated on onnx ...").
	Source string `json:"source,omitempty"`
}

// Seconds returns the estimate of one round with workload w and steps
// training steps.
func (c RowCost) Seconds(w Workload, steps int) float64 {
	return c.Fixed + c.PerEvalText*float64(w.EvalTexts) + c.PerEvalToken*float64(w.EvalTokens(c.TokenLimit)) +
		c.PerTrainText*float64(w.TrainTexts) + c.PerTrainPair*float64(w.TrainPairs) + c.PerStep*float64(steps)
}

// EvalSets returns the sets of c's dev and test pairs, sorted by ID: what
// an encoder embeds in a Table 2 round.
func EvalSets(c *pairs.PairCorpus) []*pairs.UtteranceSet {
	ids := map[string]bool{}
	add := func(ps []pairs.Pair) {
		for _, p := range ps {
			ids[p.A], ids[p.B] = true, true
		}
	}
	add(c.Dev)
	for _, ps := range c.Tests {
		add(ps)
	}
	return SetsByID(c, ids)
}

// PairLabels returns whether each pair is positive (same speaker).
func PairLabels(pairList []pairs.Pair) []bool {
	out := make([]bool, len(pairList))
	for i, p := range pairList {
		out[i] = p.Label == 1
	}
	return out
}
