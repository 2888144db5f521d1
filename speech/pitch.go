package speech

import (
	"fmt"
	"math"
)

// PitchConfig holds the parameters of Praat's "Sound: To Pitch (ac)...".
// DefaultPitchConfig returns Praat's standard values; the fields are used as
// given (a zero cost means no cost), except TimeStep.
type PitchConfig struct {
	// TimeStep is the distance between frame centres in seconds; 0 means
	// Praat's automatic 0.75 / Floor (0.01 s at 75 Hz).
	TimeStep float64
	// Floor is the lowest F0 considered, in Hz (default 75). It sets the
	// window length: 3 periods of Floor (40 ms at 75 Hz).
	Floor float64
	// Ceiling is the highest F0 considered, in Hz (default 600). Candidates
	// above it count as voiceless.
	Ceiling float64
	// MaxCandidates bounds the number of F0 candidates per frame,
	// voicelessness included (default 15).
	MaxCandidates int
	// VeryAccurate uses a Gaussian window of 6 periods and sinc700 peak
	// interpolation instead of a Hanning window of 3 periods and sinc70
	// (default false).
	VeryAccurate bool
	// SilenceThreshold is the frame peak amplitude, relative to the
	// sound's global peak, below which frames are taken as silent
	// (default 0.03).
	SilenceThreshold float64
	// VoicingThreshold is the normalised autocorrelation a candidate needs
	// to beat voicelessness (default 0.45).
	VoicingThreshold float64
	// OctaveCost favours higher-frequency candidates, per octave
	// (default 0.01): it keeps the analysis from choosing subharmonics.
	OctaveCost float64
	// OctaveJumpCost penalises F0 jumps between frames, per octave
	// (default 0.35).
	OctaveJumpCost float64
	// VoicedUnvoicedCost penalises voicing transitions (default 0.14).
	VoicedUnvoicedCost float64
}

// DefaultPitchConfig returns Praat's defaults for "To Pitch (ac)" with a
// 75–600 Hz range.
func DefaultPitchConfig() PitchConfig {
	return PitchConfig{
		Floor:              75,
		Ceiling:            600,
		MaxCandidates:      15,
		SilenceThreshold:   0.03,
		VoicingThreshold:   0.45,
		OctaveCost:         0.01,
		OctaveJumpCost:     0.35,
		VoicedUnvoicedCost: 0.14,
	}
}

// Pitch is an F0 track: frame i is centred at T1 + i*Step seconds.
type Pitch struct {
	// T1 is the centre of the first frame in seconds.
	T1 float64
	// Step is the time step in seconds.
	Step float64
	// F0 is the fundamental frequency of each frame in Hz, 0 where the
	// frame is voiceless.
	F0 []float64
	// Strength is the normalised autocorrelation of the chosen candidate
	// (0 where voiceless).
	Strength []float64
	// Ceiling is the analysis ceiling in Hz.
	Ceiling float64
}

// Time returns the centre of frame i in seconds.
func (p *Pitch) Time(i int) float64 { return p.T1 + float64(i)*p.Step }

// Voiced reports whether frame i has an F0.
func (p *Pitch) Voiced(i int) bool { return p.F0[i] > 0 && p.F0[i] < p.Ceiling }

// ValueAt returns F0 at time t as Praat's "Get value at time" with linear
// interpolation: 0 (undefined) when the frame nearest to t is voiceless or
// t lies outside the frames; the nearest value when the other neighbour is
// voiceless or missing; otherwise linear interpolation.
func (p *Pitch) ValueAt(t float64) float64 {
	return sampledValueAt(p.F0, p.T1, p.Step, t, func(i int) bool { return p.Voiced(i) })
}

// sampledValueAt interpolates a frame series linearly at time t, as Praat's
// Sampled_getValueAtX: defined(i) says whether frame i has a value.
func sampledValueAt(v []float64, t1, step, t float64, defined func(int) bool) float64 {
	x := (t - t1) / step
	left := int(math.Floor(x))
	phase := x - float64(left)
	near, far := left, left+1
	if phase >= 0.5 {
		near, far = left+1, left
		phase = 1 - phase
	}
	if near < 0 || near >= len(v) || !defined(near) {
		return 0
	}
	if far < 0 || far >= len(v) || !defined(far) {
		return v[near]
	}
	return v[near] + phase*(v[far]-v[near])
}

// pitchCandidate is one F0 hypothesis of a frame; frequency 0 means
// voiceless.
type pitchCandidate struct {
	freq, strength float64
}

// pitchFrame holds a frame's candidates (the first is voicelessness) and
// its peak amplitude relative to the sound's global peak.
type pitchFrame struct {
	intensity  float64
	candidates []pitchCandidate
}

// ToPitch computes an F0 track of s by the autocorrelation method of
// Boersma (1993), as Praat's "Sound: To Pitch (ac)": each frame is taken
// from the signal with its local mean removed, multiplied by a Hanning (or
// Gaussian) window, and its autocorrelation (by FFT) is divided by the
// window's own autocorrelation; maxima above half the voicing threshold
// become candidates, their lags and heights refined by windowed-sinc
// interpolation; a Viterbi search then picks one candidate per frame,
// trading strength and an octave preference against costs for octave
// jumps and voicing changes.
//
// It returns an error when s is shorter than one analysis window
// (3 periods of Floor, 40 ms at 75 Hz) or the configuration is invalid.
func ToPitch(s *Sound, cfg PitchConfig) (*Pitch, error) {
	a, err := newPitchAnalysis(s, cfg)
	if err != nil {
		return nil, err
	}
	frames := a.candidates(s.Samples)
	p := &Pitch{T1: a.t1, Step: a.dt, Ceiling: a.ceiling}
	pitchPath(p, frames, a.cfg)
	return p, nil
}

// pitchAnalysis holds everything ToPitch derives from the configuration and
// the sample rate before it looks at frames.
type pitchAnalysis struct {
	cfg                          PitchConfig
	rate, dt, ceiling            float64
	periodsPerWindow             float64
	nFrames                      int
	t1                           float64
	nsampPeriod, halfnsampPeriod int
	nsampWindow, halfnsampWindow int
	maximumLag, brentIxmax       int
	brentDepth                   int
	nsampFFT                     int
	window, windowR, invWindowR  []float64
	fft                          *realFFT
	frame, ac                    []float64
	r                            []float64 // r[k+brentIxmax] = correlation at lag k
	imax                         []int     // per candidate of the current frame: lag of the maximum,
	lag, ls                      []float64 // parabolic lag, strength − octave cost (once computed)
	globalPeak                   float64
}

func newPitchAnalysis(s *Sound, cfg PitchConfig) (*pitchAnalysis, error) {
	switch {
	case s == nil || len(s.Samples) == 0:
		return nil, fmt.Errorf("pitch: empty sound")
	case !(cfg.Floor > 0):
		return nil, fmt.Errorf("pitch %s: floor %g Hz, expected > 0", s.Name, cfg.Floor)
	case !(cfg.Ceiling > cfg.Floor):
		return nil, fmt.Errorf("pitch %s: ceiling %g Hz, expected above the floor %g Hz", s.Name, cfg.Ceiling, cfg.Floor)
	case cfg.MaxCandidates < 2:
		return nil, fmt.Errorf("pitch %s: max candidates %d, expected at least 2", s.Name, cfg.MaxCandidates)
	case cfg.TimeStep < 0:
		return nil, fmt.Errorf("pitch %s: negative time step %g", s.Name, cfg.TimeStep)
	}
	a := &pitchAnalysis{cfg: cfg, rate: s.Rate, periodsPerWindow: 3, brentDepth: sincDepth70}
	if cfg.VeryAccurate {
		a.periodsPerWindow = 6 // the Gaussian window is twice as long
		a.brentDepth = sincDepth700
	}
	const interpolationDepth = 0.5
	a.ceiling = math.Min(cfg.Ceiling, 0.5*s.Rate)
	a.dt = cfg.TimeStep
	if a.dt == 0 {
		a.dt = 0.75 / cfg.Floor // also with the longer Gaussian window, as Praat
	}
	a.nsampPeriod = int(math.Floor(s.Rate / cfg.Floor))
	a.halfnsampPeriod = a.nsampPeriod/2 + 1
	dtWindow := a.periodsPerWindow / cfg.Floor
	a.nsampWindow = int(math.Floor(dtWindow * s.Rate))
	a.halfnsampWindow = a.nsampWindow/2 - 1
	if a.halfnsampWindow < 2 {
		return nil, fmt.Errorf("pitch %s: analysis window of %d samples is too short; raise the sample rate or lower the floor", s.Name, a.nsampWindow)
	}
	a.nsampWindow = 2 * a.halfnsampWindow
	a.maximumLag = min(int(math.Floor(float64(a.nsampWindow)/a.periodsPerWindow))+2, a.nsampWindow)
	a.nFrames, a.t1 = shortTermFrames(len(s.Samples), s.Rate, dtWindow, a.dt)
	if a.nFrames < 1 {
		return nil, fmt.Errorf("pitch %s: %.3f s is shorter than one analysis window (%.3f s = %g periods of the %g Hz floor)",
			s.Name, s.Duration(), dtWindow, a.periodsPerWindow, cfg.Floor)
	}
	a.nsampFFT = 1
	for float64(a.nsampFFT) < float64(a.nsampWindow)*(1+interpolationDepth) {
		a.nsampFFT *= 2
	}
	a.brentIxmax = int(float64(a.nsampWindow) * interpolationDepth)

	a.window = make([]float64, a.nsampWindow)
	nw := float64(a.nsampWindow)
	if cfg.VeryAccurate {
		imid, edge := 0.5*(nw+1), math.Exp(-12)
		for j := range a.window {
			d := float64(j+1) - imid
			a.window[j] = (math.Exp(-48*d*d/((nw+1)*(nw+1))) - edge) / (1 - edge)
		}
	} else {
		for j := range a.window {
			a.window[j] = 0.5 - 0.5*math.Cos(float64(j+1)*2*math.Pi/(nw+1))
		}
	}
	a.fft = newRealFFT(a.nsampFFT)
	a.frame = make([]float64, a.nsampFFT)
	a.ac = make([]float64, a.nsampFFT/2+1)
	// The window's own normalised autocorrelation, to divide out.
	copy(a.frame, a.window)
	a.windowR = a.autocorrelate(a.frame, make([]float64, a.nsampFFT/2+1))
	w0 := a.windowR[0]
	a.invWindowR = make([]float64, len(a.windowR))
	for i := range a.windowR {
		a.windowR[i] /= w0
		a.invWindowR[i] = 1 / a.windowR[i]
	}
	a.r = make([]float64, 2*a.brentIxmax+1)
	a.imax = make([]int, cfg.MaxCandidates)
	a.lag = make([]float64, cfg.MaxCandidates)
	a.ls = make([]float64, cfg.MaxCandidates)
	a.globalPeak = peakAbsAroundMean(s.Samples)
	return a, nil
}

// autocorrelate returns the (unnormalised) circular autocorrelation of x
// (zero-padded to nsampFFT) at lags 0..len(dst)-1 in dst (see
// realFFT.autocorrelate).
func (a *pitchAnalysis) autocorrelate(x, dst []float64) []float64 {
	a.fft.autocorrelate(x, dst)
	return dst
}

// candidates analyses every frame of x.
func (a *pitchAnalysis) candidates(x []float64) []pitchFrame {
	frames := make([]pitchFrame, a.nFrames)
	// All frames' candidates live in one array, MaxCandidates per frame, so
	// that no frame allocates.
	mc := a.cfg.MaxCandidates
	arena := make([]pitchCandidate, a.nFrames*mc)
	for i := range frames {
		frames[i].candidates = arena[i*mc : i*mc+1 : (i+1)*mc]
	}
	if a.globalPeak == 0 {
		return frames
	}
	// A frame whose voiceless strength beats the best possible voiced score
	// by more than two voicing transitions can never be voiced on the best
	// path, so its correlation need not be computed (this skips silences
	// without changing the result).
	vuCost := a.cfg.VoicedUnvoicedCost * 0.01 / a.dt
	for i := range frames {
		t := a.t1 + float64(i)*a.dt
		a.frameAt(&frames[i], x, t, vuCost)
	}
	return frames
}

// frameAt computes the candidates of the frame centred at t into pf, whose
// candidates hold the voiceless one and have room for MaxCandidates.
func (a *pitchAnalysis) frameAt(pf *pitchFrame, x []float64, t float64, vuCost float64) {
	cfg := a.cfg
	left := lowSample(t, a.rate) // last sample at or before t
	right := left + 1
	m0, m1 := right-a.nsampPeriod, left+a.nsampPeriod
	w0 := right - a.halfnsampWindow
	if m0 < 0 || w0 < 0 || m1 >= len(x) || w0+a.nsampWindow > len(x) {
		return // cannot happen for frames placed by shortTermFrames
	}
	// Local mean over one longest period on each side.
	mean := sum4(x[m0:m1+1]) / float64(2*a.nsampPeriod)
	// Windowed frame with the local mean removed, zero-padded.
	frame := a.frame
	seg := x[w0 : w0+a.nsampWindow]
	for j, w := range a.window {
		frame[j] = (seg[j] - mean) * w
	}
	clear(frame[a.nsampWindow:])
	// Local peak within half a longest period of the centre.
	j0 := max(0, a.halfnsampWindow-a.halfnsampPeriod)
	j1 := min(a.nsampWindow-1, a.halfnsampWindow+a.halfnsampPeriod-1)
	var localPeak float64
	for _, v := range frame[j0 : j1+1] {
		if v := math.Abs(v); v > localPeak {
			localPeak = v
		}
	}
	pf.intensity = math.Min(1, localPeak/a.globalPeak)
	if localPeak == 0 {
		return
	}
	if unvoicedStrength(pf.intensity, cfg) > 1+2*vuCost+1e-9 {
		return
	}
	ac := a.autocorrelate(frame, a.ac[:a.brentIxmax+1]) // lags 0..brentIxmax only
	// r[k] = ac[k] / (ac[0] · windowR[k]), stored symmetrically; the
	// divisions are taken once (invWindowR, 1/ac[0]) rather than per lag.
	ix := a.brentIxmax
	r := a.r
	r[ix] = 1
	inv0 := 1 / ac[0]
	for k := 1; k <= ix; k++ {
		v := ac[k] * inv0 * a.invWindowR[k]
		r[ix+k], r[ix-k] = v, v
	}
	// Maxima above half the voicing threshold become candidates.
	for k := 2; k < a.maximumLag && k < ix; k++ {
		rk, rp, rn := r[ix+k], r[ix+k-1], r[ix+k+1]
		if !(rk > 0.5*cfg.VoicingThreshold && rk > rp && rk >= rn) {
			continue
		}
		dr, d2r := 0.5*(rn-rp), 2*rk-rp-rn
		lag := float64(k) + dr/d2r
		freq := a.rate / lag
		if len(pf.candidates) < cfg.MaxCandidates {
			// The strength at the parabolic lag (sinc30) is only needed
			// if the list overflows: refinement replaces it otherwise, so
			// it is computed when first asked for (a.strength).
			pf.candidates = append(pf.candidates, pitchCandidate{freq: freq, strength: math.NaN()})
			c := len(pf.candidates) - 1
			a.imax[c], a.lag[c] = k, lag
			continue
		}
		// Replace the weakest candidate (octave cost favouring high
		// frequencies) if this one is stronger.
		weakest, place := 2.0, -1
		for c := 1; c < len(pf.candidates); c++ {
			if ls := a.strength(pf, c); ls < weakest {
				weakest, place = ls, c
			}
		}
		strength := a.sinc30(lag)
		ls := strength - cfg.OctaveCost*math.Log2(cfg.Floor/freq)
		if ls <= weakest || place < 0 {
			continue
		}
		pf.candidates[place] = pitchCandidate{freq: freq, strength: strength}
		a.imax[place], a.lag[place], a.ls[place] = k, lag, ls
	}
	// Refine each candidate by maximising the sinc interpolation. A
	// candidate above the ceiling even at the longest lag the refinement
	// can reach (one sample on) counts as voiceless whatever its exact
	// value, so it is left as it is.
	for c := 1; c < len(pf.candidates); c++ {
		if a.rate/float64(a.imax[c]+1) > a.ceiling {
			a.strength(pf, c) // as Praat keeps it
			continue
		}
		depth := a.brentDepth
		if pf.candidates[c].freq > 0.3*a.rate {
			depth = sincDepth700
		}
		xmid, ymid := improveMaximum(r, a.imax[c]+ix, depth)
		xmid -= float64(ix)
		if ymid > 1 {
			ymid = 1 / ymid
		}
		pf.candidates[c] = pitchCandidate{freq: a.rate / xmid, strength: ymid}
	}
}

// sinc30 is the normalised autocorrelation of the current frame at the
// fractional lag (sinc interpolation of depth 30), reflected above 1.
func (a *pitchAnalysis) sinc30(lag float64) float64 {
	v := interpolateSinc(a.r, lag+float64(a.brentIxmax), sincDepth30)
	if v > 1 {
		v = 1 / v
	}
	return v
}

// strength returns candidate c's strength minus the octave cost relative
// to the floor (what the candidate list compares), computing and storing
// the candidate's strength first if it was deferred (NaN).
func (a *pitchAnalysis) strength(pf *pitchFrame, c int) float64 {
	cc := &pf.candidates[c]
	if math.IsNaN(cc.strength) {
		cc.strength = a.sinc30(a.lag[c])
		a.ls[c] = cc.strength - a.cfg.OctaveCost*math.Log2(a.cfg.Floor/cc.freq)
	}
	return a.ls[c]
}

// unvoicedStrength is the score of the voiceless candidate of a frame with
// the given relative intensity: the voicing threshold, plus a bonus that
// grows as the frame falls below the silence threshold.
func unvoicedStrength(intensity float64, cfg PitchConfig) float64 {
	if cfg.SilenceThreshold <= 0 {
		return cfg.VoicingThreshold
	}
	u := 2 - intensity/(cfg.SilenceThreshold/(1+cfg.VoicingThreshold))
	return cfg.VoicingThreshold + math.Max(0, u)
}

// pitchPath chooses one candidate per frame by dynamic programming (Praat's
// Pitch_pathFinder) and fills p.F0 and p.Strength. The transition costs are
// scaled by 0.01 s / time step, as Praat does, so that they do not depend
// on the frame rate.
func pitchPath(p *Pitch, frames []pitchFrame, cfg PitchConfig) {
	n := len(frames)
	p.F0 = make([]float64, n)
	p.Strength = make([]float64, n)
	if n == 0 {
		return
	}
	corr := 0.01 / p.Step
	octJump := cfg.OctaveJumpCost * corr
	vu := cfg.VoicedUnvoicedCost * corr
	ceiling := p.Ceiling
	voiceless := func(f float64) bool { return f <= 0 || f >= ceiling }
	// Scores and back pointers of all frames in two arrays (no allocation
	// per frame): frame i's start at off[i].
	off := make([]int, n+1)
	for i := range frames {
		off[i+1] = off[i] + len(frames[i].candidates)
	}
	scores := make([]float64, off[n])
	psi := make([]int32, off[n])
	// log2 of each voiced candidate's frequency, taken once: the
	// transitions need it for every pair of candidates of adjacent frames.
	logs := make([]float64, off[n])
	log2Ceiling := math.Log2(ceiling)
	local := func(i int) []float64 {
		fr := &frames[i]
		d := scores[off[i]:off[i+1]]
		lf := logs[off[i]:off[i+1]]
		us := unvoicedStrength(fr.intensity, cfg)
		for c, cand := range fr.candidates {
			if voiceless(cand.freq) {
				d[c] = us
			} else {
				lf[c] = math.Log2(cand.freq)
				d[c] = cand.strength - cfg.OctaveCost*(log2Ceiling-lf[c])
			}
		}
		return d
	}
	prev := local(0)
	for i := 1; i < n; i++ {
		cur := local(i)
		back := psi[off[i]:off[i+1]]
		pc := frames[i-1].candidates
		lp, lc := logs[off[i-1]:off[i]], logs[off[i]:off[i+1]]
		for c2, cand2 := range frames[i].candidates {
			uv2 := voiceless(cand2.freq)
			best, place := math.Inf(-1), 0
			for c1, cand1 := range pc {
				uv1 := voiceless(cand1.freq)
				var cost float64
				switch {
				case uv1 && uv2:
				case uv1 != uv2:
					cost = vu
				default:
					cost = octJump * math.Abs(lp[c1]-lc[c2])
				}
				if v := prev[c1] - cost; v > best {
					best, place = v, c1
				}
			}
			cur[c2] += best
			back[c2] = int32(place)
		}
		prev = cur
	}
	place := 0
	for c := 1; c < len(prev); c++ {
		if prev[c] > prev[place] {
			place = c
		}
	}
	for i := n - 1; i >= 0; i-- {
		cand := frames[i].candidates[place]
		if !voiceless(cand.freq) {
			p.F0[i] = cand.freq
			p.Strength[i] = cand.strength
		}
		if i > 0 {
			place = int(psi[off[i]+place])
		}
	}
}
