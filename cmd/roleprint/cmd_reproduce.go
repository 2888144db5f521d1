package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/internal/options"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
	_ "github.com/roleprint/roleprint/sv/baseline" // registers the baseline encoders
	_ "github.com/roleprint/roleprint/sv/neural"   // transformer(_ft) rows and the backend probe
	"github.com/roleprint/roleprint/sv/table2"
	_ "github.com/roleprint/roleprint/sv/uselite" // use-lite(_ft) rows
)

// reproMachine is the machine reproduce resolves its plan for; the zero
// value asks the real one. Tests replace it so that they depend neither
// on the asset cache nor on a calibration.
var reproMachine table2.Machine

func init() {
	register(&command{
		Name:    "reproduce",
		Summary: "run the paper's Table 2 (speaker verification) on the embedded corpus or on X.parquet files",
		Run:     runReproduce,
	})
}

// reproduceOutput is the --json output of `roleprint reproduce`: the rows
// of Table 2 (table2.Row: encoder, exposure, level, auc_mean, auc_std,
// acc_mean, acc_std, f1_mean, f1_std, best_acc_*, best_f1_*, eer_*,
// rounds, pairs, paper_*; fractions in [0, 1]) and what the run was.
type reproduceOutput struct {
	Corpus   string             `json:"corpus"`
	Inputs   []table2.InputFile `json:"inputs"`
	Rounds   int                `json:"rounds"`
	Seeds    []int64            `json:"seeds"`
	Quick    bool               `json:"quick"`
	Preset   string             `json:"preset"`
	Encoders []string           `json:"encoders"`
	Mixed    []string           `json:"mixed"`
	Rows     []table2.Row       `json:"rows"`
	// Comparisons: per test set, the best fine-tuned row against the best
	// untuned one with a paired bootstrap interval (table2.Comparison).
	Comparisons []table2.Comparison `json:"comparisons"`
	// Transfer is the transfer table (--transfer, --preset transfer):
	// rows keyed row, held_out, trained_on, level, auc_mean, auc_std,
	// acc_mean, f1_mean, eer_mean, ece, ece_cross_fit, pairs, rounds, vs,
	// vs_auc_mean, vs_auc_std, auc_diff, auc_diff_ci, share_not_above;
	// null without it.
	Transfer *table2.TransferResult  `json:"transfer"`
	Pairs    []table2.RoundInfo      `json:"pairs"`
	Skipped  []table2.SkippedEncoder `json:"skipped"`
	Setup    string                  `json:"setup"`
	Backend  string                  `json:"backend"`
	Notes    []string                `json:"notes"`
	OutDir   string                  `json:"out_dir"`
	Files    []string                `json:"files"`
	Seconds  float64                 `json:"seconds"`
}

// reproFlags are reproduce's flags; request turns those given into a
// table2.Request.
type reproFlags struct {
	fs                                                                 *flag.FlagSet
	quick, fresh, asJSON, dryRun, recalibrate, transfer                *bool
	preset, out, encoders, mixed, criterion, backend, variant, baseNeg *string
	memProfile                                                         *string
	rounds, fitMax                                                     *int
	seed                                                               *int64
	set, pairSet                                                       *string
	outs                                                               *outputFlags
}

// newReproFlags declares reproduce's flags on a new flag set.
func newReproFlags(e *env) *reproFlags {
	fs := newFlags(e, "reproduce", "[X.parquet...]")
	def := table2.DefaultConfig()
	f := &reproFlags{fs: fs,
		quick:       fs.Bool("quick", false, "smoke run (< 60 s on 2 cores), the same as --preset quick: 1 round, capped pairs and fitting texts, no fine-tuned or GoMLX rows unless named with --encoders"),
		preset:      fs.String("preset", table2.DefaultPreset, "named recipe (settings below the other flags and --set; roleprint config lists them): "+reproPresetNames()),
		out:         fs.String("out", "reproduce-out", "output folder for table2.{md,csv,parquet,json}, manifest.json and checkpoints/"),
		encoders:    fs.String("encoders", "", "comma-separated encoders (rows); x_ft fine-tunes x. Default: the baselines plus the GoMLX rows this machine's assets and backend can afford (printed on stderr). Known: "+strings.Join(sv.EncoderNames(), ", ")),
		mixed:       fs.String("mixed", strings.Join(def.Mixed, ","), `comma-separated parts of the "mixed" row (Mixed Features); "none" for no mixed row`),
		rounds:      fs.Int("rounds", def.Rounds, "rounds (seeds seed..seed+rounds-1); default 3, 1 with --quick"),
		seed:        fs.Int64("seed", def.Seed, "seed of the first round"),
		criterion:   fs.String("criterion", string(def.Criterion), "what the dev-set threshold maximises: accuracy or macro_f1"),
		set:         settingsFlag(fs, "set", `settings "key=value;enc.key=value;pairs.key=value" (e.g. "tfidf.max_features=50000"; keys: roleprint config NAME)`),
		backend:     fs.String("backend", "", "compute backend for GoMLX encoders (go, onnx, xla:cuda); default automatic: onnx when ONNX Runtime is installed, else go"),
		variant:     fs.String("pair-variant", string(pairs.VariantPaper), "pair building: paper (the paper's text) or code (its public code)"),
		baseNeg:     fs.String("base-negatives", pairs.BaseNegativesSource, "Base-level negatives: source (another source than the anchor's, as the paper) or any (the old default)"),
		pairSet:     settingsFlag(fs, "pair-set", `pair-building settings by their JSON names, "key=value;..." (e.g. "unseen_per_dataset=10;max_test_pairs=2000"; the same as --set "pairs.KEY=..."; roleprint config pairs)`),
		fitMax:      fs.Int("fit-max", 0, "fit Fitter encoders on at most this many training texts (0: all; 20000 with --quick)"),
		fresh:       fs.Bool("fresh", false, "ignore checkpoints in --out/checkpoints and recompute everything"),
		asJSON:      fs.Bool("json", false, "print one JSON object (rows keyed encoder, exposure, level, auc_mean, ...) instead of the table"),
		outs:        addOutputFlags(fs, true),
		dryRun:      fs.Bool("dry-run", false, "print the backend, the inputs' workload, each row's estimate and the total against the budget, the rows that would run (with their Table 2 settings) and the rows left out and why, then exit"),
		transfer:    fs.Bool("transfer", false, "add the transfer table: leave-one-corpus-out over the inputs' corpora (2 or more), each fine-tuned row trained on the other corpora and evaluated on the held-out one as roleprint eval does, against tfidf fitted on it alone; the verifier bundle's P(same) is then calibrated on the folds' held-out scores (transfer.md, transfer.csv, transfer.json, transfer.tex; --preset transfer runs ngram-metric_ft and tfidf with it)"),
		recalibrate: fs.Bool("recalibrate", false, "measure the GoMLX rows' speed on this backend again instead of using the cached calibration"),
		memProfile:  fs.String("memprofile", "", "write a Go heap profile at the run's peak live heap to this file (go tool pprof)"),
	}
	f.outs.addFigureRows(fs)
	return f
}

// reproRequest parses reproduce's arguments into the table2.Request they
// ask for: only the flags given are set, so the preset and the defaults
// decide the rest in table2.Resolve, as for a notebook's request.
func reproRequest(e *env, args []string) (table2.Request, *reproFlags, error) {
	f := newReproFlags(e)
	if err := parseFlags(f.fs, args); err != nil {
		return table2.Request{}, nil, err
	}
	given := map[string]bool{}
	f.fs.Visit(func(fl *flag.Flag) { given[fl.Name] = true })
	req := table2.Request{Backend: *f.backend, Recalibrate: *f.recalibrate, Machine: reproMachine, Logf: e.Logf}
	if given["preset"] {
		req.Preset = *f.preset
	}
	if *f.quick {
		if given["preset"] && *f.preset != "quick" {
			return req, nil, usagef("--quick is --preset quick: give one of them")
		}
		req.Preset = "quick"
	}
	if given["encoders"] {
		req.Encoders = reproSplitList(*f.encoders)
		if req.Encoders == nil {
			req.Encoders = []string{}
		}
	}
	if given["mixed"] {
		if req.Mixed = reproSplitList(*f.mixed); len(req.Mixed) == 1 && req.Mixed[0] == "none" || req.Mixed == nil {
			req.Mixed = []string{}
		}
	}
	if given["rounds"] {
		if *f.rounds < 1 {
			return req, nil, usagef("rounds = %d: need at least 1", *f.rounds)
		}
		req.Rounds = *f.rounds
	}
	if given["seed"] {
		req.Seed = f.seed
	}
	req.Transfer = *f.transfer
	if given["fit-max"] {
		req.FitMaxTexts = f.fitMax
	}
	if given["criterion"] {
		req.Criterion = stats.Criterion(*f.criterion)
	}
	if given["pair-variant"] {
		req.PairVariant = pairs.PairVariant(*f.variant)
	}
	if given["base-negatives"] {
		req.BaseNegatives = *f.baseNeg
	}
	var err error
	if req.Settings, err = options.Parse(*f.set); err != nil {
		return req, nil, usagef("--set: %v", err)
	}
	if req.PairSettings, err = options.Parse(*f.pairSet); err != nil {
		return req, nil, usagef("--pair-set: %v", err)
	}
	req.Settings, req.PairSettings = orNil(req.Settings), orNil(req.PairSettings)
	if err := req.Validate(); err != nil {
		return req, nil, usagef("%v", err)
	}
	return req, f, nil
}

// runReproduce resolves the flags' request for the inputs (the embedded
// Shakespeare corpus without files, else utterance Parquet files) on this
// machine (table2.Resolve), runs the plan (table2.Run), prints Table 2 (or
// one JSON object) and writes the reports, manifest, checkpoints and the
// verifier bundle into --out.
func runReproduce(ctx context.Context, e *env, args []string) error {
	req, f, err := reproRequest(e, args)
	if err != nil {
		return err
	}
	defer startPeakHeapProfile(ctx, *f.memProfile, e.Logf)()
	in, err := table2.LoadInputs(f.fs.Args())
	if err != nil {
		return err
	}
	plan, err := table2.Resolve(ctx, req, in)
	if err != nil {
		return err
	}
	if *f.dryRun {
		return reproPrintPlan(e, plan, *f.asJSON)
	}
	out := *f.out
	ckpt := filepath.Join(out, strings.TrimSuffix(reproCheckpoints, "/"))
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	if *f.fresh {
		if err := os.RemoveAll(ckpt); err != nil {
			return err
		}
	}
	cfg := &plan.Config
	cfg.CheckpointDir, cfg.Logf = ckpt, e.Logf
	prog := newStageProgress(e)
	cfg.Progress = prog.report
	e.Logf("reproduce: %s, %d utterances, %d round(s), encoders %s, mixed %s, output %s",
		in.Name, len(in.Utterances), cfg.Rounds, strings.Join(cfg.Encoders, ","), reproOrNone(cfg.Mixed), out)
	reproLogSelection(e, plan)
	res, err := table2.Run(ctx, plan)
	prog.done()
	if err != nil {
		return err
	}
	m := plan.Manifest(res, append([]string{"roleprint", "reproduce"}, args...))
	files := []string{table2.ReportMarkdown, table2.ReportCSV, table2.ReportParquet, table2.ReportJSON, table2.ManifestFile}
	if fi, err := os.Stat(ckpt); err == nil && fi.IsDir() {
		files = append(files, reproCheckpoints)
	}
	if res.Transfer != nil {
		files = append(files, table2.TransferFiles()...)
	}
	m.Outputs = files
	if files, err = reproWriteOutputs(e, f.outs, res, m, out, in.Name, files); err != nil {
		return err
	}
	if err := res.WriteReport(out, m); err != nil {
		return err
	}
	if res.Transfer != nil {
		if err := res.Transfer.WriteReport(out); err != nil {
			return err
		}
	}
	bundle := reproSaveVerifier(ctx, e, plan, res, out, m)
	e.Logf("reproduce: done in %.1f s; wrote %s to %s", res.Seconds, strings.Join(files, ", "), out)
	if *f.asJSON {
		return e.JSON(reproduceOutput{Corpus: in.Name, Inputs: in.Files, Rounds: cfg.Rounds, Seeds: m.Seeds, Quick: plan.Preset.Quick,
			Preset: plan.Preset.Name, Encoders: cfg.Encoders, Mixed: nonNil(cfg.Mixed), Rows: res.Rows, Pairs: res.Rounds,
			Skipped: nonNil(res.Skipped), Setup: reproSetup(res.Skipped), Backend: cfg.Backend, Notes: nonNil(res.Notes),
			Comparisons: nonNil(res.Comparisons), Transfer: res.Transfer, OutDir: out, Files: files, Seconds: res.Seconds})
	}
	return reproPrintTable(e, res, out, bundle)
}

// orNil returns m, or nil when it is empty (an unset request field).
func orNil(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	return m
}

// nonNil returns xs, or an empty slice for nil (JSON [] instead of null).
func nonNil[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}

// reproPrintTable prints Table 2, the skipped rows, where the full report
// is and, last, what the verifier bundle in bundle ("" for none) is.
func reproPrintTable(e *env, res *table2.Result, out, bundle string) error {
	if err := res.WriteTableMarkdown(e.Stdout()); err != nil {
		return err
	}
	for _, s := range res.Skipped {
		fmt.Fprintf(e.Stdout(), "Skipped %s: %s\n", s.Encoder, s.Reason)
	}
	if setup := reproSetup(res.Skipped); setup != "" {
		fmt.Fprintf(e.Stdout(), "To add the skipped rows, run `%s` and run reproduce again.\n", setup)
	}
	if res.Transfer != nil {
		fmt.Fprintln(e.Stdout())
		if err := res.Transfer.WriteMarkdown(e.Stdout()); err != nil {
			return err
		}
		fmt.Fprintln(e.Stdout())
	}
	fmt.Fprintf(e.Stdout(), "Full report (beside the paper's numbers, EER, best-threshold metrics): %s\n", filepath.Join(out, table2.ReportMarkdown))
	reproClosingLine(e, bundle)
	return nil
}

// reproSetup returns one `roleprint setup` command that installs every
// asset the skipped rows wait for ("" when none).
func reproSetup(skipped []table2.SkippedEncoder) string {
	var steps []string
	for _, s := range skipped {
		for _, st := range strings.Fields(strings.TrimPrefix(s.Setup, "roleprint setup ")) {
			if s.Setup != "" && !slices.Contains(steps, st) {
				steps = append(steps, st)
			}
		}
	}
	if len(steps) == 0 {
		return ""
	}
	return "roleprint setup " + strings.Join(steps, " ")
}

func reproSplitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

func reproBackendName(name string) string {
	if name == "" {
		return "none (no GoMLX encoders)"
	}
	return name
}

func reproOrNone(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return strings.Join(xs, "+")
}

// reproPresetNames lists the presets for the --preset help.
func reproPresetNames() string {
	var names []string
	for _, p := range table2.Presets() {
		names = append(names, p.Name)
	}
	return strings.Join(names, ", ")
}
