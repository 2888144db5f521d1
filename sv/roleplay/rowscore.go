package roleplay

import (
	"context"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/roleprint/roleprint/stats"
)

// estimate is one evaluation of a row's scores under given set weights.
type estimate struct {
	sim  []float64   // per role; NaN without real sets
	dist []float64   // per role
	rank []float64   // per role; NaN without real sets
	cand [][]float64 // per role with real sets: the rank candidates' similarities (see candidates)
}

// candidates names the Simulation Rank candidates of a row's roles in the
// order of estimate.cand: the real roles with reference sets
// (RankAmongReal) or the row's own roles (RankAmongAgent).
func (r *run) candidates(row *scoreRow) []string {
	var out []string
	if r.cfg.RankAmong == RankAmongAgent {
		for _, g := range row.roles {
			out = append(out, g.role)
		}
		return out
	}
	for _, q := range r.refs {
		out = append(out, q.realRole)
	}
	return out
}

// estimateRow evaluates row's per-role scores. wGen weights the row's sets
// (indexed from row.lo), wRef the reference sets; nil means 1 each.
func (r *run) estimateRow(row *scoreRow, wGen, wRef []float64) estimate {
	n := len(row.roles)
	e := estimate{sim: nanSlice(n), dist: nanSlice(n), rank: nanSlice(n), cand: make([][]float64, n)}
	sub := func(w []float64, lo, hi int) []float64 {
		if w == nil {
			return nil
		}
		return w[lo:hi]
	}
	// Simulation (Eq. 2) and rank: the role's sets against its real
	// reference sets, and the candidates' similarities.
	for i, g := range row.roles {
		if g.realRole == "" {
			continue
		}
		own := r.refOf[g.realRole]
		wg := sub(wGen, g.lo-row.lo, g.hi-row.lo)
		var cand []float64
		self := own
		if r.cfg.RankAmong == RankAmongAgent {
			// Every role of the row against the role's real sets.
			ref := r.refs[own]
			wr := sub(wRef, ref.lo, ref.hi)
			cand = make([]float64, n)
			for k, h := range row.roles {
				cand[k] = r.blockMean(row.gr, h.lo, h.hi, ref.lo, ref.hi, sub(wGen, h.lo-row.lo, h.hi-row.lo), wr)
			}
			self = i
		} else {
			// The role's sets against every real role's reference sets.
			cand = make([]float64, len(r.refs))
			for k, q := range r.refs {
				cand[k] = r.blockMean(row.gr, g.lo, g.hi, q.lo, q.hi, wg, sub(wRef, q.lo, q.hi))
			}
		}
		e.cand[i] = cand
		e.sim[i] = cand[self]
		e.rank[i] = rankOf(cand, self)
	}
	// Distinction: every pair of roles once.
	pair := make([][]float64, n)
	for i := range pair {
		pair[i] = nanSlice(n)
	}
	for i, g := range row.roles {
		for k := i + 1; k < n; k++ {
			h := row.roles[k]
			m := r.blockMean(row.gg, g.lo, g.hi, h.lo, h.hi, sub(wGen, g.lo-row.lo, g.hi-row.lo), sub(wGen, h.lo-row.lo, h.hi-row.lo))
			pair[i][k], pair[k][i] = m, m
		}
	}
	for i := range row.roles {
		var s float64
		var c int
		for k, m := range pair[i] {
			if k != i && !math.IsNaN(m) {
				s += 1 - m
				c++
			}
		}
		if c > 0 {
			e.dist[i] = s / float64(c)
		}
	}
	return e
}

// rankOf is the 1-based rank of cand[i] among the defined values of cand,
// higher first, ties counting one half; NaN when cand[i] is undefined.
func rankOf(cand []float64, i int) float64 {
	t := cand[i]
	if math.IsNaN(t) {
		return math.NaN()
	}
	rank := 1.0
	for k, s := range cand {
		switch {
		case k == i || math.IsNaN(s):
		case s > t:
			rank++
		case s == t:
			rank += 0.5
		}
	}
	return rank
}

// weightedMean is the mean of x[i] weighted by c[i] (nil: 1 each),
// skipping NaNs; NaN when nothing is left.
func weightedMean(x, c []float64) float64 {
	var s, w float64
	for i, v := range x {
		ci := 1.0
		if c != nil {
			ci = c[i]
		}
		if ci == 0 || math.IsNaN(v) {
			continue
		}
		s += ci * v
		w += ci
	}
	if w == 0 {
		return math.NaN()
	}
	return s / w
}

// scoreRow computes a row's scores, per-role rows and intervals.
func (r *run) scoreRow(ctx context.Context, row *scoreRow) (ModelScore, error) {
	cfg := r.cfg
	ms := ModelScore{Model: row.model, Roles: len(row.roles), Sets: row.hi - row.lo,
		SimulationCI: stats.NoInterval(), DistinctionCI: stats.NoInterval(), AvgRankCI: stats.NoInterval()}
	n := len(row.roles)
	hasReal := make([]float64, n) // 1 for roles with real sets: weights of the Simulation mean
	for i, g := range row.roles {
		ms.Utterances += g.utts
		if g.realRole != "" {
			hasReal[i] = 1
			ms.RolesWithReal++
		}
	}
	point := r.estimateRow(row, nil, nil)
	ms.Simulation = stats.Float(weightedMean(point.sim, hasReal))
	ms.Distinction = stats.Float(weightedMean(point.dist, nil))
	ms.AvgRank = stats.Float(weightedMean(point.rank, hasReal))
	for i, g := range row.roles {
		rs := RoleScore{Role: g.role, RealRole: g.realRole, Sets: g.hi - g.lo, Utterances: g.utts,
			Simulation: stats.Float(point.sim[i]), Distinction: stats.Float(point.dist[i]), Rank: stats.Float(point.rank[i]),
			SimulationCI: stats.NoInterval(), DistinctionCI: stats.NoInterval(), RankCI: stats.NoInterval()}
		if g.realRole != "" {
			ref := r.refs[r.refOf[g.realRole]]
			rs.RealSets = ref.hi - ref.lo
			rs.Top, rs.RankOf = topRoles(r.candidates(row), point.cand[i], cfg.TopK)
		}
		ms.PerRole = append(ms.PerRole, rs)
	}
	if cfg.Bootstrap == 0 || n == 0 {
		return ms, nil
	}

	// Two-stage bootstrap; replicate b draws from its own seeded stream,
	// so results do not depend on how replicates are spread over cores.
	B := cfg.Bootstrap
	nRef := 0
	if len(r.refs) > 0 {
		nRef = r.refs[len(r.refs)-1].hi
	}
	sim, dist, rank := make([]float64, B), make([]float64, B), make([]float64, B)
	roleSim, roleDist, roleRank := make([][]float64, n), make([][]float64, n), make([][]float64, n)
	for i := range roleSim {
		roleSim[i], roleDist[i], roleRank[i] = make([]float64, B), make([]float64, B), make([]float64, B)
	}
	realIdx := make([]int, 0, n)
	for i := range row.roles {
		if hasReal[i] == 1 {
			realIdx = append(realIdx, i)
		}
	}
	stream := hashString(row.model) ^ uint64(cfg.Seed)
	parallel(B, func(b int) {
		if ctx.Err() != nil {
			return
		}
		rng := rand.New(rand.NewPCG(stream, uint64(b)+1))
		wGen := make([]float64, row.hi-row.lo)
		for _, g := range row.roles {
			resample(rng, wGen[g.lo-row.lo:g.hi-row.lo])
		}
		wRef := make([]float64, nRef)
		for _, ref := range r.refs {
			resample(rng, wRef[ref.lo:ref.hi])
		}
		cAll := make([]float64, n)
		for range n {
			cAll[rng.IntN(n)]++
		}
		cReal := make([]float64, n)
		for range realIdx {
			cReal[realIdx[rng.IntN(len(realIdx))]]++
		}
		e := r.estimateRow(row, wGen, wRef)
		sim[b] = weightedMean(e.sim, cReal)
		dist[b] = weightedMean(e.dist, cAll)
		rank[b] = weightedMean(e.rank, cReal)
		for i := range n {
			roleSim[i][b], roleDist[i][b], roleRank[i][b] = e.sim[i], e.dist[i], e.rank[i]
		}
	})
	if err := ctx.Err(); err != nil {
		return ms, err
	}
	ms.SimulationCI = stats.PercentileInterval(sim, cfg.Confidence)
	ms.DistinctionCI = stats.PercentileInterval(dist, cfg.Confidence)
	ms.AvgRankCI = stats.PercentileInterval(rank, cfg.Confidence)
	for i := range ms.PerRole {
		ms.PerRole[i].SimulationCI = stats.PercentileInterval(roleSim[i], cfg.Confidence)
		ms.PerRole[i].DistinctionCI = stats.PercentileInterval(roleDist[i], cfg.Confidence)
		ms.PerRole[i].RankCI = stats.PercentileInterval(roleRank[i], cfg.Confidence)
	}
	return ms, nil
}

// resample fills w with the counts of len(w) draws with replacement.
func resample(rng *rand.Rand, w []float64) {
	for range w {
		w[rng.IntN(len(w))]++
	}
}

// topRoles returns the k candidates (named by names) with the highest
// similarities cand, best first, and the number of candidates with a
// defined similarity.
func topRoles(names []string, cand []float64, k int) ([]RankedRole, int) {
	var all []RankedRole
	for i, s := range cand {
		if !math.IsNaN(s) {
			all = append(all, RankedRole{Role: names[i], Similarity: stats.Float(s)})
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].Similarity > all[j].Similarity })
	n := len(all)
	if len(all) > k {
		all = all[:k]
	}
	return all, n
}

func nanSlice(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = math.NaN()
	}
	return s
}

// addCommon fills ModelScore.Common of every agent row when there is a
// Real row: both rows restricted to the real roles they share and scored
// again (or copied, when the restriction leaves a row whole).
func (r *run) addCommon(ctx context.Context, rep *Report) error {
	if len(r.rows) == 0 || !r.rows[0].real {
		return nil
	}
	realRow, realScore := r.rows[0], rep.Models[0]
	inReal := map[string]bool{}
	for _, g := range realRow.roles {
		inReal[g.realRole] = true
	}
	for i, row := range r.rows[1:] {
		shared := map[string]bool{}
		for _, g := range row.roles {
			if inReal[g.realRole] {
				shared[g.realRole] = true
			}
		}
		c := &Common{Roles: []string{}}
		for rr := range shared {
			c.Roles = append(c.Roles, rr)
		}
		sort.Strings(c.Roles)
		agent, err := r.scoreSubset(ctx, row, rep.Models[i+1], shared)
		if err != nil {
			return err
		}
		real, err := r.scoreSubset(ctx, realRow, realScore, shared)
		if err != nil {
			return err
		}
		c.Simulation, c.SimulationCI = agent.Simulation, agent.SimulationCI
		c.Distinction, c.DistinctionCI = agent.Distinction, agent.DistinctionCI
		c.AvgRank, c.AvgRankCI = agent.AvgRank, agent.AvgRankCI
		c.RealSimulation, c.RealSimulationCI = real.Simulation, real.SimulationCI
		c.RealDistinction, c.RealDistinctionCI = real.Distinction, real.DistinctionCI
		c.RealAvgRank, c.RealAvgRankCI = real.AvgRank, real.AvgRankCI
		rep.Models[i+1].Common = c
	}
	return nil
}

// scoreSubset scores row restricted to its roles matched to the real roles
// in keep; whole is the row's own score, returned as it is when nothing
// is left out.
func (r *run) scoreSubset(ctx context.Context, row *scoreRow, whole ModelScore, keep map[string]bool) (ModelScore, error) {
	sub := *row
	sub.roles = nil
	for _, g := range row.roles {
		if g.realRole != "" && keep[g.realRole] {
			sub.roles = append(sub.roles, g)
		}
	}
	if len(sub.roles) == len(row.roles) {
		return whole, nil
	}
	return r.scoreRow(ctx, &sub)
}
