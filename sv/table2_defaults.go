package sv

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/roleprint/roleprint/data/assets"
)

// DefaultRow is a candidate row of the default Table 2 run (`roleprint
// reproduce` without --encoders): what it needs and what it costs, so
// that SelectDefaultRows can include it when this machine can afford it
// and say why when it cannot.
type DefaultRow struct {
	// Name is the row ("tfidf", "transformer_ft").
	Name string `json:"name"`
	// Assets are the `roleprint setup` steps the row needs ("glove",
	// "use-lite"); the row is skipped, naming the command, while one is
	// not installed.
	Assets []string `json:"assets,omitempty"`
	// GoMLX marks a row that runs on a GoMLX compute backend; Seconds is
	// then keyed by backend.
	GoMLX bool `json:"gomlx,omitempty"`
	// Seconds estimates one round on the embedded corpus (about 10,600
	// distinct dev and test utterances and 2,700 training pairs per round)
	// on 2 idle cores (on one GPU for "xla:cuda"): by canonical backend
	// name ("go", "onnx", "xla:cuda") for a GoMLX row, under "" for the
	// others. A GoMLX row without an estimate for the run's backend is
	// not a default there.
	Seconds map[string]float64 `json:"seconds"`
	// Quick includes the row in the --quick preset (QuickTable2Config).
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

// DefaultRounds is the number of rounds the default-row budget is
// computed for (the paper's 3): the default rows do not change with
// --rounds, so tables stay comparable.
const DefaultRounds = 3

// DefaultRowBudgetSeconds is the estimated time the default rows may take
// together on the embedded corpus over DefaultRounds rounds: 8 minutes,
// which leaves headroom below the 10 minutes the default run must stay
// under on 2 cores (issues 3 and 10).
const DefaultRowBudgetSeconds = 480.0

var (
	defaultRowsMu sync.Mutex
	defaultRows   []DefaultRow
	backendProbe  BackendProbe
)

// RegisterDefaultRow adds a candidate row of the default run, after those
// registered before it (the table's row order). Packages call it from an
// init function next to RegisterEncoder; registering a name twice or an
// empty name panics.
func RegisterDefaultRow(r DefaultRow) {
	if r.Name == "" {
		panic("sv: default row without a name")
	}
	defaultRowsMu.Lock()
	defer defaultRowsMu.Unlock()
	for _, o := range defaultRows {
		if o.Name == r.Name {
			panic("sv: default row registered twice: " + r.Name)
		}
	}
	r.Assets = slices.Clone(r.Assets)
	r.Seconds = maps.Clone(r.Seconds)
	defaultRows = append(defaultRows, r)
}

// DefaultRows returns the registered candidate rows in order: the
// baselines of DefaultEncoders, then the rows other packages registered
// (sv/neural: transformer, transformer_ft, use-lite, use-lite_ft).
func DefaultRows() []DefaultRow {
	defaultRowsMu.Lock()
	defer defaultRowsMu.Unlock()
	out := make([]DefaultRow, len(defaultRows))
	for i, r := range defaultRows {
		r.Assets = slices.Clone(r.Assets)
		r.Seconds = maps.Clone(r.Seconds)
		out[i] = r
	}
	return out
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

// SetBackendProbe installs the probe DetectRowEnvironment uses.
func SetBackendProbe(p BackendProbe) {
	defaultRowsMu.Lock()
	defer defaultRowsMu.Unlock()
	backendProbe = p
}

// RowEnvironment is what the default-row selection needs to know about
// this machine. DetectRowEnvironment fills it from the asset cache and
// the backend rules; tests and notebooks may build one by hand.
type RowEnvironment struct {
	// Backend is the GoMLX backend the run's GoMLX rows will use;
	// empty when this program has no GoMLX encoders.
	Backend BackendInfo `json:"backend"`
	// Installed reports whether a `roleprint setup` step's asset is in
	// place. Nil counts every asset as installed.
	Installed func(step string) bool `json:"-"`
	// Registered reports whether an encoder is built into this program.
	// Nil asks sv's registry (NewEncoder).
	Registered func(name string) bool `json:"-"`
}

// DetectRowEnvironment describes this machine for the default-row
// selection: the backend that backendName ("" = automatic) resolves to,
// through the probe sv/neural installs (without it, no GoMLX rows are
// considered), and the installed assets of `roleprint setup`'s steps
// (data/assets). An invalid backend name is an error.
func DetectRowEnvironment(backendName string) (RowEnvironment, error) {
	defaultRowsMu.Lock()
	probe := backendProbe
	defaultRowsMu.Unlock()
	env := RowEnvironment{Installed: installedStep}
	if probe == nil {
		env.Backend = BackendInfo{Name: "", Reason: "no GoMLX encoders in this program"}
		return env, nil
	}
	info, err := probe(backendName)
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

// RowSelection is the outcome of SelectDefaultRows: the rows of the
// default run, the default Mixed Features parts, and every candidate left
// out with its reason and the command that enables it. The runner records
// it in its configuration (manifest.json, table2.json) and lists the
// skipped rows in its report.
type RowSelection struct {
	// Backend is the GoMLX backend the selection was made for.
	Backend BackendInfo `json:"backend"`
	// Quick is true for the --quick preset.
	Quick bool `json:"quick"`
	// Rows are the selected rows in table order; Mixed the parts of the
	// default "mixed" row that are available (DefaultMixedParts).
	Rows  []string `json:"rows"`
	Mixed []string `json:"mixed"`
	// Seconds are the estimates per round of the candidate rows on this
	// backend (selected or not; absent when unknown).
	Seconds map[string]float64 `json:"seconds_per_round"`
	// EstimatedSeconds is the estimate of the selected rows over
	// DefaultRounds rounds; BudgetSeconds the budget it had to fit
	// (DefaultRowBudgetSeconds; 0 for --quick, whose rows are fixed).
	EstimatedSeconds float64 `json:"estimated_seconds"`
	BudgetSeconds    float64 `json:"budget_seconds"`
	// Skipped lists the candidates left out, why, and the command that
	// would add them.
	Skipped []SkippedEncoder `json:"skipped"`
	// Setup is one `roleprint setup ...` command installing everything
	// the skipped rows wait for (empty when none is missing).
	Setup string `json:"setup,omitempty"`
}

// SelectDefaultRows chooses the default rows for env among the registered
// candidates (DefaultRows); see SelectRows.
func SelectDefaultRows(env RowEnvironment, quick bool) *RowSelection {
	return SelectRows(DefaultRows(), env, quick)
}

// SelectRows chooses the rows of a default run among candidates, in their
// order:
//
//   - a row whose encoder is not built into the program is left out
//     silently;
//   - with quick, only rows marked Quick are kept (the others are listed
//     as skipped: name them with --encoders to run them);
//   - a row waiting for an asset is skipped with its setup command;
//   - a GoMLX row needs an estimate for env's backend, and is added (with
//     the rows shown With it) only while the estimated time of all
//     selected rows over DefaultRounds rounds stays within
//     DefaultRowBudgetSeconds; a row skipped so names the backend setup
//     that would make it fit, if any.
//
// The default Mixed Features parts are DefaultMixedParts among the
// selected rows.
func SelectRows(candidates []DefaultRow, env RowEnvironment, quick bool) *RowSelection {
	sel := &RowSelection{Backend: env.Backend, Quick: quick, Seconds: map[string]float64{}}
	if !quick {
		sel.BudgetSeconds = DefaultRowBudgetSeconds
	}
	registeredRow := env.Registered
	if registeredRow == nil {
		registeredRow = func(name string) bool { base, _ := SplitFineTuned(name); return registered(base) }
	}
	installed := env.Installed
	if installed == nil {
		installed = func(string) bool { return true }
	}
	backend := backendKey(env.Backend.Name)
	var setupSteps []string
	skipped := map[string]SkippedEncoder{}
	skip := func(r DefaultRow, reason, setup string) {
		if r.With != "" {
			reason = fmt.Sprintf("shown beside %s, which is not run: %s", r.With, reason)
		}
		skipped[r.Name] = SkippedEncoder{Encoder: r.Name, Reason: reason, Setup: setup}
	}
	// missing returns the row's assets that are not installed.
	missing := func(r DefaultRow) []string {
		var out []string
		for _, a := range r.Assets {
			if !installed(a) {
				out = append(out, a)
			}
		}
		return out
	}
	// cost returns the row's estimate per round on backend b.
	cost := func(r DefaultRow, b string) (float64, bool) {
		if !r.GoMLX {
			s := r.Seconds[""]
			return s, true
		}
		if b == "" {
			return 0, false
		}
		s, ok := r.Seconds[b]
		return s, ok
	}
	companions := map[string][]DefaultRow{}
	for _, r := range candidates {
		if r.With != "" {
			companions[r.With] = append(companions[r.With], r)
		}
	}
	chosen := map[string]bool{}
	var total float64 // per round
	for _, r := range candidates {
		if !registeredRow(r.Name) || r.With != "" {
			continue // companions are decided with their row below
		}
		group := []DefaultRow{r}
		for _, c := range companions[r.Name] {
			if registeredRow(c.Name) {
				group = append(group, c)
			}
		}
		var groupCost float64
		known := true
		for _, g := range group {
			if s, ok := cost(g, backend); ok {
				sel.Seconds[g.Name] = s
				groupCost += s
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
			setupSteps = appendNew(setupSteps, miss...)
			continue
		}
		if r.GoMLX && !quick {
			if !known {
				// No estimate for this backend: not a default here.
				setup, _ := fasterBackend(group, env.Backend, total)
				reason := fmt.Sprintf("no run-time estimate on backend %s; name it with --encoders to run it", orUnknown(env.Backend.Name))
				if setup != "" {
					setupSteps = appendNew(setupSteps, strings.Fields(strings.TrimPrefix(setup, "roleprint setup "))...)
				}
				for _, g := range group {
					skip(g, reason, setup)
				}
				continue
			}
			if DefaultRounds*(total+groupCost) > DefaultRowBudgetSeconds {
				setup, other := fasterBackend(group, env.Backend, total)
				reason := fmt.Sprintf("estimated %s for %d rounds on backend %s would bring the default run to %s, over its %s budget",
					minutes(DefaultRounds*groupCost), DefaultRounds, env.Backend.Name, minutes(DefaultRounds*(total+groupCost)), minutes(DefaultRowBudgetSeconds))
				if setup != "" {
					reason += fmt.Sprintf("; it fits on %s (`%s`)", other, setup)
					setupSteps = appendNew(setupSteps, strings.Fields(strings.TrimPrefix(setup, "roleprint setup "))...)
				} else {
					reason += "; name it with --encoders to run it anyway"
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
	// Rows in candidate order (a companion keeps its own place).
	for _, r := range candidates {
		if chosen[r.Name] {
			sel.Rows = append(sel.Rows, r.Name)
		}
		if s, ok := skipped[r.Name]; ok {
			sel.Skipped = append(sel.Skipped, s)
		}
	}
	sel.EstimatedSeconds = DefaultRounds * total
	for _, p := range DefaultMixedParts {
		if chosen[p] {
			sel.Mixed = append(sel.Mixed, p)
		}
	}
	if len(setupSteps) > 0 {
		sel.Setup = "roleprint setup " + strings.Join(setupSteps, " ")
	}
	return sel
}

// fasterBackend returns the setup command of an installable backend on
// which group would fit the budget beside the rows already selected
// (their cost per round is taken as unchanged), and that backend's name.
func fasterBackend(group []DefaultRow, cur BackendInfo, selected float64) (setup, name string) {
	keys := slices.Sorted(maps.Keys(cur.Setups))
	for _, b := range keys {
		var c float64
		ok := true
		for _, g := range group {
			s, has := g.Seconds[backendKey(b)]
			if !has {
				ok = false
				break
			}
			c += s
		}
		if ok && DefaultRounds*(selected+c) <= DefaultRowBudgetSeconds {
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

// Table2ConfigFor returns DefaultTable2Config with sel's rows, mixed
// parts and backend; with sel.Quick, the QuickTable2Config preset (one
// round, capped fitting texts). The selection is kept in the config
// (Selection), so its skipped rows reach the result and the manifest.
func Table2ConfigFor(sel *RowSelection) Table2Config {
	c := DefaultTable2Config()
	if sel.Quick {
		c = QuickTable2Config()
	}
	c.Encoders = slices.Clone(sel.Rows)
	c.Mixed = slices.Clone(sel.Mixed)
	c.Backend = sel.Backend.Name
	c.Selection = sel
	return c
}

// The baselines' candidate rows (registered encoders of sv/baseline):
// cheap on any backend, all in the --quick preset; the GloVe rows need
// `roleprint setup glove`. Seconds are per round on the embedded corpus
// (`roleprint reproduce` with these rows: 15 s for 3 rounds at load 2).
func init() {
	cost := map[string]float64{"liwc": 0.5, "lsm": 0.3, "pos": 1.5, "glove": 0.5, "glove-sif": 0.7, "tfidf": 1.5}
	for _, n := range DefaultEncoders {
		r := DefaultRow{Name: n, Quick: true, Seconds: map[string]float64{"": cost[n]}}
		if strings.HasPrefix(n, "glove") {
			r.Assets = []string{"glove"}
		}
		RegisterDefaultRow(r)
	}
}
