package roleplay

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/roleprint/roleprint/data/genimport"
	"github.com/roleprint/roleprint/stats"
)

// pct renders a score ×100 with two decimals, "–" when undefined.
func pct(v stats.Float) string {
	if !v.Defined() {
		return "–"
	}
	return fmt.Sprintf("%.2f", 100*float64(v))
}

func pctCI(ci stats.Interval) string {
	if !ci[0].Defined() || !ci[1].Defined() {
		return ""
	}
	return fmt.Sprintf("[%.2f, %.2f]", 100*float64(ci[0]), 100*float64(ci[1]))
}

func num(v stats.Float) string {
	if !v.Defined() {
		return "–"
	}
	return fmt.Sprintf("%.2f", float64(v))
}

func numCI(ci stats.Interval) string {
	if !ci[0].Defined() || !ci[1].Defined() {
		return ""
	}
	return fmt.Sprintf("[%.2f, %.2f]", float64(ci[0]), float64(ci[1]))
}

// WriteModels prints the models table (the paper's Tables 3 and 7 in
// one): Simulation and Distinction ×100 with their intervals, the
// average Simulation Rank of Table 7 (models ranked per role,
// ModelScore.ModelRank), the average role rank (ModelScore.AvgRank) with
// its interval, and, with paper set, the published numbers of models of
// the same name. Rows are in report order (Real first).
func WriteModels(w io.Writer, r *Report, paper bool) error {
	c := r.Config
	switch c.Grouping {
	case GroupPaper:
		fmt.Fprintf(w, "encoder %s · paper sets (one per model role, one per real conversation)", r.Encoder)
	case GroupConversation:
		fmt.Fprintf(w, "encoder %s · %s sets", r.Encoder, c.Grouping)
	default:
		fmt.Fprintf(w, "encoder %s · %s sets of %d utterances", r.Encoder, c.Grouping, c.SetSize)
	}
	if c.HeldOut > 0 {
		fmt.Fprintf(w, " · %.0f%% of real conversations held out as %q", 100*c.HeldOut, c.RealModel)
	}
	if c.Bootstrap > 0 {
		fmt.Fprintf(w, " · %.0f%% CI from %d bootstrap replicates (seed %d)", 100*c.Confidence, c.Bootstrap, c.Seed)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := "Model\tSimulation ↑\t\tDistinction ↑\t\tModel rank ↓\tRole rank ↓\t\tRoles (real/all)\tSets"
	if paper {
		head += "\tPaper Sim\tPaper Dist\tPaper rank"
	}
	fmt.Fprintln(tw, head)
	for _, m := range r.Models {
		line := fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d/%d\t%d", m.Model, pct(m.Simulation), pctCI(m.SimulationCI),
			pct(m.Distinction), pctCI(m.DistinctionCI), num(m.ModelRank), num(m.AvgRank), numCI(m.AvgRankCI), m.RolesWithReal, m.Roles, m.Sets)
		if paper {
			t3, rank, ok3, ok7 := PaperScoresOf(m.Model)
			p3, p3d, p7 := "", "", ""
			if ok3 {
				p3, p3d = fmt.Sprintf("%.2f", t3.Simulation), fmt.Sprintf("%.2f", t3.Distinction)
			}
			if ok7 {
				p7 = fmt.Sprintf("%.2f", rank)
			}
			line += "\t" + p3 + "\t" + p3d + "\t" + p7
		}
		fmt.Fprintln(tw, line)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "Model rank: per real role the rows are ranked by Simulation, places averaged over roles (Table 7). Role rank: each role's rank among the candidate roles, averaged (Table 6's ranks).")
	return err
}

// WritePerRole prints every model's role rows.
func WritePerRole(w io.Writer, r *Report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "Model\tRole\tReal role\tSets\tReal sets\tSimulation ↑\t\tDistinction ↑\t\tRank ↓")
	for _, m := range r.Models {
		for _, rs := range m.PerRole {
			real := rs.RealRole
			if real == "" {
				real = "(distinction only)"
			}
			rank := "–"
			if rs.Rank.Defined() {
				rank = fmt.Sprintf("%s/%d %s", num(rs.Rank), rs.RankOf, numCI(rs.RankCI))
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\n", m.Model, rs.Role, real, rs.Sets, rs.RealSets,
				pct(rs.Simulation), pctCI(rs.SimulationCI), pct(rs.Distinction), pctCI(rs.DistinctionCI), rank)
		}
	}
	return tw.Flush()
}

// WriteRanks prints the paper's Table 6 for one role: for each model, the
// Config.TopK most similar candidates (real roles, or the model's roles,
// by Config.RankAmong) and the role's own rank with its interval. role is
// matched with every model's role names (and the real role) by name.
func WriteRanks(w io.Writer, r *Report, role string, names *genimport.NameMatcher) error {
	if names == nil {
		names = genimport.DefaultNameMatcher()
	}
	k := r.Config.TopK
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := "Model"
	for i := 1; i <= k; i++ {
		head += fmt.Sprintf("\tTop %d", i)
	}
	fmt.Fprintln(tw, head+"\tRank")
	found := false
	for _, m := range r.Models {
		for _, rs := range m.PerRole {
			if rs.RealRole == "" || (names.Compare(rs.Role, role) == genimport.MatchNone && names.Compare(rs.RealRole, role) == genimport.MatchNone) {
				continue
			}
			found = true
			cells := []string{m.Model}
			for i := 0; i < k; i++ {
				if i < len(rs.Top) {
					cells = append(cells, fmt.Sprintf("%s (%s)", rs.Top[i].Role, pct(rs.Top[i].Similarity)))
				} else {
					cells = append(cells, "")
				}
			}
			cells = append(cells, strings.TrimSpace(fmt.Sprintf("%s/%d %s", strings.TrimSuffix(num(rs.Rank), ".00"), rs.RankOf, numCI(rs.RankCI))))
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
	}
	if !found {
		return fmt.Errorf("no scored role with real lines matches %q", role)
	}
	return tw.Flush()
}

// WriteMatches prints how generated roles were matched with real speakers.
func WriteMatches(w io.Writer, r *Report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "Generated role\tModels\tReal role\tReal speakers\tMethod\tReal lines")
	for _, m := range r.RoleMatches {
		real, method := m.RealRole, string(m.Method)
		if m.DistinctionOnly {
			real = "— (distinction only)"
			if len(m.Candidates) > 0 {
				real += " ambiguous: " + strings.Join(m.Candidates, ", ")
			}
		}
		if method == "" {
			method = "none"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\n", m.Role, strings.Join(m.Models, ","), real, strings.Join(m.RealSpeakers, "; "), method, m.RealUtterances)
	}
	return tw.Flush()
}

// WriteDistributions prints the separability of each row's similarity
// distributions: AUC with its role-resampling bootstrap interval, and
// the histograms' overlap.
func WriteDistributions(w io.Writer, r *Report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "Model\tPairs\tPositive\tNegative\tMean pos\tMean neg\tAUC\tAUC CI\tOverlap")
	for _, d := range r.Distributions {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\n", d.Model, d.Kind, d.NPositive, d.NNegative,
			pct(d.MeanPositive), pct(d.MeanNegative), num(d.AUC), numCI(d.AUCCI), num(d.Overlap))
	}
	return tw.Flush()
}

// WriteComparisons prints Report.Comparisons: per distribution both
// encoders' separations, their difference and its paired interval (×100),
// and the share of replicates in which the first is not above.
func WriteComparisons(w io.Writer, r *Report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "Model\tPairs\tA\tB\tAUC A\tAUC B\tA − B\tpaired CI\tshare A ≤ B")
	for _, c := range r.Comparisons {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", c.Model, c.Kind, c.A, c.B,
			pct(c.AUC), pct(c.OtherAUC), pct(c.AUCDiff), pctCI(c.AUCDiffCI), num(c.ShareNotAbove))
	}
	return tw.Flush()
}

// NeedsCommon reports whether some agent row's Common differs from the
// rows' own scores, i.e. the agent or the Real row has roles the other
// lacks, so that WriteCommon says something the models table does not.
func NeedsCommon(r *Report) bool {
	if len(r.Models) == 0 {
		return false
	}
	real := r.Models[0]
	for _, m := range r.Models[1:] {
		if m.Common != nil && (len(m.Common.Roles) != m.Roles || len(m.Common.Roles) != real.Roles) {
			return true
		}
	}
	return false
}

// WriteCommon prints, for every agent row, its scores and the Real row's
// on the real roles both score (ModelScore.Common): the comparable
// numbers when the rows' role sets differ.
func WriteCommon(w io.Writer, r *Report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	real := r.Config.RealModel
	fmt.Fprintf(tw, "Model\tShared roles\tSimulation ↑\t\t%s\t\tDistinction ↑\t\t%s\t\tAvg rank ↓\t%s\n", real, real, real)
	for _, m := range r.Models {
		c := m.Common
		if c == nil {
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", m.Model, len(c.Roles),
			pct(c.Simulation), pctCI(c.SimulationCI), pct(c.RealSimulation), pctCI(c.RealSimulationCI),
			pct(c.Distinction), pctCI(c.DistinctionCI), pct(c.RealDistinction), pctCI(c.RealDistinctionCI),
			num(c.AvgRank), num(c.RealAvgRank))
	}
	return tw.Flush()
}
