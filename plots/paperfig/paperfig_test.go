package paperfig

import (
	"bytes"
	"image/png"
	"math"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/persona/distill"
	"github.com/roleprint/roleprint/plots"
	"github.com/roleprint/roleprint/speech"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv/roleplay"
	"github.com/roleprint/roleprint/sv/table2"
)

// renders checks that f renders to a PNG of the expected size.
func renders(t *testing.T, name string, f plots.Figure) {
	t.Helper()
	sz := plots.Size{Width: plots.ColumnWidth, Height: plots.ColumnWidth * 0.75, DPI: 100}
	b, err := plots.Bytes(f, plots.PNG, sz)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if w, h := sz.Pixels(); cfg.Width != w || cfg.Height != h {
		t.Errorf("%s: %dx%d", name, cfg.Width, cfg.Height)
	}
}

func table2Rows() []table2.Row {
	var rows []table2.Row
	for ei, enc := range []string{"liwc", "tfidf"} {
		for _, l := range pairs.Levels {
			for xi, e := range pairs.Exposures {
				paper := stats.Float(math.NaN())
				if enc == "liwc" {
					paper = 0.55
				}
				rows = append(rows, table2.Row{Encoder: enc, Exposure: string(e), Level: string(l),
					AUCMean: stats.Float(0.6 + 0.1*float64(ei) - 0.01*float64(xi)), AUCStd: 0.01, ACCMean: 0.6, F1Mean: 0.6,
					EERMean: 0.4, PaperAUC: paper, PaperACC: stats.Float(math.NaN()), PaperF1: stats.Float(math.NaN())})
			}
		}
	}
	return rows
}

func TestTable2Figures(t *testing.T) {
	rows := table2Rows()
	b, err := Table2Bars(rows, pairs.Base, AUC, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b.Reference == nil || b.YLabel != "AUC ×100" || b.Title != "Base level" {
		t.Errorf("bars: reference %v, labels %q %q", b.Reference, b.YLabel, b.Title)
	}
	// Units as in the tables (×100), a chance line at 50, and one y range
	// for every level.
	lay, err := plots.Inspect(b, plots.ColumnSize())
	if err != nil {
		t.Fatal(err)
	}
	if p := lay.Panels[0]; !p.Chance || p.YMin != 0 || p.YMax != 100 {
		t.Errorf("bars: chance %v, y [%g, %g], want a chance line on 0–100", p.Chance, p.YMin, p.YMax)
	}
	if y, _, _ := b.Reference.Bar(0, 0); math.Abs(y-55) > 1e-9 {
		t.Errorf("paper mark %g, want 55 (×100)", y)
	}
	renders(t, "table2 bars", b)
	if _, err := Table2Bars(rows, pairs.Base, AUC, []string{"nope"}); err == nil {
		t.Error("unknown encoder accepted")
	}
	if _, err := Table2Bars(rows, pairs.Base, "bleu", nil); err == nil {
		t.Error("unknown metric accepted")
	}
	l, err := LevelLines(rows, pairs.UnseenUnseen, F1, []string{"tfidf"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(l.XTicks, ",") != "Base,Hard,Harder" || l.Title != "Unseen-Unseen" {
		t.Errorf("lines: %v %q", l.XTicks, l.Title)
	}
	renders(t, "level lines", l)
}

func TestPairBars(t *testing.T) {
	var st pairs.PairStatistics
	for _, e := range pairs.Exposures {
		for _, l := range pairs.Levels {
			st.Splits = append(st.Splits, pairs.SplitStats{Exposure: e, Level: l, Pairs: 100})
		}
	}
	b, err := PairBars(st)
	if err != nil {
		t.Fatal(err)
	}
	renders(t, "pair bars", b)
	if _, err := PairBars(pairs.PairStatistics{}); err == nil {
		t.Error("empty statistics accepted")
	}
}

func report() *roleplay.Report {
	v := func(x float64) stats.Float { return stats.Float(x) }
	ci := stats.Interval{v(0.1), v(0.3)}
	r := &roleplay.Report{Encoder: "mixed", Config: roleplay.DefaultConfig()}
	for mi, m := range []string{"Real", "ChatHaruhi"} {
		ms := roleplay.ModelScore{Model: m, Simulation: v(0.2 - 0.1*float64(mi)), SimulationCI: ci, Distinction: v(0.9),
			DistinctionCI: stats.Interval{v(0.85), v(0.95)}, AvgRank: v(1 + float64(mi)), ModelRank: v(1 + float64(mi)), Roles: 2, RolesWithReal: 2}
		for ri, role := range []string{"Sheldon", "Penny"} {
			ms.PerRole = append(ms.PerRole, roleplay.RoleScore{Role: role, RealRole: role, Rank: v(1 + float64(mi*ri)), RankOf: 2,
				Top: []roleplay.RankedRole{{Role: role, Similarity: v(0.3)}}})
		}
		r.Models = append(r.Models, ms)
		for _, kind := range []string{roleplay.RealGenerated, roleplay.GeneratedGenerated} {
			r.Distributions = append(r.Distributions, roleplay.Distribution{Model: m, Kind: kind, AUC: v(0.7), Overlap: v(0.6),
				Positive: []float64{0.3, 0.4, 0.5, 0.45}, Negative: []float64{0.1, 0.2, 0.15, 0.3}})
		}
	}
	return r
}

func TestRoleplayFigures(t *testing.T) {
	r := report()
	g, err := Distributions(r, roleplay.RealGenerated, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Panels) != 2 {
		t.Errorf("%d panels", len(g.Panels))
	}
	renders(t, "distributions", g)
	// One legend, one x and y range for the models' panels.
	r.Distributions[0].Positive = []float64{0.6, 0.7, 0.9, 0.8}
	g, _ = Distributions(r, roleplay.RealGenerated, 2)
	lay, err := plots.Inspect(g, plots.WideSize())
	if err != nil {
		t.Fatal(err)
	}
	if lay.Legends != 1 || len(lay.LegendNames) != 2 {
		t.Errorf("Figure 1: %d legends %v, want one of same/different role", lay.Legends, lay.LegendNames)
	}
	p0, p1 := lay.Panels[0], lay.Panels[1]
	if p0.XMin != p1.XMin || p0.XMax != p1.XMax || p0.YMax != p1.YMax || p0.XMax < 0.9 {
		t.Errorf("Figure 1 panels x [%g, %g] vs [%g, %g], y max %g vs %g", p0.XMin, p0.XMax, p1.XMin, p1.XMax, p0.YMax, p1.YMax)
	}
	if _, err := Distributions(r, "other-kind", 2); err == nil {
		t.Error("unknown kind accepted")
	}
	b, err := ScoreBars(r)
	if err != nil {
		t.Fatal(err)
	}
	renders(t, "score bars", b)
	if y := b.Height(0, 0); math.Abs(y-100*float64(r.Models[0].Simulation)) > 1e-9 || b.Title == "" {
		t.Errorf("Table 3 bars: %g for Simulation %v (want ×100 like the table), title %q", y, r.Models[0].Simulation, b.Title)
	}
	h, err := RankHeatmap(r, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !h.Reverse {
		t.Error("rank heatmap not reversed (1 is best)")
	}
	renders(t, "rank heatmap", h)
}

func TestSpeechAndPersonaFigures(t *testing.T) {
	p := &speech.Pitch{T1: 0.02, Step: 0.01, F0: []float64{100, 110, 0, 0, 120, 125}, Ceiling: 600}
	l, err := PitchContours(false, Track{Name: "a", Pitch: p})
	if err != nil {
		t.Fatal(err)
	}
	renders(t, "pitch contours", l)
	if _, err := PitchContours(true, Track{Name: "empty", Pitch: &speech.Pitch{}}); err == nil {
		t.Error("empty track accepted")
	}
	b, err := PitchBoxes(Track{Name: "b", Pitch: p}, Track{Name: "a", Pitch: p})
	if err != nil {
		t.Fatal(err)
	}
	renders(t, "pitch boxes", b)
	h, err := RelationshipHeatmap([]distill.Relationship{{A: "Leonard", B: "Sheldon", CoEvents: 126}, {A: "Penny", B: "Sheldon", CoEvents: 80}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	renders(t, "relationships", h)
	if _, err := RelationshipHeatmap(nil, nil); err == nil {
		t.Error("no relationships accepted")
	}
}
