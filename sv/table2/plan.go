package table2

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/internal/options"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
)

// Request is what a caller asks of a Table 2 run: `roleprint reproduce`
// builds it from its flags, a notebook (package kernel) from its
// Table2Run. Every field's zero value means "not asked for": the preset,
// or below it the defaults, decide it (see Resolve).
type Request struct {
	// Preset names the recipe (Presets); "" is DefaultPreset. "quick" is
	// the smoke run, with the quick default rows.
	Preset string `json:"preset,omitempty"`
	// Encoders are the rows to run, exactly (they must run: a missing
	// asset fails the run); nil leaves them to the preset, else to the
	// default selection for this machine and these inputs.
	Encoders []string `json:"encoders,omitempty"`
	// Mixed are the parts of the "mixed" row; nil keeps the default parts
	// (with Encoders given: only when every default part is among them),
	// an empty non-nil list runs no mixed row.
	Mixed []string `json:"mixed,omitempty"`
	// Rounds (≥ 1 when set) and the first round's Seed; 0 and nil leave
	// them to the preset.
	Rounds int    `json:"rounds,omitempty"`
	Seed   *int64 `json:"seed,omitempty"`
	// FitMaxTexts caps a Fitter's training texts (0: all); nil leaves it
	// to the preset.
	FitMaxTexts *int `json:"fit_max_texts,omitempty"`
	// Criterion is what the dev threshold maximises; "" leaves it to the
	// preset.
	Criterion stats.Criterion `json:"criterion,omitempty"`
	// Backend is the GoMLX backend ("" automatic).
	Backend string `json:"backend,omitempty"`
	// Settings are the user's settings (`--set`): "key" for every encoder
	// that has it, "enc.key" for one row, "pairs.key" for pair building.
	// They override the preset's.
	Settings map[string]string `json:"settings,omitempty"`
	// PairSettings are pair-building settings by their JSON names
	// (`--pair-set`), after the "pairs." keys of Settings.
	PairSettings map[string]string `json:"pair_settings,omitempty"`
	// PairVariant and BaseNegatives, when set, choose the pair builder's
	// variant and Base-level negatives (pairs.PairConfig), below
	// PairSettings.
	PairVariant   pairs.PairVariant `json:"pair_variant,omitempty"`
	BaseNegatives string            `json:"base_negatives,omitempty"`
	// Transfer asks for the transfer table (Config.Transfer,
	// TransferPlan); false leaves it to the preset.
	Transfer bool `json:"transfer,omitempty"`
	// Recalibrate measures the GoMLX rows' speed again instead of using
	// the cached calibration.
	Recalibrate bool `json:"recalibrate,omitempty"`
	// KeepScores keeps every test set's pair scores in the result
	// (Config.KeepScores), for ROC curves drawn from a cached result.
	KeepScores bool `json:"keep_scores,omitempty"`
	// Machine describes and measures this machine; the zero value asks
	// the real one. Tests give both callers the same.
	Machine Machine `json:"-"`
	// Logf receives the calibration's notes; nil discards them.
	Logf func(format string, args ...any) `json:"-"`
}

// Machine is how Resolve learns what this machine affords: Detect
// describes it for a backend name ("" automatic; nil asks the backend
// probe sv/neural installs and the asset cache of `roleprint setup`),
// Calibrate measures the candidate rows' costs on it (nil is
// CalibrateRows), and Now is the clock that times building round 1's
// pairs, part of every row selection's estimate (nil is time.Now). Tests
// give Resolve a machine of their own, so that two resolutions of the
// same inputs measure the same.
type Machine struct {
	Detect    func(backend string) (RowEnvironment, error)
	Calibrate func(ctx context.Context, candidates []sv.Row, env RowEnvironment, corpus *pairs.PairCorpus, opts CalibrationOptions) map[string]sv.RowCost
	Now       func() time.Time
}

// now reads m's clock.
func (m Machine) now() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}

// Plan is a Request resolved for its inputs on this machine: everything
// Run needs, decided. Run fills in nothing; callers set only Config's
// run-time hooks (CheckpointDir, Logf, Progress) before running it.
type Plan struct {
	// Request is what was asked.
	Request Request `json:"request"`
	// Preset is the recipe applied (Request.Preset or DefaultPreset).
	Preset Preset `json:"preset"`
	// Config is the resolved run configuration: rows, rounds, seeds,
	// settings, and how the rows were chosen (Selection).
	Config Config `json:"config"`
	// Pairs is the resolved pair-building configuration.
	Pairs pairs.PairConfig `json:"pairs"`
	// Inputs are the utterances the plan runs on.
	Inputs Inputs `json:"inputs"`
	// Environment is this machine as the selection saw it: its backend,
	// the measured workload of these inputs and the calibrated costs.
	Environment RowEnvironment `json:"environment"`
	// Estimate is what the run is expected to cost (`--dry-run`).
	Estimate Estimate `json:"estimate"`
	// Components are the resolved options of each row with registered
	// options (see Result.Components).
	Components map[string]any `json:"components,omitempty"`
	// Transfer is the transfer folds (nil without Config.Transfer); Run
	// runs them after the in-domain rounds.
	Transfer *TransferPlan `json:"transfer,omitempty"`

	// first is round 1's pair corpus, built to measure the workload and
	// handed to the run's first round instead of being built again.
	first *pairs.PairCorpus
}

// Estimate is what a plan is expected to cost on this machine: the
// output of `roleprint reproduce --dry-run --json`.
type Estimate struct {
	Backend     sv.BackendInfo               `json:"backend"`
	Quick       bool                         `json:"quick"`
	Rounds      int                          `json:"rounds"`
	Encoders    []string                     `json:"encoders"`
	Mixed       []string                     `json:"mixed"`
	RowSettings map[string]map[string]string `json:"row_settings"`
	// Workload is one round of these inputs (sv.MeasureWorkload).
	Workload sv.Workload `json:"workload"`
	// Estimates are the rows that run, per round, with their cost model;
	// EstimatedSeconds the whole run (reading the inputs, then pairs and
	// rows for Rounds rounds); BudgetSeconds the default run's budget for
	// these inputs (BudgetFor).
	Estimates        []RowEstimate `json:"estimates"`
	EstimatedSeconds float64       `json:"estimated_seconds"`
	BudgetSeconds    float64       `json:"budget_seconds"`
	// Unestimated are rows that run without a cost model (none known for
	// this backend or encoder).
	Unestimated []string         `json:"unestimated"`
	Selection   *RowSelection    `json:"selection"`
	Skipped     []SkippedEncoder `json:"skipped"`
	// Setup is one `roleprint setup` command that adds the skipped rows.
	Setup string `json:"setup,omitempty"`
	// Transfer is the transfer folds (Plan.Transfer), whose estimate
	// EstimatedSeconds includes; nil without them.
	Transfer *TransferPlan `json:"transfer,omitempty"`
}

// requestSettings is the part of a Request resolved before any input is
// read: the preset and the settings it and the request give.
type requestSettings struct {
	preset   Preset
	applied  PresetResult
	base     Config // DefaultConfig with the preset applied
	pairs    pairs.PairConfig
	encoders map[string]string // the user's encoder settings (Settings without "pairs.")
	env      RowEnvironment
}

// Validate checks everything about r that does not need the inputs: the
// preset, the settings and pair settings, the rounds, the criterion, the
// named rows and the backend. Resolve checks the same; callers that read
// large inputs call Validate first to fail before reading them.
func (r Request) Validate() error {
	_, err := r.settings(false)
	return err
}

// settings resolves the preset and the request's settings for inputs that
// are (or are not) the embedded corpus.
func (r Request) settings(embedded bool) (*requestSettings, error) {
	s := &requestSettings{}
	name := r.Preset
	if name == "" {
		name = DefaultPreset
	}
	var err error
	if s.preset, err = PresetNamed(name); err != nil {
		return nil, fmt.Errorf("preset: %w", err)
	}
	detect := r.Machine.Detect
	if detect == nil {
		detect = detectRowEnvironment
	}
	if s.env, err = detect(r.Backend); err != nil {
		return nil, fmt.Errorf("backend: %w", err)
	}
	// Pairs: defaults, the embedded corpus's, the preset's pair keys, then
	// the request's variant, negatives and pair settings.
	s.pairs = pairs.DefaultPairConfig()
	if embedded {
		s.pairs = EmbeddedPairConfig(s.pairs)
	}
	s.base = DefaultConfig()
	if s.applied, err = s.preset.Apply(&s.base, &s.pairs); err != nil {
		return nil, fmt.Errorf("preset: %w", err)
	}
	if r.PairVariant != "" {
		s.pairs.Variant = r.PairVariant
	}
	if r.BaseNegatives != "" {
		s.pairs.BaseNegatives = r.BaseNegatives
	}
	pairKV := maps.Clone(r.PairSettings)
	if pairKV == nil {
		pairKV = map[string]string{}
	}
	for k, v := range r.Settings {
		if rest, ok := strings.CutPrefix(k, "pairs."); ok {
			pairKV[rest] = v
		} else {
			if s.encoders == nil {
				s.encoders = map[string]string{}
			}
			s.encoders[k] = v
		}
	}
	if err := options.Apply(&s.pairs, pairKV); err != nil {
		return nil, fmt.Errorf("pair settings: %w", err)
	}
	if err := s.pairs.Validate(); err != nil {
		return nil, fmt.Errorf("pair configuration: %w", err)
	}
	if r.Rounds < 0 {
		return nil, fmt.Errorf("rounds = %d: need at least 1", r.Rounds)
	}
	if r.Criterion != "" {
		if _, err := stats.ParseCriterion(string(r.Criterion)); err != nil {
			return nil, fmt.Errorf("criterion: %w", err)
		}
	}
	// Named rows and the settings are checked before the inputs load:
	// against the named rows, or, while the rows are not chosen yet,
	// against every encoder of the program (Resolve checks them again
	// against the rows chosen).
	pre := DefaultConfig()
	pre.Settings = s.encoders
	if r.Encoders != nil {
		pre.Encoders, pre.Mixed = slices.Clone(r.Encoders), nil
		if _, err := pre.Validate(); err != nil {
			return nil, err
		}
	} else if err := pre.checkSettings(sv.EncoderNames()); err != nil {
		return nil, err
	}
	return s, nil
}

// Resolve decides a Table 2 run once, for in and this machine, so that
// Run fills in nothing and two callers with the same request, inputs and
// machine get the same plan. Every value comes from, lowest precedence
// first:
//
//  1. defaults: DefaultConfig and pairs.DefaultPairConfig (with
//     EmbeddedPairConfig for the embedded corpus);
//  2. the preset (Request.Preset, else DefaultPreset): its Config
//     keys, pair keys and row settings (Preset.Apply);
//  3. the request: its pair variant, negatives, "pairs." Settings and
//     PairSettings; its Encoders, Mixed, Rounds, Seed, FitMaxTexts,
//     Criterion, Backend and encoder Settings.
//
// The rows, unless the request (or the preset) names them, are the
// default selection for this machine's backend and installed
// assets, for the workload of these inputs (round 1's pairs, built and
// timed here and handed to Run's first round) and the rows' costs
// calibrated on this machine (cached; not for the quick preset, whose
// rows are fixed). The plan's Estimate is the run's expected cost.
func Resolve(ctx context.Context, req Request, in Inputs) (*Plan, error) {
	s, err := req.settings(in.Embedded)
	if err != nil {
		return nil, err
	}
	quick := s.preset.Quick
	firstSeed := s.base.Seed
	if req.Seed != nil {
		firstSeed = *req.Seed
	}
	// The workload of these inputs: round 1's pairs, timed.
	t0 := req.Machine.now()
	first, err := PairsFrom(in.Utterances, s.pairs)(ctx, 1, firstSeed)
	if err != nil {
		return nil, fmt.Errorf("round 1: pairs: %w", err)
	}
	work := sv.MeasureWorkload(first)
	work.PairsSeconds = req.Machine.now().Sub(t0).Seconds()
	work.Embedded = in.Embedded
	work.LoadSeconds = in.LoadSeconds
	env := s.env
	env.Workload = &work
	env.Costs = req.calibrate(ctx, s, env, first, quick)

	cfg := configFor(selectDefaultRows(env, quick))
	scratch := s.pairs
	if _, err := s.preset.Apply(&cfg, &scratch); err != nil {
		return nil, fmt.Errorf("preset: %w", err)
	}
	req.applyRows(&cfg, slices.Contains(s.applied.TableKeys, "encoders"))
	if req.Rounds > 0 {
		cfg.Rounds = req.Rounds
	}
	if req.FitMaxTexts != nil {
		cfg.FitMaxTexts = *req.FitMaxTexts
	}
	cfg.Seed = firstSeed
	if req.Criterion != "" {
		cfg.Criterion = req.Criterion
	}
	cfg.Backend = env.Backend.Name
	cfg.Settings = s.encoders
	cfg.KeepScores = req.KeepScores
	if req.Transfer {
		cfg.Transfer = true
	}
	// Rows the request or the preset names must run (cfg.Explicit); the
	// others may be skipped when their assets are not installed.
	cfg.SkipMissing = true
	run, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	comps, err := cfg.ResolvedComponents(run)
	if err != nil {
		return nil, err
	}
	p := &Plan{Request: req, Preset: s.preset, Config: cfg, Pairs: s.pairs, Inputs: in, Environment: env, Components: comps, first: first}
	p.Estimate = newEstimate(cfg, run, env, work, quick)
	if cfg.Transfer {
		if p.Transfer, err = resolveTransfer(cfg, run, in, s.pairs, p.Estimate); err != nil {
			return nil, err
		}
		p.Estimate.Transfer = p.Transfer
		p.Estimate.EstimatedSeconds += p.Transfer.EstimatedSeconds
	}
	return p, nil
}

// calibrate measures the costs of the rows the selection weighs: the
// default candidates (not for the quick preset, whose rows are fixed) or
// the rows the request names, with the preset's and the user's settings.
func (r Request) calibrate(ctx context.Context, s *requestSettings, env RowEnvironment, first *pairs.PairCorpus, quick bool) map[string]sv.RowCost {
	var rows []sv.Row
	for _, row := range sv.Rows() {
		if r.Encoders != nil && slices.Contains(r.Encoders, row.Name) || r.Encoders == nil && !quick {
			rows = append(rows, row)
		}
	}
	if len(rows) == 0 {
		return nil
	}
	calibrate := r.Machine.Calibrate
	if calibrate == nil {
		calibrate = CalibrateRows
	}
	base := s.base
	base.Settings = s.encoders
	return calibrate(ctx, rows, env, first, CalibrationOptions{Fresh: r.Recalibrate, Config: &base, Logf: r.Logf})
}

// applyRows puts the request's rows into cfg (the default selection with
// the preset applied): rows a preset names run as if requested; rows the
// request names are exactly the rows run, and the default mixed row joins
// them only when every default part is among them.
func (r Request) applyRows(cfg *Config, presetNamesRows bool) {
	if presetNamesRows {
		cfg.Explicit = append(cfg.Explicit, cfg.Encoders...)
		cfg.Explicit = append(cfg.Explicit, cfg.Mixed...)
		cfg.Selection = nil
	}
	if r.Encoders != nil {
		cfg.Encoders = slices.Clone(r.Encoders)
		cfg.Explicit = append(cfg.Explicit, cfg.Encoders...)
		cfg.Selection = nil
	}
	switch {
	case r.Mixed != nil:
		cfg.Mixed = nil
		if len(r.Mixed) > 0 {
			cfg.Mixed = slices.Clone(r.Mixed)
		}
		cfg.Explicit = append(cfg.Explicit, cfg.Mixed...)
	case r.Encoders != nil:
		cfg.Mixed = nil
		if allIn(DefaultMixedParts, cfg.Encoders) {
			cfg.Mixed = slices.Clone(DefaultMixedParts)
		}
	}
}

// allIn reports whether parts is not empty and every name of parts is in
// names.
func allIn(parts, names []string) bool {
	for _, p := range parts {
		if !slices.Contains(names, p) {
			return false
		}
	}
	return len(parts) > 0
}

// resolve validates c and fixes what a run reads from it: the canonical
// criterion, and the row settings of the rows it runs (DefaultPreset's
// when RowSettings is nil, so the manifest records them; a preset's
// settings of rows this run does not have are dropped). It returns the
// rows to compute (see Validate).
func (c *Config) resolve() ([]string, error) {
	run, err := c.Validate()
	if err != nil {
		return nil, err
	}
	c.Criterion, _ = stats.ParseCriterion(string(c.Criterion))
	if c.RowSettings != nil {
		keep := map[string]bool{}
		for _, n := range run {
			base, _ := sv.SplitFineTuned(n)
			keep[n], keep[base] = true, true
		}
		rs := map[string]map[string]string{}
		for n, s := range c.RowSettings {
			if keep[n] {
				rs[n] = s
			}
		}
		c.RowSettings = rs
		return run, nil
	}
	for _, n := range run {
		if s := DefaultRowSettings(n); len(s) > 0 {
			if c.RowSettings == nil {
				c.RowSettings = map[string]map[string]string{}
			}
			c.RowSettings[n] = s
		}
	}
	return run, nil
}

// newEstimate estimates the rows cfg runs (run) for workload w on env's
// backend, with cfg's settings.
func newEstimate(cfg Config, run []string, env RowEnvironment, w sv.Workload, quick bool) Estimate {
	e := Estimate{Backend: env.Backend, Quick: quick, Rounds: cfg.Rounds, Encoders: cfg.Encoders, Mixed: cfg.Mixed,
		RowSettings: map[string]map[string]string{}, Workload: w, Selection: cfg.Selection, Skipped: []SkippedEncoder{},
		Unestimated: []string{}, BudgetSeconds: BudgetFor(w)}
	if e.Mixed == nil {
		e.Mixed = []string{}
	}
	for _, n := range run {
		if rs := cfg.RowSettingsFor(n); len(rs) > 0 {
			e.RowSettings[n] = rs
		}
	}
	e.Estimates = estimateRows(run, env, w, &cfg)
	perRound := w.PairsSeconds
	known := map[string]bool{}
	for _, est := range e.Estimates {
		perRound += est.Seconds
		known[est.Row] = true
	}
	for _, n := range run {
		if !known[n] {
			e.Unestimated = append(e.Unestimated, n)
		}
	}
	e.EstimatedSeconds = perRound*float64(cfg.Rounds) + w.LoadSeconds
	if cfg.Selection != nil {
		e.Skipped = append(e.Skipped, cfg.Selection.Skipped...)
		e.Setup = cfg.Selection.Setup
	}
	return e
}

// Run runs the plan: every round's pairs (round 1's are those Resolve
// built), every row and the reports' aggregates (see RunConfig for what a
// round computes). It decides nothing: the rows, seeds and settings are
// the plan's. The first run takes over round 1's pairs from the plan; a
// second run of the same plan builds them again (the same pairs).
func Run(ctx context.Context, p *Plan) (*Result, error) {
	source := PairsFrom(p.Inputs.Utterances, p.Pairs)
	first := p.first
	p.first = nil
	src := reuseFirst(source, first, p.Config.Seed)
	res, err := run(ctx, p.Config, p.Components, src)
	if err != nil || p.Transfer == nil {
		return res, err
	}
	if res.Transfer, err = runTransfer(ctx, p, res); err != nil {
		return nil, err
	}
	res.Seconds = time.Since(res.Started).Seconds()
	return res, nil
}

// Source returns the plan's pair corpora by round (the pairs Run uses).
func (p *Plan) Source() CorpusSource { return PairsFrom(p.Inputs.Utterances, p.Pairs) }

// reuseFirst is source with round 1's corpus (built with seed to measure
// the workload) handed over instead of built again: the pair builder is
// deterministic for a seed, so the run is the same.
func reuseFirst(source CorpusSource, first *pairs.PairCorpus, seed int64) CorpusSource {
	return func(ctx context.Context, round int, s int64) (*pairs.PairCorpus, error) {
		if round == 1 && s == seed && first != nil {
			c := first
			first = nil // the runner drops each round's corpus after it
			return c, nil
		}
		return source(ctx, round, s)
	}
}
