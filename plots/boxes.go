package plots

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Boxes draws one box plot per group (median, quartiles, whiskers at 1.5
// IQR, outliers as points): acoustic features per character or per
// Low/Medium/High bin.
type Boxes struct {
	// Title, XLabel and YLabel label the figure (default: none).
	Title, XLabel, YLabel string
	// Colored fills each box with its series colour (default true); when
	// false boxes are white.
	Colored bool
	// ShowCounts appends "n=…" under each group name (default false).
	ShowCounts bool
	// RotateLabels turns the group names by 30° (default: when there are
	// more than 6 groups; names too wide for their slot are turned anyway).
	RotateLabels bool
	// YMin and YMax fix the y range (default NaN: from the data).
	YMin, YMax float64
	// Style is the look (default PaperStyle).
	Style Style

	groups GroupSlice
}

// NewBoxes returns a box-plot figure of g; every group needs at least one
// finite value.
func NewBoxes(g Groups) (*Boxes, error) {
	gs, err := copyGroups("boxes", g, 1)
	if err != nil {
		return nil, err
	}
	return &Boxes{Colored: true, RotateLabels: len(gs) > 6, YMin: math.NaN(), YMax: math.NaN(),
		Style: PaperStyle(), groups: gs}, nil
}

// Render draws the figure on c.
func (b *Boxes) Render(c draw.Canvas) error {
	st := b.Style.orDefault()
	p := st.newPlot(b.Title, b.XLabel, b.YLabel, gridHorizontal)
	// Box width: 60 % of each group's slot along the data area.
	slot := (c.Max.X - c.Min.X - vg.Points(40)) / vg.Length(len(b.groups))
	w := min(max(slot*0.6, vg.Points(4)), vg.Points(40))
	names := make([]string, len(b.groups))
	for i, g := range b.groups {
		bp, err := plotter.NewBoxPlot(w, float64(i), plotter.Values(g.Values))
		if err != nil {
			return errorf("boxes: group %q: %w", g.Name, err)
		}
		line := draw.LineStyle{Color: color.Black, Width: vg.Points(0.6)}
		bp.BoxStyle, bp.WhiskerStyle = line, line
		bp.MedianStyle = draw.LineStyle{Color: color.Black, Width: vg.Points(1.2)}
		bp.CapWidth = w / 2
		bp.GlyphStyle = draw.GlyphStyle{Color: color.Gray{Y: 0x60}, Radius: vg.Points(1.2), Shape: draw.CircleGlyph{}}
		if b.Colored {
			bp.FillColor = withAlpha(st.Color(i), 0.75)
		}
		p.Add(bp)
		names[i] = g.Name
		if b.ShowCounts {
			names[i] += "\n" + fmt.Sprintf("n=%d", len(g.Values))
		}
	}
	p.NominalX(names...)
	if b.RotateLabels || labelsCrowded(p, names, slot) {
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YCenter
	}
	p.X.Min, p.X.Max = -0.6, float64(len(b.groups))-0.4
	if finite(b.YMin) {
		p.Y.Min = b.YMin
	}
	if finite(b.YMax) {
		p.Y.Max = b.YMax
	}
	if !(p.Y.Max >= p.Y.Min) {
		return errorf("boxes: empty y range [%g, %g]", p.Y.Min, p.Y.Max)
	}
	p.Draw(withMargin(c))
	return nil
}
