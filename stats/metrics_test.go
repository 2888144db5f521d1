package stats

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/integrate"
	"gonum.org/v1/gonum/stat"
)

func TestAUCSeparatedReversedTies(t *testing.T) {
	labels := []bool{true, true, true, false, false}
	cases := []struct {
		name   string
		scores []float64
		want   float64
	}{
		{"separated", []float64{0.9, 0.8, 0.7, 0.2, 0.1}, 1},
		{"reversed", []float64{0.1, 0.2, 0.3, 0.8, 0.9}, 0},
		{"all ties", []float64{0.5, 0.5, 0.5, 0.5, 0.5}, 0.5},
		// One positive ties one negative, the rest separated: of the
		// 3×2 = 6 positive/negative comparisons, 5 are won and one tied.
		{"one tie", []float64{0.9, 0.8, 0.4, 0.4, 0.1}, 5.5 / 6},
	}
	for _, c := range cases {
		if got := AUC(c.scores, labels); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: AUC = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestAUCUndefined(t *testing.T) {
	if got := AUC([]float64{0.1, 0.2}, []bool{true, true}); !math.IsNaN(got) {
		t.Errorf("no negatives: AUC = %v, want NaN", got)
	}
	if got := AUC(nil, nil); !math.IsNaN(got) {
		t.Errorf("empty: AUC = %v, want NaN", got)
	}
	if got := AUC([]float64{math.NaN(), 0.2}, []bool{true, false}); !math.IsNaN(got) {
		t.Errorf("NaN score: AUC = %v, want NaN", got)
	}
}

// bruteAUC counts positive/negative comparisons directly (ties = 1/2).
func bruteAUC(scores []float64, labels []bool) float64 {
	var won, n float64
	for i := range scores {
		for j := range scores {
			if labels[i] && !labels[j] {
				n++
				switch {
				case scores[i] > scores[j]:
					won++
				case scores[i] == scores[j]:
					won += 0.5
				}
			}
		}
	}
	return won / n
}

// TestAUCMatchesBruteForceAndGonum checks the mid-rank formula against the
// pairwise definition and against the trapezoidal area under gonum's ROC,
// on heavily tied random scores.
func TestAUCMatchesBruteForceAndGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 50; trial++ {
		n := 2 + rng.IntN(60)
		scores := make([]float64, n)
		labels := make([]bool, n)
		for i := range scores {
			labels[i] = rng.IntN(2) == 0
			scores[i] = float64(rng.IntN(5)) / 4 // few distinct values: many ties
			if labels[i] {
				scores[i] += 0.25 * float64(rng.IntN(2))
			}
		}
		labels[0], labels[1] = true, false
		got := AUC(scores, labels)
		if want := bruteAUC(scores, labels); math.Abs(got-want) > 1e-12 {
			t.Fatalf("trial %d: AUC = %v, brute force %v", trial, got, want)
		}
		y := append([]float64(nil), scores...)
		c := append([]bool(nil), labels...)
		stat.SortWeightedLabeled(y, c, nil)
		tpr, fpr, _ := stat.ROC(nil, y, c, nil)
		if want := integrate.Trapezoidal(fpr, tpr); math.Abs(got-want) > 1e-12 {
			t.Fatalf("trial %d: AUC = %v, gonum trapezoid %v", trial, got, want)
		}
	}
}

func TestMidRanks(t *testing.T) {
	got := MidRanks([]float64{3, 1, 3, 2, 3})
	want := []float64{4, 1, 4, 2, 4}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("MidRanks = %v, want %v", got, want)
		}
	}
}

// TestMacroF1HandWorked checks a confusion matrix worked by hand:
// TP=30 FP=10 TN=40 FN=20 (100 pairs).
// accuracy = 70/100 = 0.7;
// F1(same) = 2·30/(2·30+10+20) = 60/90 = 2/3;
// F1(diff) = 2·40/(2·40+20+10) = 80/110 = 8/11;
// macro-F1 = (2/3 + 8/11)/2 = (22/33 + 24/33)/2 = 23/33.
func TestMacroF1HandWorked(t *testing.T) {
	c := Confusion{TP: 30, FP: 10, TN: 40, FN: 20}
	if got := c.Accuracy(); math.Abs(got-0.7) > 1e-12 {
		t.Errorf("accuracy = %v, want 0.7", got)
	}
	if got, want := c.MacroF1(), 23.0/33; math.Abs(got-want) > 1e-12 {
		t.Errorf("macro-F1 = %v, want %v", got, want)
	}
	// The same matrix produced from scores and a threshold.
	var scores []float64
	var labels []bool
	add := func(n int, s float64, l bool) {
		for i := 0; i < n; i++ {
			scores = append(scores, s)
			labels = append(labels, l)
		}
	}
	add(30, 0.9, true)  // TP
	add(10, 0.8, false) // FP
	add(40, 0.1, false) // TN
	add(20, 0.2, true)  // FN
	if got := ConfusionAt(scores, labels, 0.5); got != c {
		t.Errorf("ConfusionAt = %+v, want %+v", got, c)
	}
	acc, f1 := AccuracyF1(scores, labels, 0.5)
	if math.Abs(acc-0.7) > 1e-12 || math.Abs(f1-23.0/33) > 1e-12 {
		t.Errorf("AccuracyF1 = %v, %v", acc, f1)
	}
}

func TestMacroF1AllOneClass(t *testing.T) {
	// Everything decided "same" on a balanced set: F1(same) = 2/3,
	// F1(diff) = 0, macro = 1/3 (the paper's 33.33).
	c := Confusion{TP: 50, FP: 50}
	if got := c.MacroF1(); math.Abs(got-1.0/3) > 1e-12 {
		t.Errorf("macro-F1 = %v, want 1/3", got)
	}
	// Only one class in labels and decisions: the other class is left out.
	c = Confusion{TN: 10}
	if got := c.MacroF1(); got != 1 {
		t.Errorf("all-correct single class macro-F1 = %v, want 1", got)
	}
	if got := (Confusion{}).MacroF1(); !math.IsNaN(got) {
		t.Errorf("empty macro-F1 = %v, want NaN", got)
	}
}

func TestBestThreshold(t *testing.T) {
	scores := []float64{0.9, 0.8, 0.7, 0.6, 0.3, 0.2}
	labels := []bool{true, true, false, true, false, false}
	// Accepting >= 0.6 gets 5/6 right (one FP at 0.7); so does >= 0.75
	// (one FN at 0.6); the higher threshold wins the tie.
	th, c := BestThreshold(scores, labels, MaxAccuracy)
	if c.Accuracy() != 5.0/6 {
		t.Fatalf("best accuracy %v, want 5/6", c.Accuracy())
	}
	if math.Abs(th-0.75) > 1e-12 {
		t.Errorf("threshold %v, want 0.75", th)
	}
	if got := ConfusionAt(scores, labels, th); got != c {
		t.Errorf("confusion at returned threshold %+v, returned %+v", got, c)
	}
	// Perfect separation: a threshold between the classes.
	th, c = BestThreshold([]float64{3, 2, 1, 0}, []bool{true, true, false, false}, MaxMacroF1)
	if c.MacroF1() != 1 || th != 1.5 {
		t.Errorf("separated: threshold %v, F1 %v", th, c.MacroF1())
	}
	// All ties: accepting all and rejecting all both give 1/2; reject
	// all (the higher threshold) wins and is above every score.
	th, c = BestThreshold([]float64{1, 1, 1, 1}, []bool{true, false, true, false}, MaxAccuracy)
	if c.Accuracy() != 0.5 || !(th > 1) {
		t.Errorf("ties: threshold %v, accuracy %v", th, c.Accuracy())
	}
}

func TestEER(t *testing.T) {
	rate, th := EER([]float64{0.9, 0.8, 0.2, 0.1}, []bool{true, true, false, false})
	if rate != 0 || !(th > 0.2 && th <= 0.8) {
		t.Errorf("separated: EER %v at %v, want 0 between the classes", rate, th)
	}
	rate, _ = EER([]float64{0.5, 0.5, 0.5, 0.5}, []bool{true, true, false, false})
	if rate != 0.5 {
		t.Errorf("ties: EER %v, want 0.5", rate)
	}
	rate, _ = EER([]float64{0.1, 0.2, 0.8, 0.9}, []bool{true, true, false, false})
	if rate != 1 {
		t.Errorf("reversed: EER %v, want 1", rate)
	}
	// Four positives and four negatives with one of each on the wrong
	// side: at threshold 0.5, FAR = FRR = 1/4.
	scores := []float64{0.9, 0.8, 0.7, 0.4, 0.6, 0.3, 0.2, 0.1}
	labels := []bool{true, true, true, true, false, false, false, false}
	rate, th = EER(scores, labels)
	if math.Abs(rate-0.25) > 1e-12 {
		t.Errorf("EER %v, want 0.25", rate)
	}
	c := ConfusionAt(scores, labels, th)
	if far, frr := float64(c.FP)/4, float64(c.FN)/4; far != 0.25 || frr != 0.25 {
		t.Errorf("at threshold %v: FAR %v FRR %v", th, far, frr)
	}
	if r, _ := EER([]float64{1}, []bool{true}); !math.IsNaN(r) {
		t.Errorf("one class: EER %v, want NaN", r)
	}
}

// TestBestThresholdAdjacentScores checks two scores one float apart: the
// midpoint of 0.3 and the float just below it rounds to the lower one, and
// a threshold there would accept the negative it was chosen to reject.
func TestBestThresholdAdjacentScores(t *testing.T) {
	for _, hi := range []float64{0.3, 0.123456789, 1, -0.4} {
		lo := math.Nextafter(hi, math.Inf(-1))
		scores := []float64{hi, lo}
		labels := []bool{true, false}
		th, c := BestThreshold(scores, labels, MaxAccuracy)
		if c.Accuracy() != 1 {
			t.Fatalf("hi %v: best accuracy %v, want 1", hi, c.Accuracy())
		}
		if got := ConfusionAt(scores, labels, th); got != c {
			t.Errorf("hi %v: threshold %v decides %+v, BestThreshold counted %+v", hi, th, got, c)
		}
	}
	// Infinite scores: the threshold between -Inf and 0 must not be NaN
	// or -Inf (which would accept the -Inf negative).
	scores := []float64{0, math.Inf(-1)}
	th, c := BestThreshold(scores, []bool{true, false}, MaxAccuracy)
	if got := ConfusionAt(scores, []bool{true, false}, th); got != c || c.Accuracy() != 1 {
		t.Errorf("-Inf negative: threshold %v decides %+v, counted %+v", th, got, c)
	}
}
