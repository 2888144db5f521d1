package paperfig

import (
	"fmt"
	"math"
	"sort"

	"github.com/roleprint/roleprint/plots"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv/roleplay"
)

// Drawable reports whether Distribution can draw d: at least two
// similarities on one side.
func Drawable(d roleplay.Distribution) bool { return len(d.Positive) >= 2 || len(d.Negative) >= 2 }

// Distribution draws one role-play similarity distribution (positive vs
// negative pairs: the paper's Figures 1 and 2) from the similarities kept
// in d, titled with the model and its separability (AUC ×100, like the
// tables, and the overlap of the two densities in percent). A side with
// fewer than two pairs is left out (under the paper's grouping a model has
// one set per role, so its generated–generated pairs are all of different
// roles), and the title then gives the pairs drawn.
func Distribution(d roleplay.Distribution) (*plots.Distributions, error) {
	var g plots.GroupSlice
	if len(d.Positive) >= 2 {
		g = append(g, plots.Group{Name: "same role", Values: d.Positive})
	}
	if len(d.Negative) >= 2 {
		g = append(g, plots.Group{Name: "different roles", Values: d.Negative})
	}
	f, err := plots.NewDistributions(g)
	if err != nil {
		return nil, fmt.Errorf("paperfig: %s %s distribution: %w", d.Model, d.Kind, err)
	}
	f.Title = fmt.Sprintf("%s: AUC %.1f, overlap %.0f %%", d.Model, Percent*float64(d.AUC), Percent*float64(d.Overlap))
	if len(g) == 1 {
		f.Title = fmt.Sprintf("%s: %s only (%d pairs)", d.Model, g[0].Name, len(g[0].Values))
	}
	f.ShowCounts = false
	// Each side keeps its colour in every panel, also where the other is
	// missing.
	f.Style.Series = map[string]int{"same role": 0, "different roles": 1}
	return f, nil
}

// Distributions draws the distributions of one kind (roleplay.RealGenerated
// for Figure 1, roleplay.GeneratedGenerated for Figure 2) of every model
// of r that has both sides, as panels of a grid with cols columns: one
// legend for the figure and one x and y range for every panel, so that the
// models can be compared at a glance.
func Distributions(r *roleplay.Report, kind string, cols int) (*plots.Grid, error) {
	var panels []plots.Figure
	var skipped []string
	for _, d := range r.Distributions {
		if d.Kind != kind {
			continue
		}
		if !Drawable(d) {
			skipped = append(skipped, d.Model)
			continue
		}
		f, err := Distribution(d)
		if err != nil {
			return nil, err
		}
		if r.Similarity != "" {
			f.XLabel = r.Similarity
		}
		panels = append(panels, f)
	}
	if len(panels) == 0 {
		return nil, fmt.Errorf("paperfig: no %s distributions with pairs in the report (models without: %v)", kind, skipped)
	}
	g, err := plots.NewGrid(cols, panels...)
	if err != nil {
		return nil, err
	}
	g.SharedLegend, g.ShareX, g.ShareY = true, true, true
	return g, nil
}

// ScoreBars draws Table 3: one group per model (the Real row first), bars
// for Simulation and Distinction ×100 (as the table prints them) with their
// bootstrap confidence intervals as error bars.
func ScoreBars(r *roleplay.Report) (*plots.Bars, error) {
	bt := plots.BarTable{Series: []string{"Simulation", "Distinction"}, Y: make([][]float64, 2)}
	lo := [][]float64{nil, nil}
	hi := [][]float64{nil, nil}
	for _, m := range r.Models {
		bt.Groups = append(bt.Groups, m.Model)
		for s, v := range []struct {
			x  stats.Float
			ci stats.Interval
		}{{m.Simulation, m.SimulationCI}, {m.Distinction, m.DistinctionCI}} {
			y := Percent * float64(v.x)
			bt.Y[s] = append(bt.Y[s], y)
			l, h := 0.0, 0.0
			if v.ci[0].Defined() && v.ci[1].Defined() && !math.IsNaN(y) {
				l, h = math.Max(0, y-Percent*float64(v.ci[0])), math.Max(0, Percent*float64(v.ci[1])-y)
			}
			lo[s] = append(lo[s], l)
			hi[s] = append(hi[s], h)
		}
	}
	if len(bt.Groups) == 0 {
		return nil, fmt.Errorf("paperfig: the report has no models")
	}
	b, err := plots.NewBars(asymmetric{bt, lo, hi})
	if err != nil {
		return nil, err
	}
	b.Title = "Table 3: role-play scores (encoder " + r.Encoder + ")"
	b.YLabel = "Score ×100"
	b.RotateLabels = len(bt.Groups) > 3
	return b, nil
}

// asymmetric is a BarTable with separate lower and upper error extents.
type asymmetric struct {
	plots.BarTable
	lo, hi [][]float64
}

func (a asymmetric) Bar(g, s int) (float64, float64, float64) {
	return a.Y[s][g], a.lo[s][g], a.hi[s][g]
}

// RankHeatmap draws the Simulation Rank of every role (columns) for every
// model (rows) of r, read as r.Config.RankAmong says: 1 (bright) means the
// role's own real role is the best-matching candidate. Roles are those with real lines,
// ordered by their mean rank; at most maxRoles are drawn (0: all).
func RankHeatmap(r *roleplay.Report, maxRoles int) (*plots.Heatmap, error) {
	type acc struct {
		sum float64
		n   int
	}
	roles := map[string]*acc{}
	for _, m := range r.Models {
		for _, pr := range m.PerRole {
			if pr.RealRole == "" || !pr.Rank.Defined() {
				continue
			}
			a := roles[pr.Role]
			if a == nil {
				a = &acc{}
				roles[pr.Role] = a
			}
			a.sum += float64(pr.Rank)
			a.n++
		}
	}
	var names []string
	for n := range roles {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		ai, aj := roles[names[i]].sum/float64(roles[names[i]].n), roles[names[j]].sum/float64(roles[names[j]].n)
		if ai != aj {
			return ai < aj
		}
		return names[i] < names[j]
	})
	if maxRoles > 0 && len(names) > maxRoles {
		names = names[:maxRoles]
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("paperfig: no role has a Simulation Rank in the report")
	}
	m := plots.Matrix{Cols: names}
	for _, model := range r.Models {
		row := make([]float64, len(names))
		for i := range row {
			row[i] = math.NaN()
		}
		for _, pr := range model.PerRole {
			for i, n := range names {
				if pr.Role == n && pr.Rank.Defined() {
					row[i] = float64(pr.Rank)
				}
			}
		}
		m.Rows = append(m.Rows, model.Model)
		m.Values = append(m.Values, row)
	}
	h, err := plots.NewHeatmap(m)
	if err != nil {
		return nil, err
	}
	h.Reverse = true
	h.Format = "%.1f"
	h.ColorBarLabel = "Simulation Rank"
	h.Min = 1
	return h, nil
}
