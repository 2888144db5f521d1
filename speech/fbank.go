package speech

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/dsp/fourier"
)

// FbankConfig configures Kaldi-compatible log-mel filter-bank features
// (Kaldi's compute-fbank-feats, torchaudio.compliance.kaldi.fbank), the
// input of speaker-embedding models such as WeSpeaker's and 3D-Speaker's
// ECAPA-TDNN, ResNet and CAM++ exports. DefaultFbankConfig gives the values
// those models were trained with (80 bins, 25 ms frames every 10 ms, povey
// window, no dither).
type FbankConfig struct {
	// Bins is the number of mel filters (80).
	Bins int `json:"bins"`
	// FrameMs and ShiftMs are the frame length and shift in milliseconds
	// (25 and 10); the sample counts are truncated as Kaldi truncates them.
	FrameMs float64 `json:"frame_ms"`
	ShiftMs float64 `json:"shift_ms"`
	// Window is "povey" (Kaldi's default: a Hann window to the power 0.85),
	// "hamming", "hanning", "rectangular" or "blackman".
	Window string `json:"window"`
	// BlackmanCoeff is the Blackman window's coefficient (0.42).
	BlackmanCoeff float64 `json:"blackman_coeff"`
	// PreEmphasis is the pre-emphasis coefficient (0.97; 0 turns it off).
	PreEmphasis float64 `json:"preemphasis"`
	// Dither adds Gaussian noise of this standard deviation (in Scale
	// units) to every sample of a frame before anything else; 0 (the
	// default, what embedding models use at inference) adds none.
	Dither float64 `json:"dither"`
	// Seed seeds the dither noise.
	Seed uint64 `json:"seed"`
	// RemoveDC subtracts each frame's mean (true).
	RemoveDC bool `json:"remove_dc"`
	// LowHz is the lowest filter edge (20). HighHz is the highest: 0 means
	// the Nyquist frequency, a negative value that far below it.
	LowHz  float64 `json:"low_hz"`
	HighHz float64 `json:"high_hz"`
	// UseEnergy prepends the frame's log energy as column 0; RawEnergy
	// measures it before pre-emphasis and windowing (true), and
	// EnergyFloor, when > 0, is its floor (log(EnergyFloor); 1.0, as
	// torchaudio; Kaldi's default is 0).
	UseEnergy   bool    `json:"use_energy"`
	RawEnergy   bool    `json:"raw_energy"`
	EnergyFloor float64 `json:"energy_floor"`
	// SnipEdges keeps only frames that fit in the signal (true); false
	// centres frames on multiples of the shift and mirrors the signal at
	// both ends, as Kaldi does.
	SnipEdges bool `json:"snip_edges"`
	// SubtractMean subtracts each column's mean over the frames (false).
	SubtractMean bool `json:"subtract_mean"`
	// Scale multiplies the samples (in [-1, 1]) first: 32768 gives the
	// 16-bit integer values Kaldi and the embedding models read.
	Scale float64 `json:"scale"`
}

// DefaultFbankConfig returns Kaldi's fbank defaults with 80 bins, no dither
// and the 16-bit integer scale.
func DefaultFbankConfig() FbankConfig {
	return FbankConfig{Bins: 80, FrameMs: 25, ShiftMs: 10, Window: "povey", BlackmanCoeff: 0.42, PreEmphasis: 0.97,
		RemoveDC: true, LowHz: 20, RawEnergy: true, EnergyFloor: 1, SnipEdges: true, Scale: 32768}
}

// fbankEpsilon is the floor of energies before their logarithm: float32's
// machine epsilon, as Kaldi and torchaudio use.
const fbankEpsilon = 1.1920928955078125e-07

// Fbank holds log-mel filter-bank features.
type Fbank struct {
	// Frames holds one row per frame: the log energy first when
	// UseEnergy, then Bins log filter energies.
	Frames [][]float64
	// Shift is the time between frames in seconds.
	Shift float64
}

// ComputeFbank computes Kaldi-compatible log-mel filter-bank features of s
// at its own sample rate. It is written here because no Go library
// computes Kaldi's variant (its window, mel scale 1127·ln(1+f/700), filter
// edges and frame layout), which the embedding models expect bit for bit;
// the FFT is gonum's. The tests compare it with
// torchaudio.compliance.kaldi.fbank (scripts/make-fbank-fixtures.py).
func ComputeFbank(s *Sound, cfg FbankConfig) (*Fbank, error) {
	if s == nil || len(s.Samples) == 0 {
		return nil, fmt.Errorf("fbank: empty sound")
	}
	rate := s.Rate
	win := int(rate * cfg.FrameMs * 0.001)
	shift := int(rate * cfg.ShiftMs * 0.001)
	nyq := 0.5 * rate
	high := cfg.HighHz
	if high <= 0 {
		high += nyq
	}
	switch {
	case win < 2 || shift < 1:
		return nil, fmt.Errorf("fbank %s: frame of %d samples, shift %d at %g Hz; expected at least 2 and 1", s.Name, win, shift, rate)
	case len(s.Samples) < win:
		return nil, fmt.Errorf("fbank %s: %d samples, shorter than one %g ms frame (%d samples)", s.Name, len(s.Samples), cfg.FrameMs, win)
	case cfg.Bins < 1:
		return nil, fmt.Errorf("fbank %s: %d mel bins, expected at least 1", s.Name, cfg.Bins)
	case !(cfg.LowHz >= 0 && cfg.LowHz < nyq && high > 0 && high <= nyq && cfg.LowHz < high):
		return nil, fmt.Errorf("fbank %s: filters from %g to %g Hz do not fit below the Nyquist frequency %g Hz", s.Name, cfg.LowHz, high, nyq)
	case cfg.PreEmphasis < 0 || cfg.PreEmphasis > 1:
		return nil, fmt.Errorf("fbank %s: pre-emphasis %g, expected 0 to 1", s.Name, cfg.PreEmphasis)
	}
	window, err := fbankWindow(cfg.Window, win, cfg.BlackmanCoeff)
	if err != nil {
		return nil, fmt.Errorf("fbank %s: %w", s.Name, err)
	}
	scale := cfg.Scale
	if scale == 0 {
		scale = 1
	}
	x := make([]float64, len(s.Samples))
	for i, v := range s.Samples {
		x[i] = v * scale
	}
	starts, x := fbankFrames(x, win, shift, cfg.SnipEdges)
	nfft := 1
	for nfft < win {
		nfft *= 2
	}
	bank := kaldiMelBank(cfg.Bins, nfft, rate, cfg.LowHz, high)
	fft := fourier.NewFFT(nfft)
	buf := make([]float64, nfft)
	spec := make([]complex128, nfft/2+1)
	power := make([]float64, nfft/2+1)
	var rng *rand.Rand
	if cfg.Dither != 0 {
		rng = rand.New(rand.NewPCG(cfg.Seed, 0x6662616e6b))
	}
	cols := cfg.Bins
	if cfg.UseEnergy {
		cols++
	}
	out := &Fbank{Frames: make([][]float64, len(starts)), Shift: float64(shift) / rate}
	logFloor := math.Inf(-1)
	if cfg.EnergyFloor > 0 {
		logFloor = math.Log(cfg.EnergyFloor)
	}
	logEnergy := func(frame []float64) float64 {
		var e float64
		for _, v := range frame {
			e += v * v
		}
		return math.Max(math.Log(math.Max(e, fbankEpsilon)), logFloor)
	}
	for f, start := range starts {
		frame := buf[:win]
		copy(frame, x[start:start+win])
		if rng != nil {
			for i := range frame {
				frame[i] += cfg.Dither * rng.NormFloat64()
			}
		}
		if cfg.RemoveDC {
			var mean float64
			for _, v := range frame {
				mean += v
			}
			mean /= float64(win)
			for i := range frame {
				frame[i] -= mean
			}
		}
		row := make([]float64, cols)
		if cfg.UseEnergy && cfg.RawEnergy {
			row[0] = logEnergy(frame)
		}
		if p := cfg.PreEmphasis; p != 0 {
			for i := win - 1; i > 0; i-- {
				frame[i] -= p * frame[i-1]
			}
			frame[0] -= p * frame[0]
		}
		for i := range frame {
			frame[i] *= window[i]
		}
		clear(buf[win:])
		if cfg.UseEnergy && !cfg.RawEnergy {
			row[0] = logEnergy(buf)
		}
		fft.Coefficients(spec, buf)
		for k, c := range spec {
			power[k] = real(c)*real(c) + imag(c)*imag(c)
		}
		mel := row[cols-cfg.Bins:]
		for m, filt := range bank {
			var e float64
			for k, w := range filt.weights {
				e += w * power[filt.first+k]
			}
			mel[m] = math.Log(math.Max(e, fbankEpsilon))
		}
		out.Frames[f] = row
	}
	if cfg.SubtractMean && len(out.Frames) > 0 {
		SubtractMean(out.Frames)
	}
	return out, nil
}

// SubtractMean subtracts each column's mean over the rows in place: the
// cepstral mean normalisation speaker-embedding models apply to fbank
// features of a whole utterance.
func SubtractMean(rows [][]float64) {
	if len(rows) == 0 {
		return
	}
	mean := make([]float64, len(rows[0]))
	for _, r := range rows {
		for j, v := range r {
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= float64(len(rows))
	}
	for _, r := range rows {
		for j := range r {
			r[j] -= mean[j]
		}
	}
}

// fbankFrames returns the first sample of every frame, and the signal the
// frames index: x itself when snipping edges (frames that fit), else x
// mirrored at both ends as Kaldi extends it (frames centred on multiples
// of the shift, (n + shift/2) / shift of them).
func fbankFrames(x []float64, win, shift int, snip bool) ([]int, []float64) {
	n := len(x)
	var m int
	if snip {
		m = 1 + (n-win)/shift
	} else {
		m = (n + shift/2) / shift
		pad := win/2 - shift/2
		ext := make([]float64, 0, n+max(pad, 0)+n)
		if pad > 0 {
			for i := pad - 1; i >= 0; i-- { // x[pad-1] … x[0]
				ext = append(ext, x[i])
			}
			ext = append(ext, x...)
		} else {
			ext = append(ext, x[-pad:]...)
		}
		for i := n - 1; i >= 0; i-- { // the whole signal reversed after it
			ext = append(ext, x[i])
		}
		x = ext
	}
	starts := make([]int, 0, m)
	for f := 0; f < m && f*shift+win <= len(x); f++ {
		starts = append(starts, f*shift)
	}
	return starts, x
}

// fbankWindow returns Kaldi's window function of length n.
func fbankWindow(kind string, n int, blackman float64) ([]float64, error) {
	w := make([]float64, n)
	a := 2 * math.Pi / float64(n-1)
	for i := range w {
		hann := 0.5 - 0.5*math.Cos(a*float64(i))
		switch kind {
		case "povey", "":
			w[i] = math.Pow(hann, 0.85)
		case "hanning":
			w[i] = hann
		case "hamming":
			w[i] = 0.54 - 0.46*math.Cos(a*float64(i))
		case "rectangular":
			w[i] = 1
		case "blackman":
			w[i] = blackman - 0.5*math.Cos(a*float64(i)) + (0.5-blackman)*math.Cos(2*a*float64(i))
		default:
			return nil, fmt.Errorf("window %q: use povey, hamming, hanning, rectangular or blackman", kind)
		}
	}
	return w, nil
}

// kaldiMel is Kaldi's mel scale.
func kaldiMel(f float64) float64 { return 1127 * math.Log(1+f/700) }

// kaldiMel32 is kaldiMel in float32 arithmetic, as torchaudio computes it
// over a float32 tensor.
func kaldiMel32(f float32) float32 {
	return 1127 * float32(math.Log(float64(1+f/700)))
}

// kaldiMelBank returns Kaldi's triangular filters over the FFT bins
// 0 … nfft/2−1 (the Nyquist bin has weight 0): equally spaced in mel from
// low to high, each rising from its left edge to its centre and falling to
// its right edge, in mel. The weights are computed in float32 arithmetic
// step by step as torchaudio.compliance.kaldi computes them (Kaldi's own
// filters are floats too): the models were trained on those filters, and
// float64 filters move log energies by up to 2e-4.
func kaldiMelBank(bins, nfft int, rate, low, high float64) []melFilter {
	width := float32(rate / float64(nfft))
	mlo, mhi := kaldiMel(low), kaldiMel(high) // float64 scalars, as torchaudio's
	delta := float32((mhi - mlo) / float64(bins+1))
	lo := float32(mlo)
	out := make([]melFilter, bins)
	for b := range out {
		left := lo + float32(b)*delta
		center := lo + float32(b+1)*delta
		right := lo + float32(b+2)*delta
		first, last := -1, -1
		var weights []float64
		for k := 0; k < nfft/2; k++ {
			mel := kaldiMel32(width * float32(k))
			up := (mel - left) / (center - left)
			down := (right - mel) / (right - center)
			w := float64(max(0, min(up, down)))
			if w > 0 {
				if first < 0 {
					first = k
				}
				last = k
			}
			if first >= 0 {
				weights = append(weights, w)
			}
		}
		if first < 0 {
			out[b] = melFilter{first: 0}
			continue
		}
		out[b] = melFilter{first: first, weights: weights[:last-first+1]}
	}
	return out
}
