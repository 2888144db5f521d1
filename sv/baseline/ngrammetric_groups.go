package baseline

import (
	"context"
	"fmt"
	"math"

	"github.com/roleprint/roleprint/data/pairs"
)

// metricGroups are ngram-metric's per-corpus centring (center_by=corpus):
// the source model that assigns a set to a training corpus, and per
// channel the mean training TF-IDF vector of each corpus.
type metricGroups struct {
	nb    *sourceNB
	means [][][]float64 // [channel][group][feature]; nil for a global channel
}

// place returns each set's group (an index into nb.names) and, when
// prof, its group-channel vector (sourceNB.place at temperature tau).
func (g *metricGroups) place(sets [][]string, tau float64, prof bool) ([]int, [][]float64) {
	group := make([]int, len(sets))
	var profs [][]float64
	if prof {
		profs = make([][]float64, len(sets))
	}
	for i, s := range sets {
		k, p := g.nb.place(s, tau)
		group[i] = k
		if prof {
			profs[i] = p
		}
	}
	return group, profs
}

// groupBeta is the group channel's weight in the set similarity: the
// GroupWeight of center_by=corpus, else 0.
func (e *ngramMetric) groupBeta() float64 {
	if e.opts.CenterBy != centerCorpus {
		return 0
	}
	return e.opts.GroupWeight
}

// FitSources is Fit, then, with center_by=corpus, the source model over
// the training texts' corpora (sources[i] is the Source of texts[i],
// "shakespeare/hamlet" counting as "shakespeare") and each channel's
// per-corpus mean; with center_by=global it is Fit.
func (e *ngramMetric) FitSources(ctx context.Context, texts, sources []string) error {
	if len(sources) != len(texts) {
		return fmt.Errorf("%s: fit: %d sources for %d texts", NameNgramMetric, len(sources), len(texts))
	}
	if len(texts) == 0 {
		return fmt.Errorf("%s: fit: no training texts", NameNgramMetric)
	}
	if err := e.fit(ctx, texts); err != nil {
		return err
	}
	if e.opts.CenterBy == centerGlobal {
		return nil
	}
	corpora := make([]string, len(texts))
	for i, s := range sources {
		corpora[i] = pairs.CorpusOf(s)
	}
	nb := fitSourceNB(texts, corpora)
	idx := map[string]int{}
	for k, n := range nb.names {
		idx[n] = k
	}
	g := &metricGroups{nb: nb, means: make([][][]float64, len(e.chans))}
	counts := map[int32]float64{}
	for ci, c := range e.chans {
		if c.global {
			continue
		}
		sums := make([][]float64, len(nb.names))
		n := make([]float64, len(nb.names))
		for k := range sums {
			sums[k] = make([]float64, c.tf.Dim())
		}
		for i, t := range texts {
			if i%4096 == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			k := idx[corpora[i]]
			n[k]++
			sum := sums[k]
			c.tf.sparse(t, counts, func(d int32, x float64) { sum[d] += x })
		}
		for k := range sums {
			for d := range sums[k] {
				sums[k][d] /= n[k]
			}
		}
		g.means[ci] = sums
	}
	e.groups = g
	return nil
}

// groupedSets returns channel ci's vectors of sets centred on their
// groups' means, times the channel's weights.
func (e *ngramMetric) groupedSets(ctx context.Context, ci int, sets [][]string, group []int) ([][]float32, error) {
	return centredSets(ctx, e.chans[ci], sets, 1, func(i int) []float64 { return e.groups.means[ci][group[i]] })
}

// centredSets returns c's vectors of sets minus mean(i) for set i, times
// c's weights: a set is the mean of the unit TF-IDF vectors of its
// documents of size texts (docMean); size 1, each text its own document,
// is the paper's mean pooling.
func centredSets(ctx context.Context, c *metricChannel, sets [][]string, size int, mean func(i int) []float64) ([][]float32, error) {
	out := make([][]float32, len(sets))
	counts := map[int32]float64{}
	sum := make([]float64, c.tf.Dim())
	for i, s := range sets {
		if i%256 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		docMean(c, s, size, counts, sum)
		m := mean(i)
		v := make([]float32, len(sum))
		for d, x := range sum {
			v[d] = float32(x-m[d]) * c.w[d]
		}
		out[i] = v
	}
	return out, nil
}

// appendGroup appends the group channel (the set's profile, the one-hot
// of its predicted corpus by default, scaled by √(β/Σβ)) to v.
func (e *ngramMetric) appendGroup(v []float32, prof []float64, sumBeta float64) []float32 {
	s := math.Sqrt(e.groupBeta() / sumBeta)
	for _, x := range prof {
		v = append(v, float32(x*s))
	}
	return v
}
