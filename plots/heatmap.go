package plots

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// MatrixValues is a labelled matrix: role × role similarities, models ×
// roles Simulation Ranks, ...
type MatrixValues interface {
	// Dims returns the number of rows and columns.
	Dims() (rows, cols int)
	// At returns the value of cell (r, c); NaN marks an empty cell.
	At(r, c int) float64
	RowName(r int) string
	ColName(c int) string
}

// Matrix is a [MatrixValues] held in slices; Values is indexed [row][col].
type Matrix struct {
	Rows, Cols []string
	Values     [][]float64
}

// Dims implements MatrixValues.
func (m Matrix) Dims() (int, int) { return len(m.Rows), len(m.Cols) }

// At implements MatrixValues.
func (m Matrix) At(r, c int) float64 { return m.Values[r][c] }

// RowName implements MatrixValues.
func (m Matrix) RowName(r int) string { return m.Rows[r] }

// ColName implements MatrixValues.
func (m Matrix) ColName(c int) string { return m.Cols[c] }

// Viridis returns a perceptually uniform, colour-blind-safe sequential
// colour map through matplotlib's viridis anchor colours (dark purple → yellow),
// interpolated with linear luminance by gonum's moreland package.
func Viridis() palette.ColorMap {
	cm, err := moreland.NewLuminance([]color.Color{
		color.NRGBA{0x44, 0x01, 0x54, 0xff}, color.NRGBA{0x3B, 0x52, 0x8B, 0xff},
		color.NRGBA{0x21, 0x91, 0x8C, 0xff}, color.NRGBA{0x5E, 0xC9, 0x62, 0xff},
		color.NRGBA{0xFD, 0xE7, 0x25, 0xff},
	})
	if err != nil { // the anchors have increasing luminance; cannot happen
		panic(err)
	}
	return cm
}

// Heatmap draws a labelled matrix as coloured cells with a colour bar, row 0
// at the top, optionally writing each value in its cell.
type Heatmap struct {
	// Title, XLabel and YLabel label the figure (default: none).
	Title, XLabel, YLabel string
	// ColorBarLabel labels the colour bar (default: none).
	ColorBarLabel string
	// ColorMap maps values to colours (default Viridis). Render sets its
	// Min and Max to the figure's range.
	ColorMap palette.ColorMap
	// Reverse flips the colour map (e.g. for ranks, where low is good).
	Reverse bool
	// Min and Max fix the colour range (default NaN: the data range).
	Min, Max float64
	// Annotate writes each value in its cell with Format (default: on
	// when the matrix has at most 12×12 cells; Format "%.2f"). Values too
	// wide for their cell at the drawn size are left out.
	Annotate bool
	Format   string
	// MaxLabels is the largest number of rows (or columns) whose names are
	// written on the axes (default 40); beyond it the names are left out.
	MaxLabels int
	// Style is the look (default PaperStyle).
	Style Style

	rows, cols []string
	z          [][]float64
}

// NewHeatmap returns a heatmap of m. It needs at least one row and one
// column, rows of equal length, no infinite values and at least one finite
// value.
func NewHeatmap(m MatrixValues) (*Heatmap, error) {
	if m == nil {
		return nil, errorf("heatmap: no data")
	}
	nr, nc := m.Dims()
	if nr <= 0 || nc <= 0 {
		return nil, errorf("heatmap: need at least one row and one column (have %d×%d)", nr, nc)
	}
	if mm, ok := m.(Matrix); ok {
		if len(mm.Values) != nr {
			return nil, errorf("heatmap: %d row names but %d rows of values", nr, len(mm.Values))
		}
		for r, row := range mm.Values {
			if len(row) != nc {
				return nil, errorf("heatmap: row %d (%q) has %d values, want %d", r, mm.Rows[r], len(row), nc)
			}
		}
	}
	h := &Heatmap{Min: math.NaN(), Max: math.NaN(), Format: "%.2f", MaxLabels: 40,
		Annotate: nr <= 12 && nc <= 12, Style: PaperStyle()}
	any := false
	for r := range nr {
		h.rows = append(h.rows, m.RowName(r))
		row := make([]float64, nc)
		for c := range nc {
			v := m.At(r, c)
			if math.IsInf(v, 0) {
				return nil, errorf("heatmap: cell (%q, %q) is %v", m.RowName(r), m.ColName(c), v)
			}
			any = any || !math.IsNaN(v)
			row[c] = v
		}
		h.z = append(h.z, row)
	}
	for c := range nc {
		h.cols = append(h.cols, m.ColName(c))
	}
	if !any {
		return nil, errorf("heatmap: every cell is NaN")
	}
	return h, nil
}

// gridXYZ adapts the matrix to plotter.GridXYZ with row 0 at the top.
type gridXYZ struct{ z [][]float64 }

func (g gridXYZ) Dims() (c, r int)   { return len(g.z[0]), len(g.z) }
func (g gridXYZ) Z(c, r int) float64 { return g.z[len(g.z)-1-r][c] }
func (g gridXYZ) X(c int) float64    { return float64(c) }
func (g gridXYZ) Y(r int) float64    { return float64(r) }

// valueRange returns the colour range.
func (h *Heatmap) valueRange() (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, row := range h.z {
		for _, v := range row {
			if !math.IsNaN(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if finite(h.Min) {
		lo = h.Min
	}
	if finite(h.Max) {
		hi = h.Max
	}
	if hi == lo {
		lo, hi = lo-0.5, hi+0.5
	}
	return lo, hi
}

// Render draws the heatmap and its colour bar on c.
func (h *Heatmap) Render(c draw.Canvas) error {
	st := h.Style.orDefault()
	lo, hi := h.valueRange()
	if !(hi > lo) {
		return errorf("heatmap: empty colour range [%g, %g]", lo, hi)
	}
	cm := h.ColorMap
	if cm == nil {
		cm = Viridis()
	}
	if h.Reverse {
		cm = palette.Reverse(cm)
	}
	cm.SetMin(lo)
	cm.SetMax(hi)
	pal := cm.Palette(256)

	p := st.newPlot(h.Title, h.XLabel, h.YLabel, gridNone)
	hm := plotter.NewHeatMap(gridXYZ{h.z}, pal)
	hm.Min, hm.Max = lo, hi
	hm.NaN = color.Gray{Y: 0xF0}
	hm.Underflow, hm.Overflow = pal.Colors()[0], pal.Colors()[len(pal.Colors())-1]
	p.Add(hm)
	maxLabels := h.MaxLabels
	if maxLabels <= 0 {
		maxLabels = 40
	}
	if len(h.cols) <= maxLabels {
		p.NominalX(h.cols...)
		if len(h.cols) > 3 || longest(h.cols) > 8 {
			p.X.Tick.Label.Rotation = math.Pi / 4
			p.X.Tick.Label.XAlign = draw.XRight
			p.X.Tick.Label.YAlign = draw.YTop
		}
	} else {
		p.HideX()
	}
	if len(h.rows) <= maxLabels {
		rev := make([]string, len(h.rows))
		for i, r := range h.rows {
			rev[len(rev)-1-i] = r
		}
		p.NominalY(rev...)
	} else {
		p.HideY()
	}
	p.X.Min, p.X.Max = -0.5, float64(len(h.cols))-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(len(h.rows))-0.5
	p.X.Padding, p.Y.Padding = 0, 0
	if h.Annotate {
		format := h.Format
		if format == "" {
			format = "%.2f"
		}
		p.Add(&cellLabels{z: h.z, format: format, cm: cm, style: st.textStyle(st.TickSize * 0.9)})
	}

	c = withMargin(c)
	// Colour bar in a strip on the right, spanning the heatmap's data area
	// vertically: the colour bar plot's y axis (tick labels and label) on
	// the left of the strip, the bar itself (8 pt wide) on the right.
	cb := st.newPlot("", "", h.ColorBarLabel, gridNone)
	cb.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true})
	cb.HideX()
	cb.X.Padding, cb.Y.Padding = 0, 0
	cb.Y.Min, cb.Y.Max = lo, hi
	axisW := cb.DataCanvas(c).Min.X - c.Min.X
	barW := vg.Points(8)
	gap := vg.Points(6)
	main := c
	main.Max.X -= gap + axisW + barW
	p.Draw(main)
	data := p.DataCanvas(main)
	cb.Draw(draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
		Min: vg.Point{X: main.Max.X + gap, Y: data.Min.Y},
		Max: vg.Point{X: main.Max.X + gap + axisW + barW, Y: data.Max.Y},
	}})
	return nil
}

// longest returns the length in runes of the longest name.
func longest(names []string) int {
	n := 0
	for _, s := range names {
		n = max(n, len([]rune(s)))
	}
	return n
}

// cellLabels writes the value of each heatmap cell in it, black on light
// cells and white on dark ones.
type cellLabels struct {
	z      [][]float64
	format string
	cm     palette.ColorMap
	style  text.Style
}

// Plot implements plot.Plotter.
func (l *cellLabels) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	nr := len(l.z)
	cellW, cellH := trX(1)-trX(0), trY(1)-trY(0)
	for _, row := range l.z {
		for _, v := range row {
			if !math.IsNaN(v) && (l.style.Width(fmt.Sprintf(l.format, v)) > 0.92*cellW || l.style.Height("0") > 0.9*cellH) {
				return
			}
		}
	}
	for r, row := range l.z {
		for col, v := range row {
			if math.IsNaN(v) {
				continue
			}
			sty := l.style
			sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
			sty.Color = color.Black
			if cc, err := l.cm.At(math.Max(l.cm.Min(), math.Min(l.cm.Max(), v))); err == nil && luminance(cc) < 0.45 {
				sty.Color = color.White
			}
			c.FillText(sty, vg.Point{X: trX(float64(col)), Y: trY(float64(nr - 1 - r))}, fmt.Sprintf(l.format, v))
		}
	}
}

// luminance returns the relative luminance (0 black – 1 white) of c.
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	return (0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(b)) / 0xffff
}
