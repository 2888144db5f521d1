package table2

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/roleprint/roleprint/data/assets"
	"github.com/roleprint/roleprint/sv"
)

// RowEnvironment is what the default-row selection needs to know about
// this machine: Resolve fills it from the asset cache and the backend
// rules (or from Request.Machine), and the workload and costs it measures.
type RowEnvironment struct {
	// Backend is the GoMLX backend the run's GoMLX rows will use;
	// empty when this program has no GoMLX encoders.
	Backend sv.BackendInfo `json:"backend"`
	// Installed reports whether a `roleprint setup` step's asset is in
	// place. Nil counts every asset as installed.
	Installed func(step string) bool `json:"-"`
	// Registered reports whether an encoder is built into this program.
	// Nil asks sv's registry (NewEncoder).
	Registered func(name string) bool `json:"-"`
	// Workload is what one round of the run processes, measured on its
	// inputs (MeasureWorkload); nil estimates for referenceWorkload (one
	// round of the embedded corpus).
	Workload *sv.Workload `json:"workload,omitempty"`
	// Costs are cost models measured on this machine by row name
	// (CalibrateRows); they take precedence over the rows' committed
	// sv.Row.Costs.
	Costs map[string]sv.RowCost `json:"costs,omitempty"`
}

// detectRowEnvironment describes this machine for the default-row
// selection: the backend that backendName ("" = automatic) resolves to,
// through the probe sv/neural installs (without it, no GoMLX rows are
// considered), and the installed assets of `roleprint setup`'s steps
// (data/assets). An invalid backend name is an error.
func detectRowEnvironment(backendName string) (RowEnvironment, error) {
	env := RowEnvironment{Installed: installedStep}
	info, err := sv.DetectBackend(backendName)
	if err != nil {
		return env, err
	}
	env.Backend = info
	return env, nil
}

// installedStep asks the registered setup step; a step this program does
// not know counts as installed (the encoder's own check decides).
func installedStep(step string) bool {
	for _, s := range assets.Steps() {
		if s.Name == step {
			return s.Installed == nil || s.Installed()
		}
	}
	return true
}

// RowSelection is the outcome of selectDefaultRows: the rows of the
// default run, the default Mixed Features parts, and every candidate left
// out with its reason and the command that enables it. The runner records
// it in its configuration (manifest.json, table2.json) and lists the
// skipped rows in its report.
type RowSelection struct {
	// Backend is the GoMLX backend the selection was made for.
	Backend sv.BackendInfo `json:"backend"`
	// Quick is true for the --quick preset.
	Quick bool `json:"quick"`
	// Rows are the selected rows in table order; Mixed the parts of the
	// default "mixed" row that are available (DefaultMixedParts).
	Rows  []string `json:"rows"`
	Mixed []string `json:"mixed"`
	// Workload is what the estimates are for (measured on the inputs, or
	// referenceWorkload).
	Workload sv.Workload `json:"workload"`
	// Estimates are the per-round estimates of the candidate rows on this
	// backend (selected or not; rows without a cost model are absent), in
	// candidate order; Seconds the same by row name.
	Estimates []RowEstimate      `json:"estimates"`
	Seconds   map[string]float64 `json:"seconds_per_round"`
	// EstimatedSeconds is the estimate of the run over DefaultRounds
	// rounds: reading the inputs (sv.Workload.LoadSeconds), building the
	// pairs (sv.Workload.PairsSeconds) and the selected rows; BudgetSeconds the budget it had to fit (BudgetFor; 0 for
	// --quick, whose rows are fixed).
	EstimatedSeconds float64 `json:"estimated_seconds"`
	BudgetSeconds    float64 `json:"budget_seconds"`
	// Skipped lists the candidates left out, why, and the command that
	// would add them.
	Skipped []SkippedEncoder `json:"skipped"`
	// Setup is one `roleprint setup ...` command installing everything
	// the skipped rows wait for (empty when none is missing).
	Setup string `json:"setup,omitempty"`
}

// selectDefaultRows chooses the default rows for env among the registered
// candidates (sv.Rows); see selectRows.
func selectDefaultRows(env RowEnvironment, quick bool) *RowSelection {
	return selectRows(sv.Rows(), env, quick)
}

// selectRows chooses the rows of a default run among candidates (listed
// in their order), deciding the fine-tuned rows first (decisionOrder):
//
//   - a row whose encoder is not built into the program is left out
//     silently;
//   - with quick, only rows marked Quick are kept (the others are listed
//     as skipped: name them with --encoders to run them);
//   - a row waiting for an asset is skipped with its setup command;
//   - a row marked Quick (a CPU baseline) is always kept; any other row
//     (GoMLX and fine-tuned rows) needs a cost model for env's backend
//     (calibrated, env.Costs, or committed, sv.Row.Costs) and is added
//     (with the rows shown With it) only while the estimate of the run
//     for env's sv.Workload over DefaultRounds rounds (pairs and every
//     selected row) stays within BudgetFor(workload); a row skipped so
//     names the backend setup that would make it fit, if any;
//   - rows are decided Quick rows first, then fine-tuned ones, then the
//     rest in candidate order, so that
//     an untuned GoMLX row (use-lite) never takes the budget a fine-tuned
//     row (transformer_ft) would have fitted in: the fine-tuned rows are
//     the paper's argument and the parts of mixed_ft and of the verifier
//     bundle, and with the untuned row decided first a few per cent of
//     calibration noise decided which of the two ran, and so what the
//     default run's bundle held.
//
// The default Mixed Features parts are DefaultMixedParts among the
// selected rows.
func selectRows(candidates []sv.Row, env RowEnvironment, quick bool) *RowSelection {
	w := referenceWorkload()
	if env.Workload != nil {
		w = *env.Workload
	}
	sel := &RowSelection{Backend: env.Backend, Quick: quick, Workload: w, Seconds: map[string]float64{}}
	budget := BudgetFor(w)
	if !quick {
		sel.BudgetSeconds = budget
	}
	registeredRow := env.Registered
	if registeredRow == nil {
		registeredRow = func(name string) bool { base, _ := sv.SplitFineTuned(name); return registered(base) }
	}
	installed := env.Installed
	if installed == nil {
		installed = func(string) bool { return true }
	}
	backend := backendKey(env.Backend.Name)
	// rowSetup holds the setup steps each row asked for; sel.Setup lists
	// them in candidate order, whatever order the rows were decided in.
	rowSetup := map[string][]string{}
	skipped := map[string]SkippedEncoder{}
	skip := func(r sv.Row, reason, setup string) {
		if r.With != "" {
			reason = fmt.Sprintf("shown beside %s, which is not run: %s", r.With, reason)
		}
		skipped[r.Name] = SkippedEncoder{Encoder: r.Name, Reason: reason, Setup: setup}
	}
	// missing returns the row's assets that are not installed.
	missing := func(r sv.Row) []string {
		var out []string
		for _, a := range r.Assets {
			if !installed(a) {
				out = append(out, a)
			}
		}
		return out
	}
	companions := map[string][]sv.Row{}
	for _, r := range candidates {
		if r.With != "" {
			companions[r.With] = append(companions[r.With], r)
		}
	}
	estimates := map[string]RowEstimate{}
	chosen := map[string]bool{}
	total := w.PairsSeconds // per round
	for _, r := range decisionOrder(candidates) {
		if !registeredRow(r.Name) || r.With != "" {
			continue // companions are decided with their row below
		}
		group := []sv.Row{r}
		for _, c := range companions[r.Name] {
			if registeredRow(c.Name) {
				group = append(group, c)
			}
		}
		var groupCost float64
		known := true
		for _, g := range group {
			if e, ok := estimateRow(g, backend, w, env.Costs, nil); ok {
				estimates[g.Name] = e
				sel.Seconds[g.Name] = e.Seconds
				groupCost += e.Seconds
			} else {
				known = false
			}
		}
		if quick && !r.Quick {
			for _, g := range group {
				g.With = "" // the same reason for every row of the group
				skip(g, "not in the --quick preset (GoMLX and fine-tuned rows take minutes); name it with --encoders to run it", "")
			}
			continue
		}
		if miss := missing(r); len(miss) > 0 {
			setup := "roleprint setup " + strings.Join(miss, " ")
			for _, g := range group {
				skip(g, fmt.Sprintf("needs %s, not installed (`%s`)", strings.Join(miss, " and "), setup), setup)
			}
			rowSetup[r.Name] = appendNew(rowSetup[r.Name], miss...)
			continue
		}
		if !r.Quick && !quick {
			if reason, setup := unaffordable(r, group, env.Backend, w, known, total, groupCost, budget); reason != "" {
				if setup != "" {
					rowSetup[r.Name] = appendNew(rowSetup[r.Name], strings.Fields(strings.TrimPrefix(setup, "roleprint setup "))...)
				}
				for _, g := range group {
					skip(g, reason, setup)
				}
				continue
			}
		}
		for _, g := range group {
			chosen[g.Name] = true
		}
		total += groupCost
	}
	sel.EstimatedSeconds = DefaultRounds*total + w.LoadSeconds
	sel.collect(candidates, chosen, estimates, skipped, rowSetup)
	return sel
}

// collect fills sel's lists in candidate order (a companion keeps its own
// place, whatever order the rows were decided in): the rows chosen, the
// estimates, the rows skipped, the default mixed parts among the rows
// chosen and one setup command for every step the skipped rows asked for.
func (sel *RowSelection) collect(candidates []sv.Row, chosen map[string]bool, estimates map[string]RowEstimate, skipped map[string]SkippedEncoder, rowSetup map[string][]string) {
	for _, r := range candidates {
		if chosen[r.Name] {
			sel.Rows = append(sel.Rows, r.Name)
		}
		if e, ok := estimates[r.Name]; ok {
			sel.Estimates = append(sel.Estimates, e)
		}
		if s, ok := skipped[r.Name]; ok {
			sel.Skipped = append(sel.Skipped, s)
		}
	}
	for _, p := range DefaultMixedParts {
		if chosen[p] {
			sel.Mixed = append(sel.Mixed, p)
		}
	}
	var setupSteps []string
	for _, r := range candidates {
		setupSteps = appendNew(setupSteps, rowSetup[r.Name]...)
	}
	if len(setupSteps) > 0 {
		sel.Setup = "roleprint setup " + strings.Join(setupSteps, " ")
	}
}

// unaffordable says why row r (with the rows shown with it, group, whose
// estimate per round is groupCost, or unknown when !known) is not a
// default on backend b for workload w beside the rows already selected
// (total per round) within budget, and the setup that would make it one;
// "" when it fits.
func unaffordable(r sv.Row, group []sv.Row, b sv.BackendInfo, w sv.Workload, known bool, total, groupCost, budget float64) (reason, setup string) {
	if !known {
		// No cost model for this backend: not a default here.
		setup, _ := fasterBackend(group, b, w, total, budget)
		return fmt.Sprintf("no run-time estimate on backend %s; name it with --encoders to run it", orUnknown(b.Name)), setup
	}
	if DefaultRounds*(total+groupCost)+w.LoadSeconds <= budget {
		return "", ""
	}
	setup, other := fasterBackend(group, b, w, total, budget)
	where := "backend " + orUnknown(b.Name)
	if !r.GoMLX {
		where = "this machine"
	}
	reason = fmt.Sprintf("estimated %s for %d rounds on %s (%s) would bring the default run to %s, over its %s budget",
		minutes(DefaultRounds*groupCost), DefaultRounds, where, w.String(), minutes(DefaultRounds*(total+groupCost)+w.LoadSeconds), minutes(budget))
	if setup != "" {
		reason += fmt.Sprintf("; it fits on %s (`%s`)", other, setup)
	} else {
		reason += "; name it with --encoders to run it anyway"
	}
	return reason, setup
}

// decisionOrder returns candidates in the order selectRows spends the
// budget in: the Quick rows (always kept, so their cost is counted before
// any row is weighed against the budget), then the fine-tuned rows (and
// the rows shown With one), then the rest, each part in candidate order.
func decisionOrder(candidates []sv.Row) []sv.Row {
	rank := func(r sv.Row) int {
		if r.Quick {
			return 0
		}
		name := r.Name
		if r.With != "" {
			name = r.With
		}
		if _, ft := sv.SplitFineTuned(name); ft {
			return 1
		}
		return 2
	}
	out := make([]sv.Row, 0, len(candidates))
	for k := range 3 {
		for _, r := range candidates {
			if rank(r) == k {
				out = append(out, r)
			}
		}
	}
	return out
}

// fasterBackend returns the setup command of an installable backend on
// which group would fit the budget beside the rows already selected
// (their cost per round is taken as unchanged), and that backend's name;
// it uses the rows' committed costs (an uninstalled backend cannot be
// calibrated).
func fasterBackend(group []sv.Row, cur sv.BackendInfo, w sv.Workload, selected, budget float64) (setup, name string) {
	keys := slices.Sorted(maps.Keys(cur.Setups))
	for _, b := range keys {
		var c float64
		ok := true
		for _, g := range group {
			e, has := estimateRow(g, backendKey(b), w, nil, nil)
			if !has {
				ok = false
				break
			}
			c += e.Seconds
		}
		if ok && DefaultRounds*(selected+c)+w.LoadSeconds <= budget {
			return cur.Setups[b], b
		}
	}
	return "", ""
}

// backendKey strips options ("go,parallelism=2" → "go").
func backendKey(name string) string {
	k, _, _ := strings.Cut(strings.TrimSpace(name), ",")
	return k
}

func orUnknown(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func appendNew(xs []string, ys ...string) []string {
	for _, y := range ys {
		if !slices.Contains(xs, y) {
			xs = append(xs, y)
		}
	}
	return xs
}

// minutes formats seconds for notes: "45 s", "6.5 min".
func minutes(s float64) string {
	if s < 90 {
		return fmt.Sprintf("%.0f s", s)
	}
	return fmt.Sprintf("%.1f min", s/60)
}

// configFor returns DefaultConfig with sel's rows, mixed
// parts and backend; with sel.Quick, the quickConfig preset (one
// round, capped fitting texts). The selection is kept in the config
// (Selection), so its skipped rows reach the result and the manifest.
func configFor(sel *RowSelection) Config {
	c := DefaultConfig()
	if sel.Quick {
		c = quickConfig()
	}
	c.Encoders = slices.Clone(sel.Rows)
	c.Mixed = slices.Clone(sel.Mixed)
	c.Backend = sel.Backend.Name
	c.Selection = sel
	return c
}
