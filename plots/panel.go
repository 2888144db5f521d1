package plots

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// panel is a figure drawn as one gonum plot. A Grid builds its panels
// first, so that it can give them one y (or x) range and draw one legend
// for all of them; Inspect reads the same build.
type panel interface {
	Figure
	// build makes the plot for canvas c. With shared set the legend of
	// names is drawn by the grid: the panel draws none of its own (a ROC
	// keeps an inside list of its curves' AUCs) and leaves no headroom
	// for one.
	build(c draw.Canvas, shared bool) (*built, error)
}

// built is a panel's plot, ready to draw, with what checks need to know.
type built struct {
	p  *plot.Plot
	st Style
	// entries are the legend's lines; pos where the panel draws them
	// alone (LegendHidden when shared).
	entries []legendEntry
	pos     LegendPosition
	// series are the data series' looks; chance says whether a chance
	// line (ROC diagonal, horizontal baseline) is drawn.
	series []SeriesLook
	chance bool
	// binLo and binWidth are a histogram's first bin edge and bin width,
	// curveLo and curveHi the x span of its density lines (zero without):
	// a grid sharing x gives every panel the same ones.
	binLo, binWidth, curveLo, curveHi float64
}

// xBinned is a panel whose drawing, not only its axis, depends on its x
// range (histogram bins, a density evaluated over the range). A grid that
// shares x builds such panels on the shared range and one bin count, so
// that their bars and curves can be compared, not just their axes.
type xBinned interface {
	panel
	// xData returns the panel's own x range and its finite values.
	xData() (lo, hi float64, values []float64)
	// onXRange returns a copy of the panel drawn over [lo, hi] with bins
	// bins (0: the panel's own choice).
	onXRange(lo, hi float64, bins int) panel
}

// draw draws the built panel on c.
func (b *built) draw(c draw.Canvas) { renderWithLegend(c, b.p, b.entries, b.pos, b.st) }

// SeriesLook is how a series is drawn: its colour and dash pattern (nil:
// solid). Two series of one panel never share both.
type SeriesLook struct {
	Name   string
	Color  color.Color
	Dashes []vg.Length
}

// looks returns the look index of each named series: the index Style.Series
// gives its name, else the lowest index no other series of the panel holds,
// so that a run's rows keep their colours in every figure and the series
// of one panel never share a look (up to 4 × the palette's colours).
func (s Style) looks(names []string) []int {
	out := make([]int, len(names))
	used := map[int]bool{}
	for i, n := range names {
		out[i] = -1
		if k, ok := s.Series[n]; ok && k >= 0 && !used[k] {
			out[i], used[k] = k, true
		}
	}
	next := 0
	for i := range out {
		if out[i] >= 0 {
			continue
		}
		for used[next] {
			next++
		}
		out[i], used[next] = next, true
	}
	return out
}

// look returns the SeriesLook of look index k.
func (s Style) look(name string, k int) SeriesLook {
	return SeriesLook{Name: name, Color: s.Color(k), Dashes: s.Dashes(k)}
}

// Layout describes what a figure draws, for checks of finished figures:
// that the panels of a figure share their axes, that every ROC or AUC
// panel has a chance line, that a legend is drawn once.
type Layout struct {
	// Panels are the figure's panels in order (one for a single plot).
	Panels []PanelLayout
	// Legends counts the legends of series names drawn (a grid's shared
	// legend once; a ROC's inside list of AUC values is not one).
	Legends int
	// LegendNames are the names in the legends, in order.
	LegendNames []string
}

// PanelLayout is one panel of a Layout.
type PanelLayout struct {
	Title, YLabel          string
	XMin, XMax, YMin, YMax float64
	// Series are the data series' looks, in drawing order.
	Series []SeriesLook
	// Chance says whether the panel draws a chance line.
	Chance bool
}

// Inspect lays f out on a canvas of the given size, as Encode would, and
// describes it. It knows the figures of this package and grids of them.
func Inspect(f Figure, size Size) (Layout, error) {
	size, err := size.check()
	if err != nil {
		return Layout{}, err
	}
	c := draw.New(vgimg.NewWith(vgimg.UseWH(size.Width, size.Height), vgimg.UseDPI(72)))
	var l Layout
	add := func(b *built) {
		l.Panels = append(l.Panels, PanelLayout{Title: b.p.Title.Text, YLabel: b.p.Y.Label.Text, XMin: b.p.X.Min, XMax: b.p.X.Max, YMin: b.p.Y.Min, YMax: b.p.Y.Max,
			Series: b.series, Chance: b.chance})
	}
	switch f := f.(type) {
	case *Grid:
		bs, entries, _, err := f.build(c)
		if err != nil {
			return Layout{}, err
		}
		for _, b := range bs {
			add(b)
			if !f.SharedLegend && b.pos != LegendHidden && len(b.entries) > 0 {
				l.Legends++
				for _, e := range b.entries {
					l.LegendNames = append(l.LegendNames, e.name)
				}
			}
		}
		if f.SharedLegend && len(entries) > 0 {
			l.Legends++
			for _, e := range entries {
				l.LegendNames = append(l.LegendNames, e.name)
			}
		}
	case panel:
		b, err := f.build(withMargin(c), false)
		if err != nil {
			return Layout{}, err
		}
		add(b)
		if b.pos != LegendHidden && len(b.entries) > 0 {
			l.Legends++
			for _, e := range b.entries {
				l.LegendNames = append(l.LegendNames, e.name)
			}
		}
	default:
		return Layout{}, errorf("inspect: %T is not a figure of this package", f)
	}
	return l, nil
}

// hLine is a plotter that draws a horizontal line across the data area at
// y (a chance level: AUC 0.5) and keeps y inside the axis range.
type hLine struct {
	y     float64
	style draw.LineStyle
}

// chanceStyle is the look of every chance line: thin, grey, dashed.
func chanceStyle() draw.LineStyle {
	return draw.LineStyle{Color: color.Gray{Y: 0x60}, Width: vg.Points(0.7), Dashes: []vg.Length{vg.Points(3), vg.Points(2)}}
}

// Plot implements plot.Plotter.
func (l hLine) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	y := trY(l.y)
	if y < c.Min.Y || y > c.Max.Y {
		return
	}
	c.StrokeLine2(l.style, c.Min.X, y, c.Max.X, y)
}

// DataRange implements plot.DataRanger: only y, so that the line is always
// in view.
func (l hLine) DataRange() (xmin, xmax, ymin, ymax float64) {
	return math.Inf(1), math.Inf(-1), l.y, l.y
}

// Thumbnail implements plot.Thumbnailer.
func (l hLine) Thumbnail(c *draw.Canvas) {
	y := (c.Min.Y + c.Max.Y) / 2
	c.StrokeLine2(l.style, c.Min.X, y, c.Max.X, y)
}

// mergeEntries returns the legend entries of several panels, each name once
// in order of first appearance (a run's rows look alike in every panel).
func mergeEntries(bs []*built) []legendEntry {
	var out []legendEntry
	seen := map[string]bool{}
	for _, b := range bs {
		for _, e := range b.entries {
			if !seen[e.name] {
				seen[e.name] = true
				out = append(out, e)
			}
		}
	}
	return out
}
