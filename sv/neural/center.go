package neural

import (
	"context"
	"fmt"
)

// DefaultCenterTexts is how many training texts (at most) the centring
// mean is computed from (EncoderConfig.CenterTexts).
const DefaultCenterTexts = 8192

// Fit implements sv.Fitter. With EncoderConfig.Center it keeps an evenly
// spaced sample of at most CenterTexts of the training texts; the first
// Encode after Fit or Train embeds them with the current weights and
// subtracts their mean vector from every vector it returns, as the TF-IDF
// baseline subtracts its training mean. Without Center it does nothing.
//
// Why: cosine similarity between raw vectors is dominated by what every
// utterance shares (the mean direction of a transformer's outputs, the
// "anisotropy" of sentence embeddings); removing the training mean makes
// the cosine compare what is distinctive about each set. The mean comes
// from training texts only, never from the dev or test sets.
func (e *Encoder) Fit(ctx context.Context, texts []string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.center = nil
	e.centerTexts = nil
	if !e.cfg.Center || len(texts) == 0 {
		return ctx.Err()
	}
	n := e.cfg.CenterTexts // 0: every training text
	if n <= 0 || len(texts) <= n {
		e.centerTexts = append([]string(nil), texts...)
		return nil
	}
	e.centerTexts = make([]string, n)
	for i := range n {
		e.centerTexts[i] = texts[i*len(texts)/n]
	}
	return nil
}

// centerMean returns the mean vector to subtract (nil when not centring),
// computing it with the current weights on first use after Fit or Train.
// raw embeds texts without centring.
func (e *Encoder) centerMean(ctx context.Context, raw func(context.Context, []string) ([][]float32, error)) ([]float32, error) {
	e.mu.Lock()
	texts, mean := e.centerTexts, e.center
	e.mu.Unlock()
	if mean != nil || len(texts) == 0 {
		return mean, nil
	}
	vecs, err := raw(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("encoder %s: centring mean: %w", e.cfg.Name, err)
	}
	sum := make([]float64, e.Dim())
	for _, v := range vecs {
		for j, x := range v {
			sum[j] += float64(x)
		}
	}
	mean = make([]float32, len(sum))
	for j, s := range sum {
		mean[j] = float32(s / float64(len(vecs)))
	}
	e.mu.Lock()
	e.center = mean
	e.mu.Unlock()
	return mean, nil
}

// subtractMean subtracts mean from every vector in place (nothing when
// mean is nil).
func subtractMean(vecs [][]float32, mean []float32) {
	if mean == nil {
		return
	}
	for _, v := range vecs {
		for j := range v {
			v[j] -= mean[j]
		}
	}
}
