package table2

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv/verifier"
)

// heldOutScoresOf draws rounds of Hard pairs whose scores are N(shift, 1)
// for a different speaker and N(shift + 2, 1) for the same one: a corpus
// where the verifier ranks as well as elsewhere but its scores sit shift
// higher.
func heldOutScoresOf(seed uint64, n int, shift float64) []HeldOutScores {
	rng := rand.New(rand.NewPCG(seed, 1))
	var out []HeldOutScores
	for r := 1; r <= 3; r++ {
		hs := HeldOutScores{Level: "hard", Round: r}
		for i := range n {
			same := i%2 == 0
			s := shift + rng.NormFloat64()
			if same {
				s += 2
			}
			hs.Scores, hs.Positive = append(hs.Scores, s), append(hs.Positive, same)
		}
		out = append(out, hs)
	}
	return out
}

// TestHeldOutCalibrationCrossFit: the calibration of a held-out corpus's
// ECE never looks at that corpus (its scores may change without changing
// the calibration), pools the other corpora's pairs, and on a corpus
// whose scores are shifted gives a larger ECE than an in-sample
// calibration that saw it.
func TestHeldOutCalibrationCrossFit(t *testing.T) {
	held := map[string][]HeldOutScores{
		"a": heldOutScoresOf(1, 400, 0),
		"b": heldOutScoresOf(2, 100, 0.2),
		"c": heldOutScoresOf(3, 200, 1.5), // scores sit higher on this corpus
	}
	cross, corpora, n, err := heldOutCalibration(held, "c", "hard")
	if err != nil || !slices.Equal(corpora, []string{"a", "b"}) || n != 3*(400+100) {
		t.Fatalf("cross-fit calibration for c: %v %v %d", err, corpora, n)
	}
	moved := map[string][]HeldOutScores{"a": held["a"], "b": held["b"], "c": heldOutScoresOf(9, 50, -3)}
	if again, _, _, _ := heldOutCalibration(moved, "c", "hard"); again != cross {
		t.Fatalf("the calibration for c changed with c's own scores: %+v vs %+v", again, cross)
	}
	// Every pair weighs the same: the calibration is FitPlatt's on the
	// pooled pairs.
	var s []float64
	var l []bool
	for _, hs := range slices.Concat(held["a"], held["b"]) {
		s, l = append(s, hs.Scores...), append(l, hs.Positive...)
	}
	if plain, _ := verifier.FitPlatt(s, l); plain != cross {
		t.Fatalf("cross-fit calibration %+v, FitPlatt of the pooled pairs %+v", cross, plain)
	}
	crossECE := crossFitECE(held, "c", "hard", "hard", 10)
	inSample, _, _, err := heldOutCalibration(held, "", "hard")
	if err != nil {
		t.Fatal(err)
	}
	inECE := heldOutECE(held["c"], "hard", inSample, 10)
	if !(crossECE > inECE+0.05) {
		t.Fatalf("cross-fitted ECE on the shifted corpus %.3f, in-sample %.3f: want the cross-fit to see the shift", crossECE, inECE)
	}
	if e := crossFitECE(held, "a", "hard", "hard", 10); !(e < crossECE) {
		t.Fatalf("cross-fitted ECE on a corpus like the others %.3f, on the shifted one %.3f", e, crossECE)
	}
	if e := crossFitECE(map[string][]HeldOutScores{"c": held["c"]}, "c", "hard", "hard", 10); !math.IsNaN(e) {
		t.Fatalf("cross-fitted ECE without another corpus: %v, want NaN", e)
	}
}

// TestTransferTableRows: one row per held-out corpus and level of the
// bundle, tfidf's AUC and the comparison of the same level beside it, the
// cross-fitted ECE of each scoring mode filled in from that mode's scores
// of the other corpora only, one calibration per mode, and the writers
// naming both.
func TestTransferTableRows(t *testing.T) {
	tp := &TransferPlan{Corpora: []string{"a", "b", "c"}, Rows: []string{"x_ft"}, Vs: []string{"tfidf"}, Adapt: "auto", AsSaved: "none",
		CalibrationLevel: "hard", ECEBins: 10, Folds: []TransferFold{{HeldOut: "a", TrainedOn: []string{"b", "c"}},
			{HeldOut: "b", TrainedOn: []string{"a", "c"}}, {HeldOut: "c", TrainedOn: []string{"a", "b"}}}}
	evals, saved := map[string]*HeldOutEval{}, map[string]*HeldOutEval{}
	for i, c := range tp.Corpora {
		// As saved, the scores sit 3 higher on every corpus and 1.5 more
		// on c: a calibration of one mode misreads the other's scores.
		e := &HeldOutEval{Scores: heldOutScoresOf(uint64(i+1), 100, 0)}
		shift := 3.0
		if c == "c" {
			shift = 4.5
		}
		es := &HeldOutEval{Scores: heldOutScoresOf(uint64(i+11), 100, shift)}
		for _, l := range []string{"hard", "harder"} {
			e.Rows = append(e.Rows, HeldOutRow{Encoder: "x_ft", Level: l, LevelMetrics: LevelMetrics{AUCMean: 70, ECE: 0.2}, Pairs: 300, Rounds: 3},
				HeldOutRow{Encoder: "tfidf", Level: l, LevelMetrics: LevelMetrics{AUCMean: 60, AUCStd: 1}, Pairs: 300, Rounds: 3})
			e.Comparisons = append(e.Comparisons, HeldOutComparison{Level: l, Comparison: Comparison{A: "x_ft", B: "tfidf", AUCDiff: 0.1,
				AUCDiffCI: stats.Interval{0.05, 0.15}, ShareNotAbove: 0}})
			es.Rows = append(es.Rows, HeldOutRow{Encoder: "x_ft", Level: l, LevelMetrics: LevelMetrics{AUCMean: 66}, Pairs: 300, Rounds: 3})
		}
		evals[c], saved[c] = e, es
	}
	rows, cals, _ := transferTable(tp, "x_ft", evals, saved)
	if len(rows) != 6 || len(cals) != 2 {
		t.Fatalf("rows %+v calibrations %+v", rows, cals)
	}
	byMode := map[string]TransferCalibration{}
	for _, c := range cals {
		if c.Pairs != 900 || !slices.Equal(c.Corpora, []string{"a", "b", "c"}) {
			t.Fatalf("calibration %+v", c)
		}
		byMode[c.Scoring] = c
	}
	asSaved, adapted := byMode[verifier.ScoringAsSaved], byMode[verifier.ScoringAdapted]
	if asSaved.Calibration == adapted.Calibration || asSaved.Row != "x_ft" || adapted.Row != "x_ft" {
		t.Fatalf("calibrations by mode %+v", byMode)
	}
	// The cross-fitted ECE of corpus C in each mode: the Platt fit of the
	// other corpora's scores of that mode, never C's, nor the other mode's.
	crossOf := func(evs map[string]*HeldOutEval, corpus string) float64 {
		var sc []float64
		var lb []bool
		for _, c := range tp.Corpora {
			if c != corpus {
				for _, hs := range evs[c].Scores {
					sc, lb = append(sc, hs.Scores...), append(lb, hs.Positive...)
				}
			}
		}
		cal, err := verifier.FitPlatt(sc, lb)
		if err != nil {
			t.Fatal(err)
		}
		return heldOutECE(evs[corpus].Scores, "hard", cal, 10)
	}
	for _, r := range rows {
		if r.VsAUCMean != 60 || r.AUCDiff != 0.1 || r.Vs != "tfidf" || r.AUCMeanAsSaved != 66 || slices.Contains(r.TrainedOn, r.HeldOut) {
			t.Fatalf("row %+v", r)
		}
		if r.Level == "harder" {
			if r.ECECrossFit.Defined() || r.ECECrossFitAsSaved.Defined() {
				t.Fatalf("row %s-harder: cross-fitted ECE %v, %v (the scores hold Hard pairs only)", r.HeldOut, r.ECECrossFit, r.ECECrossFitAsSaved)
			}
			continue
		}
		if want := crossOf(evals, r.HeldOut); math.Abs(float64(r.ECECrossFit)-want) > 1e-12 {
			t.Fatalf("%s adapted: cross-fitted ECE %v, want %v", r.HeldOut, r.ECECrossFit, want)
		}
		if want := crossOf(saved, r.HeldOut); math.Abs(float64(r.ECECrossFitAsSaved)-want) > 1e-12 {
			t.Fatalf("%s as saved: cross-fitted ECE %v, want %v", r.HeldOut, r.ECECrossFitAsSaved, want)
		}
	}
	// Moving c's as-saved scores: c's as-saved cross-fit reads its new
	// scores through the calibration of a's and b's (unchanged), and no
	// adapted cross-fit moves.
	moved := map[string]*HeldOutEval{"a": saved["a"], "b": saved["b"], "c": {Scores: heldOutScoresOf(99, 100, -2), Rows: saved["c"].Rows}}
	rows2, _, _ := transferTable(tp, "x_ft", evals, moved)
	for i, r := range rows2 {
		if r.Level == "hard" && r.HeldOut == "c" {
			if want := heldOutECE(moved["c"].Scores, "hard", mustCal(t, saved, "c"), 10); math.Abs(float64(r.ECECrossFitAsSaved)-want) > 1e-12 {
				t.Fatalf("c as saved with its scores moved: %v, want %v (the calibration of the others)", r.ECECrossFitAsSaved, want)
			}
		}
		if r.ECECrossFit != rows[i].ECECrossFit && r.Level == "hard" {
			t.Fatalf("%s: the adapted cross-fit moved with the as-saved scores", r.HeldOut)
		}
	}

	tr := &TransferResult{Plan: *tp, Rows: rows, Calibrations: cals, Bundle: "x_ft"}
	var b strings.Builder
	if err := tr.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "| x_ft | a | b + c | hard | 70.00 ± 0.00 |") || !strings.Contains(b.String(), "+10.00 [+5.00, +15.00]") ||
		!strings.Contains(b.String(), "the run's verifier bundle carries it") || !strings.Contains(b.String(), "as saved") {
		t.Fatalf("markdown:\n%s", b.String())
	}
	var csvb strings.Builder
	if err := tr.WriteCSV(&csvb); err != nil {
		t.Fatal(err)
	}
	if head, _, _ := strings.Cut(csvb.String(), "\n"); !strings.Contains(head, ",ece_cross_fit,auc_mean_as_saved,ece_cross_fit_as_saved,") {
		t.Fatalf("csv header %q", head)
	}
	for _, m := range []string{verifier.ScoringAsSaved, verifier.ScoringAdapted} {
		if c, note := tr.BundleCalibration(m); c == nil || *c != byMode[m].Calibration || !strings.Contains(note, "900 hard pairs of the held-out corpora a, b, c") {
			t.Fatalf("bundle calibration %s: %v %q", m, c, note)
		}
	}
}

// mustCal is the as-saved Platt fit of every corpus of evs but except.
func mustCal(t *testing.T, evs map[string]*HeldOutEval, except string) verifier.Calibration {
	t.Helper()
	held := map[string][]HeldOutScores{}
	for c, e := range evs {
		held[c] = e.Scores
	}
	cal, _, _, err := heldOutCalibration(held, except, "hard")
	if err != nil {
		t.Fatal(err)
	}
	return cal
}

// TestTransferFoldEstimate: a fold's estimate counts training on the
// other corpora once and the evaluation once per seed and per pass
// (adapted, as saved), with the compared encoders in one pass: it grows
// with each, and training shrinks as the held-out share grows.
func TestTransferFoldEstimate(t *testing.T) {
	const perRound, vs, pairsS, share = 40.0, 8.0, 0.5, 0.25
	base := foldSeconds(perRound, vs, pairsS, share, 1, 1)
	if want := (perRound+pairsS)*(1-share) + share*(perRound+vs); math.Abs(base-want) > 1e-9 {
		t.Fatalf("1 seed, 1 pass: %v, want %v", base, want)
	}
	seeds3 := foldSeconds(perRound, vs, pairsS, share, 3, 1)
	passes2 := foldSeconds(perRound, vs, pairsS, share, 3, 2)
	noVs := foldSeconds(perRound, 0, pairsS, share, 3, 2)
	if !(seeds3 > base && passes2 > seeds3 && passes2 > noVs) {
		t.Fatalf("estimates 1 seed %v, 3 seeds %v, 3 seeds × 2 passes %v (without Vs %v): want each to grow", base, seeds3, passes2, noVs)
	}
	// Each added seed adds one round of the held share per pass, plus
	// the compared encoders.
	if d, want := passes2-foldSeconds(perRound, vs, pairsS, share, 2, 2), share*(2*perRound+vs); math.Abs(d-want) > 1e-9 {
		t.Fatalf("a third seed adds %v, want %v", d, want)
	}
	if d, want := passes2-seeds3, share*3*perRound; math.Abs(d-want) > 1e-9 {
		t.Fatalf("the as-saved pass adds %v, want %v", d, want)
	}
}
