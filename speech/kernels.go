package speech

// The inner loops below are written with four accumulators: Go compiles a
// loop with one accumulator into a chain of dependent additions, each
// waiting for the previous one (about 4 cycles), while four independent
// chains keep the floating-point units busy. The order of summation differs
// from a single left-to-right sum by rounding only (relative 1e-16).

// sum4 returns the sum of x.
func sum4(x []float64) float64 {
	var a, b, c, d float64
	i := 0
	for ; i+3 < len(x); i += 4 {
		a += x[i]
		b += x[i+1]
		c += x[i+2]
		d += x[i+3]
	}
	for ; i < len(x); i++ {
		a += x[i]
	}
	return (a + b) + (c + d)
}

// dot4 returns Σ x[i]·y[i] over len(x) (y at least as long).
func dot4(x, y []float64) float64 {
	y = y[:len(x)]
	var a, b, c, d float64
	i := 0
	for ; i+3 < len(x); i += 4 {
		a += x[i] * y[i]
		b += x[i+1] * y[i+1]
		c += x[i+2] * y[i+2]
		d += x[i+3] * y[i+3]
	}
	for ; i < len(x); i++ {
		a += x[i] * y[i]
	}
	return (a + b) + (c + d)
}

// weightedSquares4 returns Σ w[i]·(x[i] − mean)² over len(x) (w at least
// as long).
func weightedSquares4(x, w []float64, mean float64) float64 {
	w = w[:len(x)]
	var a, b, c, d float64
	i := 0
	for ; i+3 < len(x); i += 4 {
		d0, d1, d2, d3 := x[i]-mean, x[i+1]-mean, x[i+2]-mean, x[i+3]-mean
		a += d0 * d0 * w[i]
		b += d1 * d1 * w[i+1]
		c += d2 * d2 * w[i+2]
		d += d3 * d3 * w[i+3]
	}
	for ; i < len(x); i++ {
		v := x[i] - mean
		a += v * v * w[i]
	}
	return (a + b) + (c + d)
}
