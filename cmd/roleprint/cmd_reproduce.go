package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/corpus"
	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/internal/options"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
	_ "github.com/roleprint/roleprint/sv/baseline" // registers the baseline encoders
	_ "github.com/roleprint/roleprint/sv/neural"   // transformer(_ft) rows and the backend probe
	"github.com/roleprint/roleprint/sv/table2"
	_ "github.com/roleprint/roleprint/sv/uselite" // use-lite(_ft) rows
)

// reproDetectEnv describes this machine for the default-row selection;
// tests replace it so that they do not depend on the real asset cache.
var reproDetectEnv = table2.DetectRowEnvironment

// reproCalibrate measures the GoMLX rows' costs on this machine (cached);
// tests replace it so that they build no network.
var reproCalibrate = table2.CalibrateRows

func init() {
	register(&command{
		Name:    "reproduce",
		Summary: "run the paper's Table 2 (speaker verification) on the embedded corpus or on X.parquet files",
		Run:     runReproduce,
	})
}

// reproduceOutput is the --json output of `roleprint reproduce`: the rows
// of Table 2 (table2.Table2Row: encoder, exposure, level, auc_mean, auc_std,
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
	Rows     []table2.Table2Row `json:"rows"`
	// Comparisons: per test set, the best fine-tuned row against the best
	// untuned one with a paired bootstrap interval (table2.Comparison).
	Comparisons []table2.Comparison     `json:"comparisons"`
	Pairs       []table2.RoundInfo      `json:"pairs"`
	Skipped     []table2.SkippedEncoder `json:"skipped"`
	Setup       string                  `json:"setup,omitempty"`
	Backend     string                  `json:"backend"`
	Notes       []string                `json:"notes"`
	OutDir      string                  `json:"out_dir"`
	Files       []string                `json:"files"`
	Seconds     float64                 `json:"seconds"`
}

// runReproduce runs table2.RunTable2 on the embedded Shakespeare corpus (no
// files) or on utterance Parquet files, prints Table 2 (or one JSON
// object) and writes the reports, manifest and checkpoints into --out.
func runReproduce(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "reproduce", "[X.parquet...]")
	def := table2.DefaultTable2Config()
	quick := fs.Bool("quick", false, "smoke run (< 60 s on 2 cores), the same as --preset quick: 1 round, capped pairs and fitting texts, no fine-tuned or GoMLX rows unless named with --encoders")
	presetName := fs.String("preset", table2.DefaultPreset, "named recipe (settings below the other flags and --set; `roleprint config` lists them): "+reproPresetNames())
	out := fs.String("out", "reproduce-out", "output folder for table2.{md,csv,parquet,json}, manifest.json and checkpoints/")
	encoders := fs.String("encoders", "", "comma-separated encoders (rows); x_ft fine-tunes x. Default: the baselines plus the GoMLX rows this machine's assets and backend can afford (printed on stderr). Known: "+strings.Join(sv.EncoderNames(), ", "))
	mixed := fs.String("mixed", strings.Join(def.Mixed, ","), `comma-separated parts of the "mixed" row (Mixed Features); "none" for no mixed row`)
	rounds := fs.Int("rounds", def.Rounds, "rounds (seeds seed..seed+rounds-1); default 3, 1 with --quick")
	seed := fs.Int64("seed", def.Seed, "seed of the first round")
	criterion := fs.String("criterion", string(def.Criterion), "what the dev-set threshold maximises: accuracy or macro_f1")
	set := settingsFlag(fs, "set", `settings "key=value;enc.key=value;pairs.key=value" (e.g. "tfidf.max_features=50000"; keys: roleprint config NAME)`)
	backend := fs.String("backend", "", "compute backend for GoMLX encoders (go, onnx, xla:cuda); default automatic: onnx when ONNX Runtime is installed, else go")
	variant := fs.String("pair-variant", string(pairs.VariantPaper), "pair building: paper (the paper's text) or code (its public code)")
	baseNeg := fs.String("base-negatives", pairs.BaseNegativesSource, "Base-level negatives: source (another source than the anchor's, as the paper) or any (the old default)")
	pairSet := settingsFlag(fs, "pair-set", `pair-building settings by their JSON names, "key=value;..." (e.g. "unseen_per_dataset=10;max_test_pairs=2000"; the same as --set "pairs.KEY=..."; roleprint config pairs)`)
	fitMax := fs.Int("fit-max", 0, "fit Fitter encoders on at most this many training texts (0: all; 20000 with --quick)")
	fresh := fs.Bool("fresh", false, "ignore checkpoints in --out/checkpoints and recompute everything")
	asJSON := fs.Bool("json", false, "print one JSON object (rows keyed encoder, exposure, level, auc_mean, ...) instead of the table")
	outs := addOutputFlags(fs, true)
	dryRun := fs.Bool("dry-run", false, "print the backend, the inputs' workload, each row's estimate and the total against the budget, the rows that would run (with their Table 2 settings) and the rows left out and why, then exit")
	recalibrate := fs.Bool("recalibrate", false, "measure the GoMLX rows' speed on this backend again instead of using the cached calibration")
	memProfile := fs.String("memprofile", "", "write a Go heap profile at the run's peak live heap to this file (go tool pprof)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	defer startPeakHeapProfile(ctx, *memProfile, e.Logf)()
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if *quick {
		if given["preset"] && *presetName != "quick" {
			return usagef("--quick is --preset quick: give one of them")
		}
		*presetName = "quick"
	}
	preset, err := table2.PresetNamed(*presetName)
	if err != nil {
		return usagef("--preset: %v", err)
	}
	*quick = preset.Quick

	// The rows: the default selection for this machine (backend and
	// installed assets) and these inputs (their measured workload), unless
	// named.
	rowEnv, err := reproDetectEnv(*backend)
	if err != nil {
		return usagef("--backend: %v", err)
	}
	// The pairs: defaults, the embedded corpus's, the preset's pair keys,
	// then the flags and --set "pairs.KEY=..." / --pair-set.
	pairCfg := pairs.DefaultPairConfig()
	if fs.NArg() == 0 {
		pairCfg = table2.EmbeddedPairConfig(pairCfg)
	}
	presetCfg := table2.DefaultTable2Config()
	applied, err := preset.Apply(&presetCfg, &pairCfg)
	if err != nil {
		return usagef("--preset: %v", err)
	}
	if given["pair-variant"] {
		pairCfg.Variant = pairs.PairVariant(*variant)
	}
	if given["base-negatives"] {
		pairCfg.BaseNegatives = *baseNeg
	}
	settings, err := options.Parse(*set)
	if err != nil {
		return usagef("--set: %v", err)
	}
	pairKV, err := options.Parse(*pairSet)
	if err != nil {
		return usagef("--pair-set: %v", err)
	}
	encSettings := map[string]string{}
	for k, v := range settings {
		if rest, ok := strings.CutPrefix(k, "pairs."); ok {
			pairKV[rest] = v
		} else {
			encSettings[k] = v
		}
	}
	if len(encSettings) == 0 {
		encSettings = nil
	}
	if err := options.Apply(&pairCfg, pairKV); err != nil {
		return usagef("--pair-set: %v", err)
	}
	if err := pairCfg.Validate(); err != nil {
		return usagef("pair configuration: %v", err)
	}
	if given["rounds"] && *rounds < 1 {
		return usagef("rounds = %d: need at least 1", *rounds)
	}
	var crit stats.Criterion
	if given["criterion"] {
		if crit, err = stats.ParseCriterion(*criterion); err != nil {
			return usagef("--criterion: %v", err)
		}
	}
	if given["encoders"] { // named rows are checked before the inputs load
		pre := table2.DefaultTable2Config()
		pre.Encoders, pre.Mixed = reproSplitList(*encoders), nil
		if _, err := pre.Validate(); err != nil {
			return usagef("%v", err)
		}
	}
	firstSeed := presetCfg.Seed
	if given["seed"] {
		firstSeed = *seed
	}
	tLoad := time.Now()
	utts, inputs, corpusName, err := reproLoadInput(fs.Args())
	if err != nil {
		return err
	}
	loadS := time.Since(tLoad).Seconds()
	// The workload of these inputs (round 1's pairs, timed) and, for the
	// default selection, the GoMLX rows' speed on this backend.
	source := table2.PairsFrom(utts, pairCfg)
	t0 := time.Now()
	first, err := source(ctx, 1, firstSeed)
	if err != nil {
		return fmt.Errorf("round 1: pairs: %w", err)
	}
	work := table2.MeasureWorkload(first)
	work.PairsSeconds = time.Since(t0).Seconds()
	work.Embedded = fs.NArg() == 0
	work.LoadSeconds = loadS
	rowEnv.Workload = &work
	// Calibrated: the default candidates (not for --quick, whose rows are
	// fixed), or the rows named with --encoders.
	var toCalibrate []table2.DefaultRow
	for _, r := range table2.DefaultRows() {
		if given["encoders"] && slices.Contains(reproSplitList(*encoders), r.Name) || !given["encoders"] && !*quick {
			toCalibrate = append(toCalibrate, r)
		}
	}
	if len(toCalibrate) > 0 {
		base := presetCfg
		base.Settings = encSettings
		rowEnv.Costs = reproCalibrate(ctx, toCalibrate, rowEnv, first, table2.CalibrationOptions{Fresh: *recalibrate, Config: &base, Logf: e.Logf})
	}
	sel := table2.SelectDefaultRows(rowEnv, *quick)
	cfg := table2.Table2ConfigFor(sel)
	scratch := pairCfg
	if _, err := preset.Apply(&cfg, &scratch); err != nil {
		return usagef("--preset: %v", err)
	}
	if slices.Contains(applied.TableKeys, "encoders") {
		// The preset names its rows: they must run, as with --encoders.
		cfg.Explicit = append(cfg.Explicit, cfg.Encoders...)
		cfg.Explicit = append(cfg.Explicit, cfg.Mixed...)
		cfg.Selection = nil
	}
	if given["encoders"] {
		cfg.Encoders = reproSplitList(*encoders)
		cfg.Explicit = append(cfg.Explicit, cfg.Encoders...)
		cfg.Selection = nil
	}
	if given["mixed"] {
		cfg.Mixed = reproSplitList(*mixed)
		if len(cfg.Mixed) == 1 && cfg.Mixed[0] == "none" {
			cfg.Mixed = nil
		}
		cfg.Explicit = append(cfg.Explicit, cfg.Mixed...)
	} else if given["encoders"] {
		// Rows named with --encoders are exactly the rows run: the mixed
		// row joins only when every default part is among them.
		cfg.Mixed = nil
		if reproAllIn(def.Mixed, cfg.Encoders) {
			cfg.Mixed = slices.Clone(def.Mixed)
		}
	}
	if given["rounds"] {
		cfg.Rounds = *rounds
	}
	if given["fit-max"] {
		cfg.FitMaxTexts = *fitMax
	}
	cfg.Seed = firstSeed
	if given["criterion"] {
		cfg.Criterion = crit
	}
	cfg.Backend = rowEnv.Backend.Name
	cfg.Settings = encSettings
	// Encoders named on the command line must run (cfg.Explicit); the
	// others may be skipped when their assets are not installed.
	cfg.SkipMissing = true
	if _, err := cfg.Validate(); err != nil {
		return usagef("%v", err)
	}
	plan := reproMakePlan(cfg, rowEnv, work, *quick)
	if *dryRun {
		return reproPrintPlan(e, cfg, plan, *asJSON)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	ckpt := filepath.Join(*out, "checkpoints")
	if *fresh {
		if err := os.RemoveAll(ckpt); err != nil {
			return err
		}
	}
	cfg.CheckpointDir = ckpt
	cfg.Logf = e.Logf
	prog := newStageProgress(e)
	cfg.Progress = prog.report
	e.Logf("reproduce: %s, %d utterances, %d round(s), encoders %s, mixed %s, output %s",
		corpusName, len(utts), cfg.Rounds, strings.Join(cfg.Encoders, ","), reproOrNone(cfg.Mixed), *out)
	reproLogSelection(e, cfg, plan)

	src := reproReuseFirst(source, first, firstSeed)
	first = nil // held by src until round 1 takes it
	res, err := table2.RunTable2(ctx, cfg, src)
	prog.done()
	if err != nil {
		return err
	}
	m := table2.NewManifest(res)
	m.Command = append([]string{"roleprint", "reproduce"}, args...)
	m.BackendReason = rowEnv.Backend.Reason
	m.Inputs = inputs
	pc := pairCfg
	m.Pairs = pc
	files := []string{table2.ReportMarkdown, table2.ReportCSV, table2.ReportParquet, table2.ReportJSON, table2.ManifestFile}
	m.Outputs = files
	if files, err = reproWriteOutputs(e, outs, res, m, *out, corpusName, files); err != nil {
		return err
	}
	if err := res.WriteReport(*out, m); err != nil {
		return err
	}
	bundle := reproSaveVerifier(ctx, e, res, table2.PairsFrom(utts, pairCfg), *out, m)
	e.Logf("reproduce: done in %.1f s; wrote %s to %s", res.Seconds, strings.Join(files, ", "), *out)
	if *asJSON {
		o := reproduceOutput{Corpus: corpusName, Inputs: inputs, Rounds: cfg.Rounds, Seeds: m.Seeds, Quick: *quick,
			Preset: preset.Name, Encoders: cfg.Encoders, Mixed: cfg.Mixed, Rows: res.Rows, Pairs: res.Rounds, Skipped: res.Skipped,
			Setup: reproSetup(res.Skipped), Backend: cfg.Backend, Notes: res.Notes, Comparisons: append([]table2.Comparison{}, res.Comparisons...), OutDir: *out, Files: files, Seconds: res.Seconds}
		if o.Skipped == nil {
			o.Skipped = []table2.SkippedEncoder{}
		}
		if o.Notes == nil {
			o.Notes = []string{}
		}
		if o.Mixed == nil {
			o.Mixed = []string{}
		}
		return e.JSON(o)
	}
	if err := res.WriteTableMarkdown(e.Stdout()); err != nil {
		return err
	}
	for _, s := range res.Skipped {
		fmt.Fprintf(e.Stdout(), "Skipped %s: %s\n", s.Encoder, s.Reason)
	}
	if setup := reproSetup(res.Skipped); setup != "" {
		fmt.Fprintf(e.Stdout(), "To add the skipped rows, run `%s` and run reproduce again.\n", setup)
	}
	fmt.Fprintf(e.Stdout(), "Full report (beside the paper's numbers, EER, best-threshold metrics): %s\n", filepath.Join(*out, table2.ReportMarkdown))
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

// reproLoadInput reads utterance Parquet files, or the embedded
// corpus when there are none.
func reproLoadInput(paths []string) ([]data.Utterance, []table2.InputFile, string, error) {
	if len(paths) == 0 {
		utts, err := corpus.Default()
		if err != nil {
			return nil, nil, "", err
		}
		in := table2.InputFile{Path: "embedded:" + corpus.DefaultName, Bytes: int64(len(corpus.DefaultParquet())), Rows: len(utts)}
		if m, err := corpus.DefaultManifest(); err == nil {
			in.SHA256 = m.SHA256
		}
		return utts, []table2.InputFile{in}, corpus.DefaultName + " (embedded)", nil
	}
	var all []data.Utterance
	var inputs []table2.InputFile
	for _, p := range paths {
		utts, err := data.ReadUtterances(p)
		if err != nil {
			return nil, nil, "", err
		}
		in, err := reproDescribeFile(p)
		if err != nil {
			return nil, nil, "", err
		}
		in.Rows = len(utts)
		inputs = append(inputs, in)
		all = append(all, utts...)
	}
	return all, inputs, strings.Join(paths, ", "), nil
}

// reproDescribeFile returns a file's size and SHA-256.
func reproDescribeFile(path string) (table2.InputFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return table2.InputFile{}, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return table2.InputFile{}, fmt.Errorf("read %s: %w", path, err)
	}
	abs, _ := filepath.Abs(path)
	return table2.InputFile{Path: abs, Bytes: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
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

// reproProgress shows table2.RunTable2's staged progress with env.progress:
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

// reproPresetNames lists the presets for the --preset help.
func reproPresetNames() string {
	var names []string
	for _, p := range table2.Presets() {
		names = append(names, p.Name)
	}
	return strings.Join(names, ", ")
}
