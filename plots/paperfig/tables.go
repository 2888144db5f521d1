package paperfig

import (
	"fmt"
	"strings"

	"github.com/roleprint/roleprint/data/genimport"
	"github.com/roleprint/roleprint/kernel"
	"github.com/roleprint/roleprint/sv/roleplay"
)

// pct formats a score ×100 ("–" when undefined).
func pct(v roleplay.Value) string {
	if !v.Defined() {
		return "–"
	}
	return fmt.Sprintf("%.2f", 100*float64(v))
}

// ci formats a confidence interval ×100 ("" when undefined).
func ci(iv roleplay.Interval, scale float64) string {
	if !iv[0].Defined() || !iv[1].Defined() {
		return ""
	}
	return fmt.Sprintf("[%.2f, %.2f]", scale*float64(iv[0]), scale*float64(iv[1]))
}

func normModel(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' || r == '_' || r == '.' {
			return -1
		}
		return r
	}, strings.ToLower(s))
}

// Table3 returns the role-play scores of r like the paper's Table 3
// (Simulation and Distinction ×100 with bootstrap confidence intervals,
// plus the average Simulation Rank), with the paper's numbers beside each
// model that the paper also scored.
func Table3(r *roleplay.Report) *kernel.Table {
	t := kernel.NewTable(fmt.Sprintf("Table 3 (RolePrint, encoder %s): role-play agents", r.Encoder),
		"model", "simulation ↑", "simulation CI", "distinction ↑", "distinction CI", "avg rank ↓", "roles", "sets",
		"paper simulation", "paper distinction")
	paper := map[string]roleplay.PaperScore{}
	for _, p := range roleplay.PaperTable3() {
		paper[normModel(p.Model)] = p
	}
	for _, m := range r.Models {
		ps, ds := "–", "–"
		if p, ok := paper[normModel(m.Model)]; ok {
			ps, ds = fmt.Sprintf("%.2f", p.Simulation), fmt.Sprintf("%.2f", p.Distinction)
		}
		rank := "–"
		if m.AvgRank.Defined() {
			rank = fmt.Sprintf("%.2f", float64(m.AvgRank))
		}
		t.Rows = append(t.Rows, []string{m.Model, pct(m.Simulation), ci(m.SimulationCI, 100), pct(m.Distinction),
			ci(m.DistinctionCI, 100), rank, fmt.Sprintf("%d/%d", m.RolesWithReal, m.Roles), fmt.Sprint(m.Sets), ps, ds})
	}
	t.Caption = "Scores ×100: Simulation = mean cosine between a model's sets for a role and the role's real sets (Eq. 2); " +
		"Distinction = mean 1 − cosine between its sets for different roles (Eq. 3); 95 % bootstrap intervals. " +
		"The paper's numbers use its Mixed Features encoder and its own data."
	return t
}

// Table6 returns the Simulation Rank rows of one role like the paper's
// Table 6: per model, the top candidates and the role's rank, read as the
// report's Config.RankAmong says (by default the real roles whose
// reference sets are most similar to the model's sets for the role).
func Table6(r *roleplay.Report, role string) (*kernel.Table, error) {
	names := genimport.DefaultNameMatcher()
	t := kernel.NewTable("Table 6 (RolePrint): Simulation Rank of "+role, "model")
	k := r.Config.TopK
	if k <= 0 {
		k = 5
	}
	for i := 1; i <= k; i++ {
		t.Columns = append(t.Columns, fmt.Sprintf("top %d", i))
	}
	t.Columns = append(t.Columns, "rank of "+role)
	for _, m := range r.Models {
		for _, pr := range m.PerRole {
			if names.Compare(pr.Role, role) == genimport.MatchNone && names.Compare(pr.RealRole, role) == genimport.MatchNone {
				continue
			}
			row := []string{m.Model}
			for i := 0; i < k; i++ {
				cell := ""
				if i < len(pr.Top) {
					cell = fmt.Sprintf("%s (%.2f)", pr.Top[i].Role, float64(pr.Top[i].Similarity))
				}
				row = append(row, cell)
			}
			rank := "–"
			if pr.Rank.Defined() {
				rank = fmt.Sprintf("%g/%d", float64(pr.Rank), pr.RankOf)
			}
			t.Rows = append(t.Rows, append(row, rank))
			break
		}
	}
	if len(t.Rows) == 0 {
		return nil, fmt.Errorf("paperfig: no model plays %q", role)
	}
	t.Caption = "Top candidates: " + r.Config.RankAmong.Describe() + " (cosine in parentheses); rank 1 is best."
	return t, nil
}

// Table7 returns the paper's Table 7, the average Simulation Rank per
// model, best first: per real role the report's rows (the Real row
// included) are ranked by their Simulation for it, and each row's places
// are averaged over the roles it scores (roleplay.RankModels), with the
// paper's value where it has one. The average role rank (each role's
// rank among the candidate roles, Table 6's ranks averaged; ModelScore.
// AvgRank) follows under its own name.
func Table7(r *roleplay.Report) *kernel.Table {
	t := kernel.NewTable("Table 7 (RolePrint): average Simulation Rank", "model", "average rank ↓", "roles ranked", "paper",
		"avg role rank ↓", "role rank 95% CI")
	paper := map[string]float64{}
	for m, v := range roleplay.PaperTable7() {
		paper[normModel(m)] = v
	}
	models := append([]roleplay.ModelScore(nil), r.Models...)
	sortByRank(models)
	for _, m := range models {
		p := "–"
		if v, ok := paper[normModel(m.Model)]; ok {
			p = fmt.Sprintf("%.2f", v)
		}
		t.Rows = append(t.Rows, []string{m.Model, num(m.ModelRank), fmt.Sprint(m.ModelRankRoles), p, num(m.AvgRank), ci(m.AvgRankCI, 1)})
	}
	return t
}

// num formats a value with two decimals ("–" when undefined).
func num(v roleplay.Value) string {
	if !v.Defined() {
		return "–"
	}
	return fmt.Sprintf("%.2f", float64(v))
}

// sortByRank orders models by their Table 7 average rank (ModelRank),
// undefined last, ties in report order.
func sortByRank(ms []roleplay.ModelScore) {
	less := func(a, b roleplay.ModelScore) bool {
		if a.ModelRank.Defined() != b.ModelRank.Defined() {
			return a.ModelRank.Defined()
		}
		return float64(a.ModelRank) < float64(b.ModelRank)
	}
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && less(ms[j], ms[j-1]); j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
}
