package plots

import (
	"fmt"
	"image/color"
	"math"
	"testing"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// lineOf returns a series through (0, y0), (1, y1), (2, y2).
func lineOf(name string, ys ...float64) LineSeries {
	xy := make(plotter.XYs, len(ys))
	for i, y := range ys {
		xy[i] = plotter.XY{X: float64(i), Y: y}
	}
	return LineSeries{Name: name, XY: xy}
}

// lookKey is a series' colour and dash pattern as a comparable string.
func lookKey(s SeriesLook) string {
	r, g, b, a := s.Color.RGBA()
	return fmt.Sprint(r, g, b, a, s.Dashes)
}

// TestGridSharesLegendAndAxes: three panels of one quantity on different
// ranges, drawn with a shared legend and shared axes, have one legend with
// each name once and the same x and y ranges.
func TestGridSharesLegendAndAxes(t *testing.T) {
	var panels []Figure
	for k, span := range []float64{0.1, 0.3, 0.5} {
		l, err := NewLines(lineOf("a", 0.9, 0.8, 0.8-span), lineOf("b", 0.7, 0.6+0.01*float64(k), 0.5))
		if err != nil {
			t.Fatal(err)
		}
		l.YLabel = "AUC"
		l.Baseline = 0.5
		panels = append(panels, l)
	}
	g, err := NewGrid(3, panels...)
	if err != nil {
		t.Fatal(err)
	}
	alone, err := Inspect(g, WideSize())
	if err != nil {
		t.Fatal(err)
	}
	if alone.Legends != 3 || alone.Panels[0].YMin == alone.Panels[2].YMin {
		t.Fatalf("without sharing: %d legends, y from %g and %g (the fixture should differ)", alone.Legends, alone.Panels[0].YMin, alone.Panels[2].YMin)
	}
	g.SharedLegend, g.ShareX, g.ShareY = true, true, true
	lay, err := Inspect(g, WideSize())
	if err != nil {
		t.Fatal(err)
	}
	if lay.Legends != 1 || fmt.Sprint(lay.LegendNames) != "[a b chance]" {
		t.Errorf("shared: %d legends with %v, want one with [a b chance]", lay.Legends, lay.LegendNames)
	}
	for i, p := range lay.Panels {
		if p.YMin != lay.Panels[0].YMin || p.YMax != lay.Panels[0].YMax || p.XMin != lay.Panels[0].XMin || p.XMax != lay.Panels[0].XMax {
			t.Errorf("panel %d ranges x [%g, %g] y [%g, %g], panel 0 x [%g, %g] y [%g, %g]", i, p.XMin, p.XMax, p.YMin, p.YMax,
				lay.Panels[0].XMin, lay.Panels[0].XMax, lay.Panels[0].YMin, lay.Panels[0].YMax)
		}
		if !p.Chance {
			t.Errorf("panel %d has no chance line", i)
		}
		if (p.YLabel != "") != (i == 0) {
			t.Errorf("panel %d y title %q: want it on the first column only", i, p.YLabel)
		}
	}
	if lay.Panels[0].YMin > 0.3 || lay.Panels[0].YMax < 0.9 {
		t.Errorf("shared y [%g, %g] does not hold every panel's data (0.3 … 0.9)", lay.Panels[0].YMin, lay.Panels[0].YMax)
	}
	if _, err := Bytes(g, PNG, WideSize()); err != nil {
		t.Fatal(err)
	}
}

// TestSeriesLooks: the series of one panel never share colour and dashes,
// even past the palette, and Style.Series keeps a name's look whatever its
// position.
func TestSeriesLooks(t *testing.T) {
	var curves []Curve
	names := make([]string, 10)
	for i := range names {
		names[i] = fmt.Sprint("row", i)
		p, n := sims(uint64(30+i), 100, 0.55, 0.1), sims(uint64(40+i), 100, 0.45, 0.1)
		lab := LabelledScores{Scores: append(p, n...), Positive: make([]bool, 200)}
		for k := range 100 {
			lab.Positive[k] = true
		}
		curves = append(curves, Curve{Name: names[i], Data: lab})
	}
	roc, err := NewROC(curves...)
	if err != nil {
		t.Fatal(err)
	}
	lay, err := Inspect(roc, SquareSize())
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	for _, s := range lay.Panels[0].Series {
		if other, ok := seen[lookKey(s)]; ok {
			t.Errorf("%s and %s look alike", other, s.Name)
		}
		seen[lookKey(s)] = s.Name
	}
	if !lay.Panels[0].Chance {
		t.Error("ROC without a chance line")
	}
	// Fixed looks: row9 keeps index 2 in two figures ordering it differently,
	// and the unnamed series avoid it.
	st := PaperStyle()
	st.Series = map[string]int{"row9": 2}
	a, _ := NewLines(lineOf("row9", 1, 2), lineOf("x", 2, 3), lineOf("y", 3, 1), lineOf("z", 0, 1))
	b, _ := NewLines(lineOf("z", 0, 1), lineOf("row9", 1, 2))
	a.Style, b.Style = st, st
	la, _ := Inspect(a, ColumnSize())
	lb, _ := Inspect(b, ColumnSize())
	if lookKey(la.Panels[0].Series[0]) != lookKey(lb.Panels[0].Series[1]) || !sameColor(la.Panels[0].Series[0].Color, st.Color(2)) {
		t.Errorf("row9 looks %v in one figure and %v in the other, want colour %v", la.Panels[0].Series[0], lb.Panels[0].Series[1], st.Color(2))
	}
	for _, s := range la.Panels[0].Series[1:] {
		if lookKey(s) == lookKey(la.Panels[0].Series[0]) {
			t.Errorf("%s took row9's look", s.Name)
		}
	}
}

func sameColor(a, b color.Color) bool {
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}

// TestChanceLines: bars and lines draw a baseline when asked, and it stays
// in view when the data lie above it.
func TestChanceLines(t *testing.T) {
	bars, err := NewBars(BarTable{Groups: []string{"g"}, Series: []string{"s"}, Y: [][]float64{{80}}})
	if err != nil {
		t.Fatal(err)
	}
	bars.Baseline = 50
	l, err := NewLines(lineOf("s", 80, 90))
	if err != nil {
		t.Fatal(err)
	}
	l.Baseline = 50
	for name, f := range map[string]Figure{"bars": bars, "lines": l} {
		lay, err := Inspect(f, ColumnSize())
		if err != nil {
			t.Fatal(err)
		}
		p := lay.Panels[0]
		if !p.Chance || p.YMin > 50 || p.YMax < 50 || math.IsNaN(p.YMin) {
			t.Errorf("%s: chance %v, y [%g, %g] (want 50 in view)", name, p.Chance, p.YMin, p.YMax)
		}
		if lay.Legends != 1 || lay.LegendNames[len(lay.LegendNames)-1] != "chance" {
			t.Errorf("%s: legend %v lacks the chance line", name, lay.LegendNames)
		}
	}
}

// TestGridSharesDistributionBins: distribution panels of different ranges
// in a grid sharing x are binned on the shared range with the same edges,
// and their density lines span the whole axis, not only their own data;
// the y axis ends a little above the data.
func TestGridSharesDistributionBins(t *testing.T) {
	var panels []Figure
	for k, mean := range []float64{0.1, 0.5} {
		d, err := NewDistributions(GroupSlice{
			{"same", sims(uint64(60+k), 60, mean+0.1, 0.05+0.1*float64(k))},
			{"different", sims(uint64(70+k), 60, mean, 0.05+0.1*float64(k))},
		})
		if err != nil {
			t.Fatal(err)
		}
		panels = append(panels, d)
	}
	g, err := NewGrid(2, panels...)
	if err != nil {
		t.Fatal(err)
	}
	g.SharedLegend, g.ShareX, g.ShareY = true, true, true
	c := draw.New(vgimg.NewWith(vgimg.UseWH(WideSize().Width, WideSize().Height), vgimg.UseDPI(72)))
	bs, _, _, err := g.build(c)
	if err != nil {
		t.Fatal(err)
	}
	a, b := bs[0], bs[1]
	if a.binWidth <= 0 || a.binLo != b.binLo || a.binWidth != b.binWidth {
		t.Errorf("bins: panel 0 from %g width %g, panel 1 from %g width %g; want the same edges", a.binLo, a.binWidth, b.binLo, b.binWidth)
	}
	top := 0.0 // the tallest bar or density of any panel
	for _, d := range panels {
		for _, grp := range d.(*Distributions).groups {
			counts := map[int]int{}
			for _, v := range grp.Values {
				counts[int((v-a.binLo)/a.binWidth)]++
			}
			for _, n := range counts {
				top = math.Max(top, float64(n)/(float64(len(grp.Values))*a.binWidth))
			}
			at := make([]float64, 256)
			for k := range at {
				at[k] = a.curveLo + (a.curveHi-a.curveLo)*float64(k)/255
			}
			for _, y := range KDE(grp.Values, SilvermanBandwidth(grp.Values), at) {
				top = math.Max(top, y)
			}
		}
	}
	for i, p := range bs {
		if p.curveLo != p.p.X.Min || p.curveHi != p.p.X.Max {
			t.Errorf("panel %d: density over [%g, %g], axis [%g, %g]", i, p.curveLo, p.curveHi, p.p.X.Min, p.p.X.Max)
		}
		if p.p.Y.Max < 1.03*top {
			t.Errorf("panel %d: y axis ends at %g, the data at %g: no headroom", i, p.p.Y.Max, top)
		}
	}
	if _, err := Bytes(g, PNG, WideSize()); err != nil {
		t.Fatal(err)
	}
}
