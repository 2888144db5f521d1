package roleplay

import (
	"context"
	"encoding/binary"
	"hash/fnv"
	"math/rand/v2"

	"github.com/roleprint/roleprint/stats"
)

// clusteredPairs collects one distribution's similarities with the two
// clusters (roles) each pair joins, for the cluster bootstrap of its AUC.
type clusteredPairs struct {
	pos, neg     []float64
	posCl, negCl [][2]int
}

func (c *clusteredPairs) add(sim float64, positive bool, a, b int) {
	if positive {
		c.pos = append(c.pos, sim)
		c.posCl = append(c.posCl, [2]int{a, b})
	} else {
		c.neg = append(c.neg, sim)
		c.negCl = append(c.negCl, [2]int{a, b})
	}
}

// key fingerprints the pairs' clusters in order, with n clusters: two
// distributions with one key were built from the same sets (the pairing
// CompareSeparation relies on).
func (c *clusteredPairs) key(n int) uint64 {
	h := fnv.New64a()
	var b [8]byte
	put := func(x int) {
		binary.LittleEndian.PutUint64(b[:], uint64(x))
		h.Write(b[:])
	}
	put(n)
	for _, cl := range [][][2]int{c.posCl, c.negCl} {
		put(len(cl))
		for _, p := range cl {
			put(p[0])
			put(p[1])
		}
	}
	return h.Sum64()
}

// aucInterval is the percentile interval of the AUC over cfg.Bootstrap
// replicates, and those replicates (NaN where left out), that each draw n
// clusters with replacement and count a pair
// of clusters a, b as often as count(a)·count(b) (pairWeights);
// replicates without a positive or a negative pair are left out. The scores are sorted
// once (stats.AUCOrder), so a replicate costs one pass over the pairs.
// Replicate b draws from its own seeded stream, as the rows' bootstrap
// does, so the interval does not depend on the number of cores.
func (c *clusteredPairs) aucInterval(ctx context.Context, n int, cfg Config, seed uint64) (stats.Interval, []float64, error) {
	if cfg.Bootstrap == 0 || n < 2 || len(c.pos) == 0 || len(c.neg) == 0 {
		return stats.NoInterval(), nil, nil
	}
	scores := append(append(make([]float64, 0, len(c.pos)+len(c.neg)), c.pos...), c.neg...)
	labels := make([]bool, len(scores))
	for i := range c.pos {
		labels[i] = true
	}
	cl := append(append(make([][2]int, 0, len(scores)), c.posCl...), c.negCl...)
	order, err := stats.NewAUCOrder(scores, labels)
	if err != nil {
		return stats.NoInterval(), nil, nil // a NaN similarity: AUC is undefined too
	}
	reps := make([]float64, cfg.Bootstrap)
	parallel(cfg.Bootstrap, func(b int) {
		if ctx.Err() != nil {
			return
		}
		rng := rand.New(rand.NewPCG(seed, 0x61756300+uint64(b)))
		count := make([]float64, n)
		resample(rng, count)
		reps[b] = order.Weighted(pairWeights(cl, count))
	})
	if err := ctx.Err(); err != nil {
		return stats.NoInterval(), nil, err
	}
	return stats.PercentileInterval(reps, cfg.Confidence), reps, nil
}

// pairWeights returns how often each pair of clusters cl counts when
// cluster c was drawn count[c] times: the product of its two clusters'
// draws (a pair within one cluster drawn twice counts four times, as the
// pairs of two copies of its sets would).
func pairWeights(cl [][2]int, count []float64) []float64 {
	w := make([]float64, len(cl))
	for i, p := range cl {
		w[i] = count[p[0]] * count[p[1]]
	}
	return w
}
