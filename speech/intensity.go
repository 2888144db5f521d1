package speech

import (
	"fmt"
	"math"
	"sort"
)

// IntensityConfig holds the parameters of Praat's "Sound: To Intensity...".
// DefaultIntensityConfig returns Praat's defaults.
type IntensityConfig struct {
	// MinPitch is the lowest pitch the analysis must smooth away, in Hz
	// (default 100). The Kaiser-20 window spans 6.4 / MinPitch seconds
	// (its effective duration is 3.2 / MinPitch).
	MinPitch float64
	// TimeStep is the distance between frames in seconds; 0 means
	// 0.8 / MinPitch (8 ms at 100 Hz), four times oversampled.
	TimeStep float64
	// SubtractMean removes the mean pressure within each window first
	// (default true), so that a DC offset does not count as loudness.
	SubtractMean bool
}

// DefaultIntensityConfig returns Praat's defaults: 100 Hz, automatic time
// step, subtract mean.
func DefaultIntensityConfig() IntensityConfig {
	return IntensityConfig{MinPitch: 100, SubtractMean: true}
}

// Intensity is an intensity contour in dB SPL (re 2·10⁻⁵ Pa, taking sample
// values as pascal, as Praat does): frame i is centred at T1 + i*Step.
type Intensity struct {
	// T1 is the centre of the first frame in seconds.
	T1 float64
	// Step is the time step in seconds.
	Step float64
	// DB holds one value per frame (−300 for digital silence).
	DB []float64
}

// Time returns the centre of frame i in seconds.
func (in *Intensity) Time(i int) float64 { return in.T1 + float64(i)*in.Step }

// ToIntensity computes the intensity contour of s as Praat's
// "Sound: To Intensity": in each frame the (mean-subtracted) samples are
// squared and averaged with a Kaiser window (β = 2π² + 0.5, sidelobes below
// −190 dB) of 6.4 / MinPitch seconds, then expressed in dB re 4·10⁻¹⁰ Pa².
// It returns an error when s is shorter than one window.
func ToIntensity(s *Sound, cfg IntensityConfig) (*Intensity, error) {
	if s == nil || len(s.Samples) == 0 {
		return nil, fmt.Errorf("intensity: empty sound")
	}
	if !(cfg.MinPitch > 0) || cfg.TimeStep < 0 {
		return nil, fmt.Errorf("intensity %s: min pitch %g Hz and time step %g s, expected both positive", s.Name, cfg.MinPitch, cfg.TimeStep)
	}
	step := cfg.TimeStep
	if step == 0 {
		step = 0.8 / cfg.MinPitch
	}
	winDur := 6.4 / cfg.MinPitch
	halfDur := 0.5 * winDur
	half := int(math.Floor(halfDur * s.Rate))
	window := make([]float64, 2*half+1)
	beta := 2*math.Pi*math.Pi + 0.5
	var sumw float64
	for i := -half; i <= half; i++ {
		x := float64(i) / s.Rate / halfDur
		if root := 1 - x*x; root > 0 {
			window[i+half] = besselI0(beta * math.Sqrt(root))
		}
		sumw += window[i+half]
	}
	nFrames, t1 := shortTermFrames(len(s.Samples), s.Rate, winDur, step)
	if nFrames < 1 {
		return nil, fmt.Errorf("intensity %s: %.3f s is shorter than the %.3f s window (6.4 / %g Hz minimum pitch)", s.Name, s.Duration(), winDur, cfg.MinPitch)
	}
	x := s.Samples
	out := &Intensity{T1: t1, Step: step, DB: make([]float64, nFrames)}
	for f := range out.DB {
		t := t1 + float64(f)*step
		mid := nearestSample(t, s.Rate)
		lo, hi := mid-half, mid+half
		wlo := 0
		if lo < 0 {
			wlo, lo = -lo, 0
		}
		hi = min(hi, len(x)-1)
		seg := x[lo : hi+1]
		var mean float64
		if cfg.SubtractMean {
			mean = sum4(seg) / float64(len(seg))
		}
		w := window[wlo : wlo+len(seg)]
		sumxw := weightedSquares4(seg, w, mean)
		var sw float64
		if lo == 0 || hi == len(x)-1 {
			for _, v := range w {
				sw += v
			}
		} else {
			sw = sumw
		}
		p := sumxw / sw / 4e-10
		if p < 1e-30 {
			out.DB[f] = -300
		} else {
			out.DB[f] = 10 * math.Log10(p)
		}
	}
	return out, nil
}

// Averaging says how Intensity.Mean averages dB values, as the averaging
// methods of Praat's "Intensity: Get mean...".
type Averaging int

const (
	// AverageEnergy averages 10^(dB/10) and converts back: the mean sound
	// energy (Praat's default, and RolePrint's).
	AverageEnergy Averaging = iota
	// AverageSones averages loudness in sones, 2^((dB−40)/10).
	AverageSones
	// AverageDB averages the dB values themselves.
	AverageDB
)

// String names the averaging method as Praat does.
func (a Averaging) String() string {
	switch a {
	case AverageEnergy:
		return "energy"
	case AverageSones:
		return "sones"
	case AverageDB:
		return "dB"
	}
	return fmt.Sprintf("Averaging(%d)", int(a))
}

// Mean averages all frames with the given method; NaN for no frames.
func (in *Intensity) Mean(method Averaging) float64 {
	if len(in.DB) == 0 {
		return math.NaN()
	}
	var sum float64
	for _, v := range in.DB {
		switch method {
		case AverageEnergy:
			sum += math.Pow(10, v/10)
		case AverageSones:
			sum += math.Pow(2, (v-40)/10)
		default:
			sum += v
		}
	}
	m := sum / float64(len(in.DB))
	switch method {
	case AverageEnergy:
		return 10 * math.Log10(m)
	case AverageSones:
		return 40 + 10*math.Log2(m)
	}
	return m
}

// Quantile returns the q-quantile of the frame values as Praat's
// "Get quantile" (linear interpolation between order statistics at
// q·n + 0.5); NaN for no frames.
func (in *Intensity) Quantile(q float64) float64 {
	return PraatQuantile(in.DB, q)
}

// PraatQuantile is Praat's NUMquantile: the q-quantile (0..1) of x,
// interpolated between order statistics on a sorted copy; NaN when x is
// empty. At q = 0.5 it is the median.
func PraatQuantile(x []float64, q float64) float64 {
	n := len(x)
	if n == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	if n == 1 {
		return s[0]
	}
	place := q*float64(n) + 0.5
	left := int(math.Floor(place))
	left = max(1, min(left, n-1))
	// 1-based s[left] and s[left+1].
	return s[left]*(place-float64(left)) + s[left-1]*(float64(left)+1-place)
}

// extremum returns the largest (or smallest) frame value refined by a
// parabola through it and its neighbours (Praat's "Get maximum/minimum"
// with parabolic interpolation over the whole contour).
func (in *Intensity) extremum(maximum bool) float64 {
	y := in.DB
	if len(y) == 0 {
		return math.NaN()
	}
	best := 0
	for i, v := range y {
		if (maximum && v > y[best]) || (!maximum && v < y[best]) {
			best = i
		}
	}
	if best == 0 || best == len(y)-1 {
		return y[best]
	}
	dy := 0.5 * (y[best+1] - y[best-1])
	d2y := 2*y[best] - y[best-1] - y[best+1]
	if d2y == 0 {
		return y[best]
	}
	return y[best] + 0.5*dy*dy/d2y
}

// ValueNearest returns the value of the frame nearest to t (clamped to the
// contour).
func (in *Intensity) ValueNearest(t float64) float64 {
	i := int(math.Round((t - in.T1) / in.Step))
	return in.DB[max(0, min(i, len(in.DB)-1))]
}

// MinBetween returns the smallest frame value whose centre lies in
// [t0, t1] (Praat's "Get minimum" without interpolation), or the nearest
// frame's value when no centre falls inside.
func (in *Intensity) MinBetween(t0, t1 float64) float64 {
	i0 := int(math.Ceil((t0 - in.T1) / in.Step))
	i1 := int(math.Floor((t1 - in.T1) / in.Step))
	i0, i1 = max(0, i0), min(len(in.DB)-1, i1)
	if i1 < i0 {
		return in.ValueNearest(0.5 * (t0 + t1))
	}
	m := in.DB[i0]
	for _, v := range in.DB[i0+1 : i1+1] {
		m = math.Min(m, v)
	}
	return m
}
