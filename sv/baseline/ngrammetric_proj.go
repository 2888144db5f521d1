package baseline

import (
	"context"
	"math"
	"math/rand/v2"

	"github.com/roleprint/roleprint/data/pairs"
)

// The projection channel: z = Pᵀ(s − m), P a d×Rank matrix over the char
// channel's features, initialised as a seeded Gaussian random projection
// (entries N(0, 1/Rank)) and trained with the feature weights. Where the
// weights can only re-scale n-grams, P can combine them into directions
// that separate speakers of one show. As for the weights, Pᵀm is computed
// once per step, so a set costs nnz(s)·Rank, and the gradient's part
// through the mean is one rank-1 term per step.

// projChannel is the trained projection (nil without Rank).
type projChannel struct {
	rank int
	beta float64
	p    []float32 // d×rank, row i = feature i
}

// initProj returns a seeded random projection of d features.
func initProj(d, rank int, seed int64) []float32 {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x70726f6a))
	p := make([]float32, d*rank)
	s := 1 / math.Sqrt(float64(rank))
	for i := range p {
		p[i] = float32(rng.NormFloat64() * s)
	}
	return p
}

// projState is the projection during training.
type projState struct {
	rank int
	beta float64 // normalised
	p    []float64
	pm   []float64 // Pᵀm
	mean []float64
	sets []sparseVec // the char channel's
}

// refresh recomputes Pᵀm.
func (ps *projState) refresh() {
	clear(ps.pm)
	for i, m := range ps.mean {
		if m == 0 {
			continue
		}
		row := ps.p[i*ps.rank : (i+1)*ps.rank]
		for j, x := range row {
			ps.pm[j] += m * x
		}
	}
}

// project writes Pᵀ(s − m) to z and returns |z|².
func (ps *projState) project(s *sparseVec, z []float64) float64 {
	for j := range z {
		z[j] = -ps.pm[j]
	}
	for k, i := range s.idx {
		v := float64(s.val[k])
		row := ps.p[int(i)*ps.rank : (int(i)+1)*ps.rank]
		for j, x := range row {
			z[j] += v * x
		}
	}
	var n float64
	for _, x := range z {
		n += x * x
	}
	return n
}

// pairCos returns the cosine of the projections of a and b (written to za,
// zb) and their squared norms.
func (ps *projState) pairCos(a, b *sparseVec, za, zb []float64) (cos, na, nb float64) {
	na, nb = ps.project(a, za), ps.project(b, zb)
	if na <= 1e-300 || nb <= 1e-300 {
		return 0, na, nb
	}
	var dot float64
	for j := range za {
		dot += za[j] * zb[j]
	}
	return dot / math.Sqrt(na*nb), na, nb
}

// pairGrad adds g·∂cos/∂P to buf on the rows of a's and b's supports and
// g·(∂cos/∂z_a + ∂cos/∂z_b) to r (the mean term: ∂/∂P_i gets −m_i·r).
func (ps *projState) pairGrad(a, b *sparseVec, za, zb []float64, cos, na, nb, g float64, buf, r, ga, gb []float64) {
	if na <= 1e-300 || nb <= 1e-300 || g == 0 {
		return
	}
	n := math.Sqrt(na * nb)
	for j := range za {
		ga[j] = g * (zb[j]/n - cos*za[j]/na)
		gb[j] = g * (za[j]/n - cos*zb[j]/nb)
		r[j] += ga[j] + gb[j]
	}
	for _, side := range []struct {
		s *sparseVec
		g []float64
	}{{a, ga}, {b, gb}} {
		for k, i := range side.s.idx {
			v := float64(side.s.val[k])
			row := buf[int(i)*ps.rank : (int(i)+1)*ps.rank]
			for j, x := range side.g {
				row[j] += v * x
			}
		}
	}
}

// projectSets embeds sets with the trained projection: Pᵀ(s − m) per set.
func (e *ngramMetric) projectSets(ctx context.Context, sets [][]string) ([][]float64, error) {
	c := e.chans[0]
	us := make([]*pairs.UtteranceSet, len(sets))
	for i, s := range sets {
		us[i] = &pairs.UtteranceSet{Texts: s}
	}
	vs, err := setVectors(ctx, c, us)
	if err != nil {
		return nil, err
	}
	ps := &projState{rank: e.proj.rank, p: make([]float64, len(e.proj.p)), pm: make([]float64, e.proj.rank), mean: make([]float64, c.tf.Dim())}
	for i, x := range e.proj.p {
		ps.p[i] = float64(x)
	}
	for i := range c.tf.mean {
		ps.mean[i] = float64(c.tf.mean[i])
	}
	ps.refresh()
	out := make([][]float64, len(sets))
	for i := range vs {
		out[i] = make([]float64, ps.rank)
		ps.project(&vs[i], out[i])
	}
	return out, nil
}
