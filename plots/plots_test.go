package plots

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// sims returns n pseudo-random similarities around mean (deterministic).
func sims(seed uint64, n int, mean, sd float64) []float64 {
	r := rand.New(rand.NewPCG(seed, 7))
	out := make([]float64, n)
	for i := range out {
		out[i] = math.Max(-1, math.Min(1, mean+sd*r.NormFloat64()))
	}
	return out
}

// figures returns one figure of every kind, built from realistic data.
func figures(t testing.TB) map[string]Figure {
	t.Helper()
	must := func(f Figure, err error) Figure {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	pos, neg := sims(1, 400, 0.62, 0.12), sims(2, 400, 0.41, 0.14)
	dist := must(NewDistributions(GroupSlice{{"positive", pos}, {"negative", neg}}))
	dist.(*Distributions).Title = "Real–generated pairs"

	var ls []Curve
	for i, name := range []string{"style", "glove-sif", "tfidf-char"} {
		p, n := sims(uint64(10+i), 300, 0.5+0.08*float64(i), 0.15), sims(uint64(20+i), 300, 0.45, 0.15)
		lab := LabelledScores{Scores: append(p, n...), Positive: make([]bool, 600)}
		for k := range 300 {
			lab.Positive[k] = true
		}
		ls = append(ls, Curve{Name: name, Data: lab})
	}
	roc := must(NewROC(ls...))

	bt := BarTable{Groups: []string{"Seen-Seen", "Seen-Unseen", "Unseen-Unseen"},
		Series: []string{"style", "pos", "glove", "glove-sif", "tfidf-char", "use-lite"},
		Y:      [][]float64{{0.55, 0.52, 0.54}, {0.58, 0.55, 0.57}, {0.70, 0.66, 0.69}, {0.74, 0.70, 0.72}, {0.80, 0.75, 0.77}, {0.83, 0.79, math.NaN()}},
		Err:    [][]float64{{0.01, 0.02, 0.01}, {0.01, 0.01, 0.02}, {0.02, 0.01, 0.01}, {0.01, 0.01, 0.02}, {0.01, 0.02, 0.03}, {0.01, 0.01, 0.0}}}
	bars := must(NewBars(bt))
	bars.(*Bars).YLabel = "AUC"
	bars.(*Bars).Reference = BarTable{Groups: bt.Groups, Series: bt.Series,
		Y: [][]float64{{0.5256, 0.5126, 0.5490}}}
	bars.(*Bars).ReferenceName = "paper (LIWC)"

	roles := []string{"Sheldon", "Leonard", "Penny", "Howard", "Raj"}
	m := Matrix{Rows: roles, Cols: roles}
	for r := range roles {
		row := make([]float64, len(roles))
		for c := range roles {
			row[c] = 0.4 + 0.05*float64((r*3+c*5)%7)
			if r == c {
				row[c] = 0.85
			}
		}
		m.Values = append(m.Values, row)
	}
	heat := must(NewHeatmap(m))
	heat.(*Heatmap).ColorBarLabel = "Cosine similarity"
	heat.(*Heatmap).XLabel, heat.(*Heatmap).YLabel = "Real role", "Generated role"

	var series []LineSeries
	for i, name := range []string{"style", "glove-sif", "tfidf-char"} {
		xy := plotter.XYs{{X: 0, Y: 0.8 - 0.02*float64(i)}, {X: 1, Y: 0.66 - 0.03*float64(i)}, {X: 2, Y: 0.45 + 0.02*float64(i)}}
		series = append(series, LineSeries{Name: name, XY: xy, Err: plotter.YErrors{{Low: 0.01, High: 0.01}, {Low: 0.02, High: 0.02}, {Low: 0.03, High: 0.03}}})
	}
	lines := must(NewLines(series...))
	lines.(*Lines).XTicks = []string{"Base", "Hard", "Harder"}
	lines.(*Lines).YLabel = "AUC (Unseen-Unseen)"

	boxes := must(NewBoxes(GroupSlice{{"Sheldon", sims(3, 60, 0.5, 0.1)}, {"Penny", sims(4, 60, 0.6, 0.12)}, {"Leonard", sims(5, 60, 0.45, 0.08)}, {"Raj", sims(6, 10, 0.4, 0.2)}}))
	boxes.(*Boxes).YLabel = "Mean F0 (semitones re 100 Hz)"

	grid := must(NewGrid(2, dist, roc))
	return map[string]Figure{"distributions": dist, "roc": roc, "bars": bars, "heatmap": heat, "lines": lines, "boxes": boxes, "grid": grid}
}

// galleryDir returns where the gallery test writes: $PLOTS_GALLERY when set
// (to look at the figures), else a temporary directory.
func galleryDir(t *testing.T) string {
	if d := os.Getenv("PLOTS_GALLERY"); d != "" {
		return d
	}
	return t.TempDir()
}

// TestGallery renders every figure kind in every format at one column width
// and checks the files: PNG decodes at the right pixel size and shows the
// palette's first colour; SVG is well-formed XML of the right size with
// font fallbacks; PDF has the right page size.
func TestGallery(t *testing.T) {
	dir := galleryDir(t)
	size := Size{Width: ColumnWidth, Height: 2.5 * vg.Inch, DPI: 300}
	for name, f := range figures(t) {
		sz := size
		if name == "grid" {
			sz.Width = TextWidth
		}
		paths, err := SaveAll(dir, name, f, sz, PNG, SVG, PDF)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(paths) != 3 {
			t.Fatalf("%s: wrote %v", name, paths)
		}
		wantW, wantH := sz.Pixels()
		checkPNG(t, paths[0], wantW, wantH)
		checkSVG(t, paths[1], sz)
		checkPDF(t, paths[2], sz)
	}
}

func checkPNG(t *testing.T, path string, w, h int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
		t.Fatalf("%s: %dx%d pixels, want %dx%d", path, b.Dx(), b.Dy(), w, h)
	}
	// Every figure draws its first series in Okabe–Ito blue (possibly
	// translucent or, for heatmaps, viridis): look for strongly coloured
	// pixels at all, then for ink.
	var ink, colored int
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r < 0xf000 || g < 0xf000 || bl < 0xf000 {
				ink++
			}
			mx, mn := max(r, g, bl), min(r, g, bl)
			if mx-mn > 0x3000 {
				colored++
			}
		}
	}
	if frac := float64(ink) / float64(w*h); frac < 0.02 {
		t.Errorf("%s: only %.1f%% of pixels are not white", path, 100*frac)
	}
	if colored < 200 {
		t.Errorf("%s: only %d coloured pixels", path, colored)
	}
}

func checkSVG(t *testing.T, path string, sz Size) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var root struct {
		XMLName xml.Name
		Width   string `xml:"width,attr"`
		Height  string `xml:"height,attr"`
	}
	dec := xml.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&root); err != nil {
		t.Fatalf("%s: not XML: %v", path, err)
	}
	if root.XMLName.Local != "svg" {
		t.Fatalf("%s: root element %q", path, root.XMLName.Local)
	}
	wantW := fmtFloat(sz.Width.Points())
	if !strings.HasPrefix(root.Width, wantW) {
		t.Errorf("%s: width %q, want %spt", path, root.Width, wantW)
	}
	if !strings.Contains(string(b), "Arial") {
		t.Errorf("%s: no font fallback", path)
	}
	if !strings.Contains(string(b), "<text") {
		t.Errorf("%s: no text (axis labels)", path)
	}
}

// fmtFloat formats v with at most three decimals and no trailing zeros.
func fmtFloat(v float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.3f", v), "0"), ".")
}

var mediaBox = regexp.MustCompile(`/MediaBox \[0 0 ([0-9.]+) ([0-9.]+)\]`)

func checkPDF(t *testing.T, path string, sz Size) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte("%PDF-")) {
		t.Fatalf("%s: no PDF header", path)
	}
	m := mediaBox.FindSubmatch(b)
	if m == nil {
		t.Fatalf("%s: no MediaBox", path)
	}
	if got, want := string(m[1]), fmtFloat(sz.Width.Points()); !strings.HasPrefix(got, want) {
		t.Errorf("%s: page width %s pt, want %s", path, got, want)
	}
}

func TestPNGDPI(t *testing.T) {
	f := figures(t)["roc"]
	for _, dpi := range []int{72, 150, 300} {
		b, err := Bytes(f, PNG, Size{Width: ColumnWidth, Height: ColumnWidth, DPI: dpi})
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		want := int(3.5*float64(dpi) + 0.5)
		if cfg.Width != want || cfg.Height != want {
			t.Errorf("DPI %d: %dx%d, want %dx%d", dpi, cfg.Width, cfg.Height, want, want)
		}
	}
}

func TestSizeErrors(t *testing.T) {
	f := figures(t)["boxes"]
	for _, sz := range []Size{{}, {Width: -1, Height: 1}, {Width: vg.Inch, Height: vg.Inch, DPI: -3}, {Width: 100 * vg.Inch, Height: 100 * vg.Inch, DPI: 2400}} {
		if _, err := Bytes(f, PNG, sz); err == nil {
			t.Errorf("size %+v accepted", sz)
		}
	}
	if _, err := Bytes(f, "gif", ColumnSize()); err == nil {
		t.Error("gif accepted")
	}
}

func TestSaveUnknownFormatWritesNothing(t *testing.T) {
	dir := t.TempDir()
	if err := Save(filepath.Join(dir, "fig.gif"), figures(t)["bars"], ColumnSize()); err == nil {
		t.Fatal("no error for .gif")
	}
	if err := Save(filepath.Join(dir, "missing", "fig.png"), figures(t)["bars"], ColumnSize()); err == nil {
		t.Fatal("no error for a missing directory")
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 0 {
		t.Fatalf("left files behind: %v", ents)
	}
	if _, err := SaveAll(dir, "a/b", figures(t)["bars"], ColumnSize()); err == nil {
		t.Fatal("SaveAll accepted a path as name")
	}
}

// render renders f as a PNG and decodes it.
func render(t *testing.T, f Figure, sz Size) image.Image {
	t.Helper()
	b, err := Bytes(f, PNG, sz)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func near(a, b color.Color, tol uint32) bool {
	r1, g1, b1, _ := a.RGBA()
	r2, g2, b2, _ := b.RGBA()
	d := func(x, y uint32) uint32 {
		if x > y {
			return x - y
		}
		return y - x
	}
	return d(r1, r2) <= tol && d(g1, g2) <= tol && d(b1, b2) <= tol
}

// TestHeatmapColours checks that the lowest cell is drawn in viridis' first
// colour and the highest in its last, and Reverse swaps them.
func TestHeatmapColours(t *testing.T) {
	m := Matrix{Rows: []string{"a", "b"}, Cols: []string{"x", "y"}, Values: [][]float64{{0, 1}, {0.5, 0.5}}}
	for _, rev := range []bool{false, true} {
		h, err := NewHeatmap(m)
		if err != nil {
			t.Fatal(err)
		}
		h.Annotate = false
		h.Reverse = rev
		img := render(t, h, Size{Width: 3 * vg.Inch, Height: 3 * vg.Inch, DPI: 100})
		// Find the colours of the data area's top-left and top-right cells
		// by scanning the top quarter row through the middle of row 0.
		dark, bright := color.NRGBA{0x44, 0x01, 0x54, 0xff}, color.NRGBA{0xFD, 0xE7, 0x25, 0xff}
		if rev {
			dark, bright = bright, dark
		}
		var seenDarkLeft, seenBrightRight bool
		b := img.Bounds()
		for y := b.Min.Y; y < b.Max.Y/2; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				c := img.At(x, y)
				if near(c, dark, 0x1800) && x < b.Max.X/2 {
					seenDarkLeft = true
				}
				if near(c, bright, 0x1800) && x > b.Max.X/3 {
					seenBrightRight = true
				}
			}
		}
		if !seenDarkLeft || !seenBrightRight {
			t.Errorf("reverse=%v: low cell colour found %v, high cell colour found %v", rev, seenDarkLeft, seenBrightRight)
		}
	}
}

func TestConstructorsRejectBadData(t *testing.T) {
	nan := math.NaN()
	cases := map[string]error{}
	_, cases["dist empty"] = NewDistributions(GroupSlice{})
	_, cases["dist one value"] = NewDistributions(GroupSlice{{"a", []float64{1}}})
	_, cases["dist NaN"] = NewDistributions(GroupSlice{{"a", []float64{1, nan}}})
	_, cases["dist Inf"] = NewDistributions(GroupSlice{{"a", []float64{1, math.Inf(1)}}})
	_, cases["roc none"] = NewROC()
	_, cases["roc one class"] = NewROC(Curve{"a", LabelledScores{[]float64{1, 2}, []bool{true, true}}})
	_, cases["roc mismatch"] = NewROC(Curve{"a", LabelledScores{[]float64{1, 2}, []bool{true}}})
	_, cases["roc NaN"] = NewROC(Curve{"a", LabelledScores{[]float64{1, nan}, []bool{true, false}}})
	_, cases["bars none"] = NewBars(BarTable{})
	_, cases["bars all NaN"] = NewBars(BarTable{Groups: []string{"g"}, Series: []string{"s"}, Y: [][]float64{{nan}}})
	_, cases["bars negative err"] = NewBars(BarTable{Groups: []string{"g"}, Series: []string{"s"}, Y: [][]float64{{1}}, Err: [][]float64{{-1}}})
	_, cases["heat empty"] = NewHeatmap(Matrix{})
	_, cases["heat ragged"] = NewHeatmap(Matrix{Rows: []string{"a", "b"}, Cols: []string{"x"}, Values: [][]float64{{1}, {}}})
	_, cases["heat Inf"] = NewHeatmap(Matrix{Rows: []string{"a"}, Cols: []string{"x"}, Values: [][]float64{{math.Inf(-1)}}})
	_, cases["lines none"] = NewLines()
	_, cases["lines empty"] = NewLines(LineSeries{Name: "a", XY: plotter.XYs{}})
	_, cases["lines all NaN"] = NewLines(LineSeries{Name: "a", XY: plotter.XYs{{X: 0, Y: nan}}})
	_, cases["lines NaN x"] = NewLines(LineSeries{Name: "a", XY: plotter.XYs{{X: nan, Y: 1}}})
	_, cases["lines Inf"] = NewLines(LineSeries{Name: "a", XY: plotter.XYs{{X: 0, Y: math.Inf(1)}}})
	_, cases["lines err count"] = NewLines(LineSeries{Name: "a", XY: plotter.XYs{{X: 0, Y: 1}, {X: 1, Y: 1}}, Err: plotter.YErrors{{Low: 0, High: 0}}})
	_, cases["boxes empty group"] = NewBoxes(GroupSlice{{"a", nil}})
	_, cases["grid none"] = NewGrid(2)
	for name, err := range cases {
		if err == nil {
			t.Errorf("%s: accepted", name)
		} else if !strings.HasPrefix(err.Error(), "plots: ") {
			t.Errorf("%s: error %q lacks the package prefix", name, err)
		}
	}
}

// TestROCAUC checks the AUC against hand-known cases and against the
// Mann–Whitney count on random data with ties.
func TestROCAUC(t *testing.T) {
	check := func(name string, scores []float64, pos []bool, want float64) {
		t.Helper()
		r, err := NewROC(Curve{name, LabelledScores{scores, pos}})
		if err != nil {
			t.Fatal(err)
		}
		if got := r.AUC(0); math.Abs(got-want) > 1e-12 {
			t.Errorf("%s: AUC %v, want %v", name, got, want)
		}
	}
	check("perfect", []float64{0.9, 0.8, 0.2, 0.1}, []bool{true, true, false, false}, 1)
	check("reversed", []float64{0.1, 0.2, 0.8, 0.9}, []bool{true, true, false, false}, 0)
	check("ties", []float64{0.5, 0.5, 0.5, 0.5}, []bool{true, false, true, false}, 0.5)
	r := rand.New(rand.NewPCG(3, 4))
	var s []float64
	var p []bool
	for range 500 {
		s = append(s, math.Round(r.Float64()*20)/20)
		p = append(p, r.Float64() < 0.5+0.3*(s[len(s)-1]-0.5))
	}
	var num, den float64
	for i := range s {
		for j := range s {
			if p[i] && !p[j] {
				den++
				if s[i] > s[j] {
					num++
				} else if s[i] == s[j] {
					num += 0.5
				}
			}
		}
	}
	check("mann-whitney", s, p, num/den)
}

func TestKDE(t *testing.T) {
	xs := sims(9, 500, 0.3, 0.1)
	h := SilvermanBandwidth(xs)
	if h <= 0 || h > 0.1 {
		t.Fatalf("bandwidth %v", h)
	}
	at := make([]float64, 2001)
	for i := range at {
		at[i] = -1 + 3*float64(i)/2000
	}
	ys := KDE(xs, h, at)
	var area float64
	for i := 1; i < len(at); i++ {
		area += (ys[i] + ys[i-1]) / 2 * (at[i] - at[i-1])
	}
	if math.Abs(area-1) > 1e-3 {
		t.Errorf("KDE integrates to %v", area)
	}
	// Silverman by hand on {1,2,3,4}: sd = sqrt(5/3) = 1.291; gonum's
	// LinInterp quartiles are 1 and 3, so IQR/1.34 = 1.493 and σ is smaller.
	if got, want := SilvermanBandwidth([]float64{1, 2, 3, 4}), 0.9*math.Sqrt(5.0/3)*math.Pow(4, -0.2); math.Abs(got-want) > 1e-9 {
		t.Errorf("Silverman %v, want %v", got, want)
	}
	if SilvermanBandwidth([]float64{2, 2, 2}) != 0 {
		t.Error("no spread should give 0")
	}
}

// TestLineGaps checks that a NaN y breaks the line: the pixels between two
// defined runs stay white.
func TestLineGaps(t *testing.T) {
	xy := plotter.XYs{{X: 0, Y: 1}, {X: 1, Y: 1}, {X: 2, Y: math.NaN()}, {X: 3, Y: math.NaN()}, {X: 4, Y: 1}, {X: 5, Y: 1}}
	l, err := NewLines(LineSeries{Name: "f0", XY: xy})
	if err != nil {
		t.Fatal(err)
	}
	l.Markers = false
	l.Style.Grid = nil
	l.Legend = LegendHidden
	l.YMin, l.YMax = 0, 2
	img := render(t, l, Size{Width: 4 * vg.Inch, Height: 2 * vg.Inch, DPI: 100})
	blue := OkabeIto()[0]
	b := img.Bounds()
	// Columns holding the series colour, on the row of y = 1.
	var cols []int
	for x := b.Min.X; x < b.Max.X; x++ {
		for y := b.Min.Y; y < b.Max.Y; y++ {
			if near(img.At(x, y), blue, 0x2000) {
				cols = append(cols, x)
				break
			}
		}
	}
	if len(cols) == 0 {
		t.Fatal("no line drawn")
	}
	// The drawn columns must form two runs separated by a gap of about
	// 2/5 of the line's span.
	gaps := 0
	for i := 1; i < len(cols); i++ {
		if cols[i]-cols[i-1] > 20 {
			gaps++
		}
	}
	if gaps != 1 {
		t.Errorf("%d gaps in the line, want 1", gaps)
	}
}

func TestOkabeItoIsACopy(t *testing.T) {
	a := OkabeIto()
	a[0] = color.White
	if OkabeIto()[0] == color.White {
		t.Fatal("OkabeIto returned shared state")
	}
	if len(OkabeIto()) != 8 {
		t.Fatal("want 8 colours")
	}
}
