package plots

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// LineSeries is one named line: points through gonum's plotter.XYer and,
// optionally, error extents through plotter.YErrorer (same length). A NaN
// y leaves a gap in the line (e.g. unvoiced frames of a pitch track).
type LineSeries struct {
	Name string
	XY   plotter.XYer
	Err  plotter.YErrorer
}

// Lines draws line plots with a marker at each point and optional error
// bars: ablations over difficulty levels or context lengths.
type Lines struct {
	// Title, XLabel and YLabel label the figure (default: none).
	Title, XLabel, YLabel string
	// XTicks, when set, names the x positions 0, 1, 2, ... (a nominal axis,
	// e.g. Base/Hard/Harder); otherwise x is numeric.
	XTicks []string
	// RotateLabels turns the XTicks names by 30° (default: only when a
	// name is too wide for its slot).
	RotateLabels bool
	// YMin and YMax fix the y range (default NaN: from the data).
	YMin, YMax float64
	// Markers draws a marker at each point (default true); Connect joins
	// the points with lines (default true). Turn markers off for dense
	// tracks (pitch contours) and Connect off for scatter plots.
	Markers, Connect bool
	// Baseline, when not NaN, draws a dashed grey horizontal line at this
	// y, named BaselineName in the legend (default "chance"): the chance
	// level of an AUC (0.5, or 50 ×100).
	Baseline     float64
	BaselineName string
	// Guides are dotted grey horizontal lines at these y (bin edges,
	// thresholds), named GuideName in the legend (default "edges").
	Guides    []float64
	GuideName string
	// Legend places the legend (default LegendAuto: inside top right for up
	// to 4 series, below the plot otherwise).
	Legend LegendPosition
	// Style is the look (default PaperStyle).
	Style Style

	series []lineData
}

type lineData struct {
	name string
	xy   plotter.XYs
	err  plotter.YErrors // nil when the series has no errors
}

// NewLines returns a line figure of the given series. Each series needs at
// least one point with finite coordinates, no infinite values, finite x
// everywhere (a NaN y is a gap), and (when Err is set) as many finite
// non-negative error extents as points.
func NewLines(series ...LineSeries) (*Lines, error) {
	if len(series) == 0 {
		return nil, errorf("lines: no series")
	}
	l := &Lines{YMin: math.NaN(), YMax: math.NaN(), Baseline: math.NaN(), BaselineName: "chance", GuideName: "edges", Markers: true, Connect: true, Style: PaperStyle()}
	for i, s := range series {
		if s.XY == nil || s.XY.Len() == 0 {
			return nil, errorf("lines: series %d (%q) has no points", i, s.Name)
		}
		xy := make(plotter.XYs, s.XY.Len())
		defined := 0
		for k := range xy {
			x, y := s.XY.XY(k)
			if !finite(x) || math.IsInf(y, 0) {
				return nil, errorf("lines: series %d (%q) point %d is (%v, %v)", i, s.Name, k, x, y)
			}
			if !math.IsNaN(y) {
				defined++
			}
			xy[k].X, xy[k].Y = x, y
		}
		if defined == 0 {
			return nil, errorf("lines: series %d (%q) has no point with a finite y", i, s.Name)
		}
		d := lineData{name: s.Name, xy: xy}
		if s.Err != nil {
			n := -1
			switch e := s.Err.(type) {
			case plotter.YErrors:
				n = len(e)
			case interface{ Len() int }:
				n = e.Len()
			}
			if n >= 0 && n != len(xy) {
				return nil, errorf("lines: series %d (%q): %d errors for %d points", i, s.Name, n, len(xy))
			}
			d.err = make(plotter.YErrors, len(xy))
			for k := range xy {
				lo, hi := s.Err.YError(k)
				if !finite(lo) || !finite(hi) || lo < 0 || hi < 0 {
					return nil, errorf("lines: series %d (%q) point %d: error extents (%v, %v) must be finite and non-negative", i, s.Name, k, lo, hi)
				}
				d.err[k].Low, d.err[k].High = lo, hi
			}
		}
		l.series = append(l.series, d)
	}
	return l, nil
}

// segments splits xy at NaN y values into runs of defined points.
func segments(xy plotter.XYs) []plotter.XYs {
	var out []plotter.XYs
	var cur plotter.XYs
	for _, p := range xy {
		if math.IsNaN(p.Y) {
			if len(cur) > 0 {
				out = append(out, cur)
			}
			cur = nil
			continue
		}
		cur = append(cur, p)
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// definedPoints returns the points with a finite y and their errors (nil
// when the series has none).
func definedPoints(xy plotter.XYs, errs plotter.YErrors) (plotter.XYs, plotter.YErrors) {
	var pts plotter.XYs
	var es plotter.YErrors
	for k, p := range xy {
		if math.IsNaN(p.Y) {
			continue
		}
		pts = append(pts, p)
		if errs != nil {
			es = append(es, errs[k])
		}
	}
	return pts, es
}

// Render draws the figure on c.
func (l *Lines) Render(c draw.Canvas) error {
	b, err := l.build(withMargin(c), false)
	if err != nil {
		return err
	}
	b.draw(c)
	return nil
}

// build implements panel.
func (l *Lines) build(c draw.Canvas, shared bool) (*built, error) {
	st := l.Style.orDefault()
	if !l.Markers && !l.Connect {
		return nil, errorf("lines: both Markers and Connect are off")
	}
	p := st.newPlot(l.Title, l.XLabel, l.YLabel, gridBoth)
	if len(l.XTicks) > 0 {
		p.NominalX(l.XTicks...)
		p.X.Tick.Length = vg.Points(3)
		p.X.Min, p.X.Max = -0.3, float64(len(l.XTicks))-0.7
		// Slot width: the data area is about the canvas less the y axis.
		slot := (c.Max.X - c.Min.X - vg.Points(40)) / vg.Length(len(l.XTicks)+1)
		if l.RotateLabels || labelsCrowded(p, l.XTicks, slot) {
			p.X.Tick.Label.Rotation = math.Pi / 6
			p.X.Tick.Label.XAlign = draw.XRight
			p.X.Tick.Label.YAlign = draw.YCenter
		}
	}
	b := &built{p: p, st: st}
	var entries []legendEntry
	names := make([]string, len(l.series))
	for i, s := range l.series {
		names[i] = s.name
	}
	idx := st.looks(names)
	for i, s := range l.series {
		i := idx[i]
		var thumbs []plot.Thumbnailer
		if l.Connect {
			for _, seg := range segments(s.xy) {
				line, err := plotter.NewLine(seg)
				if err != nil {
					return nil, errorf("lines: series %q: %w", s.name, err)
				}
				line.LineStyle = st.Line(i)
				p.Add(line)
				if len(thumbs) == 0 {
					thumbs = append(thumbs, line)
				}
			}
		}
		defined, errs := definedPoints(s.xy, s.err)
		if l.Markers {
			sc, err := plotter.NewScatter(defined)
			if err != nil {
				return nil, errorf("lines: series %q: %w", s.name, err)
			}
			sc.GlyphStyle = st.Glyph(i)
			p.Add(sc)
			thumbs = append(thumbs, sc)
		}
		if errs != nil {
			eb, err := plotter.NewYErrorBars(errorBarData{xy: defined, e: errs})
			if err != nil {
				return nil, errorf("lines: series %q: %w", s.name, err)
			}
			eb.LineStyle = draw.LineStyle{Color: st.Color(i), Width: vg.Points(0.7)}
			eb.CapWidth = vg.Points(3)
			p.Add(eb)
		}
		entries = append(entries, legendEntry{name: s.name, thumbs: thumbs})
		b.series = append(b.series, st.look(s.name, i))
	}
	for k, y := range l.Guides {
		if !finite(y) {
			continue
		}
		h := hLine{y: y, style: draw.LineStyle{Color: color.Gray{Y: 0x60}, Width: vg.Points(0.7), Dashes: []vg.Length{vg.Points(1), vg.Points(1.5)}}}
		p.Add(h)
		if k == 0 {
			entries = append(entries, legendEntry{name: l.GuideName, thumbs: []plot.Thumbnailer{h}})
		}
	}
	if finite(l.Baseline) {
		h := hLine{y: l.Baseline, style: chanceStyle()}
		p.Add(h)
		entries = append(entries, legendEntry{name: l.BaselineName, thumbs: []plot.Thumbnailer{h}})
		b.chance = true
	}
	// A little air above and below the data, so lines do not run along
	// the frame.
	if span := p.Y.Max - p.Y.Min; span > 0 {
		p.Y.Min -= 0.04 * span
		p.Y.Max += 0.04 * span
	}
	if finite(l.YMin) {
		p.Y.Min = l.YMin
	}
	if finite(l.YMax) {
		p.Y.Max = l.YMax
	}
	if !(p.Y.Max >= p.Y.Min) {
		return nil, errorf("lines: empty y range [%g, %g]", p.Y.Min, p.Y.Max)
	}
	pos := l.Legend
	if shared {
		pos = LegendHidden
	}
	if pos == LegendAuto {
		pos = LegendTopRight
		if len(l.series) > 4 {
			pos = LegendBelow
		}
	}
	if pos != LegendBelow && pos != LegendHidden && !finite(l.YMax) {
		// Headroom so that an inside legend does not cover the lines.
		span := p.Y.Max - p.Y.Min
		if span == 0 {
			span = math.Max(1, math.Abs(p.Y.Max))
		}
		p.Y.Max += span * (0.12 * float64(len(l.series)))
	}
	if len(l.series) == 1 && pos != LegendHidden && l.series[0].name == "" {
		pos = LegendHidden
	}
	b.entries, b.pos = entries, pos
	return b, nil
}

// LinesOf draws one series per name with points (xs[i], ys[s][i]), for a
// pivot whose rows are series and whose columns share the x values.
func LinesOf(xs []float64, names []string, ys [][]float64) (*Lines, error) {
	if len(names) != len(ys) {
		return nil, errorf("lines: %d names for %d series", len(names), len(ys))
	}
	series := make([]LineSeries, len(names))
	for s, name := range names {
		if len(ys[s]) != len(xs) {
			return nil, errorf("lines: series %q has %d values for %d x values", name, len(ys[s]), len(xs))
		}
		xy := make(plotter.XYs, len(xs))
		for i, x := range xs {
			xy[i] = plotter.XY{X: x, Y: ys[s][i]}
		}
		series[s] = LineSeries{Name: name, XY: xy}
	}
	return NewLines(series...)
}
