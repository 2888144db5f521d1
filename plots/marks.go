package plots

import (
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// vLine is a plotter that draws a vertical line across the data area at x.
type vLine struct {
	x     float64
	style draw.LineStyle
}

// Plot implements plot.Plotter.
func (l vLine) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	x := trX(l.x)
	if x < c.Min.X || x > c.Max.X {
		return
	}
	c.StrokeLine2(l.style, x, c.Min.Y, x, c.Max.Y)
}

// Thumbnail implements plot.Thumbnailer.
func (l vLine) Thumbnail(c *draw.Canvas) {
	x := (c.Min.X + c.Max.X) / 2
	c.StrokeLine2(l.style, x, c.Min.Y, x, c.Max.Y)
}

// diagonal is a plotter that draws the y = x line across the data area
// (the chance line of a ROC plot).
type diagonal struct{ style draw.LineStyle }

// Plot implements plot.Plotter.
func (d diagonal) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	lo := max(p.X.Min, p.Y.Min)
	hi := min(p.X.Max, p.Y.Max)
	c.StrokeLines(d.style, c.ClipLinesXY([]vg.Point{{X: trX(lo), Y: trY(lo)}, {X: trX(hi), Y: trY(hi)}})...)
}

// Thumbnail implements plot.Thumbnailer.
func (d diagonal) Thumbnail(c *draw.Canvas) {
	y := (c.Min.Y + c.Max.Y) / 2
	c.StrokeLine2(d.style, c.Min.X, y, c.Max.X, y)
}
