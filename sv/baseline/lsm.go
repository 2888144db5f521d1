package baseline

import (
	"context"
	"strings"

	"github.com/roleprint/roleprint/sv"
)

// LSMEpsilon is the ε of the LSM formula, which keeps categories absent
// from both texts from dividing by zero (Ireland & Pennebaker use .0001 on
// percentages; rates here are fractions, so 1e-6 is the same scale).
const LSMEpsilon = 1e-6

var lsmLexicon = newLexicon(LSMCategories)

// LSMRates returns the share of words in each of the nine LSMCategories
// over all of texts taken as one document (words weighted equally, as
// Ireland & Pennebaker compute a speaker's rates over everything they
// said).
func LSMRates(texts ...string) []float64 {
	r := make([]float64, len(LSMCategories))
	var words float64
	for _, t := range texts {
		for _, tok := range Tokenize(t) {
			if !isWord(tok) {
				continue
			}
			words++
			for _, ci := range lsmLexicon[tok] {
				r[ci]++
			}
		}
	}
	if words > 0 {
		for i := range r {
			r[i] /= words
		}
	}
	return r
}

// LSM returns the Language Style Matching score of two rate vectors:
// the mean over categories of 1 − |p1−p2|/(p1+p2+ε). It is 1 for
// identical rates and near 0 when every category is used by only one side.
// Both vectors must have the same length.
func LSM(p1, p2 []float32) float64 {
	if len(p1) != len(p2) {
		panic("baseline: LSM of vectors of different lengths")
	}
	if len(p1) == 0 {
		return 0
	}
	var s float64
	for i := range p1 {
		a, b := float64(p1[i]), float64(p2[i])
		d := a - b
		if d < 0 {
			d = -d
		}
		s += 1 - d/(a+b+LSMEpsilon)
	}
	return s / float64(len(p1))
}

// lsmEncoder is the "lsm" row: sets are embedded as LSMRates of their
// whole text (an sv.SetEncoder) and pairs are scored with LSM instead of
// the cosine (an sv.PairScorer). Encode gives per-utterance rates.
type lsmEncoder struct{}

// NewLSM returns the "lsm" encoder.
func NewLSM() sv.Encoder { return lsmEncoder{} }

// Name is "lsm".
func (lsmEncoder) Name() string { return "lsm" }

// Dim is the number of LSM categories (9).
func (lsmEncoder) Dim() int { return len(LSMCategories) }

// Encode returns each text's LSMRates.
func (lsmEncoder) Encode(ctx context.Context, texts []string, progress sv.Progress) ([][]float32, error) {
	return encodeEach(ctx, texts, progress, func(t string) []float64 { return LSMRates(t) })
}

// EncodeSets returns the LSMRates of each set's texts taken together.
func (lsmEncoder) EncodeSets(ctx context.Context, sets [][]string, progress sv.Progress) ([][]float32, error) {
	joined := make([]string, len(sets))
	for i, s := range sets {
		joined[i] = strings.Join(s, "\n")
	}
	return encodeEach(ctx, joined, progress, func(t string) []float64 { return LSMRates(t) })
}

// Score is the LSM score of two sets' rates.
func (lsmEncoder) Score(a, b []float32) float64 { return LSM(a, b) }

// encodeEach applies f to each text (see encodeTexts), converting its
// float64 features to a float32 vector.
func encodeEach(ctx context.Context, texts []string, progress sv.Progress, f func(string) []float64) ([][]float32, error) {
	return encodeTexts(ctx, texts, progress, func(t string) []float32 {
		x := f(t)
		v := make([]float32, len(x))
		for d := range x {
			v[d] = float32(x[d])
		}
		return v
	})
}

// encodeTexts applies f to each text, checking ctx and reporting progress
// every 1024 texts: the loop every per-text encoder of this package shares.
func encodeTexts(ctx context.Context, texts []string, progress sv.Progress, f func(string) []float32) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			progress.Report(i, len(texts))
		}
		out[i] = f(t)
	}
	progress.Report(len(texts), len(texts))
	return out, nil
}
