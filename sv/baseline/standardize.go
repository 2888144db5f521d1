package baseline

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/stat"

	"github.com/roleprint/roleprint/sv"
)

// featureEncoder is an encoder built from a per-text feature function
// whose features are z-scored with the training split's means and
// standard deviations once Fit has run (raw features before). Without
// standardisation the cosine of raw rates is dominated by whichever
// features are largest (article and pronoun rates, length); after it,
// every feature counts by how unusual it is.
type featureEncoder struct {
	name     string
	names    []string
	features func(text string) []float64
	mean     []float64
	scale    []float64 // 1/std; nil before Fit
}

// Name is the encoder's registered name.
func (e *featureEncoder) Name() string { return e.name }

// Dim is the number of features.
func (e *featureEncoder) Dim() int { return len(e.names) }

// FeatureNames returns the name of each dimension, in order.
func (e *featureEncoder) FeatureNames() []string { return append([]string(nil), e.names...) }

// Fit records each feature's mean and standard deviation over texts
// (gonum's stat.MeanStdDev); a constant feature keeps scale 1.
func (e *featureEncoder) Fit(ctx context.Context, texts []string) error {
	if len(texts) == 0 {
		return fmt.Errorf("%s: fit: no training texts", e.name)
	}
	feats := make([][]float64, len(texts))
	for i, t := range texts {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		feats[i] = e.features(t)
	}
	return e.fitFeatures(feats)
}

// fitFeatures records per-dimension means and scales of raw features.
func (e *featureEncoder) fitFeatures(feats [][]float64) error {
	if len(feats) == 0 {
		return fmt.Errorf("%s: fit: no training texts", e.name)
	}
	cols := make([][]float64, e.Dim())
	for _, f := range feats {
		for d, x := range f {
			cols[d] = append(cols[d], x)
		}
	}
	e.mean = make([]float64, e.Dim())
	e.scale = make([]float64, e.Dim())
	for d, c := range cols {
		m, s := stat.MeanStdDev(c, nil)
		e.mean[d] = m
		e.scale[d] = 1
		if s > 1e-12 {
			e.scale[d] = 1 / s
		}
	}
	return nil
}

// Encode returns the features of each text, standardised once fitted.
func (e *featureEncoder) Encode(ctx context.Context, texts []string, progress sv.Progress) ([][]float32, error) {
	return encodeTexts(ctx, texts, progress, func(t string) []float32 { return e.standardizeOne(e.features(t)) })
}

// standardize z-scores raw feature vectors (unchanged before Fit).
func (e *featureEncoder) standardize(feats [][]float64) [][]float32 {
	out := make([][]float32, len(feats))
	for i, f := range feats {
		out[i] = e.standardizeOne(f)
	}
	return out
}

func (e *featureEncoder) standardizeOne(f []float64) []float32 {
	v := make([]float32, len(f))
	for d, x := range f {
		if e.scale != nil {
			x = (x - e.mean[d]) * e.scale[d]
		}
		v[d] = float32(x)
	}
	return v
}
