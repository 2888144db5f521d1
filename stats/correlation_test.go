package stats

import (
	"encoding/json"
	"math"
	"testing"
)

func near(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.10f, want %.10f", name, got, want)
	}
}

// Wikipedia's Spearman example: IQ against hours of TV per week,
// Σd² = 194, ρ = 1 − 6·194/(10·99) = −29/165.
func TestSpearmanTextbook(t *testing.T) {
	iq := []float64{106, 100, 86, 101, 99, 103, 97, 113, 112, 110}
	tv := []float64{7, 27, 2, 50, 28, 29, 20, 12, 6, 17}
	rho := Spearman(iq, tv)
	near(t, "rho", rho, -29.0/165, 1e-12)
}

// Fractional ranks with ties.
func TestRanks(t *testing.T) {
	got := MidRanks([]float64{10, 20, 10, 30, 20, 20})
	want := []float64{1.5, 4, 1.5, 6, 4, 4}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("ranks %v, want %v", got, want)
		}
	}
}

// Kendall τ-b with ties on both sides: x = [12, 2, 1, 12, 2],
// y = [1, 4, 7, 1, 0]. Of the 10 pairs, C = 2, D = 6, tied in x only 1
// (items 1 and 4: y 4 vs 0), tied in y only 0, tied in both 1 (items 0
// and 3); so τ-b = (2 − 6)/√((8+1)(8+0)) = −4/√72 = −0.4714045208
// (scipy.stats.kendalltau's documented example gives the same).
func TestKendallTauBTextbook(t *testing.T) {
	x := []float64{12, 2, 1, 12, 2}
	y := []float64{1, 4, 7, 1, 0}
	c := CountPairs(x, y)
	if c != (PairCounts{Concordant: 2, Discordant: 6, TiedX: 1, TiedY: 0, TiedBoth: 1}) {
		t.Fatalf("pair counts %+v", c)
	}
	tau := KendallTauB(x, y)
	near(t, "tau_b", tau, -4/math.Sqrt(72), 1e-12)
	near(t, "tau_b value", tau, -0.47140452079103173, 1e-12)
	// Without ties τ-b is τ-a, and gonum's Kendall agrees.
	a := []float64{1, 2, 3, 4, 5}
	b := []float64{3, 1, 2, 5, 4}
	tb := KendallTauB(a, b)
	near(t, "tau_b no ties", tb, (7.0-3.0)/10, 1e-12)
	if r := KendallTauB(a, a); r != 1 {
		t.Fatalf("identical rankings: %v", r)
	}
	if r := KendallTauB(a, []float64{5, 4, 3, 2, 1}); r != -1 {
		t.Fatalf("reversed rankings: %v", r)
	}
	if r := KendallTauB(a, []float64{2, 2, 2, 2, 2}); !math.IsNaN(r) {
		t.Fatalf("constant judge should be NaN, got %v", r)
	}
}

// Pearson: x = 1..5, y = [2, 4, 5, 4, 5]: Sxy = 6, Sxx = 10, Syy = 6,
// r = 6/√60.
func TestPearsonTextbook(t *testing.T) {
	r := Pearson([]float64{1, 2, 3, 4, 5}, []float64{2, 4, 5, 4, 5})
	near(t, "r", r, 6/math.Sqrt(60), 1e-12)
}

func TestPairwiseAgreement(t *testing.T) {
	a := []float64{1, 2, 3, 4, 5}
	b := []float64{3, 1, 2, 5, 4}
	p := PairwiseAgreement(a, b)
	tau := KendallTauB(a, b)
	near(t, "no ties = (1+tau)/2", p, (1+tau)/2, 1e-12)
	// Humans 1,1,2; judge 1,2,2: human-strict pairs (0,2) concordant,
	// (1,2) judge-tied → (1 + 0.5)/2.
	p = PairwiseAgreement([]float64{1, 1, 2}, []float64{1, 2, 2})
	near(t, "with ties", p, 0.75, 1e-12)
}

// Edge cases: fewer than two items, a constant side.
func TestCorrelationEdgeCases(t *testing.T) {
	one := []float64{1}
	if !math.IsNaN(Spearman(one, one)) || !math.IsNaN(Pearson(one, one)) || !math.IsNaN(KendallTauB(one, one)) || !math.IsNaN(PairwiseAgreement(one, one)) {
		t.Error("one item: want NaN for every coefficient")
	}
	c := []float64{2, 2, 2}
	if x := []float64{1, 2, 3}; !math.IsNaN(Spearman(x, c)) || !math.IsNaN(Pearson(x, c)) {
		t.Error("constant side: want NaN")
	}
}

func TestMeanStd(t *testing.T) {
	if m, s := MeanStd(nil); !math.IsNaN(m) || !math.IsNaN(s) {
		t.Errorf("empty: %v %v", m, s)
	}
	if m, s := MeanStd([]float64{3}); m != 3 || !math.IsNaN(s) {
		t.Errorf("one: %v %v", m, s)
	}
	// 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sample variance 32/7.
	m, s := MeanStd([]float64{2, 4, 4, 4, 5, 5, 7, 9})
	near(t, "mean", m, 5, 1e-12)
	near(t, "std", s, math.Sqrt(32.0/7), 1e-12)
	if !math.IsNaN(Mean(nil)) || Mean([]float64{1, 2}) != 1.5 {
		t.Error("Mean")
	}
}

func TestPercentileInterval(t *testing.T) {
	x := []float64{5, 1, math.NaN(), 3, 2, 4}
	iv := PercentileInterval(x, 0.5)
	// Defined values 1..5; quantiles 0.25 and 0.75 with linear interpolation.
	if !iv.Defined() || !(iv[0] >= 1 && iv[0] < 3 && iv[1] > 3 && iv[1] <= 5) {
		t.Errorf("interval %v", iv)
	}
	if x[0] != 5 {
		t.Error("PercentileInterval modified its input")
	}
	if iv := PercentileInterval([]float64{1, math.NaN()}, 0.95); iv.Defined() {
		t.Errorf("one defined value: %v, want NoInterval", iv)
	}
	b, _ := json.Marshal(NoInterval())
	if string(b) != "[null,null]" {
		t.Errorf("NoInterval JSON %s", b)
	}
}
