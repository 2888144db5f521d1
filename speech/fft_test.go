package speech

import (
	"math"
	"math/rand"
	"testing"

	"gonum.org/v1/gonum/dsp/fourier"
)

// TestRealFFTMatchesGonum checks the hand-written autocorrelation (power
// spectrum and its inverse) against gonum's fourier on random input.
func TestRealFFTMatchesGonum(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for _, n := range []int{8, 16, 64, 1024, 4096} {
		x := make([]float64, n)
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		// The reference: gonum's power spectrum and its inverse (gonum's
		// Sequence of the real, even spectrum).
		g := fourier.NewFFT(n)
		spec := g.Coefficients(nil, x)
		for k, c := range spec {
			spec[k] = complex(real(c)*real(c)+imag(c)*imag(c), 0)
		}
		want := g.Sequence(nil, spec)
		f := newRealFFT(n)
		ac := make([]float64, n/2+1) // lags 0..n/2; the rest mirror them
		f.autocorrelate(x, ac)
		for m := range ac {
			if d := math.Abs(ac[m] - want[m]); d > 1e-9*math.Abs(want[0]) {
				t.Fatalf("n=%d ac[%d] = %g, gonum %g", n, m, ac[m], want[m])
			}
		}
		// Only the first lags (as the pitch tracker asks), odd and even
		// counts alike.
		for _, m := range []int{1, 2, 3, n/4 + 1, 5*n/16 + 1, n / 2} {
			part := make([]float64, m)
			f.autocorrelate(x, part)
			for i := range part {
				if math.Abs(part[i]-ac[i]) > 1e-12*math.Abs(ac[0]) {
					t.Fatalf("n=%d, %d lags: ac[%d] = %g, full transform %g", n, m, i, part[i], ac[i])
				}
			}
		}
	}
}
