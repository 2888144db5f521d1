package roleplay

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/roleprint/roleprint/stats"
)

// Kinds of similarity distributions.
const (
	// RealGenerated pairs a row's sets with the real reference sets:
	// positives share the role, negatives do not (the paper's Figure 1).
	// For the Real row the row's sets are the held-out real sets.
	RealGenerated = "real-generated"
	// GeneratedGenerated pairs a row's sets with one another: positives
	// are two sets of one role, negatives sets of two roles (Figure 2).
	GeneratedGenerated = "generated-generated"
)

// Distribution holds the similarities of positive and negative pairs of
// one kind for one row, ready for a histogram, with two numbers that say
// how separable they are.
type Distribution struct {
	// Model is the row (an agent model or the Real row); Kind is
	// RealGenerated or GeneratedGenerated.
	Model string `json:"model"`
	Kind  string `json:"kind"`
	// NPositive and NNegative count every pair compared (pairs drawn from
	// one conversation are left out).
	NPositive int `json:"n_positive"`
	NNegative int `json:"n_negative"`
	// MeanPositive and MeanNegative are the mean similarities.
	MeanPositive stats.Float `json:"mean_positive"`
	MeanNegative stats.Float `json:"mean_negative"`
	// AUC is the probability that a positive pair is more similar than a
	// negative one (stats.AUC over every pair); 0.5 means inseparable.
	AUC stats.Float `json:"auc"`
	// AUCCI is AUC's percentile bootstrap interval (Config.Bootstrap
	// replicates, Config.Confidence): the roles are resampled with
	// replacement and every pair counts as often as the product of its
	// two roles' draws, so a role's many pairs move together (a cluster
	// bootstrap; the pairs of one role are not independent); replicates
	// without a positive or a negative pair are left out. Undefined
	// without replicates or with fewer than two roles.
	AUCCI stats.Interval `json:"auc_ci"`
	// AUCReplicates are the bootstrap AUCs behind AUCCI, in draw order
	// (NaN where a replicate was left out; nil without an interval). A
	// replicate's draw depends on Config.Seed, the row's name and the
	// number of roles only, not on the encoder, so two reports of one
	// configuration and data share their draws: CompareSeparation pairs
	// them.
	AUCReplicates []float64 `json:"-"`
	// pairsKey fingerprints the pairs' roles in order (clusteredPairs.key).
	pairsKey uint64
	// Overlap is the overlapping coefficient of the two distributions:
	// the area shared by their normalised histograms (Histogram's bins),
	// 1 for identical distributions, 0 for disjoint ones.
	Overlap stats.Float `json:"overlap"`
	// Histogram bins both sides on common edges.
	Histogram Histogram `json:"histogram"`
	// Positive and Negative hold the similarities themselves, a seeded
	// uniform sample of at most Config.MaxDistributionPairs each.
	Positive []float64 `json:"positive,omitempty"`
	Negative []float64 `json:"negative,omitempty"`
}

// Histogram is two normalised histograms on common bin edges.
type Histogram struct {
	// Edges has len(Positive)+1 increasing bin edges.
	Edges []float64 `json:"edges"`
	// Positive and Negative hold each side's fraction of pairs per bin
	// (each sums to 1 when the side is not empty).
	Positive []float64 `json:"positive"`
	Negative []float64 `json:"negative"`
}

// NewHistogram bins pos and neg on bins equal-width bins spanning both
// (gonum/plot's plotter.NewHist takes the same data); the last bin
// includes its upper edge. It is an error for bins < 1.
func NewHistogram(pos, neg []float64, bins int) (Histogram, error) {
	if bins < 1 {
		return Histogram{}, fmt.Errorf("roleplay: histogram with %d bins", bins)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range [][]float64{pos, neg} {
		for _, x := range s {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
	}
	if math.IsInf(lo, 0) {
		return Histogram{Edges: []float64{}, Positive: []float64{}, Negative: []float64{}}, nil
	}
	if hi == lo {
		hi = lo + 1e-9
	}
	h := Histogram{Edges: make([]float64, bins+1), Positive: make([]float64, bins), Negative: make([]float64, bins)}
	for i := range h.Edges {
		h.Edges[i] = lo + (hi-lo)*float64(i)/float64(bins)
	}
	fill := func(dst, xs []float64) {
		for _, x := range xs {
			k := int((x - lo) / (hi - lo) * float64(bins))
			k = max(0, min(k, bins-1))
			dst[k]++
		}
		for i := range dst {
			if len(xs) > 0 {
				dst[i] /= float64(len(xs))
			}
		}
	}
	fill(h.Positive, pos)
	fill(h.Negative, neg)
	return h, nil
}

// Overlap returns the overlapping coefficient of the histogram's two
// sides, Σ min(p_i, q_i); NaN when a side is empty.
func (h Histogram) Overlap() float64 {
	var sp, sn, o float64
	for i := range h.Positive {
		sp += h.Positive[i]
		sn += h.Negative[i]
		o += math.Min(h.Positive[i], h.Negative[i])
	}
	if sp == 0 || sn == 0 {
		return math.NaN()
	}
	return o
}

// distributions computes a row's two distributions.
func (r *run) distributions(ctx context.Context, row *scoreRow) ([]Distribution, error) {
	var rg, gg clusteredPairs
	shares := func(i, j int) bool {
		for _, k := range r.excl[i] {
			if k == j {
				return true
			}
		}
		return false
	}
	// Real–generated pairs are clustered by the real roles of both sides
	// (r.refs' indices), generated–generated ones by the row's roles.
	for _, g := range row.roles {
		if g.realRole != "" {
			gc := r.refOf[g.realRole]
			for rc, ref := range r.refs {
				pos := ref.realRole == g.realRole
				for i := g.lo; i < g.hi; i++ {
					for j := ref.lo; j < ref.hi; j++ {
						if !shares(i, j) {
							rg.add(float64(row.gr.at(i, j)), pos, gc, rc)
						}
					}
				}
			}
		}
	}
	for a, g := range row.roles {
		for b := a; b < len(row.roles); b++ {
			h := row.roles[b]
			for i := g.lo; i < g.hi; i++ {
				j0 := h.lo
				if a == b {
					j0 = i + 1
				}
				for j := j0; j < h.hi; j++ {
					if !shares(i, j) {
						gg.add(float64(row.gg.at(i, j)), a == b, a, b)
					}
				}
			}
		}
	}
	seed := hashString(row.model) ^ uint64(r.cfg.Seed)
	out := []Distribution{
		r.distribution(row.model, RealGenerated, rg.pos, rg.neg, seed),
		r.distribution(row.model, GeneratedGenerated, gg.pos, gg.neg, seed+1),
	}
	var err error
	out[0].pairsKey, out[1].pairsKey = rg.key(len(r.refs)), gg.key(len(row.roles))
	if out[0].AUCCI, out[0].AUCReplicates, err = rg.aucInterval(ctx, len(r.refs), r.cfg, seed); err != nil {
		return nil, err
	}
	if out[1].AUCCI, out[1].AUCReplicates, err = gg.aucInterval(ctx, len(row.roles), r.cfg, seed+1); err != nil {
		return nil, err
	}
	return out, nil
}

func (r *run) distribution(model, kind string, pos, neg []float64, seed uint64) Distribution {
	d := Distribution{Model: model, Kind: kind, NPositive: len(pos), NNegative: len(neg),
		MeanPositive: stats.Float(stats.Mean(pos)), MeanNegative: stats.Float(stats.Mean(neg)),
		AUC: stats.NaN(), AUCCI: stats.NoInterval(), Overlap: stats.NaN()}
	if len(pos) > 0 && len(neg) > 0 {
		scores := append(append(make([]float64, 0, len(pos)+len(neg)), pos...), neg...)
		labels := make([]bool, len(scores))
		for i := range pos {
			labels[i] = true
		}
		d.AUC = stats.Float(stats.AUC(scores, labels))
	}
	d.Histogram, _ = NewHistogram(pos, neg, r.cfg.Bins) // Bins ≥ 1 after resolve
	d.Overlap = stats.Float(d.Histogram.Overlap())
	rng := rand.New(rand.NewPCG(seed, 7))
	d.Positive = sample(rng, pos, r.cfg.MaxDistributionPairs)
	d.Negative = sample(rng, neg, r.cfg.MaxDistributionPairs)
	return d
}

// sample returns at most k of xs, a uniform sample in the original order.
func sample(rng *rand.Rand, xs []float64, k int) []float64 {
	if len(xs) <= k {
		return append([]float64(nil), xs...)
	}
	idx := rng.Perm(len(xs))[:k]
	keep := make([]bool, len(xs))
	for _, i := range idx {
		keep[i] = true
	}
	out := make([]float64, 0, k)
	for i, x := range xs {
		if keep[i] {
			out = append(out, x)
		}
	}
	return out
}
