package table2

import (
	"math/rand/v2"

	"github.com/roleprint/roleprint/stats"
)

// devBootstrap holds fixed resamples of the dev pairs (indices drawn with
// replacement, seeded, so a choice is the same every run).
type devBootstrap struct {
	labels  []bool
	samples [][]int
}

// newDevBootstrap draws mixBootstrap resamples of len(labels) pairs.
func newDevBootstrap(labels []bool) *devBootstrap {
	rng := rand.New(rand.NewPCG(mixBootstrapSeed, uint64(len(labels))))
	b := &devBootstrap{labels: labels, samples: make([][]int, mixBootstrap)}
	for k := range b.samples {
		idx := make([]int, len(labels))
		for i := range idx {
			idx[i] = rng.IntN(len(labels))
		}
		b.samples[k] = idx
	}
	return b
}

// better reports whether scores cand beat cur on the dev pairs in at
// least mixBootstrapKeep of the resamples (paired: both are evaluated on
// the same resampled pairs; a tie counts against cand).
func (b *devBootstrap) better(cand, cur []float64) bool {
	if len(b.labels) == 0 {
		return false
	}
	sc, sk := make([]float64, len(b.labels)), make([]float64, len(b.labels))
	lb := make([]bool, len(b.labels))
	wins := 0
	for _, idx := range b.samples {
		for i, j := range idx {
			sc[i], sk[i], lb[i] = cand[j], cur[j], b.labels[j]
		}
		if stats.AUC(sc, lb) > stats.AUC(sk, lb) {
			wins++
		}
	}
	return float64(wins) >= mixBootstrapKeep*float64(len(b.samples))
}
