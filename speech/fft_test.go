package speech

import (
	"math"
	"math/rand"
	"testing"

	"gonum.org/v1/gonum/dsp/fourier"
)

// TestRealFFTMatchesGonum checks the hand-written transforms against
// gonum's fourier on random input.
func TestRealFFTMatchesGonum(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for _, n := range []int{4, 8, 64, 1024, 4096} {
		x := make([]float64, n)
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		g := fourier.NewFFT(n)
		want := g.Coefficients(nil, x)
		f := newRealFFT(n)
		p := make([]float64, n/2+1)
		f.power(x, p)
		var scale float64
		for k, c := range want {
			w := real(c)*real(c) + imag(c)*imag(c)
			scale = math.Max(scale, w)
			if d := math.Abs(p[k] - w); d > 1e-9*math.Max(1, w) {
				t.Fatalf("n=%d power[%d] = %g, gonum %g", n, k, p[k], w)
			}
		}
		// Inverse of the (real, even) power spectrum = circular
		// autocorrelation, against gonum's Sequence.
		spec := make([]complex128, n/2+1)
		for k := range spec {
			spec[k] = complex(p[k], 0)
		}
		wantAC := g.Sequence(nil, spec)
		ac := make([]float64, n)
		f.inverseEven(p, ac)
		for m := range ac {
			if d := math.Abs(ac[m] - wantAC[m]); d > 1e-9*math.Abs(wantAC[0]) {
				t.Fatalf("n=%d ac[%d] = %g, gonum %g", n, m, ac[m], wantAC[m])
			}
		}
		// Only the first lags (as the pitch tracker asks): the pruned last
		// stage must give the same values, odd and even counts alike.
		for _, m := range []int{1, 2, n/4 + 1, 5*n/16 + 1, n / 2, n/2 + 3} {
			part := make([]float64, min(m, n))
			f.inverseEven(p, part)
			for i := range part {
				if part[i] != ac[i] {
					t.Fatalf("n=%d, %d lags: ac[%d] = %g, full transform %g", n, m, i, part[i], ac[i])
				}
			}
		}
	}
}
