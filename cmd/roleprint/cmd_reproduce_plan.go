package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/sv"
	"github.com/roleprint/roleprint/sv/table2"
)

// reproPlanOutput is the --dry-run output: what a run would do, and what
// it is estimated to cost for these inputs.
type reproPlanOutput struct {
	Backend     sv.BackendInfo               `json:"backend"`
	Quick       bool                         `json:"quick"`
	Rounds      int                          `json:"rounds"`
	Encoders    []string                     `json:"encoders"`
	Mixed       []string                     `json:"mixed"`
	RowSettings map[string]map[string]string `json:"row_settings"`
	// Workload is one round of these inputs (sv.MeasureWorkload).
	Workload sv.Workload `json:"workload"`
	// Estimates are the rows that run, per round, with their cost model;
	// EstimatedSeconds the whole run (pairs and rows, Rounds rounds);
	// BudgetSeconds the default run's budget for these inputs (table2.BudgetFor).
	Estimates        []table2.RowEstimate `json:"estimates"`
	EstimatedSeconds float64              `json:"estimated_seconds"`
	BudgetSeconds    float64              `json:"budget_seconds"`
	// Unestimated are rows that run without a cost model (none known for
	// this backend or encoder).
	Unestimated []string                `json:"unestimated"`
	Selection   *table2.RowSelection    `json:"selection"`
	Skipped     []table2.SkippedEncoder `json:"skipped"`
	Setup       string                  `json:"setup,omitempty"`
}

// reproMakePlan estimates the rows cfg runs for workload w on rowEnv's
// backend (with cfg's settings).
func reproMakePlan(cfg table2.Table2Config, rowEnv table2.RowEnvironment, w sv.Workload, quick bool) reproPlanOutput {
	p := reproPlanOutput{Backend: rowEnv.Backend, Quick: quick, Rounds: cfg.Rounds, Encoders: cfg.Encoders, Mixed: cfg.Mixed,
		RowSettings: map[string]map[string]string{}, Workload: w, Selection: cfg.Selection, Skipped: []table2.SkippedEncoder{},
		Unestimated: []string{}, BudgetSeconds: table2.BudgetFor(w)}
	if p.Mixed == nil {
		p.Mixed = []string{}
	}
	run, _ := cfg.Validate()
	for _, n := range run {
		rs := cfg.RowSettingsFor(n)
		if cfg.RowSettings == nil {
			rs = table2.DefaultRowSettings(n)
		}
		if len(rs) > 0 {
			p.RowSettings[n] = rs
		}
	}
	p.Estimates = table2.EstimateRows(run, rowEnv, w, &cfg)
	perRound := w.PairsSeconds
	known := map[string]bool{}
	for _, e := range p.Estimates {
		perRound += e.Seconds
		known[e.Row] = true
	}
	for _, n := range run {
		if !known[n] {
			p.Unestimated = append(p.Unestimated, n)
		}
	}
	p.EstimatedSeconds = perRound*float64(cfg.Rounds) + w.LoadSeconds
	if cfg.Selection != nil {
		p.Skipped = append(p.Skipped, cfg.Selection.Skipped...)
		p.Setup = cfg.Selection.Setup
	}
	return p
}

// reproPrintPlan prints what the run would do (--dry-run): the stderr
// lines of a real run and the estimate per row, or with --json one object.
func reproPrintPlan(e *env, cfg table2.Table2Config, p reproPlanOutput, asJSON bool) error {
	if asJSON {
		return e.JSON(p)
	}
	reproLogSelection(e, cfg, p)
	out := e.Stdout()
	fmt.Fprintf(out, "backend: %s\nrows: %s\nmixed: %s\nrounds: %d\n", reproBackendName(p.Backend.Name), strings.Join(cfg.Encoders, ", "), reproOrNone(cfg.Mixed), cfg.Rounds)
	fmt.Fprintf(out, "workload per round: %d eval utterances (%d words), %d training texts, %d training pairs, %d sets; pairs built in %.1f s; inputs read in %.1f s\n",
		p.Workload.EvalTexts, p.Workload.EvalWords, p.Workload.TrainTexts, p.Workload.TrainPairs, p.Workload.Sets, p.Workload.PairsSeconds, p.Workload.LoadSeconds)
	for _, est := range p.Estimates {
		fmt.Fprintf(out, "estimate %s: %.1f s/round", est.Row, est.Seconds)
		if est.Steps > 0 {
			fmt.Fprintf(out, " (%d steps)", est.Steps)
		}
		fmt.Fprintf(out, " [%s]\n", est.Cost.Source)
	}
	if len(p.Unestimated) > 0 {
		fmt.Fprintf(out, "no estimate for: %s\n", strings.Join(p.Unestimated, ", "))
	}
	fmt.Fprintf(out, "estimated total: %.1f min for %d round(s) (budget of a default run on these inputs: %.1f min)\n", p.EstimatedSeconds/60, cfg.Rounds, p.BudgetSeconds/60)
	for _, s := range p.Skipped {
		fmt.Fprintf(out, "skipped %s: %s\n", s.Encoder, s.Reason)
	}
	if p.Setup != "" {
		fmt.Fprintf(out, "setup: %s\n", p.Setup)
	}
	return nil
}

// reproLogSelection says on stderr which backend GoMLX rows use and why,
// which rows run with the estimate for these inputs, and which default
// rows were left out and why.
func reproLogSelection(e *env, cfg table2.Table2Config, p reproPlanOutput) {
	b := p.Backend
	why := b.Reason
	if why == "" {
		why = "automatic"
	}
	e.Logf("reproduce: GoMLX backend %s: %s", reproBackendName(b.Name), why)
	sel := cfg.Selection
	est := fmt.Sprintf("estimated %.1f min for %d round(s) of these inputs (%s)", p.EstimatedSeconds/60, cfg.Rounds, p.Workload.String())
	switch {
	case sel == nil:
		e.Logf("reproduce: rows named with --encoders: %s (%s)", strings.Join(cfg.Encoders, ", "), est)
	case sel.Quick:
		e.Logf("reproduce: --quick rows: %s (%s)", strings.Join(sel.Rows, ", "), est)
	default:
		e.Logf("reproduce: default rows for this machine: %s (%s; budget %.0f min)",
			strings.Join(sel.Rows, ", "), est, sel.BudgetSeconds/60)
	}
	if sel != nil {
		for _, s := range sel.Skipped {
			e.Logf("reproduce: not running %s: %s", s.Encoder, s.Reason)
		}
		if sel.Setup != "" {
			e.Logf("reproduce: `%s` adds the rows skipped for missing assets or a slow backend", sel.Setup)
		}
	}
	for _, n := range cfg.Encoders {
		if note := cfg.RowSettingsNote(n); note != "" {
			e.Logf("reproduce: %s runs with its Table 2 settings %s (override with --set \"%s.KEY=VALUE\")", n, note, n)
		}
	}
}

// reproReuseFirst is source with round 1's corpus (built with seed to
// measure the workload) handed over instead of built again.
func reproReuseFirst(source table2.CorpusSource, first *pairs.PairCorpus, seed int64) table2.CorpusSource {
	return func(ctx context.Context, round int, s int64) (*pairs.PairCorpus, error) {
		if round == 1 && s == seed && first != nil {
			c := first
			first = nil // the runner drops each round's corpus after it
			return c, nil
		}
		return source(ctx, round, s)
	}
}

// reproAllIn reports whether every name of parts is in names.
func reproAllIn(parts, names []string) bool {
	in := map[string]bool{}
	for _, n := range names {
		in[n] = true
	}
	for _, p := range parts {
		if !in[p] {
			return false
		}
	}
	return len(parts) > 0
}
