package main

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/sv/evaluate"
	"github.com/roleprint/roleprint/sv/table2"
	"github.com/roleprint/roleprint/sv/verifier"
)

func init() {
	register(&command{
		Name:    "eval",
		Summary: "a saved verifier, weights frozen (adapted without labels to each corpus it was not trained on), on corpora it was not trained on (every speaker unseen), against tfidf on the same pairs",
		Run:     runEval,
	})
}

// evalOutput is the --json object of `roleprint eval`: the report, and
// where its files went.
type evalOutput struct {
	*evaluate.EvalReport
	OutDir  string   `json:"out_dir"`
	Files   []string `json:"files"`
	Seconds float64  `json:"seconds"`
}

// evalManifest is OUT/manifest.json of `roleprint eval`.
type evalManifest struct {
	Format   string        `json:"format"`
	Command  []string      `json:"command"`
	Started  time.Time     `json:"started"`
	Seconds  float64       `json:"seconds"`
	Verifier string        `json:"verifier"`
	Spec     verifier.Spec `json:"spec"`
	// Seeds, Vs, Replicates, Confidence and Adapt are the resolved
	// evaluation options.
	Seeds      []int64         `json:"seeds"`
	Vs         []string        `json:"vs"`
	Replicates int             `json:"bootstrap_replicates"`
	Confidence float64         `json:"confidence"`
	Adapt      string          `json:"adapt"`
	Inputs     []evalInputFile `json:"inputs"`
	Software   softwareInfo    `json:"software"`
	Outputs    []string        `json:"outputs"`
}

// evalInputFile is one corpus file evaluated.
type evalInputFile struct {
	Path  string `json:"path"`
	Bytes int64  `json:"bytes"`
	Rows  int    `json:"rows"`
	// Import is how the file was imported, when it records it (format,
	// settings, conversation rule: windows of lines make pseudo-scenes).
	Import *data.ImportInfo `json:"import"`
}

// softwareInfo names the build that ran.
type softwareInfo struct {
	Module   string `json:"module"`
	Version  string `json:"version"`
	Revision string `json:"vcs_revision,omitempty"`
}

// runEval evaluates a saved verifier on corpus files it was not trained
// on (evaluate.Evaluate) and prints or writes the report.
func runEval(ctx context.Context, e *env, args []string) error {
	start := time.Now()
	fs := newFlags(e, "eval", "CORPUS.parquet...")
	dir := fs.String("verifier", "", "verifier bundle folder (OUT/verifier of roleprint reproduce or roleprint train; required)")
	vs := fs.String("vs", evaluate.EvalDefaultVs, "encoders scored on the same pairs, fitted on the evaluated texts only (comma-separated; none for none)")
	out := fs.String("out", "", "write the report (eval.md, eval.csv, eval.json, manifest.json) to this folder")
	seeds := fs.String("seeds", "1,2,3", "pair-sampling seeds, one round each (comma-separated)")
	maxPairs := fs.Int("max-pairs", pairs.DefaultPairConfig().MaxTestPairs, "pairs per test set and round at most")
	reps := fs.Int("bootstrap", 0, "paired bootstrap replicates of the AUC differences (0: 2000)")
	backend := fs.String("backend", "", "compute backend for GoMLX parts and encoders (go, onnx, xla:cuda); default: automatic")
	adapt := fs.String("adapt", evaluate.EvalAdaptAuto, "adapt the bundle, without labels, to each evaluated corpus before scoring it: auto (the corpora it was not trained on), all, or none (the bundle as saved)")
	asJSON := fs.Bool("json", false, "print one JSON object {verifier, name, trained_on, corpora, seeds, vs, bootstrap_replicates, confidence, adapt, adapted, rows[{encoder, corpus, level, auc_mean, auc_std, acc_mean, f1_mean, acc_best_mean, eer_mean, ece, rule, pairs, rounds}], comparisons, domain, notes, out_dir, files, ...}")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *dir == "" {
		return usagef("--verifier DIR is required")
	}
	if fs.NArg() == 0 {
		return usagef("expected corpus files (.parquet, as `roleprint import` writes) the verifier was not trained on")
	}
	var seedList []int64
	for _, f := range strings.Split(*seeds, ",") {
		s, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		if err != nil {
			return usagef("--seeds %q: want comma-separated integers", *seeds)
		}
		seedList = append(seedList, s)
	}
	if !slices.Contains(evaluate.EvalAdaptModes(), *adapt) {
		return usagef("--adapt %q: want one of %s", *adapt, strings.Join(evaluate.EvalAdaptModes(), ", "))
	}
	if *maxPairs < 2 {
		return usagef("--max-pairs %d: want ≥ 2", *maxPairs)
	}
	var vsList []string
	for _, n := range strings.Split(*vs, ",") {
		if n = strings.TrimSpace(n); n != "" && n != "none" {
			vsList = append(vsList, n)
		}
	}
	if vsList == nil {
		vsList = []string{}
	}
	if *reps < 0 {
		return usagef("--bootstrap %d: want ≥ 0 (0: %d)", *reps, table2.CompareReplicates)
	}
	cfg := pairs.DefaultPairConfig()
	cfg.MaxTestPairs = *maxPairs
	// The options are resolved here, once: the report and the manifest
	// record the values the evaluation ran with.
	opts := evaluate.EvalOptions{Seeds: seedList, Pairs: &cfg, Vs: vsList, Replicates: *reps, Adapt: *adapt, Backend: *backend}.Resolve()
	files := fs.Args()
	if err := verifier.CheckInputHashes(*dir, files); err != nil {
		return err
	}
	var utts []data.Utterance
	var inputs []evalInputFile
	for _, f := range files {
		u, err := data.ReadUtterances(f)
		if err != nil {
			return err
		}
		st, _ := os.Stat(f)
		info, err := data.ReadImportInfo(f)
		if err != nil {
			return err
		}
		inputs = append(inputs, evalInputFile{Path: f, Bytes: st.Size(), Rows: len(u), Import: info})
		utts = append(utts, u...)
	}
	v, err := loadVerifier(ctx, e, *dir, *backend, 0)
	if err != nil {
		return err
	}
	defer v.Close()
	bars := map[string]func(int, int){}
	progress := func(stage string, done, total int) {
		bar, ok := bars[stage]
		if !ok {
			report, finish := e.progress("eval " + stage)
			bar = func(d, t int) {
				report(d, t)
				if d >= t {
					finish()
				}
			}
			bars[stage] = bar
		}
		bar(done, total)
	}
	opts.Logf, opts.Progress = e.Logf, progress
	rep, err := evaluate.Evaluate(ctx, v, utts, opts)
	if err != nil {
		return err
	}
	for _, in := range inputs {
		if in.Import != nil && in.Import.SceneLines > 0 {
			// Windows are not scenes: say what the Harder level means here.
			n := fmt.Sprintf("%s: conversations are windows of %d utterances (import --scene-lines), not the script's scenes: Harder pairs are two speakers of one window, and a speaker's two sets may come from adjacent windows of one scene",
				in.Path, in.Import.SceneLines)
			rep.Notes = append(rep.Notes, n)
			e.Logf("eval: note: %s", n)
		}
	}
	warnVerifierScope(e, "eval", v, nil, nil)
	for _, d := range rep.Domain {
		if !d.InDomain {
			e.Logf("eval: warning: %d of %s's %d sets are outside the text the verifier was trained on (%s): its P(same) and decisions there were calibrated on other text",
				d.OutOfDomain, d.Corpus, d.Sets, strings.Join(rep.TrainedOn, ", "))
		}
	}
	o := evalOutput{EvalReport: rep, OutDir: *out, Files: []string{}}
	if *out != "" {
		m := evalManifest{Format: "roleprint-eval", Command: append([]string{"roleprint", "eval"}, args...), Started: start.UTC(),
			Seconds: time.Since(start).Seconds(), Verifier: *dir, Spec: v.Spec,
			Seeds: opts.Seeds, Vs: opts.Vs, Replicates: opts.Replicates, Confidence: opts.Confidence, Adapt: opts.Adapt, Inputs: inputs, Software: buildSoftware(), Outputs: evaluate.EvalFiles}
		if err := rep.WriteFiles(*out, m); err != nil {
			return err
		}
		o.Files = evaluate.EvalFiles
		e.Logf("eval: wrote %s to %s", strings.Join(evaluate.EvalFiles, ", "), *out)
	}
	o.Seconds = time.Since(start).Seconds()
	if *asJSON {
		return e.JSON(o)
	}
	return rep.WriteMarkdown(e.Stdout())
}

// buildSoftware reads the module version and VCS revision of the binary.
func buildSoftware() softwareInfo {
	s := softwareInfo{Module: "github.com/roleprint/roleprint"}
	if bi, ok := debug.ReadBuildInfo(); ok {
		s.Version = bi.Main.Version
		for _, kv := range bi.Settings {
			if kv.Key == "vcs.revision" {
				s.Revision = kv.Value
			}
		}
	}
	return s
}
