package roleplay

import (
	"math"
	"sort"

	"github.com/roleprint/roleprint/stats"
)

// RankModels fills every model's ModelRank and ModelRankRoles: the paper's
// Table 7, "average Simulation Rank". For each real role, the models that
// score it (the Real row included) are ordered by their Simulation for
// that role, highest first, and numbered 1, 2, …; ties share the mean of
// their places (two models tied for first both get 1.5). A model's
// ModelRank is the mean of its places over the real roles it scores, so
// the Real row, when it simulates every role best, gets 1.00 (the
// paper's 1.00 … 5.31 over six rows). A model's roles are matched by
// RoleScore.RealRole; two of its roles matched to one real role count
// once, with their mean Simulation. Roles without real lines, and
// undefined Simulations, take no part; a model with none has an
// undefined ModelRank.
//
// It differs from ModelScore.AvgRank, the mean over a model's roles of
// each role's rank among the candidate roles (Table 6's "Sheldon Cooper's
// Rank", 11/95), which depends on one model only.
func RankModels(models []ModelScore) {
	// sims[real role][model index] = the model's Simulation for it.
	sims := map[string]map[int]float64{}
	for mi := range models {
		sum, n := map[string]float64{}, map[string]int{}
		for _, rs := range models[mi].PerRole {
			if rs.RealRole == "" || !rs.Simulation.Defined() {
				continue
			}
			sum[rs.RealRole] += float64(rs.Simulation)
			n[rs.RealRole]++
		}
		for rr, s := range sum {
			if sims[rr] == nil {
				sims[rr] = map[int]float64{}
			}
			sims[rr][mi] = s / float64(n[rr])
		}
	}
	total := make([]float64, len(models))
	count := make([]int, len(models))
	roles := make([]string, 0, len(sims))
	for rr := range sims {
		roles = append(roles, rr)
	}
	sort.Strings(roles) // a fixed order: sums do not depend on map order
	for _, rr := range roles {
		for mi, s := range sims[rr] {
			place := 1.0
			for mj, o := range sims[rr] {
				switch {
				case mj == mi:
				case o > s:
					place++
				case o == s:
					place += 0.5
				}
			}
			total[mi] += place
			count[mi]++
		}
	}
	for mi := range models {
		models[mi].ModelRankRoles = count[mi]
		models[mi].ModelRank = stats.NaN()
		if count[mi] > 0 {
			models[mi].ModelRank = stats.Float(total[mi] / float64(count[mi]))
		}
	}
}

// modelRankOrder returns the indices of models by ModelRank, best first,
// undefined last, ties in input order.
func modelRankOrder(models []ModelScore) []int {
	idx := make([]int, len(models))
	for i := range idx {
		idx[i] = i
	}
	key := func(i int) float64 {
		if !models[i].ModelRank.Defined() {
			return math.Inf(1)
		}
		return float64(models[i].ModelRank)
	}
	sort.SliceStable(idx, func(a, b int) bool { return key(idx[a]) < key(idx[b]) })
	return idx
}
