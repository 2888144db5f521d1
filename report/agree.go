package report

import (
	"fmt"
	"math"

	"github.com/roleprint/roleprint/persona/agree"
	"github.com/roleprint/roleprint/plots"
	"gonum.org/v1/plot/plotter"
)

// Ratings are one dimension's human and judge scores of the same items.
type Ratings struct {
	// Name labels the panel ("speechrole: IA").
	Name string
	// Human and Judge are the two raters' scores, item by item.
	Human, Judge []float64
}

// AgreementFigure draws judge against human scores as scatter panels, one
// per dimension (cols columns), each titled with its Spearman ρ and
// Kendall τ-b (persona/agree). Tied scores are common (1–5 ratings): each
// point is nudged by a deterministic jitter (±4 % of the range) so that stacked points
// show.
func AgreementFigure(rs []Ratings, cols int) (*plots.Grid, error) {
	if len(rs) == 0 {
		return nil, fmt.Errorf("report: no ratings to draw")
	}
	var panels []plots.Figure
	for _, r := range rs {
		rep, err := agree.Compare(r.Human, r.Judge)
		if err != nil {
			return nil, fmt.Errorf("report: %s: %w", r.Name, err)
		}
		xy := make(plotter.XYs, len(r.Human))
		span := func(v []float64) float64 {
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, x := range v {
				lo, hi = math.Min(lo, x), math.Max(hi, x)
			}
			if hi > lo {
				return hi - lo
			}
			return 1
		}
		jx, jy := 0.08*span(r.Human), 0.08*span(r.Judge)
		for i := range xy {
			// A golden-ratio sequence: spread evenly, the same every run.
			u := math.Mod(float64(i)*0.6180339887, 1) - 0.5
			v := math.Mod(float64(i)*0.7548776662, 1) - 0.5
			xy[i] = plotter.XY{X: r.Human[i] + jx*u, Y: r.Judge[i] + jy*v}
		}
		l, err := plots.NewLines(plots.LineSeries{XY: xy})
		if err != nil {
			return nil, fmt.Errorf("report: %s: %w", r.Name, err)
		}
		l.Connect = false
		l.Style = plots.PaperStyle()
		l.Style.GlyphRadius = 1.3 // small marks: many items stack on a 1–5 grid
		l.Legend = plots.LegendHidden
		l.Title = fmt.Sprintf("%s: ρ %.2f, τ %.2f", r.Name, rep.Spearman, rep.Kendall)
		l.XLabel, l.YLabel = "Human", "Judge"
		panels = append(panels, l)
	}
	if cols <= 0 {
		cols = min(len(panels), 4)
	}
	return plots.NewGrid(cols, panels...)
}

// AgreementRow is one dimension's agreement, for AgreementTable.
type AgreementRow struct {
	File, Dimension string
	agree.Report
}

// AgreementTable returns judge–human agreement like SpeechRole's Table 3:
// per file and dimension the items, Spearman's ρ, Kendall's τ-b, pairwise
// agreement and Pearson's r, the best of each in bold.
func AgreementTable(rows []AgreementRow) *Table {
	t := &Table{Name: "agreement", Title: "Judge–human agreement.",
		Columns: []string{"File", "Dimension", "N", "Spearman ρ", "Kendall τ", "Agreement", "Pearson r"},
		Best:    []Best{BestNone, BestNone, BestNone, BestMax, BestMax, BestMax, BestMax}}
	for _, r := range rows {
		t.Rows = append(t.Rows, Row{Cells: []Cell{Text(r.File), Text(r.Dimension), Text(fmt.Sprint(r.N)),
			Num(r.Spearman), Num(r.Kendall), Num(r.Pairwise), Num(r.Pearson)}})
	}
	return t
}

// TextMetricsRow is one system's mean text metrics (fractions), for
// TextMetricsTable.
type TextMetricsRow struct {
	System                      string
	N                           int
	RougeL, Meteor, BERTScoreF1 float64
}

// paperVoxRoleTable2 is VoxRole's Table 2 (×100): Rouge-L, Meteor, BertScore F1.
var paperVoxRoleTable2 = []struct {
	model string
	v     [3]float64
}{
	{"Qwen2.5-Omni", [3]float64{10.96, 14.60, 83.42}}, {"GLM-4-Voice", [3]float64{9.05, 13.55, 82.81}},
	{"Baichuan-Audio", [3]float64{9.25, 7.75, 83.63}}, {"MiniCPM", [3]float64{10.16, 8.64, 81.27}},
	{"Step-Audio", [3]float64{12.33, 11.44, 84.16}}, {"GPT-4o", [3]float64{12.91, 18.30, 83.69}},
	{"Gemini-2.5-flash", [3]float64{12.07, 14.23, 83.65}},
}

// TextMetricsTable returns reference-based text metrics like VoxRole's
// Table 2 (×100, best in bold), with the paper's rows in italics when
// paper is true.
func TextMetricsTable(rows []TextMetricsRow, paper bool) *Table {
	t := &Table{Name: "text-metrics", Title: "Reference-based text metrics (VoxRole Table 2 style).", Scale: 100,
		Columns: []string{"System", "N", "Rouge-L", "Meteor", "BertScore F1"},
		Best:    []Best{BestNone, BestNone, BestMax, BestMax, BestMax}}
	for _, r := range rows {
		t.Rows = append(t.Rows, Row{Cells: []Cell{Text(r.System), Text(fmt.Sprint(r.N)), Num(r.RougeL), Num(r.Meteor), Num(r.BERTScoreF1)}})
	}
	if paper {
		for _, p := range paperVoxRoleTable2 {
			t.Rows = append(t.Rows, Row{Paper: true, Cells: []Cell{Text("paper: " + p.model), Text(""), Num(p.v[0] / 100), Num(p.v[1] / 100), Num(p.v[2] / 100)}})
		}
		t.Caption = "Italics: VoxRole's published numbers (speech-to-speech systems on its own data; BertScore with its own encoder)."
	}
	return t
}
