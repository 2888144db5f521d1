package speech

import (
	"fmt"
	"math"
)

// DefaultRate is the analysis sample rate, 16 kHz: enough for pitch (up to
// 600 Hz), intensity and MFCCs up to 8 kHz, and what speech corpora use.
const DefaultRate = 16000

// ResampleConfig tunes Resample. The zero value gives the defaults.
type ResampleConfig struct {
	// Zeros is the number of zero crossings of the sinc kernel kept on each
	// side of the output point. Default 24 (transition band ≈ 4 % of the
	// lower Nyquist frequency at the default β).
	Zeros int
	// Rolloff is the filter cutoff as a fraction of the lower of the two
	// Nyquist frequencies. Default 0.95 (7.6 kHz when going to 16 kHz).
	Rolloff float64
	// Beta is the Kaiser window's β. Default 9 (stop band ≈ −90 dB).
	Beta float64
}

func (c ResampleConfig) withDefaults() ResampleConfig {
	if c.Zeros <= 0 {
		c.Zeros = 24
	}
	if c.Rolloff <= 0 || c.Rolloff > 1 {
		c.Rolloff = 0.95
	}
	if c.Beta <= 0 {
		c.Beta = 9
	}
	return c
}

// maxPolyphases bounds the table of precomputed filter phases; rate pairs
// whose reduced ratio needs more phases evaluate the kernel directly.
const maxPolyphases = 2048

// Resample returns s at rate Hz: a band-limited (windowed-sinc) interpolation
// with a Kaiser window, low-passed below the lower Nyquist frequency so that
// down-sampling does not alias. Sample i of either sound sits at time
// (i+0.5)/rate, so the signal does not shift. When the reduced rate ratio
// L/M has at most 2048 phases (every common pair: 44.1k→16k is 160/441)
// the filter is precomputed per phase (a polyphase filter); otherwise the
// kernel is evaluated per output sample.
//
// Hand-written: neither go-audio nor gonum provides a resampler, and the
// Go ones that exist wrap C libraries (libsoxr) or use linear interpolation,
// which aliases.
func Resample(s *Sound, rate float64, cfg ResampleConfig) (*Sound, error) {
	if s == nil || len(s.Samples) == 0 {
		return nil, fmt.Errorf("resample: empty sound")
	}
	if !(rate > 0) || math.IsInf(rate, 0) || !(s.Rate > 0) {
		return nil, fmt.Errorf("resample %s: bad rates %g → %g Hz", s.Name, s.Rate, rate)
	}
	if rate == s.Rate {
		return s, nil
	}
	if rate > 100*s.Rate {
		return nil, fmt.Errorf("resample %s: %g Hz → %g Hz is more than 100× up-sampling; is the file's rate right?", s.Name, s.Rate, rate)
	}
	cfg = cfg.withDefaults()
	ratio := rate / s.Rate
	nOut := int(math.Round(float64(len(s.Samples)) * ratio))
	if nOut < 1 {
		return nil, fmt.Errorf("resample %s: %d samples at %g Hz leave nothing at %g Hz", s.Name, len(s.Samples), s.Rate, rate)
	}
	// Cutoff in cycles per input sample, and the kernel half width in input
	// samples.
	fc := 0.5 * cfg.Rolloff * math.Min(1, ratio)
	half := float64(cfg.Zeros) / (2 * fc)
	k := kaiserSinc{fc: fc, half: half, beta: cfg.Beta, norm: 1 / besselI0(cfg.Beta)}
	out := make([]float64, nOut)
	x := s.Samples
	// Input position of output sample j: ((j+0.5)/rate)*s.Rate − 0.5.
	pos := func(j int) float64 { return (float64(j)+0.5)/ratio - 0.5 }

	if L, M, ok := reducedRatio(s.Rate, rate); ok && L <= maxPolyphases {
		// Output j = q*L + p sits at input position q*M + pos(p): the
		// filter taps repeat with period L, so tabulate L phases.
		ntaps := 2*int(math.Ceil(half)) + 2
		phases := make([][]float64, L)
		firsts := make([]int, L)
		for p := 0; p < L; p++ {
			c := pos(p)
			first := int(math.Floor(c - half))
			taps := make([]float64, ntaps)
			for t := range taps {
				taps[t] = k.at(float64(first+t) - c)
			}
			phases[p] = taps
			firsts[p] = first
		}
		for j := 0; j < nOut; j++ {
			q, p := j/L, j%L
			first := firsts[p] + q*M
			taps := phases[p]
			var sum float64
			if first >= 0 && first+len(taps) <= len(x) {
				sum = dot4(taps, x[first:first+len(taps)])
			} else {
				for t, h := range taps {
					if i := first + t; i >= 0 && i < len(x) {
						sum += h * x[i]
					}
				}
			}
			out[j] = sum
		}
	} else {
		for j := 0; j < nOut; j++ {
			c := pos(j)
			lo := max(0, int(math.Ceil(c-half)))
			hi := min(len(x)-1, int(math.Floor(c+half)))
			var sum float64
			for i := lo; i <= hi; i++ {
				sum += k.at(float64(i)-c) * x[i]
			}
			out[j] = sum
		}
	}
	r := *s
	r.Samples = out
	r.Rate = rate
	return &r, nil
}

// kaiserSinc is the low-pass kernel h(t) = 2fc·sinc(2fc·t)·kaiser(t/half),
// t in input samples, fc in cycles per input sample.
type kaiserSinc struct {
	fc, half, beta, norm float64
}

func (k kaiserSinc) at(t float64) float64 {
	if t <= -k.half || t >= k.half {
		return 0
	}
	u := t / k.half
	w := besselI0(k.beta*math.Sqrt(1-u*u)) * k.norm
	a := 2 * k.fc * t
	if a == 0 {
		return 2 * k.fc * w
	}
	return 2 * k.fc * math.Sin(math.Pi*a) / (math.Pi * a) * w
}

// reducedRatio returns out/in as a reduced fraction L/M when both rates are
// whole numbers.
func reducedRatio(in, out float64) (L, M int, ok bool) {
	if in != math.Trunc(in) || out != math.Trunc(out) || in > 1e7 || out > 1e7 {
		return 0, 0, false
	}
	a, b := int(out), int(in)
	g := gcd(a, b)
	return a / g, b / g, true
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// besselI0 is the modified Bessel function of the first kind, order 0, by
// its power series (converges for every argument the Kaiser windows use;
// Go's math and gonum provide J0 and Y0 but not I0).
func besselI0(x float64) float64 {
	sum, term := 1.0, 1.0
	q := x * x / 4
	for k := 1; k < 500; k++ {
		term *= q / float64(k*k)
		sum += term
		if term < sum*1e-17 {
			break
		}
	}
	return sum
}
