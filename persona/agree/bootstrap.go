package agree

import (
	"fmt"
	"math/rand/v2"
	"sort"

	"github.com/roleprint/roleprint/stats"
)

// DefaultReplicates is the number of bootstrap replicates behind each
// interval unless told otherwise.
const DefaultReplicates = 1000

// Bootstrap configures the confidence intervals of CompareGroups.
type Bootstrap struct {
	// Replicates is the number of bootstrap replicates; 0 computes no
	// interval. Default DefaultReplicates (1000).
	Replicates int `json:"replicates"`
	// Confidence is the coverage of the percentile intervals; default 0.95.
	Confidence float64 `json:"confidence"`
	// Seed seeds the resampling: one seed, one set of intervals. Default 1.
	Seed int64 `json:"seed"`
}

// DefaultBootstrap returns 1000 replicates, 95 % intervals, seed 1.
func DefaultBootstrap() Bootstrap {
	return Bootstrap{Replicates: DefaultReplicates, Confidence: 0.95, Seed: 1}
}

// GroupReport is the agreement of judge with human scores, either over
// items or, with groups, over the groups' mean scores (one point per
// system, as SpeechRole's Table 3 correlates systems), with bootstrap
// intervals.
type GroupReport struct {
	Report
	// Groups is the number of groups the statistics were computed over
	// (0 without groups: over the N items).
	Groups int `json:"groups,omitempty"`
	// GroupNames are the groups, in the order of GroupHuman and GroupJudge,
	// their mean human and judge scores.
	GroupNames []string  `json:"group_names,omitempty"`
	GroupHuman []float64 `json:"group_human,omitempty"`
	GroupJudge []float64 `json:"group_judge,omitempty"`
	// Bootstrap is the resampling behind the intervals.
	Bootstrap Bootstrap `json:"bootstrap"`
	// SpearmanCI, KendallCI and PairwiseCI are percentile intervals of ρ,
	// τ-b and pairwise agreement.
	SpearmanCI stats.Interval `json:"spearman_ci"`
	KendallCI  stats.Interval `json:"kendall_tau_b_ci"`
	PairwiseCI stats.Interval `json:"pairwise_agreement_ci"`
}

// GroupMeans averages human and judge scores per group: it returns the
// group names in sorted order and each group's mean scores.
func GroupMeans(human, judge []float64, groups []string) (names []string, h, j []float64) {
	sum := map[string][3]float64{}
	for i, g := range groups {
		s := sum[g]
		s[0] += human[i]
		s[1] += judge[i]
		s[2]++
		sum[g] = s
	}
	for g := range sum {
		names = append(names, g)
	}
	sort.Strings(names)
	for _, g := range names {
		s := sum[g]
		h, j = append(h, s[0]/s[2]), append(j, s[1]/s[2])
	}
	return names, h, j
}

// CompareGroups computes Compare's statistics of judge against human
// scores, with percentile bootstrap intervals for ρ, τ-b and pairwise
// agreement. With groups nil the statistics are over items and the
// bootstrap resamples items with replacement. With groups (one name per
// item, e.g. the system that produced it) the statistics are over the
// groups' mean scores (GroupMeans; at least two groups), and the
// bootstrap resamples items within each group, so every replicate has
// every group. Replicates whose statistic is undefined (one side
// constant) are left out of that interval; an interval needs two defined
// replicates.
func CompareGroups(human, judge []float64, groups []string, b Bootstrap) (GroupReport, error) {
	if err := check(human, judge); err != nil {
		return GroupReport{}, err
	}
	if groups != nil && len(groups) != len(human) {
		return GroupReport{}, fmt.Errorf("agree: %d group names for %d items", len(groups), len(human))
	}
	if b.Confidence == 0 {
		b.Confidence = 0.95
	}
	if b.Replicates < 0 || b.Confidence <= 0 || b.Confidence >= 1 {
		return GroupReport{}, fmt.Errorf("agree: bootstrap of %d replicates at confidence %g: want ≥ 0 and 0 < c < 1", b.Replicates, b.Confidence)
	}
	out := GroupReport{Bootstrap: b, SpearmanCI: stats.NoInterval(), KendallCI: stats.NoInterval(), PairwiseCI: stats.NoInterval()}
	x, y := human, judge
	var members [][]int // per group, its items
	if groups != nil {
		out.GroupNames, out.GroupHuman, out.GroupJudge = GroupMeans(human, judge, groups)
		if len(out.GroupNames) < 2 {
			return out, fmt.Errorf("agree: %d group(s): need at least two to compare groups", len(out.GroupNames))
		}
		out.Groups = len(out.GroupNames)
		x, y = out.GroupHuman, out.GroupJudge
		idx := map[string]int{}
		for i, g := range out.GroupNames {
			idx[g] = i
		}
		members = make([][]int, len(out.GroupNames))
		for i, g := range groups {
			members[idx[g]] = append(members[idx[g]], i)
		}
	}
	rep, err := Compare(x, y)
	if err != nil {
		return out, err
	}
	rep.N = len(human)
	out.Report = rep
	if b.Replicates == 0 {
		return out, nil
	}
	rng := rand.New(rand.NewPCG(uint64(b.Seed), 0xa9ee))
	var rho, tau, pw []float64
	n := len(human)
	bx, by := make([]float64, 0, n), make([]float64, 0, n)
	for range b.Replicates {
		bx, by = bx[:0], by[:0]
		if members == nil {
			for range n {
				k := rng.IntN(n)
				bx, by = append(bx, human[k]), append(by, judge[k])
			}
		} else {
			for _, m := range members {
				var sh, sj float64
				for range m {
					k := m[rng.IntN(len(m))]
					sh, sj = sh+human[k], sj+judge[k]
				}
				bx, by = append(bx, sh/float64(len(m))), append(by, sj/float64(len(m)))
			}
		}
		rho = append(rho, stats.Spearman(bx, by))
		tau = append(tau, stats.KendallTauB(bx, by))
		pw = append(pw, stats.PairwiseAgreement(bx, by))
	}
	out.SpearmanCI = stats.PercentileInterval(rho, b.Confidence)
	out.KendallCI = stats.PercentileInterval(tau, b.Confidence)
	out.PairwiseCI = stats.PercentileInterval(pw, b.Confidence)
	return out, nil
}
