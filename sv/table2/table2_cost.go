package table2

import (
	"fmt"

	"github.com/roleprint/roleprint/sv"
)

// referenceWorkload is round 1 of the embedded corpus with its pair
// configuration (measured with `roleprint reproduce --dry-run --json`, key
// workload): what rows are estimated for when no workload
// was measured (selectRows without RowEnvironment.Workload).
func referenceWorkload() sv.Workload {
	return sv.Workload{Embedded: true, EvalTexts: 9243, EvalWords: 261392, TrainTexts: 7849, TrainPairs: 2132, Sets: 742}
}

// RowEstimate is one candidate row's estimate for a run's workload.
type RowEstimate struct {
	// Row is the candidate's name; Backend the key its cost was taken
	// for ("" for a CPU row).
	Row     string `json:"row"`
	Backend string `json:"backend,omitempty"`
	// Steps are the training steps per round (0 for rows that do not
	// train); Seconds the estimate per round; Cost the model used.
	Steps   int        `json:"steps,omitempty"`
	Seconds float64    `json:"seconds_per_round"`
	Cost    sv.RowCost `json:"cost"`
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
func rowCost(r sv.Row, b string, costs map[string]sv.RowCost) (sv.RowCost, bool) {
	if c, ok := costs[r.Name]; ok {
		return c, true
	}
	if !r.GoMLX {
		c, ok := r.Costs[""]
		return c, ok
	}
	if b == "" {
		return sv.RowCost{}, false
	}
	c, ok := r.Costs[b]
	return c, ok
}

// estimateRow returns r's estimate for workload w on backend b, with
// settings the row's effective encoder settings (for sv.Row.Steps).
func estimateRow(r sv.Row, b string, w sv.Workload, costs map[string]sv.RowCost, settings map[string]string) (RowEstimate, bool) {
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

// estimateRows returns the estimates of the named rows for workload w on
// env's backend, with the settings of cfg (nil: the rows' registered
// settings), in the order given; rows without a cost model are left out.
// `roleprint reproduce --encoders` prints them for rows named by hand.
func estimateRows(names []string, env RowEnvironment, w sv.Workload, cfg *Config) []RowEstimate {
	byName := map[string]sv.Row{}
	for _, r := range sv.Rows() {
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
