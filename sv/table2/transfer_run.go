package table2

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/internal/fsx"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
	"github.com/roleprint/roleprint/sv/verifier"
)

// TransferResult is the transfer table of a run (Result.Transfer).
type TransferResult struct {
	// Plan is what was run.
	Plan TransferPlan `json:"plan"`
	// Rows has one row per (row, held-out corpus, level).
	Rows []TransferRow `json:"rows"`
	// Calibrations are, per evaluated row and scoring mode (adapted as
	// Plan.Adapt, and as saved), the Platt calibration fitted on every
	// fold's held-out scores of that mode at Plan.CalibrationLevel.
	Calibrations []TransferCalibration `json:"calibrations"`
	// Bundle is the row whose calibration the run's verifier bundle
	// carries (its mixed_ft: the single fine-tuned row it consists of, or
	// mixed_ft itself); "" when none fits it.
	Bundle string `json:"bundle,omitempty"`
	// Notes are what a reader should know.
	Notes []string `json:"notes"`
	// Seconds is the folds' wall time.
	Seconds float64 `json:"seconds"`
}

// TransferRow is one row evaluated on one held-out corpus at one level:
// the fold's bundle (trained on TrainedOn) against Vs fitted on the
// held-out corpus alone, on the same pairs.
type TransferRow struct {
	Row       string   `json:"row"`
	HeldOut   string   `json:"held_out"`
	TrainedOn []string `json:"trained_on"`
	Level     string   `json:"level"`
	// LevelMetrics are the bundle's over the evaluation seeds; its ACC
	// and F1 are its verdicts P(same) ≥ 0.5 with its own calibration (the
	// fold's dev pairs), whose expected calibration error is ECE.
	LevelMetrics
	// ECECrossFit is the ECE of P(same) calibrated on the other folds'
	// held-out scores only (never this corpus's): what a bundle
	// calibrated on held-out corpora is worth on a corpus new to it. NaN
	// (null) with a single other fold lacking scores. It is of the scores
	// adapted as Plan.Adapt (the AUC's); AUCMeanAsSaved and
	// ECECrossFitAsSaved are the same pairs scored by the bundle as saved
	// (Plan.AsSaved, as `verify` scores), the calibration fitted on the
	// other folds' as-saved scores.
	ECECrossFit        stats.Float `json:"ece_cross_fit"`
	AUCMeanAsSaved     stats.Float `json:"auc_mean_as_saved"`
	ECECrossFitAsSaved stats.Float `json:"ece_cross_fit_as_saved"`
	Pairs              int         `json:"pairs"`
	Rounds             int         `json:"rounds"`
	// Vs is the untuned encoder compared, VsAUCMean and VsAUCStd its AUC;
	// AUCDiff (a fraction: bundle − Vs), AUCDiffCI and ShareNotAbove the
	// paired bootstrap (Comparison).
	Vs            string         `json:"vs"`
	VsAUCMean     stats.Float    `json:"vs_auc_mean"`
	VsAUCStd      stats.Float    `json:"vs_auc_std"`
	AUCDiff       stats.Float    `json:"auc_diff"`
	AUCDiffCI     stats.Interval `json:"auc_diff_ci"`
	ShareNotAbove stats.Float    `json:"share_not_above"`
}

// TransferCalibration is a row's calibration fitted on held-out-corpus
// scores of one scoring mode: Platt scaling of the pooled scores of Level
// over every fold, each pair weighing the same.
type TransferCalibration struct {
	Row string `json:"row"`
	// Scoring is how the scores were computed: verifier.ScoringAdapted
	// (adapted as TransferPlan.Adapt) or verifier.ScoringAsSaved.
	Scoring     string               `json:"scoring"`
	Level       string               `json:"level"`
	Corpora     []string             `json:"corpora"`
	Pairs       int                  `json:"pairs"`
	Calibration verifier.Calibration `json:"calibration"`
}

// transferBundle is one bundle a fold trains: its row name, its parts
// and their weights.
type transferBundle struct {
	Name    string
	Parts   []string
	Weights []float64
}

// transferBundles returns the bundles every fold trains: one per
// trainable row, and mixed_ft's when the run's bundle (the last round's
// mixed_ft) is not one of them alone. bundle names the row whose scores
// are the saved bundle's ("" without mixed_ft).
func transferBundles(tp *TransferPlan, res *Result) (bs []transferBundle, bundle string) {
	for _, r := range tp.Rows {
		bs = append(bs, transferBundle{Name: r, Parts: []string{r}, Weights: []float64{1}})
	}
	choice := lastMixedFT(res)
	if choice == nil {
		return bs, ""
	}
	if len(choice.Parts) == 1 && slices.Contains(tp.Rows, choice.Parts[0]) {
		return bs, choice.Parts[0]
	}
	bs = append(bs, transferBundle{Name: MixedFTName, Parts: slices.Clone(choice.Parts), Weights: slices.Clone(choice.Weights)})
	return bs, MixedFTName
}

// lastMixedFT is the last round's mixed_ft choice (the verifier bundle's
// make-up), nil without one.
func lastMixedFT(res *Result) *MixedChoice {
	for i := range res.PerRound {
		if er := &res.PerRound[i]; er.Round == res.Config.Rounds && er.Encoder == MixedFTName && er.Mixed != nil {
			return er.Mixed
		}
	}
	return nil
}

// transferEvalFile is a (fold, bundle) checkpoint: the evaluation, kept
// with the key of everything it depends on.
type transferEvalFile struct {
	Format string       `json:"format"`
	Key    string       `json:"key"`
	Eval   *HeldOutEval `json:"eval"`
}

const transferEvalFormat = "roleprint-transfer-eval-1"

// runTransfer runs p's transfer folds after the in-domain run res: per
// fold, each bundle's rows are trained on the fold's pairs (resuming
// from the fold's checkpoints), saved as a bundle and evaluated on the
// held-out corpus (resuming from the (fold, bundle) evaluation
// checkpoint); then the table, the held-out calibrations and the
// cross-fitted ECE.
func runTransfer(ctx context.Context, p *Plan, res *Result) (*TransferResult, error) {
	start := time.Now()
	tp := p.Transfer
	ev, err := registeredHeldOutEvaluator()
	if err != nil {
		return nil, err
	}
	logf := p.Config.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	root := ""
	if p.Config.CheckpointDir != "" {
		root = filepath.Join(p.Config.CheckpointDir, "transfer")
	} else {
		// The bundles need a folder; without checkpoints it is temporary.
		if root, err = os.MkdirTemp("", "roleprint-transfer-*"); err != nil {
			return nil, err
		}
		defer os.RemoveAll(root)
	}
	bundles, bundleRow := transferBundles(tp, res)
	names, by := corpusUtterances(p.Inputs.Utterances)
	if !slices.Equal(names, tp.Corpora) {
		return nil, fmt.Errorf("transfer: the inputs' corpora %v are not the plan's %v", names, tp.Corpora)
	}
	evals := map[string]map[string]*HeldOutEval{} // bundle → held-out corpus → evaluation (adapted)
	saved := map[string]map[string]*HeldOutEval{} // the same, scored as saved
	for fi, fold := range tp.Folds {
		var train []data.Utterance
		for _, c := range fold.TrainedOn {
			train = append(train, by[c]...)
		}
		f := &transferFoldRun{p: p, ev: ev, fold: fold, dir: filepath.Join(root, fold.Name()), train: train, held: by[fold.HeldOut], logf: logf,
			prefix: fmt.Sprintf("transfer %d/%d (%s held out)", fi+1, len(tp.Folds), fold.HeldOut)}
		for _, b := range bundles {
			e, err := f.evaluate(ctx, b, tp.Adapt, tp.Vs, ".eval.json")
			if err != nil {
				return nil, fmt.Errorf("transfer: %s held out: %s: %w", fold.HeldOut, b.Name, err)
			}
			// The very same pairs (the same seeds and pair settings) scored
			// by the bundle as saved; no Vs encoders (their scores do not
			// depend on the bundle's mode).
			es, err := f.evaluate(ctx, b, tp.AsSaved, []string{}, ".eval-as-saved.json")
			if err != nil {
				return nil, fmt.Errorf("transfer: %s held out: %s as saved: %w", fold.HeldOut, b.Name, err)
			}
			if evals[b.Name] == nil {
				evals[b.Name], saved[b.Name] = map[string]*HeldOutEval{}, map[string]*HeldOutEval{}
			}
			evals[b.Name][fold.HeldOut], saved[b.Name][fold.HeldOut] = e, es
		}
		f.close()
	}
	tr := &TransferResult{Plan: *tp, Rows: []TransferRow{}, Calibrations: []TransferCalibration{}, Notes: []string{}}
	for _, b := range bundles {
		rows, cals, notes := transferTable(tp, b.Name, evals[b.Name], saved[b.Name])
		tr.Rows = append(tr.Rows, rows...)
		tr.Notes = append(tr.Notes, notes...)
		tr.Calibrations = append(tr.Calibrations, cals...)
		if len(cals) == 2 && b.Name == bundleRow {
			tr.Bundle = b.Name
		}
	}
	tr.Notes = append(tr.Notes, tp.Notes...)
	tr.Notes = append(tr.Notes, transferRule(tp))
	switch {
	case tr.Bundle != "":
		tr.Notes = append(tr.Notes, fmt.Sprintf("the run's verifier bundle (%s = %s) is calibrated on the %s held-out scores of %s (calibration_source %q): calibration on the scores as saved (what `verify` computes), calibration_adapted on the scores adapted with --adapt %s (what `eval` and `score` compute by default)",
			MixedFTName, lastMixedFT(res), tp.CalibrationLevel, tr.Bundle, verifier.CalibrationHeldOut, tp.Adapt))
	case bundleRow != "":
		tr.Notes = append(tr.Notes, fmt.Sprintf("no held-out calibration could be fitted for %s: the run's verifier bundle keeps its dev-pair calibration", bundleRow))
	}
	tr.Seconds = time.Since(start).Seconds()
	return tr, nil
}

// transferRule states the protocol in a sentence.
func transferRule(tp *TransferPlan) string {
	return fmt.Sprintf("transfer: leave-one-corpus-out over %s; each fold trains %s on the other corpora (one round, seed %d) and evaluates the bundle on the held-out corpus as `roleprint eval` does (every speaker unseen, seeds %v, --adapt %s) against %s fitted on that corpus alone, on the same pairs, and scores the same pairs with the bundle as saved (--adapt %s); ECE is the bundle's own (dev-pair) calibration's, ECE cross-fit that of a Platt calibration fitted on the other folds' pooled %s scores only, of the same mode (adapted, and as saved)",
		strings.Join(tp.Corpora, ", "), strings.Join(tp.Rows, ", "), tp.Seed, tp.EvalSeeds, tp.Adapt, strings.Join(tp.Vs, ", "), tp.AsSaved, tp.CalibrationLevel)
}

// transferFoldRun is one fold being run: its pairs, rows and bundles.
type transferFoldRun struct {
	p       *Plan
	ev      *HeldOutEvaluator
	fold    TransferFold
	dir     string
	train   []data.Utterance
	held    []data.Utterance
	logf    func(string, ...any)
	prefix  string
	cfg     *Config
	rr      *roundRunner
	rows    map[string]*EncoderRound
	heldKey string
	// bundles are the bundle folders saved in this run, by bundle name.
	bundles map[string]string
}

// close drops the fold's pairs, rows and bundles.
func (f *transferFoldRun) close() { f.rr, f.rows, f.bundles = nil, nil, nil }

// runner builds the fold's pairs (one round, the plan's pair settings
// and seed) and its round runner, once.
func (f *transferFoldRun) runner(ctx context.Context) (*roundRunner, error) {
	if f.rr != nil {
		return f.rr, nil
	}
	cfg := f.p.Config
	cfg.CheckpointDir = f.dir
	cfg.Rounds = 1
	cfg.Progress = f.p.Config.Progress
	f.cfg = &cfg
	seed := f.p.Transfer.Seed
	report(cfg.Progress, f.prefix+" pairs", 0, 1)
	c, err := PairsFrom(f.train, f.p.Pairs)(ctx, 1, seed)
	if err != nil {
		return nil, fmt.Errorf("pairs of %s: %w", strings.Join(f.fold.TrainedOn, ", "), err)
	}
	if err := checkCorpus(c); err != nil {
		return nil, fmt.Errorf("pairs of %s: %w", strings.Join(f.fold.TrainedOn, ", "), err)
	}
	report(cfg.Progress, f.prefix+" pairs", 1, 1)
	f.rr = &roundRunner{cfg: f.cfg, crit: cfg.Criterion, corpus: c, round: 1, seed: seed, prefix: f.prefix, corpusKey: corpusKey(c)}
	f.rows = map[string]*EncoderRound{}
	return f.rr, nil
}

// row trains (or resumes) one row of the fold.
func (f *transferFoldRun) row(ctx context.Context, name string) (*EncoderRound, error) {
	if er := f.rows[name]; er != nil {
		return er, nil
	}
	rr, err := f.runner(ctx)
	if err != nil {
		return nil, err
	}
	er, err := rr.encoder(ctx, name)
	if err != nil {
		return nil, err
	}
	if er.Resumed {
		f.logf("%s: %s resumed from checkpoint", f.prefix, name)
	}
	f.rows[name] = er
	return er, nil
}

// key fingerprints bundle b of the fold evaluated with adapt and vs: the
// fold's pairs, its parts' encoder keys and weights, the held-out
// utterances and the evaluation's options (seeds, compared encoders,
// adaptation, bootstrap replicates and confidence).
func (f *transferFoldRun) key(ctx context.Context, b transferBundle, adapt string, vs []string) (string, error) {
	rr, err := f.runner(ctx)
	if err != nil {
		return "", err
	}
	if f.heldKey == "" {
		h := sha256.New()
		for _, u := range f.held {
			fmt.Fprintf(h, "%q %q %q %q\n", u.Source, u.ConversationID, u.Speaker, u.Text)
		}
		f.heldKey = hex.EncodeToString(h.Sum(nil))
	}
	tp := f.p.Transfer
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n%v %v %s %s %d %g\n", f.heldKey, b.Name, tp.EvalSeeds, vs, adapt, f.p.Config.Criterion, tp.Replicates, tp.Confidence)
	pj, _ := json.Marshal(f.p.Pairs)
	h.Write(pj)
	for i, part := range b.Parts {
		fmt.Fprintf(h, "\n%s %g %s", part, b.Weights[i], encoderKey(rr.corpusKey, part, f.cfg.EncoderOptions(part, rr.seed), f.cfg.FitMaxTexts))
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// evaluate returns bundle b's evaluation on the held-out corpus with the
// adaptation mode adapt and the compared encoders vs: from its checkpoint
// (the file named by b and suffix), or trained, saved (once per run) and
// evaluated (then checkpointed).
func (f *transferFoldRun) evaluate(ctx context.Context, b transferBundle, adapt string, vs []string, suffix string) (*HeldOutEval, error) {
	key, err := f.key(ctx, b, adapt, vs)
	if err != nil {
		return nil, err
	}
	ckpt := filepath.Join(f.dir, safeFileName(b.Name)+suffix)
	if e, ok := loadTransferEval(ckpt, key); ok {
		f.logf("%s: %s's evaluation (--adapt %s) resumed from checkpoint", f.prefix, b.Name, adapt)
		return e, nil
	}
	dir, err := f.bundle(ctx, b)
	if err != nil {
		return nil, err
	}
	tp := f.p.Transfer
	f.logf("%s: evaluating %s (trained on %s) on %s, --adapt %s", f.prefix, b.Name, strings.Join(f.fold.TrainedOn, " + "), f.fold.HeldOut, adapt)
	e, err := f.ev.Eval(ctx, dir, f.held, HeldOutOptions{Seeds: tp.EvalSeeds, Vs: vs, Replicates: tp.Replicates, Confidence: tp.Confidence, Adapt: adapt, Pairs: &f.p.Pairs,
		Backend: f.p.Config.Backend, BatchSize: f.p.Config.BatchSize, Logf: f.p.Config.Logf, Progress: f.prefixed()})
	if err != nil {
		return nil, err
	}
	if err := saveTransferEval(ckpt, key, e); err != nil {
		return nil, err
	}
	return e, nil
}

// bundle trains (or resumes) b's parts and saves b's bundle of the fold,
// once per run, and returns its folder.
func (f *transferFoldRun) bundle(ctx context.Context, b transferBundle) (string, error) {
	if dir, ok := f.bundles[b.Name]; ok {
		return dir, nil
	}
	for _, part := range b.Parts {
		if _, err := f.row(ctx, part); err != nil {
			return "", err
		}
	}
	dir := filepath.Join(f.dir, safeFileName(b.Name)+".verifier")
	if err := f.saveBundle(ctx, b, dir); err != nil {
		return "", err
	}
	if f.bundles == nil {
		f.bundles = map[string]string{}
	}
	f.bundles[b.Name] = dir
	return dir, nil
}

// prefixed returns the run's progress with the fold's prefix on every
// stage (nil without progress).
func (f *transferFoldRun) prefixed() func(string, int, int) {
	p := f.p.Config.Progress
	if p == nil {
		return nil
	}
	return func(stage string, done, total int) { p(f.prefix+" "+stage, done, total) }
}

// saveBundle writes bundle b of the fold into dir, as Plan.SaveVerifier
// writes the run's: fine-tuned parts with the weights of their training
// checkpoints in the fold's work folders, untuned parts fitted on the
// fold's training texts (with their sources), the threshold and
// calibration from the fold's dev pairs, the fold's domain.
func (f *transferFoldRun) saveBundle(ctx context.Context, b transferBundle, dir string) error {
	rr, cfg := f.rr, f.cfg
	fit, sources := sv.TrainTextSources(rr.corpus, cfg.FitMaxTexts)
	parts, err := bundleParts(ctx, cfg, 1, rr.seed, b.Parts, b.Weights, fit, sources, f.logf)
	defer closeParts(parts)
	if err != nil {
		return err
	}
	dev := make([][]float64, len(b.Parts))
	for i, name := range b.Parts {
		dev[i] = f.rows[name].scores.Dev
	}
	domain, err := verifier.CorpusDomain(rr.corpus)
	if err != nil {
		f.logf("%s: the bundle of %s records no domain: %v", f.prefix, b.Name, err)
		domain = nil
	}
	m := map[string]any{"transfer_fold": f.fold, "row": b.Name, "parts": b.Parts, "weights": b.Weights, "seed": rr.seed,
		"pairs": f.p.Pairs, "row_settings": cfg.RowSettings}
	_, err = verifier.Save(dir, verifier.SaveOptions{Name: b.Name, Parts: parts, FitTexts: fit, FitSources: sources,
		DevCosines: fuseCosines(dev, b.Weights), DevLabels: sv.PairLabels(rr.corpus.Dev), Criterion: cfg.Criterion, Manifest: m, Domain: domain})
	return err
}

// loadTransferEval reads a (fold, bundle) checkpoint; ok is false when it
// is absent, torn or made for other data or settings.
func loadTransferEval(path, key string) (*HeldOutEval, bool) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) || err != nil {
		return nil, false
	}
	var f transferEvalFile
	if json.Unmarshal(b, &f) != nil || f.Format != transferEvalFormat || f.Key != key || f.Eval == nil {
		return nil, false
	}
	return f.Eval, true
}

// saveTransferEval writes a (fold, bundle) checkpoint atomically.
func saveTransferEval(path, key string, e *HeldOutEval) error {
	b, err := json.Marshal(transferEvalFile{Format: transferEvalFormat, Key: key, Eval: e})
	if err != nil {
		return fmt.Errorf("checkpoint %s: %w", path, err)
	}
	return fsx.WriteFileAll(path, b, 0o644)
}

// transferTable builds row's table rows from its evaluations per
// held-out corpus, adapted (evals) and as saved (saved, the same pairs),
// its calibrations on every fold's held-out scores of each mode, and the
// cross-fitted ECE of each corpus, level and mode.
func transferTable(tp *TransferPlan, row string, evals, saved map[string]*HeldOutEval) ([]TransferRow, []TransferCalibration, []string) {
	var rows []TransferRow
	var notes []string
	held := map[string][]HeldOutScores{}
	heldSaved := map[string][]HeldOutScores{}
	for _, fold := range tp.Folds {
		if es := saved[fold.HeldOut]; es != nil {
			heldSaved[fold.HeldOut] = es.Scores
		}
		e := evals[fold.HeldOut]
		if e == nil {
			continue
		}
		held[fold.HeldOut] = e.Scores
		for _, n := range e.Notes {
			notes = append(notes, fmt.Sprintf("%s, %s held out: %s", row, fold.HeldOut, n))
		}
		for _, r := range e.Rows {
			if r.Encoder != row {
				continue
			}
			tr := TransferRow{Row: row, HeldOut: fold.HeldOut, TrainedOn: fold.TrainedOn, Level: r.Level, LevelMetrics: r.LevelMetrics,
				Pairs: r.Pairs, Rounds: r.Rounds, AUCMeanAsSaved: stats.NaN(),
				VsAUCMean: stats.NaN(), VsAUCStd: stats.NaN(), AUCDiff: stats.NaN(), AUCDiffCI: stats.NoInterval(), ShareNotAbove: stats.NaN()}
			if es := saved[fold.HeldOut]; es != nil {
				for _, sr := range es.Rows {
					if sr.Encoder == row && sr.Level == r.Level {
						tr.AUCMeanAsSaved = sr.AUCMean
					}
				}
			}
			if len(tp.Vs) > 0 {
				tr.Vs = tp.Vs[0]
				for _, v := range e.Rows {
					if v.Encoder == tr.Vs && v.Level == r.Level {
						tr.VsAUCMean, tr.VsAUCStd = v.AUCMean, v.AUCStd
					}
				}
				for _, c := range e.Comparisons {
					if c.Level == r.Level && c.B == tr.Vs {
						tr.AUCDiff, tr.AUCDiffCI, tr.ShareNotAbove = c.AUCDiff, c.AUCDiffCI, c.ShareNotAbove
					}
				}
			}
			rows = append(rows, tr)
		}
	}
	for i := range rows {
		rows[i].ECECrossFit = stats.Float(crossFitECE(held, rows[i].HeldOut, rows[i].Level, tp.CalibrationLevel, tp.ECEBins))
		rows[i].ECECrossFitAsSaved = stats.Float(crossFitECE(heldSaved, rows[i].HeldOut, rows[i].Level, tp.CalibrationLevel, tp.ECEBins))
	}
	var cals []TransferCalibration
	for _, m := range []struct {
		scoring string
		held    map[string][]HeldOutScores
	}{{verifier.ScoringAsSaved, heldSaved}, {verifier.ScoringAdapted, held}} {
		if c, corpora, n, err := heldOutCalibration(m.held, "", tp.CalibrationLevel); err == nil {
			cals = append(cals, TransferCalibration{Row: row, Scoring: m.scoring, Level: tp.CalibrationLevel, Corpora: corpora, Pairs: n, Calibration: c})
		} else {
			notes = append(notes, fmt.Sprintf("%s: no calibration of %s scores on held-out corpora: %v", row, m.scoring, err))
		}
	}
	return rows, cals, notes
}

// heldOutCalibration fits Platt scaling on the pooled scores at level of
// every held-out corpus but except, each pair weighing the same. It
// returns the corpora used and their pairs.
func heldOutCalibration(held map[string][]HeldOutScores, except, level string) (verifier.Calibration, []string, int, error) {
	var scores []float64
	var labels []bool
	var corpora []string
	for _, c := range slices.Sorted(maps.Keys(held)) {
		if c == except {
			continue
		}
		n := len(scores)
		for _, hs := range held[c] {
			if hs.Level != level {
				continue
			}
			for i, x := range hs.Scores {
				if !math.IsNaN(x) {
					scores, labels = append(scores, x), append(labels, hs.Positive[i])
				}
			}
		}
		if len(scores) > n {
			corpora = append(corpora, c)
		}
	}
	if len(scores) == 0 {
		return verifier.Calibration{}, nil, 0, fmt.Errorf("no %s scores on a held-out corpus%s", level, exceptNote(except))
	}
	cal, err := verifier.FitPlatt(scores, labels)
	return cal, corpora, len(scores), err
}

func exceptNote(except string) string {
	if except == "" {
		return ""
	}
	return " other than " + except
}

// crossFitECE is the ECE (mean over rounds, bins bins) at level on corpus
// of P(same) calibrated on the other corpora's held-out scores at
// calLevel: NaN when they have none.
func crossFitECE(held map[string][]HeldOutScores, corpus, level, calLevel string, bins int) float64 {
	cal, _, _, err := heldOutCalibration(held, corpus, calLevel)
	if err != nil {
		return math.NaN()
	}
	return heldOutECE(held[corpus], level, cal, bins)
}

// heldOutECE is the mean over rounds of the ECE at level of scores
// calibrated by cal (NaN when no round has scores at level).
func heldOutECE(scores []HeldOutScores, level string, cal verifier.Calibration, bins int) float64 {
	var eces []float64
	for _, hs := range scores {
		if hs.Level != level || len(hs.Scores) == 0 {
			continue
		}
		p := make([]float64, len(hs.Scores))
		for i, s := range hs.Scores {
			p[i] = cal.Probability(s)
		}
		eces = append(eces, stats.ECE(p, hs.Positive, bins))
	}
	if len(eces) == 0 {
		return math.NaN()
	}
	return stats.Mean(eces)
}

// BundleCalibration returns the held-out calibration of the run's
// verifier bundle (the row Bundle names) of scores computed by scoring
// (verifier.ScoringAsSaved or verifier.ScoringAdapted), and a note
// describing it; nil when there is none.
func (t *TransferResult) BundleCalibration(scoring string) (*verifier.Calibration, string) {
	if t == nil || t.Bundle == "" {
		return nil, ""
	}
	for _, c := range t.Calibrations {
		if c.Row == t.Bundle && c.Scoring == scoring {
			cal := c.Calibration
			how := "scored as saved (--adapt " + t.Plan.AsSaved + ", as `verify` scores)"
			if scoring == verifier.ScoringAdapted {
				how = "scored adapted with --adapt " + t.Plan.Adapt
			}
			return &cal, fmt.Sprintf("Platt scaling of %d %s pairs of the held-out corpora %s (leave-one-corpus-out folds of %s, each trained on the other corpora, %s; every pair weighing the same)",
				c.Pairs, c.Level, strings.Join(c.Corpora, ", "), c.Row, how)
		}
	}
	return nil, ""
}
