package speech

import "math"

// Peak interpolation depths of Praat's NUM_PEAK_INTERPOLATE_SINC70 and
// SINC700: how many samples on each side the windowed sinc uses.
const (
	sincDepth30  = 30
	sincDepth70  = 70
	sincDepth700 = 700
)

// interpolateSinc evaluates the band-limited interpolation of y at the
// fractional index x (0-based), using at most depth samples on each side,
// each weighted by sin(πd)/(πd) times a raised-cosine window that reaches
// zero one sample beyond the last one used. Outside [0, len(y)-1] it returns
// the nearest end value. This is the interpolation Boersma (1993) uses to
// read autocorrelation peaks between lags (Praat's NUM_interpolate_sinc);
// written out here because no Go library offers it.
func interpolateSinc(y []float64, x float64, depth int) float64 {
	n := len(y)
	if n == 0 {
		return math.NaN()
	}
	if x >= float64(n-1) {
		return y[n-1]
	}
	if x <= 0 {
		return y[0]
	}
	midleft := int(math.Floor(x))
	frac := x - float64(midleft)
	if frac == 0 {
		return y[midleft]
	}
	midright := midleft + 1
	// Keep every sample used inside y.
	depth = min(depth, midright, n-1-midleft)
	if depth <= 0 {
		return y[int(math.Floor(x+0.5))]
	}
	if depth == 1 {
		return y[midleft] + frac*(y[midright]-y[midleft])
	}
	// Left side: samples midleft-k at distance d = frac+k, k < depth, with
	// window 0.5·(1 + cos(π·d / (frac+depth))); right side: midright+k at
	// d = 1-frac+k with window width depth+1-frac. sin(π·d) = ±sin(π·frac),
	// so the sign alternates and the common factor comes out of the sums.
	// The window cosines follow the Chebyshev recurrence
	// cos(θ+Δ) = 2·cos(Δ)·cos(θ) − cos(θ−Δ) instead of calling math.Cos.
	sinPiFrac := math.Sin(math.Pi * frac)
	sum := sincSide(y[midleft-depth+1:midleft+1], frac, float64(depth)+frac, true) +
		sincSide(y[midright:midright+depth], 1-frac, float64(depth)+1-frac, false)
	return 0.5 * sinPiFrac / math.Pi * sum
}

// sincSide sums ±y·(1 + cos(π·d/width))/d over one side of the interpolation
// point, d = d0, d0+1, ... moving away from it: along ys from its end when
// reverse is set (the left side), from its start otherwise.
//
// The loop is arranged for speed, since pitch refinement calls it millions
// of times per hour of audio: terms are taken in pairs over a common
// denominator (half the divisions), and the window cosines of even and odd
// terms follow two independent Chebyshev recurrences
// cos(θ+2Δ) = 2·cos(2Δ)·cos(θ) − cos(θ−2Δ), so neither waits on the other.
// (Four chains with a quarter of the divisions, both sides in one loop
// with a shared division, and weights made in blocks then dotted with ys
// were all slower here: the first two spill registers, the third adds a
// pass.)
func sincSide(ys []float64, d0, width float64, reverse bool) float64 {
	n := len(ys)
	delta := math.Pi / width
	s0, c0 := sincosSmall(d0 * delta)
	sd, cd := sincosSmall(delta)
	c2d, s2d := 2*cd*cd-1, 2*sd*cd
	// Even chain: cos(θ0), cos(θ0−2Δ); odd chain: cos(θ0+Δ), cos(θ0−Δ).
	eCur, ePrev := c0, c0*c2d+s0*s2d
	oCur, oPrev := c0*cd-s0*sd, c0*cd+s0*sd
	two := 2 * c2d
	idx, step := 0, 1
	if reverse {
		idx, step = n-1, -1
	}
	var sum float64
	d := d0
	k := 0
	for ; k+1 < n; k += 2 {
		a := ys[idx] * (1 + eCur)
		b := ys[idx+step] * (1 + oCur)
		sum += (a*(d+1) - b*d) / (d * (d + 1))
		eCur, ePrev = two*eCur-ePrev, eCur
		oCur, oPrev = two*oCur-oPrev, oCur
		idx += 2 * step
		d += 2
	}
	if k < n {
		sum += ys[idx] * (1 + eCur) / d
	}
	return sum
}

// sincosSmall returns sin x and cos x: by their Taylor series (to x⁹ and
// x¹⁰, within an ulp) when |x| ≤ 0.1, which covers every angle of the
// depth-30 and depth-70 sinc windows, and by math.Sincos otherwise. The
// series is written out because it costs a third of math.Sincos's range
// reduction, called four times per interpolation.
func sincosSmall(x float64) (sin, cos float64) {
	if math.Abs(x) > 0.1 {
		return math.Sincos(x)
	}
	x2 := x * x
	// Horner form with constant reciprocals (Go does not turn a division by
	// a constant into a multiplication).
	sin = x * (1 - x2*(1.0/6)*(1-x2*(1.0/20)*(1-x2*(1.0/42)*(1-x2*(1.0/72)))))
	cos = 1 - x2*0.5*(1-x2*(1.0/12)*(1-x2*(1.0/30)*(1-x2*(1.0/56)*(1-x2*(1.0/90)))))
	return sin, cos
}

// improveMaximum refines a local maximum of y at integer index i by
// maximising the sinc interpolation (interpolateSinc with depth) over
// [i-1, i+1] with Brent's method, as Praat's NUMimproveMaximum does. It
// returns the refined position and value.
func improveMaximum(y []float64, i int, depth int) (x, value float64) {
	if i <= 0 {
		return 0, y[0]
	}
	if i >= len(y)-1 {
		return float64(len(y) - 1), y[len(y)-1]
	}
	f := func(x float64) float64 { return -interpolateSinc(y, x, depth) }
	x, fx := brentMinimize(f, float64(i-1), float64(i), float64(i+1), 0, 1e-6)
	return x, -fx
}

// brentMinimize finds a minimum of f in [a, b] starting from the interior
// point m with Brent's method (golden-section search accelerated by
// parabolic interpolation) to within tol·|x| + abstol. Hand-written:
// gonum's optimize package has no bounded one-dimensional minimiser.
func brentMinimize(f func(float64) float64, a, m, b, tol, abstol float64) (xmin, fmin float64) {
	const golden = 0.3819660112501051 // (3 - √5) / 2
	eps := abstol
	x, w, v := m, m, m
	fx := f(x)
	fw, fv := fx, fx
	var d, e float64
	for iter := 0; iter < 60; iter++ {
		xm := 0.5 * (a + b)
		tol1 := tol*math.Abs(x) + eps
		tol2 := 2 * tol1
		if math.Abs(x-xm) <= tol2-0.5*(b-a) {
			break
		}
		parabolic := false
		if math.Abs(e) > tol1 {
			r := (x - w) * (fx - fv)
			q := (x - v) * (fx - fw)
			p := (x-v)*q - (x-w)*r
			q = 2 * (q - r)
			if q > 0 {
				p = -p
			}
			q = math.Abs(q)
			etemp := e
			e = d
			if math.Abs(p) < math.Abs(0.5*q*etemp) && p > q*(a-x) && p < q*(b-x) {
				d = p / q
				u := x + d
				if u-a < tol2 || b-u < tol2 {
					d = math.Copysign(tol1, xm-x)
				}
				parabolic = true
			}
		}
		if !parabolic {
			if x >= xm {
				e = a - x
			} else {
				e = b - x
			}
			d = golden * e
		}
		var u float64
		if math.Abs(d) >= tol1 {
			u = x + d
		} else {
			u = x + math.Copysign(tol1, d)
		}
		fu := f(u)
		if fu <= fx {
			if u >= x {
				a = x
			} else {
				b = x
			}
			v, w, x = w, x, u
			fv, fw, fx = fw, fx, fu
		} else {
			if u < x {
				a = u
			} else {
				b = u
			}
			if fu <= fw || w == x {
				v, w = w, u
				fv, fw = fw, fu
			} else if fu <= fv || v == x || v == w {
				v = u
				fv = fu
			}
		}
	}
	return x, fx
}
