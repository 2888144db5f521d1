package plots

import (
	"errors"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Figure is a finished figure: it draws itself on a canvas of any size.
// Every figure type of this package is a Figure, and so is any gonum plot
// wrapped with [FromPlot]. Render fails only when the figure's settings are
// invalid (its data was checked by its constructor).
type Figure interface {
	Render(c draw.Canvas) error
}

// FromPlot wraps a gonum plot as a Figure, so that hand-made plots can be
// exported and shown like the figures of this package.
func FromPlot(p *plot.Plot) Figure { return plotFigure{p} }

type plotFigure struct{ p *plot.Plot }

func (f plotFigure) Render(c draw.Canvas) error {
	if f.p == nil {
		return errors.New("plots: nil plot")
	}
	f.p.Draw(c)
	return nil
}

// LegendPosition says where a figure puts its legend.
type LegendPosition int

const (
	// LegendAuto lets the figure choose (each figure type documents its choice).
	LegendAuto LegendPosition = iota
	// LegendTopRight puts the legend inside the data area, top right.
	LegendTopRight
	// LegendTopLeft puts the legend inside the data area, top left.
	LegendTopLeft
	// LegendBottomRight puts the legend inside the data area, bottom right.
	LegendBottomRight
	// LegendBelow puts the legend under the plot in as many columns as fit
	// (best when there are many series).
	LegendBelow
	// LegendHidden draws no legend.
	LegendHidden
)

// legendEntry is one legend line: a name and the thumbnails of its series.
type legendEntry struct {
	name   string
	thumbs []plot.Thumbnailer
}

// renderWithLegend draws p on c with its legend at pos (never LegendAuto).
func renderWithLegend(c draw.Canvas, p *plot.Plot, entries []legendEntry, pos LegendPosition, st Style) {
	st = st.orDefault()
	c = withMargin(c)
	switch pos {
	case LegendHidden:
		p.Draw(c)
		return
	case LegendBelow:
		drawLegendBelow(c, p, entries, st)
		return
	}
	for _, e := range entries {
		p.Legend.Add(e.name, e.thumbs...)
	}
	placeLegendInside(p, pos)
	p.Draw(c)
}

// placeLegendInside sets p's legend inside the data area at pos (top
// right, top left or bottom right), clear of the axes' padding.
func placeLegendInside(p *plot.Plot, pos LegendPosition) {
	p.Legend.Top = pos != LegendBottomRight
	p.Legend.Left = pos == LegendTopLeft
	// Keep the legend clear of the axes' padding and the plot edge.
	inset := vg.Points(4)
	if p.Legend.Left {
		p.Legend.XOffs = inset
	} else {
		p.Legend.XOffs = -inset
	}
	if p.Legend.Top {
		p.Legend.YOffs = -inset
	} else {
		p.Legend.YOffs = inset
	}
}

// margin is the blank border around every figure, so that text and lines
// never touch the edge of the image.
const margin = vg.Length(3)

// withMargin returns c shrunk by the figure margin.
func withMargin(c draw.Canvas) draw.Canvas {
	return draw.Crop(c, margin, -margin, margin, -margin)
}

// drawLegendBelow draws p in the upper part of c and the legend, in as many
// columns as fit the width, in a strip along the bottom.
func drawLegendBelow(c draw.Canvas, p *plot.Plot, entries []legendEntry, st Style) {
	if len(entries) == 0 {
		p.Draw(c)
		return
	}
	stripH := legendStripHeight(c, entries, st)
	plotCanvas := c
	plotCanvas.Min.Y += stripH
	p.Draw(plotCanvas)
	drawLegendStrip(c, entries, st)
}

// legendGeometry returns how a legend strip along the bottom of c lays
// out entries: columns, rows, column width, line height and strip height.
func legendGeometry(c draw.Canvas, entries []legendEntry, st Style) (cols, rows int, widest, entryH, stripH vg.Length) {
	ts := st.textStyle(st.LegendSize)
	thumbW := vg.Points(14)
	gap := vg.Points(3)
	colGap := vg.Points(8)
	entryH = ts.FontExtents().Height * 1.15
	for _, e := range entries {
		if w := thumbW + gap + ts.Width(e.name); w > widest {
			widest = w
		}
	}
	avail := c.Max.X - c.Min.X - vg.Points(8)
	cols = int(math.Max(1, math.Floor(float64((avail+colGap)/(widest+colGap)))))
	if cols > len(entries) {
		cols = len(entries)
	}
	rows = (len(entries) + cols - 1) / cols
	return cols, rows, widest, entryH, vg.Length(rows)*entryH + vg.Points(4)
}

// legendStripHeight is the height of the legend strip of entries on c.
func legendStripHeight(c draw.Canvas, entries []legendEntry, st Style) vg.Length {
	if len(entries) == 0 {
		return 0
	}
	_, _, _, _, h := legendGeometry(c, entries, st)
	return h
}

// drawLegendStrip draws the legend of entries in a strip along the bottom
// of c, centred, in as many columns as fit.
func drawLegendStrip(c draw.Canvas, entries []legendEntry, st Style) {
	if len(entries) == 0 {
		return
	}
	ts := st.textStyle(st.LegendSize)
	thumbW := vg.Points(14)
	gap := vg.Points(3)
	colGap := vg.Points(8)
	cols, _, widest, entryH, stripH := legendGeometry(c, entries, st)
	totalW := vg.Length(cols)*widest + vg.Length(cols-1)*colGap
	x0 := c.Min.X + (c.Max.X-c.Min.X-totalW)/2
	top := c.Min.Y + stripH - vg.Points(2)
	for i, e := range entries {
		col, row := i%cols, i/cols
		x := x0 + vg.Length(col)*(widest+colGap)
		yTop := top - vg.Length(row)*entryH
		icon := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: x, Y: yTop - entryH},
			Max: vg.Point{X: x + thumbW, Y: yTop},
		}}
		for _, t := range e.thumbs {
			t.Thumbnail(&icon)
		}
		sty := ts
		sty.XAlign = draw.XLeft
		sty.YAlign = draw.YCenter
		c.FillText(sty, vg.Point{X: x + thumbW + gap, Y: yTop - entryH/2}, e.name)
	}
}

// Grid lays several figures out as panels of one figure, row by row.
type Grid struct {
	// Rows and Cols are the panel layout; Rows×Cols must hold every panel.
	Rows, Cols int
	// Panels are drawn left to right, top to bottom.
	Panels []Figure
	// Pad is the space between panels (default 4 pt).
	Pad vg.Length
	// SharedLegend draws one legend for the whole figure, below the
	// panels, each name once, instead of a legend per panel (the panels
	// should draw the same series; a run's rows keep their looks through
	// Style.Series). ROC panels then list their curves' AUCs inside.
	SharedLegend bool
	// ShareX and ShareY give every panel the same x or y range, the union
	// of the panels' own, so that panels comparing one quantity can be
	// read against each other; with ShareY only the first column keeps its
	// y axis title.
	ShareX, ShareY bool
}

// NewGrid returns a grid of the given panels with cols columns (and as many
// rows as needed).
func NewGrid(cols int, panels ...Figure) (*Grid, error) {
	if len(panels) == 0 {
		return nil, errors.New("plots: grid needs at least one panel")
	}
	if cols <= 0 {
		return nil, errors.New("plots: grid needs at least one column")
	}
	for i, p := range panels {
		if p == nil {
			return nil, errorf("grid panel %d is nil", i)
		}
	}
	if cols > len(panels) {
		cols = len(panels)
	}
	return &Grid{Rows: (len(panels) + cols - 1) / cols, Cols: cols, Panels: panels}, nil
}

// tiles returns the panel layout of the grid on c.
func (g *Grid) tiles() (draw.Tiles, error) {
	if g.Rows*g.Cols < len(g.Panels) || g.Rows <= 0 || g.Cols <= 0 {
		return draw.Tiles{}, errorf("grid of %d×%d cannot hold %d panels", g.Rows, g.Cols, len(g.Panels))
	}
	pad := g.Pad
	if pad == 0 {
		pad = vg.Points(4)
	}
	return draw.Tiles{Rows: g.Rows, Cols: g.Cols, PadX: pad, PadY: pad}, nil
}

// build builds every panel for its tile of c, with the shared ranges
// applied, and returns them, the shared legend's entries (nil without
// SharedLegend) and the canvas the panels share (c less the legend strip).
func (g *Grid) build(c draw.Canvas) ([]*built, []legendEntry, draw.Canvas, error) {
	tiles, err := g.tiles()
	if err != nil {
		return nil, nil, c, err
	}
	c = withMargin(c)
	area := c
	var bs []*built
	// Panels that bin or evaluate over their x range are built on the
	// shared one, with one bin count from all their values, so that
	// their bars have the same edges and their curves span the axis.
	xlo, xhi, bins := math.Inf(1), math.Inf(-1), 0
	if g.ShareX {
		var all []float64
		for _, f := range g.Panels {
			if xb, ok := f.(xBinned); ok {
				lo, hi, v := xb.xData()
				xlo, xhi = math.Min(xlo, lo), math.Max(xhi, hi)
				all = append(all, v...)
			}
		}
		if xhi > xlo {
			bins = freedmanDiaconisBins(all, xlo, xhi)
		}
	}
	// Tiles differ in height only by the legend strip, which the panels'
	// builds do not depend on: build on the full canvas, then measure.
	for i, f := range g.Panels {
		p, ok := f.(panel)
		if !ok {
			return nil, nil, c, errorf("grid panel %d (%T) cannot share a legend or axes: not a figure of this package", i, f)
		}
		if xb, ok := f.(xBinned); ok && bins > 0 {
			p = xb.onXRange(xlo, xhi, bins)
		}
		b, err := p.build(withMargin(tiles.At(area, i%g.Cols, i/g.Cols)), g.SharedLegend)
		if err != nil {
			return nil, nil, c, errorf("panel %d: %w", i, err)
		}
		bs = append(bs, b)
	}
	var entries []legendEntry
	if g.SharedLegend {
		entries = mergeEntries(bs)
		area.Min.Y += legendStripHeight(c, entries, bs[0].st)
	}
	share := func(get func(*built) (*float64, *float64)) {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, b := range bs {
			l, h := get(b)
			lo, hi = math.Min(lo, *l), math.Max(hi, *h)
		}
		for _, b := range bs {
			l, h := get(b)
			*l, *h = lo, hi
		}
	}
	if g.ShareX {
		share(func(b *built) (*float64, *float64) { return &b.p.X.Min, &b.p.X.Max })
	}
	if g.ShareY {
		share(func(b *built) (*float64, *float64) { return &b.p.Y.Min, &b.p.Y.Max })
		// One axis title per row of panels: the first column's.
		for i, b := range bs {
			if i%g.Cols != 0 {
				b.p.Y.Label.Text = ""
			}
		}
	}
	return bs, entries, area, nil
}

// Render draws every panel in its tile (and the shared legend below them).
func (g *Grid) Render(c draw.Canvas) error {
	if !g.SharedLegend && !g.ShareX && !g.ShareY {
		tiles, err := g.tiles()
		if err != nil {
			return err
		}
		for i, p := range g.Panels {
			if err := p.Render(tiles.At(c, i%g.Cols, i/g.Cols)); err != nil {
				return errorf("panel %d: %w", i, err)
			}
		}
		return nil
	}
	bs, entries, area, err := g.build(c)
	if err != nil {
		return err
	}
	tiles, _ := g.tiles()
	for i, b := range bs {
		b.draw(tiles.At(area, i%g.Cols, i/g.Cols))
	}
	drawLegendStrip(withMargin(c), entries, bs[0].st)
	return nil
}

// labelsCrowded reports whether any of names, in the plot's x tick label
// style, is wider than 95 % of a slot.
func labelsCrowded(p *plot.Plot, names []string, slot vg.Length) bool {
	for _, n := range names {
		if p.X.Tick.Label.Width(n) > slot*0.95 {
			return true
		}
	}
	return false
}
