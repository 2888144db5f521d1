package evaluate

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
	"github.com/roleprint/roleprint/sv/table2"
	"github.com/roleprint/roleprint/sv/verifier"
)

// transferMachine is a pure-Go machine without a calibration (the
// committed row costs apply).
var transferMachine = table2.Machine{
	Detect: func(string) (table2.RowEnvironment, error) {
		return table2.RowEnvironment{Backend: sv.BackendInfo{Name: "go", Reason: "test machine"}}, nil
	},
	Calibrate: func(context.Context, []sv.Row, table2.RowEnvironment, *pairs.PairCorpus, table2.CalibrationOptions) map[string]sv.RowCost {
		return nil
	},
}

// transferCorpus writes a synthetic corpus for a Table 2 run: in each of
// 2 sources, 24 conversations of 3 of its 8 speakers (speaker k is in
// the conversations c with k ∈ {c, c+1, c+3} mod 8), each speaking 6 lines
// mixing their own words, the corpus's register and common words.
func transferCorpus(seed uint64, corpus string, register []string) []data.Utterance {
	const speakers = 8
	rotation := func(c int) []int { return []int{c % speakers, (c + 1) % speakers, (c + 3) % speakers} }
	return synthCorpus(rand.New(rand.NewPCG(seed, 5)), corpus, 2, speakers, 24, register, rotation)
}

// transferInputs are three small synthetic corpora of three registers.
func transferInputs() table2.Inputs {
	var utts []data.Utterance
	utts = append(utts, transferCorpus(11, "old", oldRegister)...)
	utts = append(utts, transferCorpus(12, "new", newRegister)...)
	utts = append(utts, transferCorpus(13, "mix", mixRegister)...)
	return table2.Inputs{Name: "synthetic", Utterances: utts}
}

// transferRequest is the transfer preset's rows on the small corpora,
// with a short training.
func transferRequest() table2.Request {
	return table2.Request{Preset: "transfer", Machine: transferMachine,
		Settings: map[string]string{"ngram-metric_ft.epochs": "2", "pairs.allow_empty_splits": "true"}}
}

// TestTransferPlanAndRun resolves and runs the transfer preset on three
// corpora: one fold per corpus trained on the other two, whose bundles
// never saw the held-out corpus's texts; rows per row, corpus and level;
// the run's bundle calibrated on the folds' held-out Hard scores (its
// verifier.json says so) and `eval` measuring that calibration; an
// interrupted run resuming from its checkpoints to the same table.
func TestTransferPlanAndRun(t *testing.T) {
	ctx := context.Background()
	in := transferInputs()
	plan, err := table2.Resolve(ctx, transferRequest(), in)
	if err != nil {
		t.Fatal(err)
	}
	tp := plan.Transfer
	if tp == nil || !slices.Equal(tp.Corpora, []string{"mix", "new", "old"}) || !slices.Equal(tp.Rows, []string{"ngram-metric_ft"}) {
		t.Fatalf("transfer plan %+v", tp)
	}
	if plan.Estimate.Transfer != tp || !(tp.EstimatedSeconds > 0) || tp.CalibrationLevel != "hard" || !slices.Equal(tp.Vs, []string{"tfidf"}) ||
		tp.Adapt != EvalAdaptAuto || len(tp.EvalSeeds) != 3 {
		t.Fatalf("the plan or its estimate lacks the folds' settings: %+v", tp)
	}
	// The evaluation's bootstrap is resolved in the plan (`roleprint
	// eval`'s defaults), not filled in while the folds run.
	if want := (EvalOptions{}).Resolve(); tp.Replicates != want.Replicates || tp.Confidence != want.Confidence || tp.Replicates != 2000 {
		t.Fatalf("transfer plan bootstrap %d replicates, confidence %g: want eval's %d, %g", tp.Replicates, tp.Confidence, want.Replicates, want.Confidence)
	}
	for i, f := range tp.Folds {
		if f.HeldOut != tp.Corpora[i] || slices.Contains(f.TrainedOn, f.HeldOut) || len(f.TrainedOn) != 2 || f.HeldOutUtterances == 0 ||
			f.HeldOutUtterances+f.TrainUtterances != len(in.Utterances) {
			t.Fatalf("fold %+v", f)
		}
	}

	// Interrupted in the second fold, then run again: the first fold and
	// the in-domain round resume from their checkpoints.
	ckpt := t.TempDir()
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	plan.Config.CheckpointDir = ckpt
	plan.Config.Progress = func(stage string, _, _ int) {
		if strings.HasPrefix(stage, "transfer 2/3") {
			cancel()
		}
	}
	if _, err := table2.Run(cctx, plan); err == nil {
		t.Fatal("a run cancelled in its second fold finished")
	}
	if _, err := os.Stat(filepath.Join(ckpt, "transfer", "heldout-mix", "ngram-metric_ft.eval.json")); err != nil {
		t.Fatalf("the first fold left no checkpoint: %v", err)
	}
	plan, err = table2.Resolve(ctx, transferRequest(), in)
	if err != nil {
		t.Fatal(err)
	}
	var log []string
	plan.Config.CheckpointDir = ckpt
	plan.Config.Logf = func(f string, a ...any) { log = append(log, fmt.Sprintf(f, a...)) }
	res, err := table2.Run(ctx, plan)
	if err != nil {
		t.Fatal(err)
	}
	resumed := strings.Join(log, "\n")
	if !strings.Contains(resumed, "transfer 1/3 (mix held out): ngram-metric_ft's evaluation (--adapt auto) resumed from checkpoint") ||
		!strings.Contains(resumed, "transfer 1/3 (mix held out): ngram-metric_ft's evaluation (--adapt none) resumed from checkpoint") ||
		strings.Contains(resumed, "transfer 3/3 (old held out): ngram-metric_ft's evaluation (--adapt auto) resumed") {
		t.Fatalf("resumed run's notes:\n%s", resumed)
	}
	tr := res.Transfer
	if tr == nil {
		t.Fatal("no transfer result")
	}

	// The same table as a run in one go.
	plan2, err := table2.Resolve(ctx, transferRequest(), in)
	if err != nil {
		t.Fatal(err)
	}
	plan2.Config.CheckpointDir = t.TempDir()
	res2, err := table2.Run(ctx, plan2)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(tr.Rows)
	b, _ := json.Marshal(res2.Transfer.Rows)
	if string(a) != string(b) {
		t.Fatalf("resumed table differs from a run in one go:\n%s\n%s", a, b)
	}

	// Rows: each evaluated row on each held-out corpus and level, with
	// tfidf on the same pairs and both ECEs.
	var cells []string
	for _, r := range tr.Rows {
		if r.Row == "ngram-metric_ft" {
			cells = append(cells, r.HeldOut+"-"+r.Level)
		}
		if r.Vs != "tfidf" || !r.VsAUCMean.Defined() || !r.AUCDiff.Defined() || !r.ECE.Defined() || !r.ECECrossFit.Defined() || r.Rounds != 3 || r.Pairs == 0 ||
			!r.AUCMeanAsSaved.Defined() || r.Level == "hard" && !r.ECECrossFitAsSaved.Defined() ||
			slices.Contains(r.TrainedOn, r.HeldOut) {
			t.Fatalf("row %+v", r)
		}
	}
	if want := []string{"mix-hard", "mix-harder", "new-hard", "new-harder", "old-hard", "old-harder"}; !slices.Equal(cells, want) {
		t.Fatalf("ngram-metric_ft rows %v, want %v", cells, want)
	}

	// No fold saw its held-out corpus: its bundle's fit texts and domain
	// are the other corpora's.
	held := map[string]map[string]bool{}
	for _, u := range in.Utterances {
		c := pairs.CorpusOf(u.Source)
		if held[c] == nil {
			held[c] = map[string]bool{}
		}
		held[c][u.Text] = true
	}
	for _, f := range tp.Folds {
		dir := filepath.Join(ckpt, "transfer", f.Name(), "ngram-metric_ft.verifier")
		fit, err := os.ReadFile(filepath.Join(dir, verifier.FitFile))
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]int{}
		for _, line := range strings.Split(strings.TrimSpace(string(fit)), "\n") {
			for c, texts := range held {
				if texts[line] {
					seen[c]++
				}
			}
		}
		if seen[f.HeldOut] != 0 || seen[f.TrainedOn[0]] == 0 || seen[f.TrainedOn[1]] == 0 {
			t.Fatalf("fold %s: fit texts by corpus %v", f.HeldOut, seen)
		}
		d, err := verifier.ReadDomain(dir)
		if err != nil || d == nil || !slices.Equal(slices.Sorted(slices.Values(d.CorpusNames())), f.TrainedOn) {
			t.Fatalf("fold %s: the bundle's domain is not its training corpora %v (%v)", f.HeldOut, f.TrainedOn, err)
		}
	}

	// The run's bundle carries the held-out calibrations of its scorer,
	// one per scoring mode, fitted on different scores.
	cal, note := tr.BundleCalibration(verifier.ScoringAsSaved)
	calA, noteA := tr.BundleCalibration(verifier.ScoringAdapted)
	if cal == nil || calA == nil || !strings.Contains(note, "held-out corpora mix, new, old") || !strings.Contains(note, "as saved") ||
		!strings.Contains(noteA, "adapted") {
		t.Fatalf("bundle calibrations %v %q, %v %q (bundle %q, calibrations %+v)", cal, note, calA, noteA, tr.Bundle, tr.Calibrations)
	}
	if *cal == *calA {
		t.Fatalf("the as-saved and adapted calibrations are the same (%+v): the test cannot tell them apart", *cal)
	}
	bdir := filepath.Join(t.TempDir(), "verifier")
	spec, err := plan.SaveVerifier(ctx, res, bdir, nil, t.Logf)
	if err != nil || spec == nil {
		t.Fatalf("SaveVerifier: %v", err)
	}
	if spec.CalibrationSource != verifier.CalibrationHeldOut || spec.Calibration != *cal || spec.CalibrationNote != note ||
		spec.CalibrationScoring != verifier.ScoringAsSaved || spec.CalibrationAdapted == nil || *spec.CalibrationAdapted != *calA ||
		spec.CalibrationAdaptedSource != verifier.CalibrationHeldOut || spec.CalibrationAdaptedNote != noteA {
		t.Fatalf("bundle calibrations %+v, want %+v (as saved) and %+v (adapted) from held-out corpora", spec, *cal, *calA)
	}
	raw, err := os.ReadFile(filepath.Join(bdir, verifier.SpecFile))
	if err != nil || !strings.Contains(string(raw), `"calibration_source": "held_out_corpora"`) || !strings.Contains(string(raw), `"calibration_adapted_source": "held_out_corpora"`) {
		t.Fatalf("verifier.json does not record the calibration sources (%v)", err)
	}

	// eval reports the source and measures the calibration of the mode it
	// scored in: adapted (--adapt auto, a corpus the bundle never saw) and
	// as saved (--adapt none).
	v, err := verifier.Load(ctx, bdir, verifier.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	other := transferCorpus(14, "pub", strings.Fields("pint mate quid telly loo cheers bloke queue flat lorry"))
	for _, m := range []struct {
		adapt, scoring string
		cal            verifier.Calibration
	}{{EvalAdaptAuto, verifier.ScoringAdapted, *calA}, {EvalAdaptNone, verifier.ScoringAsSaved, *cal}} {
		rep, err := Evaluate(ctx, v, other, EvalOptions{Seeds: []int64{1, 2}, KeepScores: true, Replicates: 100, Adapt: m.adapt}.Resolve())
		if err != nil {
			t.Fatal(err)
		}
		if rep.CalibrationSource != verifier.CalibrationHeldOut || len(rep.Scores) == 0 || len(rep.Calibrations) != 1 ||
			rep.Calibrations[0].Scoring != m.scoring || !rep.Calibrations[0].Matches() {
			t.Fatalf("eval --adapt %s: calibration source %q, calibrations %+v, %d score sets", m.adapt, rep.CalibrationSource, rep.Calibrations, len(rep.Scores))
		}
		checked := false
		for _, r := range rep.Rows {
			if r.Encoder != v.Spec.Name || r.Level != "hard" {
				continue
			}
			if r.Scoring != m.scoring || r.CalibrationScoring != m.scoring || r.CalibrationSource != verifier.CalibrationHeldOut {
				t.Fatalf("eval --adapt %s: row %+v", m.adapt, r)
			}
			var eces []float64
			for _, s := range rep.Scores {
				if s.Level == "hard" {
					p := make([]float64, len(s.Scores))
					for i, x := range s.Scores {
						p[i] = m.cal.Probability(x)
					}
					eces = append(eces, stats.ECE(p, s.Positive, ECEBins))
				}
			}
			if math.Abs(float64(r.ECE)-stats.Mean(eces)) > 1e-12 {
				t.Fatalf("eval --adapt %s: ECE %v is not the %s held-out calibration's %v", m.adapt, r.ECE, m.scoring, stats.Mean(eces))
			}
			checked = true
		}
		if !checked {
			t.Fatalf("eval --adapt %s: no hard row of the bundle", m.adapt)
		}
	}
}

// TestTransferNeedsCorporaAndATrainableRow: one corpus, or no fine-tuned
// row, is a clear error before anything runs.
func TestTransferNeedsCorporaAndATrainableRow(t *testing.T) {
	ctx := context.Background()
	one := table2.Inputs{Name: "old", Utterances: transferCorpus(11, "old", oldRegister)}
	if _, err := table2.Resolve(ctx, transferRequest(), one); err == nil || !strings.Contains(err.Error(), "at least 2 corpora") {
		t.Fatalf("one corpus: %v", err)
	}
	req := transferRequest()
	req.Encoders = []string{"tfidf"}
	if _, err := table2.Resolve(ctx, req, transferInputs()); err == nil || !strings.Contains(err.Error(), "no trainable row") {
		t.Fatalf("no fine-tuned row: %v", err)
	}
	req = table2.Request{Encoders: []string{"tfidf", "ngram-metric_ft"}, Mixed: []string{}, Rounds: 1, Transfer: true, Machine: transferMachine,
		Settings: transferRequest().Settings}
	plan, err := table2.Resolve(ctx, req, transferInputs())
	if err != nil || plan.Transfer == nil || len(plan.Transfer.Folds) != 3 {
		t.Fatalf("Request.Transfer without the preset: %v", err)
	}
	// A corpus that forms no evaluation pairs (one short conversation) is
	// trained on, never held out, and the plan says so.
	in := transferInputs()
	for i := range 6 {
		in.Utterances = append(in.Utterances, data.Utterance{Source: "tiny", ConversationID: "c0", Turn: int32(i), Speaker: fmt.Sprint("tiny-", i%2),
			Text: "a short line of a corpus too small to form any pairs at all"})
	}
	plan, err = table2.Resolve(ctx, transferRequest(), in)
	if err != nil {
		t.Fatal(err)
	}
	tp := plan.Transfer
	if len(tp.Corpora) != 4 || len(tp.Folds) != 3 || len(tp.Notes) != 1 || !strings.Contains(tp.Notes[0], "tiny is never held out") {
		t.Fatalf("corpora %v, %d folds, notes %q", tp.Corpora, len(tp.Folds), tp.Notes)
	}
	for _, f := range tp.Folds {
		if f.HeldOut == "tiny" || !slices.Contains(f.TrainedOn, "tiny") {
			t.Fatalf("fold %+v", f)
		}
	}
}
