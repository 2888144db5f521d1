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
// cross-fitted ECE filled in, and the markdown naming the bundle's
// calibration.
func TestTransferTableRows(t *testing.T) {
	tp := &TransferPlan{Corpora: []string{"a", "b"}, Rows: []string{"x_ft"}, Vs: []string{"tfidf"}, CalibrationLevel: "hard", ECEBins: 10,
		Folds: []TransferFold{{HeldOut: "a", TrainedOn: []string{"b"}}, {HeldOut: "b", TrainedOn: []string{"a"}}}}
	evals := map[string]*HeldOutEval{}
	for i, c := range tp.Corpora {
		e := &HeldOutEval{Scores: heldOutScoresOf(uint64(i+1), 100, 0)}
		for _, l := range []string{"hard", "harder"} {
			e.Rows = append(e.Rows, HeldOutRow{Encoder: "x_ft", Level: l, AUCMean: 70, ECE: 0.2, Pairs: 300, Rounds: 3},
				HeldOutRow{Encoder: "tfidf", Level: l, AUCMean: 60, AUCStd: 1, Pairs: 300, Rounds: 3})
			e.Comparisons = append(e.Comparisons, HeldOutComparison{Level: l, Comparison: Comparison{A: "x_ft", B: "tfidf", AUCDiff: 0.1,
				AUCDiffCI: stats.Interval{0.05, 0.15}, ShareNotAbove: 0}})
		}
		evals[c] = e
	}
	rows, cal, _ := transferTable(tp, "x_ft", evals)
	if len(rows) != 4 || cal == nil || cal.Pairs != 600 || !slices.Equal(cal.Corpora, []string{"a", "b"}) {
		t.Fatalf("rows %+v calibration %+v", rows, cal)
	}
	for _, r := range rows {
		if r.VsAUCMean != 60 || r.AUCDiff != 0.1 || r.Vs != "tfidf" || slices.Contains(r.TrainedOn, r.HeldOut) {
			t.Fatalf("row %+v", r)
		}
		if r.Level == "hard" && !r.ECECrossFit.Defined() || r.Level == "harder" && r.ECECrossFit.Defined() {
			t.Fatalf("row %s-%s: cross-fitted ECE %v (the scores hold Hard pairs only)", r.HeldOut, r.Level, r.ECECrossFit)
		}
	}
	tr := &TransferResult{Plan: *tp, Rows: rows, Calibrations: []TransferCalibration{*cal}, Bundle: "x_ft"}
	var b strings.Builder
	if err := tr.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "| x_ft | a | b | hard | 70.00 ± 0.00 |") || !strings.Contains(b.String(), "+10.00 [+5.00, +15.00]") ||
		!strings.Contains(b.String(), "the run's verifier bundle carries it") {
		t.Fatalf("markdown:\n%s", b.String())
	}
	if c, note := tr.BundleCalibration(); c == nil || *c != cal.Calibration || !strings.Contains(note, "600 hard pairs of the held-out corpora a, b") {
		t.Fatalf("bundle calibration %v %q", c, note)
	}
}
