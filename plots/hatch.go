package plots

import (
	"image/color"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Hatch is a fill pattern drawn over a bar's colour, the second cue (after
// colour) that tells bar series apart once a figure has more series than
// the palette has colours.
type Hatch int

// The hatchings, in the order Style.Hatch gives them to successive passes
// over the palette.
const (
	HatchNone     Hatch = iota // plain fill (the first pass over the palette)
	HatchForward               // "/" diagonals
	HatchBackward              // "\" diagonals
	HatchCross                 // both diagonals
)

// Hatch returns the hatching of bar series i: none for the first pass over
// the palette, then forward, backward and crossed diagonals (as Dashes does
// for lines).
func (s Style) Hatch(i int) Hatch {
	s = s.orDefault()
	return Hatch((i / len(s.Palette)) % 4)
}

// hatchSpacing is the distance between hatch lines.
const hatchSpacing = vg.Length(3)

// drawHatch draws hatching h inside the canvas rectangle (x0, y0)–(x1, y1),
// in black over light fills and white over dark ones. gonum/plot has no
// pattern fills, so the diagonals are clipped to the rectangle here:
// a line y = x + b meets it for x in [max(x0, y0−b), min(x1, y1−b)], a
// line y = −x + b for x in [max(x0, b−y1), min(x1, b−y0)].
func drawHatch(c draw.Canvas, h Hatch, fill color.Color, x0, y0, x1, y1 vg.Length) {
	if h == HatchNone {
		return
	}
	if x0 > x1 {
		x0, x1 = x1, x0
	}
	if y0 > y1 {
		y0, y1 = y1, y0
	}
	sty := draw.LineStyle{Color: hatchInk(fill), Width: vg.Points(0.4)}
	if h == HatchForward || h == HatchCross {
		for b := y0 - x1; b < y1-x0; b += hatchSpacing {
			lo, hi := max(x0, y0-b), min(x1, y1-b)
			if lo < hi {
				c.StrokeLine2(sty, lo, lo+b, hi, hi+b)
			}
		}
	}
	if h == HatchBackward || h == HatchCross {
		for b := x0 + y0; b < x1+y1; b += hatchSpacing {
			lo, hi := max(x0, b-y1), min(x1, b-y0)
			if lo < hi {
				c.StrokeLine2(sty, lo, b-lo, hi, b-hi)
			}
		}
	}
}

// hatchInk is white over dark fills (relative luminance below 0.3) and
// black over the others.
func hatchInk(fill color.Color) color.Color {
	r, g, b, _ := fill.RGBA()
	lum := (0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(b)) / 0xffff
	if lum < 0.3 {
		return color.White
	}
	return color.Black
}
