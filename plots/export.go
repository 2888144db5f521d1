package plots

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/roleprint/roleprint/internal/fsx"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Format is an export format.
type Format string

// The export formats.
const (
	PNG Format = "png"
	SVG Format = "svg"
	PDF Format = "pdf"
)

// Formats lists the export formats.
func Formats() []Format { return []Format{PNG, SVG, PDF} }

// FormatOf returns the format named by a file's extension.
func FormatOf(path string) (Format, error) {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	for _, f := range Formats() {
		if string(f) == ext {
			return f, nil
		}
	}
	return "", errorf("%s: unknown figure format %q (want .png, .svg or .pdf)", path, ext)
}

// Size is the physical size of an exported figure and the resolution of
// raster (PNG) exports. SVG and PDF are vector formats: DPI does not apply.
type Size struct {
	Width, Height vg.Length
	// DPI is the PNG resolution in dots per inch (default 300).
	DPI int
}

// Common sizes.
var (
	// ColumnWidth is one column of a two-column paper.
	ColumnWidth = 3.5 * vg.Inch
	// TextWidth is the full text width of a two-column paper.
	TextWidth = 7 * vg.Inch
)

// ColumnSize returns a one-column figure size (3.5 × 2.5 in at 300 DPI).
func ColumnSize() Size { return Size{Width: ColumnWidth, Height: 2.5 * vg.Inch, DPI: 300} }

// ColumnHeight returns a one-column figure size of the given height in
// inches at 300 DPI (notebooks use 2.8 for bar and line panels).
func ColumnHeight(inches float64) Size {
	return Size{Width: ColumnWidth, Height: vg.Length(inches) * vg.Inch, DPI: 300}
}

// TextHeight returns a full-text-width figure size of the given height
// in inches at 300 DPI.
func TextHeight(inches float64) Size {
	return Size{Width: TextWidth, Height: vg.Length(inches) * vg.Inch, DPI: 300}
}

// SquareSize returns a one-column square figure size (3.5 × 3.5 in at 300
// DPI), for ROC curves.
func SquareSize() Size { return Size{Width: ColumnWidth, Height: ColumnWidth, DPI: 300} }

// WideSize returns a full-width figure size (7 × 3 in at 300 DPI).
func WideSize() Size { return Size{Width: TextWidth, Height: 3 * vg.Inch, DPI: 300} }

// ScreenSize returns the size used to show figures inline in notebooks
// (one column at 150 DPI: about 525 pixels wide, sharp on most screens).
func ScreenSize() Size { return Size{Width: ColumnWidth, Height: 2.5 * vg.Inch, DPI: 150} }

func (s Size) check() (Size, error) {
	if s.Width <= 0 || s.Height <= 0 {
		return s, errorf("figure size %v×%v: width and height must be positive", s.Width, s.Height)
	}
	if s.DPI == 0 {
		s.DPI = 300
	}
	if s.DPI < 0 || s.DPI > 2400 {
		return s, errorf("figure DPI %d out of range (1–2400)", s.DPI)
	}
	if px := float64(s.Width/vg.Inch) * float64(s.DPI) * float64(s.Height/vg.Inch) * float64(s.DPI); px > 1e8 {
		return s, errorf("figure of %v×%v at %d DPI would have %.0f pixels (limit 1e8)", s.Width, s.Height, s.DPI, px)
	}
	return s, nil
}

// Pixels returns the PNG dimensions of a figure of this size.
func (s Size) Pixels() (w, h int) {
	s, _ = s.check()
	return int(float64(s.Width/vg.Inch)*float64(s.DPI) + 0.5), int(float64(s.Height/vg.Inch)*float64(s.DPI) + 0.5)
}

// EncodeOptions tune an export.
type EncodeOptions struct {
	// EmbedFonts embeds the fonts in SVG and PDF files, so that they look
	// the same on every machine and journals accept them. Encode, Save and
	// SaveAll embed; notebooks' inline SVG does not (it would repeat the
	// font in every cell output).
	EmbedFonts bool
}

// Encode renders f at the given size and writes it to w in the given
// format, with the fonts embedded in SVG and PDF.
func Encode(w io.Writer, f Figure, format Format, size Size) error {
	return EncodeWith(w, f, format, size, EncodeOptions{EmbedFonts: true})
}

// EncodeWith is Encode with options.
func EncodeWith(w io.Writer, f Figure, format Format, size Size, opts EncodeOptions) error {
	if f == nil {
		return errorf("nil figure")
	}
	size, err := size.check()
	if err != nil {
		return err
	}
	var c interface {
		vg.CanvasSizer
		io.WriterTo
	}
	switch format {
	case PNG:
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(size.Width, size.Height), vgimg.UseDPI(size.DPI))}
	case SVG:
		c = vgsvg.NewWith(vgsvg.UseWH(size.Width, size.Height), vgsvg.EmbedFonts(opts.EmbedFonts))
	case PDF:
		pc := vgpdf.New(size.Width, size.Height)
		pc.EmbedFonts(opts.EmbedFonts)
		c = pdfCanvas{pc}
	default:
		return errorf("unknown figure format %q (want png, svg or pdf)", format)
	}
	dc := draw.New(c)
	// An opaque white page, so that vector exports do not show through in
	// viewers with dark backgrounds.
	dc.FillPolygon(color.White, []vg.Point{dc.Min, {X: dc.Max.X, Y: dc.Min.Y}, dc.Max, {X: dc.Min.X, Y: dc.Max.Y}})
	if err := f.Render(dc); err != nil {
		return err
	}
	if format != SVG {
		_, err = c.WriteTo(w)
		return err
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return err
	}
	_, err = w.Write(svgFontFallback(buf.Bytes()))
	return err
}

// pdfCanvas is gonum's PDF canvas with text re-encoded for it: vgpdf
// (v0.17) registers its fonts with the cp1252 code page but hands text to
// go-fpdf as UTF-8, so that "×" or "–" came out as "Ã—" and "â€“". Each
// string is encoded to cp1252 (golang.org/x/text's charmap) before it
// reaches the PDF; characters cp1252 lacks become "?", as the PDF fonts
// cannot show them either.
type pdfCanvas struct{ *vgpdf.Canvas }

var cp1252 = encoding.ReplaceUnsupported(charmap.Windows1252.NewEncoder())

// FillString implements vg.Canvas.
func (c pdfCanvas) FillString(f font.Face, pt vg.Point, s string) {
	if enc, err := cp1252.String(s); err == nil {
		s = enc
	}
	c.Canvas.FillString(f, pt, s)
}

// svgFontFallback adds fallbacks after the Liberation font families in an
// SVG, so that viewers without Liberation use the metric-compatible Arial /
// Times / Courier and text keeps its measured width.
func svgFontFallback(svg []byte) []byte {
	r := strings.NewReplacer(
		"font-family:Liberation Sans;", "font-family:'Liberation Sans',Arial,Helvetica,sans-serif;",
		"font-family:Liberation Serif;", "font-family:'Liberation Serif','Times New Roman',Times,serif;",
		"font-family:Liberation Mono;", "font-family:'Liberation Mono','Courier New',Courier,monospace;",
	)
	return []byte(r.Replace(string(svg)))
}

// Bytes renders f in the given format and returns the encoded file.
func Bytes(f Figure, format Format, size Size) ([]byte, error) {
	var buf bytes.Buffer
	if err := Encode(&buf, f, format, size); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Save renders f to path, in the format named by its extension (.png, .svg,
// .pdf). The file is written to a temporary name and renamed, so a failed
// export never leaves a truncated figure behind.
func Save(path string, f Figure, size Size) error {
	format, err := FormatOf(path)
	if err != nil {
		return err
	}
	b, err := Bytes(f, format, size)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := fsx.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	return nil
}

// SaveAll renders f as dir/name.FORMAT for each format (PNG and SVG when
// none are given), creating dir if needed, and returns the paths written.
func SaveAll(dir, name string, f Figure, size Size, formats ...Format) ([]string, error) {
	if name == "" || strings.ContainsAny(name, `/\`) {
		return nil, errorf("figure name %q must be a plain file name", name)
	}
	if len(formats) == 0 {
		formats = []Format{PNG, SVG}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("plots: %w", err)
	}
	var paths []string
	for _, format := range formats {
		p := filepath.Join(dir, name+"."+string(format))
		b, err := Bytes(f, format, size)
		if err != nil {
			return paths, fmt.Errorf("%s: %w", p, err)
		}
		if err := fsx.WriteFile(p, b, 0o644); err != nil {
			return paths, fmt.Errorf("plots: %w", err)
		}
		paths = append(paths, p)
	}
	return paths, nil
}
