package plots

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Okabe–Ito colours (Okabe & Ito 2008, "Color Universal Design"), the palette
// most journals recommend for readers with colour-vision deficiencies.
var (
	okabeBlack         = color.RGBA{0x00, 0x00, 0x00, 0xff}
	okabeOrange        = color.RGBA{0xE6, 0x9F, 0x00, 0xff}
	okabeSkyBlue       = color.RGBA{0x56, 0xB4, 0xE9, 0xff}
	okabeBluishGreen   = color.RGBA{0x00, 0x9E, 0x73, 0xff}
	okabeYellow        = color.RGBA{0xF0, 0xE4, 0x42, 0xff}
	okabeBlue          = color.RGBA{0x00, 0x72, 0xB2, 0xff}
	okabeVermillion    = color.RGBA{0xD5, 0x5E, 0x00, 0xff}
	okabeReddishPurple = color.RGBA{0xCC, 0x79, 0xA7, 0xff}
)

// OkabeIto returns the eight Okabe–Ito colours in the order figures use them
// for series: blue, vermillion, bluish green, reddish purple, orange, sky
// blue, black, yellow. Yellow comes last because it is faint on white.
// The slice is a fresh copy; change it freely.
func OkabeIto() []color.Color {
	return []color.Color{okabeBlue, okabeVermillion, okabeBluishGreen, okabeReddishPurple,
		okabeOrange, okabeSkyBlue, okabeBlack, okabeYellow}
}

// Style is the one look shared by every figure of this package.
// The zero value is not useful; start from [PaperStyle] and change fields.
type Style struct {
	// Font is the typeface of all text (default Liberation Sans, metric
	// compatible with Arial and Helvetica).
	Font font.Font
	// TitleSize, LabelSize, TickSize and LegendSize are font sizes of the
	// title, axis labels, tick labels and legend (defaults 9, 8, 7, 7 pt:
	// readable when the figure is printed one column, 3.5 in, wide).
	TitleSize, LabelSize, TickSize, LegendSize font.Length
	// LineWidth is the width of data lines (default 1.2 pt); axes use 0.6 pt.
	LineWidth vg.Length
	// GlyphRadius is the radius of markers (default 2 pt).
	GlyphRadius vg.Length
	// Palette colours series in order, cycling when there are more series
	// than colours (default [OkabeIto]). After the first cycle lines become
	// dashed so that every series stays distinguishable.
	Palette []color.Color
	// Grid is the colour of the light major grid lines drawn behind the
	// data (default light grey); nil draws no grid.
	Grid color.Color
	// Series, when set, fixes the look of named series: a series whose
	// name is here takes the colour, dashes, marker and hatching of that
	// index instead of those of its position, so that a run's rows keep
	// their looks in every figure. Give every name its own index; series
	// not named take the lowest indexes the panel leaves free.
	Series map[string]int
}

// PaperStyle returns the default style: Liberation Sans, 7–9 pt text,
// Okabe–Ito colours, a light grid.
func PaperStyle() Style {
	return Style{
		Font:        font.Font{Typeface: "Liberation", Variant: "Sans"},
		TitleSize:   9,
		LabelSize:   8,
		TickSize:    7,
		LegendSize:  7,
		LineWidth:   vg.Points(1.2),
		GlyphRadius: vg.Points(2),
		Palette:     OkabeIto(),
		Grid:        color.Gray{Y: 0xE0},
	}
}

// orDefault returns s, or PaperStyle when s is the zero Style (so that a
// figure built as a struct literal still gets the paper look).
func (s Style) orDefault() Style {
	if len(s.Palette) == 0 && s.TitleSize == 0 && s.Font.Typeface == "" {
		d := PaperStyle()
		d.Series = s.Series
		return d
	}
	d := PaperStyle()
	if len(s.Palette) == 0 {
		s.Palette = d.Palette
	}
	if s.Font.Typeface == "" {
		s.Font = d.Font
	}
	for _, p := range []struct{ v, d *font.Length }{{&s.TitleSize, &d.TitleSize}, {&s.LabelSize, &d.LabelSize},
		{&s.TickSize, &d.TickSize}, {&s.LegendSize, &d.LegendSize}} {
		if *p.v <= 0 {
			*p.v = *p.d
		}
	}
	if s.LineWidth <= 0 {
		s.LineWidth = d.LineWidth
	}
	if s.GlyphRadius <= 0 {
		s.GlyphRadius = d.GlyphRadius
	}
	return s
}

// Color returns the colour of series i.
func (s Style) Color(i int) color.Color {
	s = s.orDefault()
	return s.Palette[i%len(s.Palette)]
}

// Dashes returns the dash pattern of series i: solid for the first pass over
// the palette, then dashed, dotted and dash-dotted.
func (s Style) Dashes(i int) []vg.Length {
	s = s.orDefault()
	switch (i / len(s.Palette)) % 4 {
	case 1:
		return []vg.Length{vg.Points(4), vg.Points(2)}
	case 2:
		return []vg.Length{vg.Points(1), vg.Points(1.5)}
	case 3:
		return []vg.Length{vg.Points(4), vg.Points(1.5), vg.Points(1), vg.Points(1.5)}
	}
	return nil
}

// glyphShapes are the marker shapes, cycled so that series also differ in
// shape (a second cue after colour).
var glyphShapes = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{},
	draw.PyramidGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}}

// Glyph returns the marker style of series i.
func (s Style) Glyph(i int) draw.GlyphStyle {
	s = s.orDefault()
	return draw.GlyphStyle{Color: s.Color(i), Radius: s.GlyphRadius, Shape: glyphShapes[i%len(glyphShapes)]}
}

// Line returns the line style of series i.
func (s Style) Line(i int) draw.LineStyle {
	s = s.orDefault()
	return draw.LineStyle{Color: s.Color(i), Width: s.LineWidth, Dashes: s.Dashes(i)}
}

// textStyle returns a text style of the given size. Bold text is not used:
// gonum's PDF canvas (v0.17) registers every font without its style and
// then fails to find bold ones ("undefined font: liberationsans-bold B").
func (s Style) textStyle(size font.Length) text.Style {
	f := s.Font
	return text.Style{
		Color:   color.Black,
		Font:    font.From(f, size),
		Handler: plot.DefaultTextHandler,
	}
}

// gridMode says which light grid lines a figure draws behind its data.
type gridMode int

const (
	gridNone gridMode = iota
	gridHorizontal
	gridBoth
)

// newPlot returns a gonum plot with the style applied: fonts and sizes,
// thin axes, a title, axis labels and (when Grid is set) a light grid.
func (s Style) newPlot(title, xlabel, ylabel string, grid gridMode) *plot.Plot {
	s = s.orDefault()
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle = s.textStyle(s.TitleSize)
	p.Title.TextStyle.XAlign = draw.XCenter
	p.Title.TextStyle.YAlign = draw.YTop
	p.Title.Padding = vg.Points(4)
	// Only fonts change: gonum's alignments (centred axis labels, tick
	// labels beside their ticks) stay as they are.
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(s.Font, s.LabelSize)
		a.Label.Padding = vg.Points(2)
		a.Tick.Label.Font = font.From(s.Font, s.TickSize)
		a.Tick.Length = vg.Points(3)
		a.Tick.Marker = niceTicks{} // round labels ("250", "0.5"); nominal axes replace it
		a.Tick.LineStyle.Width = vg.Points(0.6)
		a.LineStyle.Width = vg.Points(0.6)
		a.Padding = vg.Points(2)
	}
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.Legend.TextStyle.Font = font.From(s.Font, s.LegendSize)
	p.Legend.ThumbnailWidth = vg.Points(14)
	p.Legend.Padding = vg.Points(1)
	if s.Grid != nil && grid != gridNone {
		g := plotter.NewGrid()
		g.Vertical.Color = s.Grid
		g.Horizontal.Color = s.Grid
		g.Vertical.Width = vg.Points(0.4)
		g.Horizontal.Width = vg.Points(0.4)
		if grid == gridHorizontal {
			g.Vertical.Color = nil
		}
		p.Add(g)
	}
	return p
}

// withAlpha returns c with its alpha set to a (0–1), premultiplied as
// image/color expects.
func withAlpha(c color.Color, a float64) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a*255 + 0.5)}
}
