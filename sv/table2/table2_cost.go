package table2

import (
	"fmt"
	"strings"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/sv"
)

// Workload is what one round of a Table 2 run processes, measured on the
// actual inputs (MeasureWorkload on the first round's pair corpus): the
// sizes that each row's RowCost multiplies by its per-unit speeds.
type Workload struct {
	// Embedded is true for the embedded Shakespeare corpus (no input
	// files); it chooses the budget (BudgetFor).
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

// MeasureWorkload returns the workload of one round with corpus c.
func MeasureWorkload(c *pairs.PairCorpus) Workload {
	var w Workload
	if c == nil {
		return w
	}
	w.Sets = len(c.Sets)
	w.TrainPairs = len(c.Train)
	seen := map[string]bool{}
	for _, s := range evalSets(c) {
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
	w.TrainTexts = len(sv.TrainTexts(c, 0))
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

// ReferenceWorkload is round 1 of the embedded corpus with its pair
// configuration (measured with `roleprint reproduce --dry-run --json`, key
// workload): what rows are estimated for when no workload
// was measured (SelectRows without RowEnvironment.Workload).
func ReferenceWorkload() Workload {
	return Workload{Embedded: true, EvalTexts: 9243, EvalWords: 261392, TrainTexts: 7849, TrainPairs: 2132, Sets: 742}
}

// RowCost is a row's cost model: the seconds one round takes as a sum of
// per-unit costs times the round's measured sizes (Workload), plus the
// training steps the row takes for that workload (DefaultRow.Steps):
//
//	Fixed + PerEvalText·EvalTexts + PerEvalToken·EvalTokens(TokenLimit)
//	      + PerTrainText·TrainTexts + PerTrainPair·TrainPairs + PerStep·steps
//
// A CPU baseline's costs are committed constants (measured with the
// command given beside them); a GoMLX row's come from a short calibration
// on this machine's backend (CalibrateRow), and committed ones per
// backend are its fallback.
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
	// shape batch); DefaultRow.Steps says how many a round takes.
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

// RowEstimate is one candidate row's estimate for a run's workload.
type RowEstimate struct {
	// Row is the candidate's name; Backend the key its cost was taken
	// for ("" for a CPU row).
	Row     string `json:"row"`
	Backend string `json:"backend,omitempty"`
	// Steps are the training steps per round (0 for rows that do not
	// train); Seconds the estimate per round; Cost the model used.
	Steps   int     `json:"steps,omitempty"`
	Seconds float64 `json:"seconds_per_round"`
	Cost    RowCost `json:"cost"`
}

// String formats the estimate for notes: "tfidf 3 s/round".
func (e RowEstimate) String() string {
	s := fmt.Sprintf("%s %s/round", e.Row, minutes(e.Seconds))
	if e.Steps > 0 {
		s += fmt.Sprintf(" (%d steps)", e.Steps)
	}
	return s
}

// rowCost returns the cost model of row r on backend b: a measured one
// from costs (calibrated on this machine) first, else the committed one
// (r.Costs[""] for a CPU row, r.Costs[b] for a GoMLX row).
func rowCost(r DefaultRow, b string, costs map[string]RowCost) (RowCost, bool) {
	if c, ok := costs[r.Name]; ok {
		return c, true
	}
	if !r.GoMLX {
		c, ok := r.Costs[""]
		return c, ok
	}
	if b == "" {
		return RowCost{}, false
	}
	c, ok := r.Costs[b]
	return c, ok
}

// estimateRow returns r's estimate for workload w on backend b, with
// settings the row's effective encoder settings (for DefaultRow.Steps).
func estimateRow(r DefaultRow, b string, w Workload, costs map[string]RowCost, settings map[string]string) (RowEstimate, bool) {
	c, ok := rowCost(r, b, costs)
	if !ok {
		return RowEstimate{Row: r.Name}, false
	}
	e := RowEstimate{Row: r.Name, Cost: c}
	if r.GoMLX {
		e.Backend = b
	}
	if r.Steps != nil {
		if settings == nil {
			settings = DefaultRowSettings(r.Name)
		}
		e.Steps = r.Steps(w, settings)
	}
	e.Seconds = c.Seconds(w, e.Steps)
	return e, true
}

// EstimateRows returns the estimates of the named rows for workload w on
// env's backend, with the settings of cfg (nil: the rows' registered
// settings), in the order given; rows without a cost model are left out.
// `roleprint reproduce --encoders` prints them for rows named by hand.
func EstimateRows(names []string, env RowEnvironment, w Workload, cfg *Table2Config) []RowEstimate {
	byName := map[string]DefaultRow{}
	for _, r := range DefaultRows() {
		byName[r.Name] = r
	}
	var out []RowEstimate
	for _, n := range names {
		r, ok := byName[n]
		if !ok {
			continue
		}
		var settings map[string]string
		if cfg != nil {
			settings = cfg.EncoderOptions(n, 0).Settings
		}
		if e, ok := estimateRow(r, backendKey(env.Backend.Name), w, env.Costs, settings); ok {
			out = append(out, e)
		}
	}
	return out
}
