package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/roleprint/roleprint/sv/table2"
)

// reproPrintPlan prints what the run would do (--dry-run): the stderr
// lines of a real run and the estimate per row, or with --json the plan's
// table2.Estimate as one object.
func reproPrintPlan(e *env, plan *table2.Plan, asJSON bool) error {
	p, cfg := plan.Estimate, plan.Config
	if asJSON {
		return e.JSON(p)
	}
	reproLogSelection(e, plan)
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
	if tp := plan.Transfer; tp != nil {
		fmt.Fprintf(out, "transfer: leave one corpus out over %s; each fold trains %s (seed %d) and evaluates it on the held-out corpus (seeds %v, --adapt %s, vs %s); P(same) calibrated on the folds' %s scores\n",
			strings.Join(tp.Corpora, ", "), strings.Join(tp.Rows, ", "), tp.Seed, tp.EvalSeeds, tp.Adapt, strings.Join(tp.Vs, ", "), tp.CalibrationLevel)
		for _, f := range tp.Folds {
			fmt.Fprintf(out, "transfer fold %s held out: train on %s (%d utterances), evaluate on %d utterances; estimated %.1f min\n",
				f.HeldOut, strings.Join(f.TrainedOn, " + "), f.TrainUtterances, f.HeldOutUtterances, f.EstimatedSeconds/60)
		}
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
func reproLogSelection(e *env, plan *table2.Plan) {
	p, cfg := plan.Estimate, plan.Config
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

// reproProgress shows table2.Run's staged progress with env.progress:
// one progress line per stage, finished when the next stage starts.
type reproProgress struct {
	e      *env
	stage  string
	rep    func(done, total int)
	finish func()
	start  time.Time
}

func newStageProgress(e *env) *reproProgress { return &reproProgress{e: e, start: time.Now()} }

func (s *reproProgress) report(stage string, done, total int) {
	if stage != s.stage {
		s.done()
		s.stage = stage
		s.rep, s.finish = s.e.progress(stage)
	}
	s.rep(done, total)
}

func (s *reproProgress) done() {
	if s.finish != nil {
		s.finish()
		s.finish = nil
	}
}
