package plots

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// BarValues is a table of bar heights: groups along the x axis (exposures,
// models, ...), one bar per series in each group (encoders, scores, ...).
type BarValues interface {
	// Dims returns the number of groups and of series.
	Dims() (groups, series int)
	GroupName(g int) string
	SeriesName(s int) string
	// Bar returns the height of series s in group g and the extent of its
	// error bar below and above the height (0, 0 for none). A NaN height
	// means no bar.
	Bar(g, s int) (y, low, high float64)
}

// BarTable is a [BarValues] held in slices.
type BarTable struct {
	Groups, Series []string
	// Y holds the heights, indexed [series][group].
	Y [][]float64
	// Err optionally holds symmetric error extents (e.g. the standard
	// deviation over rounds), indexed like Y.
	Err [][]float64
}

// Dims implements BarValues.
func (t BarTable) Dims() (int, int) { return len(t.Groups), len(t.Series) }

// GroupName implements BarValues.
func (t BarTable) GroupName(g int) string { return t.Groups[g] }

// SeriesName implements BarValues.
func (t BarTable) SeriesName(s int) string { return t.Series[s] }

// Bar implements BarValues.
func (t BarTable) Bar(g, s int) (y, low, high float64) {
	y = math.NaN()
	if s < len(t.Y) && g < len(t.Y[s]) {
		y = t.Y[s][g]
	}
	if s < len(t.Err) && g < len(t.Err[s]) {
		low, high = t.Err[s][g], t.Err[s][g]
	}
	return y, low, high
}

// Bars draws grouped bars with error bars (mean ± std of Table 2 cells,
// Simulation/Distinction with confidence intervals of Table 3), optionally
// with reference values (e.g. the paper's numbers) marked on each bar.
type Bars struct {
	// Title, XLabel and YLabel label the figure (default: none, none, "Score").
	Title, XLabel, YLabel string
	// YMin and YMax fix the y range (default NaN: from 0, or the smallest
	// value when negative, to the largest bar plus error).
	YMin, YMax float64
	// BarFraction is the share of each group's slot the bars fill (default 0.8).
	BarFraction float64
	// RotateLabels turns the group names by 30° (default: only when a name
	// is too wide for its slot).
	RotateLabels bool
	// Reference, when set, marks a value on each bar with a short black
	// line (e.g. the published number); its legend name is ReferenceName
	// (default "paper").
	Reference     BarValues
	ReferenceName string
	// Baseline, when not NaN, draws a dashed grey horizontal line at this
	// height, named BaselineName in the legend (default "chance"): the
	// chance level of an AUC.
	Baseline     float64
	BaselineName string
	// Legend places the legend (default LegendAuto: below the plot).
	Legend LegendPosition
	// Style is the look (default PaperStyle).
	Style Style

	groups, series []string
	y, lo, hi      [][]float64 // [series][group]
}

// NewBars returns a grouped bar figure of v. It needs at least one group
// and one series, at least one finite height, and finite non-negative
// error extents.
func NewBars(v BarValues) (*Bars, error) {
	if v == nil {
		return nil, errorf("bars: no data")
	}
	ng, ns := v.Dims()
	if ng <= 0 || ns <= 0 {
		return nil, errorf("bars: need at least one group and one series (have %d groups, %d series)", ng, ns)
	}
	b := &Bars{YLabel: "Score", YMin: math.NaN(), YMax: math.NaN(), Baseline: math.NaN(), BaselineName: "chance", BarFraction: 0.8,
		ReferenceName: "paper", Style: PaperStyle()}
	for g := range ng {
		b.groups = append(b.groups, v.GroupName(g))
	}
	any := false
	for s := range ns {
		b.series = append(b.series, v.SeriesName(s))
		ys, los, his := make([]float64, ng), make([]float64, ng), make([]float64, ng)
		for g := range ng {
			y, lo, hi := v.Bar(g, s)
			if math.IsInf(y, 0) {
				return nil, errorf("bars: %q / %q: height is %v", b.groups[g], b.series[s], y)
			}
			if !finite(lo) || !finite(hi) || lo < 0 || hi < 0 {
				return nil, errorf("bars: %q / %q: error extents (%v, %v) must be finite and non-negative", b.groups[g], b.series[s], lo, hi)
			}
			any = any || !math.IsNaN(y)
			ys[g], los[g], his[g] = y, lo, hi
		}
		b.y, b.lo, b.hi = append(b.y, ys), append(b.lo, los), append(b.hi, his)
	}
	if !any {
		return nil, errorf("bars: every height is NaN")
	}
	return b, nil
}

// Height returns the height of series s in group g (NaN: no bar).
func (b *Bars) Height(g, s int) float64 { return b.y[s][g] }

// x returns the data x of series s in group g and the bar width.
func (b *Bars) x(g, s int) (x, w float64) {
	frac := b.BarFraction
	if frac <= 0 || frac > 1 {
		frac = 0.8
	}
	n := float64(len(b.series))
	w = frac / n
	return float64(g) + (float64(s)-(n-1)/2)*w, w
}

// Render draws the figure on c.
func (b *Bars) Render(c draw.Canvas) error {
	bt, err := b.build(withMargin(c), false)
	if err != nil {
		return err
	}
	bt.draw(c)
	return nil
}

// build implements panel.
func (b *Bars) build(c draw.Canvas, shared bool) (*built, error) {
	st := b.Style.orDefault()
	p := st.newPlot(b.Title, b.XLabel, b.YLabel, gridHorizontal)
	p.NominalX(b.groups...)
	slot := (c.Max.X - c.Min.X - vg.Points(40)) / vg.Length(len(b.groups))
	if b.RotateLabels || labelsCrowded(p, b.groups, slot) {
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YCenter
	}
	p.X.Tick.Length = 0
	lowest, highest := 0.0, math.Inf(-1)
	var entries []legendEntry
	out := &built{p: p, st: st}
	idx := st.looks(b.series)
	for s := range b.series {
		bs := &rects{fill: st.Color(idx[s]), line: draw.LineStyle{Color: color.Black, Width: vg.Points(0.3)}, hatch: st.Hatch(idx[s])}
		out.series = append(out.series, SeriesLook{Name: b.series[s], Color: st.Color(idx[s]), Dashes: nil})
		var errs errorBarData
		for g := range b.groups {
			y := b.y[s][g]
			if math.IsNaN(y) {
				continue
			}
			x, w := b.x(g, s)
			bs.boxes = append(bs.boxes, [4]float64{x - w/2, math.Min(0, y), x + w/2, math.Max(0, y)})
			lowest = math.Min(lowest, y-b.lo[s][g])
			highest = math.Max(highest, y+b.hi[s][g])
			if b.lo[s][g] > 0 || b.hi[s][g] > 0 {
				errs.xy = append(errs.xy, plotter.XY{X: x, Y: y})
				errs.e = append(errs.e, struct{ Low, High float64 }{b.lo[s][g], b.hi[s][g]})
			}
		}
		p.Add(bs)
		if len(errs.xy) > 0 {
			eb, err := plotter.NewYErrorBars(errs)
			if err != nil {
				return nil, errorf("bars: series %q: %w", b.series[s], err)
			}
			eb.LineStyle = draw.LineStyle{Color: color.Black, Width: vg.Points(0.6)}
			eb.CapWidth = vg.Points(2.5)
			p.Add(eb)
		}
		entries = append(entries, legendEntry{name: b.series[s], thumbs: []plot.Thumbnailer{bs}})
	}
	if b.Reference != nil {
		ref := &refMarks{style: draw.LineStyle{Color: color.Black, Width: vg.Points(1.4)}}
		rg, rs := b.Reference.Dims()
		for s := range min(rs, len(b.series)) {
			for g := range min(rg, len(b.groups)) {
				y, _, _ := b.Reference.Bar(g, s)
				if !finite(y) {
					continue
				}
				x, w := b.x(g, s)
				ref.marks = append(ref.marks, [3]float64{x - w/2, x + w/2, y})
				highest = math.Max(highest, y)
				lowest = math.Min(lowest, y)
			}
		}
		if len(ref.marks) > 0 {
			p.Add(ref)
			entries = append(entries, legendEntry{name: b.ReferenceName, thumbs: []plot.Thumbnailer{ref}})
		}
	}
	if finite(b.Baseline) {
		h := hLine{y: b.Baseline, style: chanceStyle()}
		p.Add(h)
		entries = append(entries, legendEntry{name: b.BaselineName, thumbs: []plot.Thumbnailer{h}})
		highest, lowest = math.Max(highest, b.Baseline), math.Min(lowest, b.Baseline)
		out.chance = true
	}
	p.X.Min, p.X.Max = -0.5, float64(len(b.groups))-0.5
	p.Y.Min, p.Y.Max = lowest, highest*1.04
	if highest <= 0 {
		p.Y.Max = 0
	}
	if finite(b.YMin) {
		p.Y.Min = b.YMin
	}
	if finite(b.YMax) {
		p.Y.Max = b.YMax
	}
	if !(p.Y.Max > p.Y.Min) {
		return nil, errorf("bars: empty y range [%g, %g]", p.Y.Min, p.Y.Max)
	}
	pos := b.Legend
	if pos == LegendAuto {
		pos = LegendBelow
	}
	if len(b.series) == 1 && b.Reference == nil && !finite(b.Baseline) && pos == LegendBelow {
		pos = LegendHidden
	}
	if shared {
		pos = LegendHidden
	}
	out.entries, out.pos = entries, pos
	return out, nil
}

// errorBarData feeds plotter.NewYErrorBars.
type errorBarData struct {
	xy plotter.XYs
	e  plotter.YErrors
}

func (d errorBarData) Len() int                        { return len(d.xy) }
func (d errorBarData) XY(i int) (float64, float64)     { return d.xy[i].X, d.xy[i].Y }
func (d errorBarData) YError(i int) (float64, float64) { return d.e[i].Low, d.e[i].High }

// rects is a plotter of filled rectangles given in data coordinates
// (x0, y0, x1, y1), so that bar widths scale with the axis.
type rects struct {
	boxes [][4]float64
	fill  color.Color
	line  draw.LineStyle
	// hatch is the series' hatching (Style.Hatch): bars of series that
	// reuse a palette colour differ by it.
	hatch Hatch
}

// Plot implements plot.Plotter.
func (r *rects) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, b := range r.boxes {
		pts := []vg.Point{{X: trX(b[0]), Y: trY(b[1])}, {X: trX(b[2]), Y: trY(b[1])},
			{X: trX(b[2]), Y: trY(b[3])}, {X: trX(b[0]), Y: trY(b[3])}}
		c.FillPolygon(r.fill, c.ClipPolygonXY(pts))
		drawHatch(c, r.hatch, r.fill, trX(b[0]), trY(b[1]), trX(b[2]), trY(b[3]))
		closed := append(pts, pts[0])
		c.StrokeLines(r.line, c.ClipLinesXY(closed)...)
	}
}

// DataRange implements plot.DataRanger.
func (r *rects) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for _, b := range r.boxes {
		xmin, xmax = math.Min(xmin, b[0]), math.Max(xmax, b[2])
		ymin, ymax = math.Min(ymin, b[1]), math.Max(ymax, b[3])
	}
	return
}

// Thumbnail implements plot.Thumbnailer.
func (r *rects) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Min.X, Y: c.Max.Y}}
	c.FillPolygon(r.fill, pts)
	drawHatch(*c, r.hatch, r.fill, c.Min.X, c.Min.Y, c.Max.X, c.Max.Y)
	c.StrokeLines(r.line, append(pts, pts[0]))
}

// refMarks draws short horizontal lines (x0, x1, y) in data coordinates.
type refMarks struct {
	marks [][3]float64
	style draw.LineStyle
}

// Plot implements plot.Plotter. Each mark has a white halo so that it
// stays visible on a dark bar.
func (r *refMarks) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	halo := r.style
	halo.Color = color.White
	halo.Width += vg.Points(1.6)
	for _, sty := range []draw.LineStyle{halo, r.style} {
		for _, m := range r.marks {
			c.StrokeLines(sty, c.ClipLinesXY([]vg.Point{{X: trX(m[0]), Y: trY(m[2])}, {X: trX(m[1]), Y: trY(m[2])}})...)
		}
	}
}

// Thumbnail implements plot.Thumbnailer.
func (r *refMarks) Thumbnail(c *draw.Canvas) {
	y := (c.Min.Y + c.Max.Y) / 2
	c.StrokeLine2(r.style, c.Min.X, y, c.Max.X, y)
}
