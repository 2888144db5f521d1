package speech

import (
	"fmt"
	"math"
	"sort"

	"github.com/roleprint/roleprint/stats"
)

// EmbedConfig configures speaker embeddings from MFCC statistics.
type EmbedConfig struct {
	// MFCC configures the cepstra; default 25 ms / 10 ms frames, 40 mel
	// filters, 20 coefficients.
	MFCC MFCCConfig
	// SpeechRangeDB keeps the frames whose energy is within this many dB
	// of the loud end of the clip (its 95th-percentile frame), so that
	// silence does not dilute the statistics (default 30).
	SpeechRangeDB float64
	// DeltaWidth is the ± frame span of the delta regression (default 2).
	DeltaWidth int
	// BlockWeights scale the three blocks of a standardised embedding —
	// mean, standard deviation, delta standard deviation — before cosines
	// are taken (default 1, 0.3, 0.3: in short clips the mean cepstrum
	// carries most of the speaker, the deviations depend more on what is
	// said; see docs/speech.md for the comparison).
	BlockWeights [3]float64
}

// DefaultEmbedConfig returns the defaults documented on EmbedConfig.
func DefaultEmbedConfig() EmbedConfig {
	m := DefaultMFCCConfig()
	m.Filters, m.Coeffs = 40, 20
	return EmbedConfig{MFCC: m, SpeechRangeDB: 30, DeltaWidth: 2, BlockWeights: [3]float64{1, 0.3, 0.3}}
}

// WeighBlocks multiplies the three equal blocks of a (standardised)
// embedding by w, in place, and returns it.
func WeighBlocks(v []float64, w [3]float64) []float64 {
	k := len(v) / 3
	for j := range v {
		v[j] *= w[min(j/k, 2)]
	}
	return v
}

// Embed returns a speaker embedding of s: over the clip's speech frames,
// the mean and standard deviation of MFCCs c1..c(K−1) (c0, the loudness,
// is left out so that recording level does not decide who speaks) and the
// standard deviation of their deltas — 3·(K−1) numbers, 57 by default.
// The mean cepstrum describes the vocal tract and channel; the deviations
// how the voice moves. Compare embeddings with Cosine after standardising
// them over a pool of clips (Standardizer: raw dimensions differ in scale)
// and weighing the blocks (WeighBlocks with cfg.BlockWeights).
func Embed(s *Sound, cfg EmbedConfig) ([]float64, error) {
	if s.Rate != DefaultRate {
		var err error
		if s, err = Resample(s, DefaultRate, ResampleConfig{}); err != nil {
			return nil, err
		}
	}
	m, err := ToMFCC(s, cfg.MFCC)
	if err != nil {
		return nil, err
	}
	dfr := deltas(m.Frames, cfg.DeltaWidth)
	// Speech frames: energy within SpeechRangeDB of the 95th percentile.
	e := append([]float64(nil), m.LogEnergy...)
	sort.Float64s(e)
	loud := e[int(0.95*float64(len(e)-1))]
	floor := loud - cfg.SpeechRangeDB*math.Ln10/10
	var keep []int
	for i, v := range m.LogEnergy {
		if v >= floor {
			keep = append(keep, i)
		}
	}
	if len(keep) < 2 {
		return nil, fmt.Errorf("embed %s: fewer than 2 speech frames", s.Name)
	}
	k := cfg.MFCC.Coeffs - 1
	out := make([]float64, 3*k)
	col := make([]float64, len(keep))
	for c := 1; c <= k; c++ {
		for j, i := range keep {
			col[j] = m.Frames[i][c]
		}
		out[c-1], out[k+c-1] = stats.MeanStd(col)
		for j, i := range keep {
			col[j] = dfr[i][c]
		}
		_, out[2*k+c-1] = stats.MeanStd(col)
	}
	return out, nil
}

// Standardizer rescales embedding dimensions to zero mean and unit
// variance over a pool of clips, so that every dimension counts alike in a
// cosine.
type Standardizer struct {
	// Mean and Std are the per-dimension mean and standard deviation.
	Mean, Std []float64
}

// FitStandardizer computes per-dimension means and standard deviations of
// vecs (all of one length). Dimensions without spread keep scale 1.
func FitStandardizer(vecs [][]float64) (*Standardizer, error) {
	if len(vecs) == 0 {
		return nil, fmt.Errorf("standardizer: no vectors")
	}
	d := len(vecs[0])
	st := &Standardizer{Mean: make([]float64, d), Std: make([]float64, d)}
	col := make([]float64, len(vecs))
	for j := 0; j < d; j++ {
		for i, v := range vecs {
			if len(v) != d {
				return nil, fmt.Errorf("standardizer: vector %d has %d dimensions, expected %d", i, len(v), d)
			}
			col[i] = v[j]
		}
		m, s := stats.MeanStd(col)
		if !(s > 0) {
			s = 1
		}
		st.Mean[j], st.Std[j] = m, s
	}
	return st, nil
}

// Apply returns the standardised copy of v.
func (st *Standardizer) Apply(v []float64) []float64 {
	out := make([]float64, len(v))
	for j := range v {
		out[j] = (v[j] - st.Mean[j]) / st.Std[j]
	}
	return out
}

// SelectReference picks a role's reference voice as SpeechRole does: the
// clip whose embedding has the highest mean cosine similarity to the
// role's other clips. It returns that clip's index and every clip's mean
// similarity; ties go to the earlier clip. A single clip is its own
// reference (mean similarity NaN).
func SelectReference(embeddings [][]float64) (best int, meanSim []float64, err error) {
	n := len(embeddings)
	if n == 0 {
		return -1, nil, fmt.Errorf("select reference: no clips")
	}
	meanSim = make([]float64, n)
	if n == 1 {
		meanSim[0] = math.NaN()
		return 0, meanSim, nil
	}
	for i := range embeddings {
		var sum float64
		for j := range embeddings {
			if i != j {
				sum += stats.Cosine(embeddings[i], embeddings[j])
			}
		}
		meanSim[i] = sum / float64(n-1)
	}
	for i, v := range meanSim {
		if v > meanSim[best] {
			best = i
		}
	}
	return best, meanSim, nil
}
