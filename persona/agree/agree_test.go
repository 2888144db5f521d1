package agree

import (
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
	rho, err := Spearman(iq, tv)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "rho", rho, -29.0/165, 1e-12)
}

// Fractional ranks with ties.
func TestRanks(t *testing.T) {
	got := Ranks([]float64{10, 20, 10, 30, 20, 20})
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
	c, err := Pairs(x, y)
	if err != nil {
		t.Fatal(err)
	}
	if c != (PairCounts{Concordant: 2, Discordant: 6, TiedX: 1, TiedY: 0, TiedBoth: 1}) {
		t.Fatalf("pair counts %+v", c)
	}
	tau, _ := KendallTauB(x, y)
	near(t, "tau_b", tau, -4/math.Sqrt(72), 1e-12)
	near(t, "tau_b value", tau, -0.47140452079103173, 1e-12)
	// Without ties τ-b is τ-a, and gonum's Kendall agrees.
	a := []float64{1, 2, 3, 4, 5}
	b := []float64{3, 1, 2, 5, 4}
	tb, _ := KendallTauB(a, b)
	near(t, "tau_b no ties", tb, (7.0-3.0)/10, 1e-12)
	if r, _ := KendallTauB(a, a); r != 1 {
		t.Fatalf("identical rankings: %v", r)
	}
	if r, _ := KendallTauB(a, []float64{5, 4, 3, 2, 1}); r != -1 {
		t.Fatalf("reversed rankings: %v", r)
	}
	if r, _ := KendallTauB(a, []float64{2, 2, 2, 2, 2}); !math.IsNaN(r) {
		t.Fatalf("constant judge should be NaN, got %v", r)
	}
}

// Pearson: x = 1..5, y = [2, 4, 5, 4, 5]: Sxy = 6, Sxx = 10, Syy = 6,
// r = 6/√60.
func TestPearsonTextbook(t *testing.T) {
	r, err := Pearson([]float64{1, 2, 3, 4, 5}, []float64{2, 4, 5, 4, 5})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "r", r, 6/math.Sqrt(60), 1e-12)
}

func TestPairwiseAgreement(t *testing.T) {
	a := []float64{1, 2, 3, 4, 5}
	b := []float64{3, 1, 2, 5, 4}
	p, _ := PairwiseAgreement(a, b)
	tau, _ := KendallTauB(a, b)
	near(t, "no ties = (1+tau)/2", p, (1+tau)/2, 1e-12)
	// Humans 1,1,2; judge 1,2,2: human-strict pairs (0,2) concordant,
	// (1,2) judge-tied → (1 + 0.5)/2.
	p, _ = PairwiseAgreement([]float64{1, 1, 2}, []float64{1, 2, 2})
	near(t, "with ties", p, 0.75, 1e-12)
}

func TestErrors(t *testing.T) {
	if _, err := Spearman([]float64{1, 2}, []float64{1}); err == nil {
		t.Fatal("length mismatch accepted")
	}
	if _, err := Pearson([]float64{1}, []float64{1}); err == nil {
		t.Fatal("one item accepted")
	}
	if _, err := KendallTauB([]float64{1, math.NaN()}, []float64{1, 2}); err == nil {
		t.Fatal("NaN accepted")
	}
	r, err := Compare([]float64{1, 2, 3, 4}, []float64{1, 3, 2, 4})
	if err != nil || r.N != 4 || r.Spearman != 0.8 {
		t.Fatalf("compare %+v %v", r, err)
	}
}
