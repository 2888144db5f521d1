package speech

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/dsp/fourier"
)

// MFCCConfig holds the parameters of MFCC extraction. DefaultMFCCConfig
// returns the usual speech-recognition front end.
type MFCCConfig struct {
	// FrameDur and Hop are the analysis window and step in seconds
	// (defaults 0.025 and 0.010).
	FrameDur, Hop float64
	// PreEmphasis is the first-order pre-emphasis coefficient (default 0.97).
	PreEmphasis float64
	// Filters is the number of triangular mel filters (default 26).
	Filters int
	// Coeffs is the number of cepstral coefficients kept, c0 included
	// (default 13).
	Coeffs int
	// LowHz and HighHz bound the filter bank (defaults 20 Hz and the Nyquist
	// frequency when HighHz is 0).
	LowHz, HighHz float64
}

// DefaultMFCCConfig returns 25 ms Hamming frames every 10 ms, pre-emphasis
// 0.97, 26 HTK-mel filters from 20 Hz to Nyquist and 13 coefficients
// (c0..c12) by an orthonormal DCT-II of the log filter energies.
func DefaultMFCCConfig() MFCCConfig {
	return MFCCConfig{FrameDur: 0.025, Hop: 0.010, PreEmphasis: 0.97, Filters: 26, Coeffs: 13, LowHz: 20}
}

// MFCC holds mel-frequency cepstral coefficients: Frames[i][k] is
// coefficient k of the frame centred at T1 + i*Step seconds. LogEnergy[i]
// is the frame's log energy (natural log of the sum of squares), used to
// find speech frames.
type MFCC struct {
	// T1 is the centre of the first frame and Step the hop, in seconds.
	T1, Step float64
	// Frames holds the coefficients, c0 first.
	Frames [][]float64
	// LogEnergy is each frame's log energy.
	LogEnergy []float64
}

// ToMFCC computes MFCCs of s: pre-emphasis, Hamming window, power spectrum
// (gonum's real FFT), triangular filters equally spaced on the mel scale
// (2595·log10(1 + f/700)), log, DCT-II.
func ToMFCC(s *Sound, cfg MFCCConfig) (*MFCC, error) {
	if s == nil || len(s.Samples) == 0 {
		return nil, fmt.Errorf("mfcc: empty sound")
	}
	nyq := 0.5 * s.Rate
	if cfg.HighHz <= 0 || cfg.HighHz > nyq {
		cfg.HighHz = nyq
	}
	win := int(math.Round(cfg.FrameDur * s.Rate))
	hop := int(math.Round(cfg.Hop * s.Rate))
	switch {
	case win < 16 || hop < 1:
		return nil, fmt.Errorf("mfcc %s: frame of %d samples, hop %d, expected at least 16 and 1", s.Name, win, hop)
	case cfg.Filters < 2 || cfg.Coeffs < 1 || cfg.Coeffs > cfg.Filters:
		return nil, fmt.Errorf("mfcc %s: %d filters and %d coefficients, expected 1 ≤ coefficients ≤ filters", s.Name, cfg.Filters, cfg.Coeffs)
	case !(cfg.LowHz >= 0 && cfg.LowHz < cfg.HighHz):
		return nil, fmt.Errorf("mfcc %s: filter bank %g–%g Hz is empty", s.Name, cfg.LowHz, cfg.HighHz)
	}
	if len(s.Samples) < win {
		return nil, fmt.Errorf("mfcc %s: %.3f s is shorter than one %.3f s frame", s.Name, s.Duration(), cfg.FrameDur)
	}
	nfft := 1
	for nfft < win {
		nfft *= 2
	}
	bank := melBank(cfg.Filters, nfft, s.Rate, cfg.LowHz, cfg.HighHz)
	dct := dctMatrix(cfg.Filters, cfg.Coeffs)
	hamming := make([]float64, win)
	for i := range hamming {
		hamming[i] = 0.54 - 0.46*math.Cos(2*math.Pi*float64(i)/float64(win-1))
	}
	nFrames := 1 + (len(s.Samples)-win)/hop
	out := &MFCC{T1: (float64(win) / 2) / s.Rate, Step: float64(hop) / s.Rate,
		Frames: make([][]float64, nFrames), LogEnergy: make([]float64, nFrames)}
	fft := fourier.NewFFT(nfft)
	buf := make([]float64, nfft)
	spec := make([]complex128, nfft/2+1)
	power := make([]float64, nfft/2+1)
	logmel := make([]float64, cfg.Filters)
	coeffs := make([]float64, nFrames*cfg.Coeffs)
	x := s.Samples
	for f := 0; f < nFrames; f++ {
		off := f * hop
		var energy float64
		for i := 0; i < win; i++ {
			v := x[off+i]
			if prev := off + i - 1; prev >= 0 {
				v -= cfg.PreEmphasis * x[prev]
			}
			energy += x[off+i] * x[off+i]
			buf[i] = v * hamming[i]
		}
		clear(buf[win:])
		fft.Coefficients(spec, buf)
		for k, c := range spec {
			power[k] = real(c)*real(c) + imag(c)*imag(c)
		}
		for m, filt := range bank {
			var e float64
			for k, w := range filt.weights {
				e += w * power[filt.first+k]
			}
			logmel[m] = math.Log(math.Max(e, 1e-10))
		}
		c := coeffs[f*cfg.Coeffs : (f+1)*cfg.Coeffs]
		for k := range c {
			var sum float64
			for m, v := range logmel {
				sum += dct[k][m] * v
			}
			c[k] = sum
		}
		out.Frames[f] = c
		out.LogEnergy[f] = math.Log(math.Max(energy, 1e-20))
	}
	return out, nil
}

// melFilter is one triangular filter: weights for FFT bins first, first+1, ...
type melFilter struct {
	first   int
	weights []float64
}

func hzToMel(f float64) float64 { return 2595 * math.Log10(1+f/700) }
func melToHz(m float64) float64 { return 700 * (math.Pow(10, m/2595) - 1) }

// melBank builds n triangular filters with centres equally spaced in mel
// between lo and hi Hz, over the bins of an nfft-point spectrum.
func melBank(n, nfft int, rate, lo, hi float64) []melFilter {
	mlo, mhi := hzToMel(lo), hzToMel(hi)
	edges := make([]float64, n+2) // in Hz
	for i := range edges {
		edges[i] = melToHz(mlo + (mhi-mlo)*float64(i)/float64(n+1))
	}
	binHz := rate / float64(nfft)
	bank := make([]melFilter, n)
	for m := 0; m < n; m++ {
		l, c, r := edges[m], edges[m+1], edges[m+2]
		first := int(math.Ceil(l / binHz))
		last := min(int(math.Floor(r/binHz)), nfft/2)
		f := melFilter{first: first}
		for k := first; k <= last; k++ {
			hz := float64(k) * binHz
			var w float64
			if hz <= c {
				w = (hz - l) / (c - l)
			} else {
				w = (r - hz) / (r - c)
			}
			f.weights = append(f.weights, math.Max(0, w))
		}
		bank[m] = f
	}
	return bank
}

// dctMatrix returns the first k rows of the orthonormal DCT-II of size n.
// A matrix product, not gonum's fourier.DCT: that is a DCT-I, and for
// 13×26 values the product is as fast as any transform.
func dctMatrix(n, k int) [][]float64 {
	d := make([][]float64, k)
	for i := range d {
		d[i] = make([]float64, n)
		scale := math.Sqrt(2 / float64(n))
		if i == 0 {
			scale = math.Sqrt(1 / float64(n))
		}
		for m := range d[i] {
			d[i][m] = scale * math.Cos(math.Pi*float64(i)*(float64(m)+0.5)/float64(n))
		}
	}
	return d
}

// deltas returns the regression deltas of frames over ±n neighbours
// (the HTK formula Σ t·(c[i+t] − c[i−t]) / (2 Σ t²), ends repeated).
func deltas(frames [][]float64, n int) [][]float64 {
	if n < 1 {
		n = 2
	}
	out := make([][]float64, len(frames))
	var denom float64
	for t := 1; t <= n; t++ {
		denom += 2 * float64(t*t)
	}
	last := len(frames) - 1
	for i := range frames {
		d := make([]float64, len(frames[i]))
		for t := 1; t <= n; t++ {
			a, b := frames[min(i+t, last)], frames[max(i-t, 0)]
			for k := range d {
				d[k] += float64(t) * (a[k] - b[k])
			}
		}
		for k := range d {
			d[k] /= denom
		}
		out[i] = d
	}
	return out
}
