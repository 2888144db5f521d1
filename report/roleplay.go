package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/roleprint/roleprint/data/genimport"
	"github.com/roleprint/roleprint/plots"
	"github.com/roleprint/roleprint/plots/paperfig"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv/roleplay"
)

func value(v stats.Float) float64 {
	if !v.Defined() {
		return math.NaN()
	}
	return float64(v)
}

// ciCell is a "value [low, high]" cell, "–" when undefined.
func ciCell(v stats.Float, iv stats.Interval) Cell {
	if !v.Defined() {
		return NaNCell()
	}
	if !iv[0].Defined() || !iv[1].Defined() {
		return Num(float64(v))
	}
	return NumCI(float64(v), float64(iv[0]), float64(iv[1]))
}

// referenceRule is the sentence of the role-play tables' captions that
// says how the Real row is treated: Tables 3 and 7 set it apart the same
// way (see setApart).
const referenceRule = "Bold: the best agent in each column (ties all bold). The Real row, the real conversations scored as a model, " +
	"is the reference: it comes first under its own heading and is not counted for bold."

// setApart puts the Real row (the report's RealModel) first, under a
// "Reference" heading and marked Reference (never bold), and the agents
// after it under "Agents": the rule of referenceRule, shared by Tables 3
// and 7. rows and models are parallel; without a Real row the rows are
// returned as they are.
func setApart(rows []Row, models []string, real string) []Row {
	ref := -1
	for i, m := range models {
		if m == real {
			ref = i
			break
		}
	}
	if ref < 0 {
		return rows
	}
	out := []Row{rows[ref]}
	out[0].Reference, out[0].Group = true, "Reference"
	for i, row := range rows {
		if i == ref {
			continue
		}
		if len(out) == 1 {
			row.Group = "Agents"
		}
		out = append(out, row)
	}
	return out
}

// Table3 returns the role-play scores of r like the paper's Table 3:
// Simulation and Distinction ×100 with their bootstrap intervals, the
// best agent of each in bold (the Real row is set apart as the reference
// and not counted, as in Table7), and with paper true the paper's numbers
// of the models it also scored as italic rows.
func Table3(r *roleplay.Report, paper bool) *Table {
	t := &Table{Name: "table3", Scale: 100,
		Title:   fmt.Sprintf("Table 3 (RolePrint, encoder %s): role-play agents.", r.Encoder),
		Columns: []string{"Model", "Simulation ↑", "Distinction ↑", "Roles", "Sets"},
		Best:    []Best{BestNone, BestMax, BestMax},
		Caption: "Scores ×100: Simulation = mean cosine between a model's sets for a role and the role's real sets (Eq. 2); " +
			"Distinction = mean 1 − cosine between its sets for different roles (Eq. 3); 95 % bootstrap intervals in brackets. " + referenceRule}
	var paperRows []Row
	var models []string
	for _, m := range r.Models {
		row := Row{Cells: []Cell{Text(m.Model), ciCell(m.Simulation, m.SimulationCI), ciCell(m.Distinction, m.DistinctionCI),
			Text(fmt.Sprintf("%d/%d", m.RolesWithReal, m.Roles)), Text(fmt.Sprint(m.Sets))}}
		t.Rows = append(t.Rows, row)
		models = append(models, m.Model)
		if p, _, ok, _ := roleplay.PaperScoresOf(m.Model); ok && paper {
			paperRows = append(paperRows, Row{Paper: true, Cells: []Cell{Text("paper: " + p.Model), Num(p.Simulation / 100), Num(p.Distinction / 100)}})
		}
	}
	t.Rows = setApart(t.Rows, models, r.Config.RealModel)
	if len(paperRows) > 0 {
		t.Rows = append(t.Rows, paperRows...)
		t.Caption += " Italics: the paper's numbers (its Mixed Features encoder and its own data)."
	}
	return t
}

// Table6 returns the Simulation Rank rows of one role like the paper's
// Table 6: per model, the top candidates (similarity in parentheses) and
// the role's rank, best rank in bold.
func Table6(r *roleplay.Report, role string) (*Table, error) {
	names := genimport.DefaultNameMatcher()
	k := r.Config.TopK
	if k <= 0 {
		k = 5
	}
	t := &Table{Name: "table6-" + fileStem(role), Title: "Table 6 (RolePrint): Simulation Rank of " + role + ".",
		Columns: []string{"Model"}}
	for i := 1; i <= k; i++ {
		t.Columns = append(t.Columns, fmt.Sprintf("Top %d", i))
	}
	t.Columns = append(t.Columns, "Rank ↓", "Of")
	t.Best = make([]Best, len(t.Columns))
	t.Best[k+1] = BestMin
	t.Digits = Shortest
	for _, m := range r.Models {
		for _, pr := range m.PerRole {
			if names.Compare(pr.Role, role) == genimport.MatchNone && names.Compare(pr.RealRole, role) == genimport.MatchNone {
				continue
			}
			row := Row{Cells: []Cell{Text(m.Model)}}
			for i := 0; i < k; i++ {
				s := ""
				if i < len(pr.Top) {
					s = fmt.Sprintf("%s (%.2f)", pr.Top[i].Role, float64(pr.Top[i].Similarity))
				}
				row.Cells = append(row.Cells, Text(s))
			}
			row.Cells = append(row.Cells, Num(value(pr.Rank)), Text(fmt.Sprint(pr.RankOf)))
			t.Rows = append(t.Rows, row)
			break
		}
	}
	if len(t.Rows) == 0 {
		return nil, fmt.Errorf("report: no model plays %q", role)
	}
	t.Wide = k > 3
	t.Caption = "Top candidates: " + r.Config.RankAmong.Describe() + " (cosine in parentheses); rank 1 is best."
	return t, nil
}

// fileStem turns a name into a file stem ("Sheldon Cooper" → "sheldon-cooper").
func fileStem(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	out := strings.TrimSuffix(b.String(), "-")
	if out == "" {
		out = "role"
	}
	return out
}

// groupingName says how a grouping forms sets, for captions.
func groupingName(g roleplay.Grouping) string {
	switch g {
	case roleplay.GroupPaper:
		return "Eq. 2/3: one set per model role, one reference set per real conversation"
	case roleplay.GroupChunks:
		return "chunked sets"
	}
	return string(g) + " grouping"
}

// Table7 returns the paper's Table 7, the average Simulation Rank per
// model, best first, the best agent in bold and the Real row set apart as
// in Table3: per real role the report's rows (the
// Real row included) are ranked by their Simulation for it, and each
// row's places are averaged over the roles it scores
// (roleplay.RankModels; ModelScore.ModelRank), with the paper's value
// where it has one. The average role rank (each role's rank among the
// candidate roles, Table 6's ranks averaged; ModelScore.AvgRank) follows
// under its own name.
func Table7(r *roleplay.Report, paper bool) *Table {
	t := &Table{Name: "table7", Title: "Table 7 (RolePrint): average Simulation Rank.",
		Columns: []string{"Model", "Average rank ↓", "Roles ranked", "Paper", "Avg role rank ↓"},
		Best:    []Best{BestNone, BestMin, BestNone, BestNone, BestMin},
		Caption: "Average rank: the model's place among the rows per role by Simulation, averaged over roles (1 is best). " +
			"Avg role rank: the role's rank among the candidate roles (Table 6), averaged; 95 % bootstrap intervals in brackets. " + referenceRule}
	models := append([]roleplay.ModelScore(nil), r.Models...)
	for i := 1; i < len(models); i++ {
		for j := i; j > 0 && rankLess(models[j], models[j-1]); j-- {
			models[j], models[j-1] = models[j-1], models[j]
		}
	}
	var names []string
	for _, m := range models {
		names = append(names, m.Model)
		p := NaNCell()
		if _, v, _, ok := roleplay.PaperScoresOf(m.Model); ok && paper {
			p = Num(v)
		}
		rank := NaNCell()
		if m.ModelRank.Defined() {
			rank = Num(float64(m.ModelRank))
		}
		t.Rows = append(t.Rows, Row{Cells: []Cell{Text(m.Model), rank, Text(fmt.Sprint(m.ModelRankRoles)), p, ciCell(m.AvgRank, m.AvgRankCI)}})
	}
	t.Rows = setApart(t.Rows, names, r.Config.RealModel)
	return t
}

// rankLess orders models by their Table 7 average rank (ModelRank),
// undefined last.
func rankLess(a, b roleplay.ModelScore) bool {
	if a.ModelRank.Defined() != b.ModelRank.Defined() {
		return a.ModelRank.Defined()
	}
	return float64(a.ModelRank) < float64(b.ModelRank)
}

// WriteRoleplay writes the figures and tables of a score run with w:
// Figures 1 and 2 (real–generated and generated–generated similarity
// distributions, a panel per model, one legend and one pair of axes for
// all panels), the Table 3 bars with their intervals, the Simulation Rank
// heatmap, and table3/table7 (and table6 for each of rankRoles) as
// .tex/.md. The distributions need their values (Report.Distributions
// before they are dropped for --json); their captions say which sets
// they compare: the sets the report scored (Table 3's), unless
// w.FigureOptions.DistributionSets names others.
func WriteRoleplay(w *Writer, r *roleplay.Report, paper bool, rankRoles []string) error {
	sets := w.FigureOptions.DistributionSets
	if sets == "" {
		sets = "the sets Table 3 scores (" + groupingName(r.Config.Grouping) + ")"
	}
	for _, f := range []struct{ name, kind, caption string }{
		{"figure1", roleplay.RealGenerated, "Figure 1: real–generated similarity per model, same role vs different roles, of " + sets + "."},
		{"figure2", roleplay.GeneratedGenerated, "Figure 2: generated–generated similarity per model, same role vs different roles, of " + sets + "." +
			map[bool]string{true: " With one set per model role, a model's panel holds only pairs of different roles (what Distinction averages); --figure-sets chunks adds same-role pairs of chunked sets.", false: ""}[w.FigureOptions.DistributionSets == "" && r.Config.Grouping == roleplay.GroupPaper]},
	} {
		f := f
		n := 0
		for _, d := range r.Distributions {
			if d.Kind == f.kind && paperfig.Drawable(d) {
				n++
			}
		}
		cols := min(max(n, 1), 3)
		rows := (n + cols - 1) / cols
		width, aspect := TwoColumn, 0.36*float64(max(rows, 1))
		if cols == 1 {
			width, aspect = OneColumn, 0.75
		}
		w.TryFigure(f.name, f.caption, func() (plots.Figure, error) { return paperfig.Distributions(r, f.kind, cols) }, width, math.Min(aspect, 1.3))
	}
	w.TryFigure("table3-bars", "Table 3: Simulation and Distinction ×100 per model with 95 % bootstrap intervals (the Real row is the reference).",
		func() (plots.Figure, error) { return paperfig.ScoreBars(r) }, OneColumn, 0.75)
	w.TryFigure("simulation-rank", "Simulation Rank per model (rows) and role (columns); 1 is best.",
		func() (plots.Figure, error) { return paperfig.RankHeatmap(r, 30) }, TwoColumn, 0.45)
	if err := w.Table(Table3(r, paper)); err != nil {
		return err
	}
	if err := w.Table(Table7(r, paper)); err != nil {
		return err
	}
	for _, role := range rankRoles {
		t, err := Table6(r, role)
		if err != nil {
			return err
		}
		if err := w.Table(t); err != nil {
			return err
		}
	}
	return nil
}
