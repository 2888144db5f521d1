package table2

import (
	"fmt"
	"sort"
	"strings"

	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
)

// MixedFTName is the Table 2 row of Mixed Features of the fine-tuned
// parts: the paper's best row, which mixes its fine-tuned encoders.
const MixedFTName = "mixed_ft"

// The paper's Mixed Features mixes its fine-tuned encoders: mixed_ft is
// shown beside it in reports (as is the untuned "mixed").
func init() { sv.RegisterPaperCounterpart(MixedFTName, "Mixed Features") }

// MixedChoice is the make-up of a weighted Mixed Features score: the
// cosine of the concatenated set embeddings, each part's L2-normalised
// embedding scaled by √weight, which is Σ wᵢ·cosᵢ / Σ wᵢ.
type MixedChoice struct {
	// Parts are row names; Weights their weights (same order, > 0).
	Parts   []string  `json:"parts"`
	Weights []float64 `json:"weights"`
	// DevAUC is the AUC of the fused score on the dev pairs, the only
	// pairs the choice looked at.
	DevAUC float64 `json:"dev_auc"`
	// Rule names the selection rule (MixedFTRule).
	Rule string `json:"rule"`
}

// MixedFTRule describes how chooseMixedFT picks parts and weights.
const MixedFTRule = "dev pairs only: every fine-tuned row with weight 1; then greedily add the untuned row " +
	"that raises the dev AUC most (at most 3, each by at least 0.001; stop at the first that fails the bar below); then, per part in order, " +
	"the weight in {0.25, 0.5, 1, 2, 4} with the best dev AUC; a change is kept only when it raises the " +
	"dev AUC in at least 95 % of 200 paired bootstrap resamples of the dev pairs"

// The bootstrap bar of chooseMixedFT: a few hundred dev pairs cannot
// tell apart mixes a fraction of a point apart, and choices made on such
// differences did not hold on the test pairs (docs/training.md).
const (
	mixBootstrap     = 200
	mixBootstrapKeep = 0.95
	mixBootstrapSeed = 18
)

// String describes the choice ("transformer_ft×1 + tfidf×0.5 (dev AUC 0.8123)").
func (c MixedChoice) String() string {
	terms := make([]string, len(c.Parts))
	for i, p := range c.Parts {
		terms[i] = fmt.Sprintf("%s×%g", p, c.Weights[i])
	}
	return fmt.Sprintf("%s (dev AUC %.4f)", strings.Join(terms, " + "), c.DevAUC)
}

// fuseCosines returns Σ wᵢ·cosᵢ / Σ wᵢ per pair; cos[i] are part i's
// per-pair scores (all the same length): the cosines, or a PairScorer
// row's own scores, as mixedFT passes them.
func fuseCosines(cos [][]float64, weights []float64) []float64 {
	if len(cos) == 0 {
		return nil
	}
	out := make([]float64, len(cos[0]))
	var sum float64
	for i, c := range cos {
		w := weights[i]
		sum += w
		for j, x := range c {
			out[j] += w * x
		}
	}
	for j := range out {
		out[j] /= sum
	}
	return out
}

// chooseMixedFT chooses the parts and weights of mixed_ft from dev-pair
// scores only (devCos by row name: each row's cosines, or its own scores
// for a PairScorer row; labels the dev labels), following
// MixedFTRule: every fine-tuned row (a name ending in FineTunedSuffix) is
// a part; untuned rows are added greedily while they raise the dev AUC;
// then each weight is tuned on a small grid; every change must beat the
// current mix in 95 % of paired bootstrap resamples of the dev pairs, so
// that a gain within their noise is not taken. It returns an error when no
// fine-tuned row is present. Rows are considered in sorted order, so ties
// resolve the same way every time.
func chooseMixedFT(devCos map[string][]float64, labels []bool) (MixedChoice, error) {
	var tuned, untuned []string
	for name := range devCos {
		if name == MixedName || name == MixedFTName {
			continue
		}
		if _, ft := sv.SplitFineTuned(name); ft {
			tuned = append(tuned, name)
		} else {
			untuned = append(untuned, name)
		}
	}
	sort.Strings(tuned)
	sort.Strings(untuned)
	if len(tuned) == 0 {
		return MixedChoice{}, fmt.Errorf("%s: no fine-tuned row to mix", MixedFTName)
	}
	fused := func(parts []string, w []float64) []float64 {
		cos := make([][]float64, len(parts))
		for i, p := range parts {
			cos[i] = devCos[p]
		}
		return fuseCosines(cos, w)
	}
	auc := func(parts []string, w []float64) float64 { return stats.AUC(fused(parts, w), labels) }
	parts := append([]string(nil), tuned...)
	weights := make([]float64, len(parts))
	for i := range weights {
		weights[i] = 1
	}
	best := auc(parts, weights)
	boot := newDevBootstrap(labels)
	const maxAdded, minGain = 3, 0.001
	used := map[string]bool{}
	for added := 0; added < maxAdded; added++ {
		pick, pickAUC := "", best+minGain
		for _, u := range untuned {
			if used[u] {
				continue
			}
			if a := auc(append(parts[:len(parts):len(parts)], u), append(weights[:len(weights):len(weights)], 1)); a >= pickAUC {
				if a > pickAUC || pick == "" {
					pick, pickAUC = u, a
				}
			}
		}
		if pick == "" {
			break
		}
		cand, candW := append(parts[:len(parts):len(parts)], pick), append(weights[:len(weights):len(weights)], 1)
		if !boot.better(fused(cand, candW), fused(parts, weights)) {
			break // the best candidate's gain is within the dev pairs' noise
		}
		used[pick] = true
		parts, weights, best = append(parts, pick), append(weights, 1), pickAUC
	}
	grid := []float64{0.25, 0.5, 1, 2, 4}
	if len(parts) > 1 {
		for i := range parts {
			cur, curAUC := weights[i], best
			keep, keepAUC := cur, best
			for _, w := range grid {
				weights[i] = w
				if a := auc(parts, weights); a > keepAUC {
					keepAUC, keep = a, w
				}
			}
			if keep != cur {
				weights[i] = keep
				cand := fused(parts, weights)
				weights[i] = cur
				if boot.better(cand, fused(parts, weights)) {
					cur, curAUC = keep, keepAUC
				}
			}
			weights[i], best = cur, curAUC
		}
	}
	return MixedChoice{Parts: parts, Weights: weights, DevAUC: best, Rule: MixedFTRule}, nil
}
