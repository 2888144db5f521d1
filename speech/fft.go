package speech

import (
	"math"
	"math/bits"
)

// realFFT computes what the pitch tracker needs for each frame — the
// autocorrelation of a real sequence of power-of-two length n as the
// inverse transform of its power spectrum — through a complex FFT of length
// n/2 forward (the usual packing of even and odd samples into real and
// imaginary parts) and one of length n/4 back (the power spectrum is real
// and even, so its inverse is a cosine transform; see autocorrelate).
//
// Hand-written for speed: gonum's fourier (a general mixed-radix FFTPACK
// port, used everywhere else in this package and as this code's reference
// in fft_test.go) takes about 13 µs per 1024-point real transform here, and
// the tracker needs two per 10 ms frame — 720,000 per hour of audio, most of
// the 10 s an hour may take. This radix-4 transform does one in about a
// third of the time.
type realFFT struct {
	n, half int
	rev     []int32      // bit reversal of 0..half-1
	radix4  [][]twiddle3 // per radix-4 pass of quarter length m: W^{2k}, W^k, W^{3k} with W = e^{-2πi/4m}, k < m
	last    []complex128 // a final radix-2 stage of length 2m: e^{-2πik/2m}, k < m; nil when none
	split   []complex128 // e^{-2πik/n}, k <= half
	z       []complex128
	// For the inverse (see autocorrelate): the transforms of length n/2,
	// sin(πk/h) and cos(πk/h) for k ≤ h/2, and the cosine transform's
	// folded input.
	inner      *realFFT
	sinH, cosH []float64
	u          []float64
}

// newRealFFT prepares transforms of length n, a power of two ≥ 8.
func newRealFFT(n int) *realFFT {
	f := newComplexHalf(n)
	h := f.half
	// The inverse (a cosine transform of h+1 points) uses a real transform
	// of length h.
	f.inner = newComplexHalf(h)
	f.sinH = make([]float64, h/2+1)
	f.cosH = make([]float64, h/2+1)
	for k := range f.sinH {
		f.sinH[k], f.cosH[k] = math.Sincos(math.Pi * float64(k) / float64(h))
	}
	f.u = make([]float64, h)
	return f
}

// newComplexHalf prepares the complex FFT of length n/2 and the split
// twiddles of a real transform of length n, a power of two ≥ 4.
func newComplexHalf(n int) *realFFT {
	if n < 4 || n&(n-1) != 0 {
		panic("speech: realFFT length must be a power of two ≥ 4")
	}
	f := &realFFT{n: n, half: n / 2}
	h := f.half
	f.rev = make([]int32, h)
	shift := 64 - bits.Len(uint(h-1))
	for i := range f.rev {
		f.rev[i] = int32(bits.Reverse64(uint64(i)) >> shift)
	}
	w := func(k, size int) complex128 {
		s, c := math.Sincos(-2 * math.Pi * float64(k) / float64(size))
		return complex(c, s)
	}
	m := 4 // stages of length 2 and 4 are done without twiddles
	for ; 4*m <= h; m *= 4 {
		tw := make([]twiddle3, m)
		for k := range tw {
			tw[k] = twiddle3{w(2*k, 4*m), w(k, 4*m), w(3*k, 4*m)}
		}
		f.radix4 = append(f.radix4, tw)
	}
	if 2*m <= h {
		f.last = make([]complex128, m)
		for k := range f.last {
			f.last[k] = w(k, 2*m)
		}
	}
	f.split = make([]complex128, h+1)
	for k := range f.split {
		s, c := math.Sincos(-2 * math.Pi * float64(k) / float64(n))
		f.split[k] = complex(c, s)
	}
	f.z = make([]complex128, h)
	return f
}

// twiddle3 holds the three twiddle factors of one radix-4 butterfly.
type twiddle3 struct{ w1, w2, w3 complex128 }

// fft transforms z (length n/2) in place: Z_k = Σ_j z_j e^{-2πijk/(n/2)},
// where z holds the input in bit-reversed order (z[rev[j]] = z_j: the
// callers write it so while packing, which saves a permutation pass).
// Decimation in time: a first pass does the stages of length 2 and 4
// (twiddles 1 and −i, no multiplications), then radix-4 passes each do two
// radix-2 stages with three complex multiplications per four points
// instead of four, and a last radix-2 stage runs when the number of stages
// is odd.
func (f *realFFT) fft(z []complex128) {
	h := f.half
	if h == 2 {
		z[0], z[1] = z[0]+z[1], z[0]-z[1]
		return
	}
	for s := 0; s < h; s += 4 {
		a0, a1, a2, a3 := z[s], z[s+1], z[s+2], z[s+3]
		b0, b1 := a0+a1, a0-a1
		b2, b3 := a2+a3, a2-a3
		b3 = complex(imag(b3), -real(b3)) // × −i
		z[s], z[s+2] = b0+b2, b0-b2
		z[s+1], z[s+3] = b1+b3, b1-b3
	}
	m := 4
	for _, tw := range f.radix4 {
		// Groups of 4m: quarters a, b, c, d; (a, b) and (c, d) are the
		// partners of the first stage, (a, c) and (b, d) of the second.
		for s := 0; s < h; s += 4 * m {
			qa := z[s : s+m]
			qb := z[s+m : s+2*m]
			qc := z[s+2*m : s+3*m]
			qd := z[s+3*m : s+4*m]
			for k, t := range tw {
				a := qa[k]
				bb := qb[k] * t.w1
				cc := qc[k] * t.w2
				dd := qd[k] * t.w3
				apb, amb := a+bb, a-bb
				cpd, cmd := cc+dd, cc-dd
				cmd = complex(imag(cmd), -real(cmd)) // × −i
				qa[k], qc[k] = apb+cpd, apb-cpd
				qb[k], qd[k] = amb+cmd, amb-cmd
			}
		}
		m *= 4
	}
	if f.last != nil {
		lo, hi := z[:m], z[m:2*m]
		for k, w := range f.last {
			b := hi[k] * w
			a := lo[k]
			lo[k], hi[k] = a+b, a-b
		}
	}
}

// autocorrelate writes the circular autocorrelation of the real sequence x
// (length n) at lags m = 0..len(out)-1 (at most h+1, h = n/2) into out:
// a_m = Σ_{k<n} P_k e^{2πikm/n} with P_k = |X_k|², the inverse transform of
// its power spectrum, unnormalised like gonum's Sequence.
//
// Forward: even and odd samples packed into real and imaginary parts,
// Z = FFT_h(z), then X_k = E_k + W^k·O_k with E_k = (Z_k + conj Z_{h−k})/2,
// O_k = (Z_k − conj Z_{h−k})/(2i), W = e^{−2πi/n}; X_{h−k} =
// conj(E_k − W^k·O_k) comes from the same pair, so each iteration makes two
// powers.
//
// Inverse: P is real and even, so a_m = 2·Y_m with the cosine transform
// Y_m = (P_0 + (−1)^m P_h)/2 + Σ_{0<j<h} P_j cos(πjm/h), done by a real
// transform of length h (a complex FFT of h/2, a quarter of n; the usual
// folding, as in Numerical Recipes' cosft1): with
// u_j = (P_j + P_{h−j})/2 − sin(πj/h)(P_j − P_{h−j}) and U = DFT_h(u),
// Y_{2k} = Re U_k and Y_{2k+1} = Y_{2k−1} − Im U_k, starting from
// Y_1 = (P_0 − P_h)/2 + Σ_{0<j<h/2} (P_j − P_{h−j}) cos(πj/h). u is made
// in the same loop as the powers.
func (f *realFFT) autocorrelate(x, out []float64) {
	h := f.half
	z := f.z
	for j, r := range f.rev {
		z[r] = complex(x[2*j], x[2*j+1])
	}
	f.fft(z)
	u := f.u
	// k = 0: X_0 = Re Z_0 + Im Z_0, X_h = Re Z_0 − Im Z_0.
	p0 := (real(z[0]) + imag(z[0])) * (real(z[0]) + imag(z[0]))
	ph := (real(z[0]) - imag(z[0])) * (real(z[0]) - imag(z[0]))
	u[0] = 0.5 * (p0 + ph)
	y1 := 0.5 * (p0 - ph)
	for k := 1; 2*k <= h; k++ {
		a, b := real(z[k]), imag(z[k])
		c, d := real(z[h-k]), imag(z[h-k])
		er, ei := 0.5*(a+c), 0.5*(b-d)
		or, oi := 0.5*(b+d), -0.5*(a-c)
		wr, wi := real(f.split[k]), imag(f.split[k])
		tr, ti := wr*or-wi*oi, wr*oi+wi*or // W^k·O_k
		pk := (er+tr)*(er+tr) + (ei+ti)*(ei+ti)
		pc := (er-tr)*(er-tr) + (ei-ti)*(ei-ti) // P_{h−k}
		mean, diff := 0.5*(pk+pc), pk-pc
		u[k] = mean - f.sinH[k]*diff
		u[h-k] = mean + f.sinH[k]*diff // (k = h/2 writes the same value)
		y1 += diff * f.cosH[k]
	}
	// U = DFT_h(u) through the complex FFT of length q = h/2.
	g := f.inner
	q := g.half
	zu := g.z
	for j, r := range g.rev {
		zu[r] = complex(u[2*j], u[2*j+1])
	}
	g.fft(zu)
	odd := y1 // Y_{2k−1}
	for k := 0; 2*k < len(out); k++ {
		var ur, ui float64 // U_k
		switch {
		case k == 0:
			ur = real(zu[0]) + imag(zu[0])
		case k == q:
			ur = real(zu[0]) - imag(zu[0])
		default:
			a, b := real(zu[k]), imag(zu[k])
			c, d := real(zu[q-k]), imag(zu[q-k])
			er, ei := 0.5*(a+c), 0.5*(b-d)
			or, oi := 0.5*(b+d), -0.5*(a-c)
			wr, wi := real(g.split[k]), imag(g.split[k])
			ur, ui = er+wr*or-wi*oi, ei+wr*oi+wi*or
		}
		out[2*k] = 2 * ur
		if k > 0 {
			odd -= ui
		}
		if 2*k+1 < len(out) {
			out[2*k+1] = 2 * odd
		}
	}
}

func conj(c complex128) complex128 { return complex(real(c), -imag(c)) }
