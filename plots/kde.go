package plots

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/stat"
)

// Written by hand because gonum has no kernel density estimator: a Gaussian
// KDE is a few lines over stat.Mean/StdDev/Quantile.

// SilvermanBandwidth returns Silverman's rule-of-thumb bandwidth for a
// Gaussian KDE of xs: 0.9·min(σ, IQR/1.34)·n^(−1/5). It falls back to σ or
// the IQR when the other is zero, and returns 0 when xs has no spread.
func SilvermanBandwidth(xs []float64) float64 {
	n := len(xs)
	if n < 2 {
		return 0
	}
	sorted := append([]float64(nil), xs...)
	sort.Float64s(sorted)
	sd := stat.StdDev(sorted, nil)
	iqr := (stat.Quantile(0.75, stat.LinInterp, sorted, nil) - stat.Quantile(0.25, stat.LinInterp, sorted, nil)) / 1.34
	spread := math.Min(sd, iqr)
	if spread <= 0 {
		spread = math.Max(sd, iqr)
	}
	return 0.9 * spread * math.Pow(float64(n), -0.2)
}

// KDE evaluates the Gaussian kernel density estimate of xs with bandwidth
// h at each point of at. It returns densities (integrating to 1 over the
// real line). h must be positive.
func KDE(xs []float64, h float64, at []float64) []float64 {
	out := make([]float64, len(at))
	if len(xs) == 0 || h <= 0 {
		return out
	}
	norm := 1 / (float64(len(xs)) * h * math.Sqrt(2*math.Pi))
	for i, x := range at {
		var s float64
		for _, v := range xs {
			z := (x - v) / h
			if z > -8 && z < 8 {
				s += math.Exp(-0.5 * z * z)
			}
		}
		out[i] = s * norm
	}
	return out
}
