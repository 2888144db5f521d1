package baseline

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/roleprint/roleprint/data/pairs"
)

// Values of TFIDFOptions.CenterBy.
const (
	centerGlobal = "global"
	centerSource = "source"
	centerCorpus = "corpus"
)

// groupMeans are the mean training TF-IDF vectors of each source (or
// corpus) for tfidf's center_by, with their L2 norms for the cosine that
// assigns a set to its group.
type groupMeans struct {
	names []string
	means [][]float32
	norms []float64
}

// FitSources is Fit, then, with center_by source or corpus, the mean
// training vector of each group of texts (sources[i] is the Source of
// texts[i]). With center_by global it is Fit.
func (e *tfidfEncoder) FitSources(ctx context.Context, texts, sources []string) error {
	if len(sources) != len(texts) {
		return fmt.Errorf("tfidf: fit: %d sources for %d texts", len(sources), len(texts))
	}
	if err := e.fitTexts(ctx, texts); err != nil {
		return err
	}
	n := e.Dim() // the n-gram count: groups is nil until the end
	if e.opts.CenterBy == centerGlobal {
		return nil
	}
	idx := map[string]int{}
	var sums [][]float64
	var counts []float64
	scratch := map[int32]float64{}
	for i, t := range texts {
		if i%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		g := sources[i]
		if e.opts.CenterBy == centerCorpus {
			g = pairs.CorpusOf(g)
		}
		k, ok := idx[g]
		if !ok {
			k = len(sums)
			idx[g] = k
			sums = append(sums, make([]float64, n))
			counts = append(counts, 0)
		}
		counts[k]++
		sum := sums[k]
		e.sparse(t, scratch, func(d int32, x float64) { sum[d] += x })
	}
	names := make([]string, 0, len(idx))
	for g := range idx {
		names = append(names, g)
	}
	sort.Strings(names) // a stable order, so ties resolve the same way
	gm := &groupMeans{names: names}
	for _, g := range names {
		k := idx[g]
		m := make([]float32, n)
		var nn float64
		for d, x := range sums[k] {
			m[d] = float32(x / counts[k])
			nn += float64(m[d]) * float64(m[d])
		}
		gm.means = append(gm.means, m)
		gm.norms = append(gm.norms, math.Sqrt(nn))
	}
	e.groups = gm
	return nil
}

// nearest returns the group mean (or global, the fallback) with the
// highest cosine to the raw, uncentred set vector v.
func (g *groupMeans) nearest(v []float64, global []float32) []float32 {
	var vn float64
	for _, x := range v {
		vn += x * x
	}
	cos := func(m []float32, mn float64) float64 {
		if mn == 0 || vn == 0 {
			return math.Inf(-1)
		}
		var dot float64
		for d, x := range v {
			dot += x * float64(m[d])
		}
		return dot / (mn * math.Sqrt(vn))
	}
	var gn float64
	for _, x := range global {
		gn += float64(x) * float64(x)
	}
	best, bestCos := global, cos(global, math.Sqrt(gn))
	for k, m := range g.means {
		if c := cos(m, g.norms[k]); c > bestCos {
			best, bestCos = m, c
		}
	}
	return best
}

// center returns the raw set vector v minus its nearest group mean; with
// globalWeight > 0, beside v minus the global mean, each part
// L2-normalised and scaled by √weight (global part first).
func (g *groupMeans) center(v []float64, global []float32, globalWeight float64) []float32 {
	sub := func(m []float32, scale float64) []float32 {
		out := make([]float32, len(v))
		var nn float64
		for d, x := range v {
			x -= float64(m[d])
			nn += x * x
		}
		s := scale
		if globalWeight > 0 && nn > 0 {
			s = scale / math.Sqrt(nn)
		}
		for d, x := range v {
			out[d] = float32((x - float64(m[d])) * s)
		}
		return out
	}
	own := sub(g.nearest(v, global), 1)
	if globalWeight <= 0 {
		return own
	}
	return append(sub(global, math.Sqrt(globalWeight)), own...)
}
