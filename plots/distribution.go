package plots

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Distributions draws the distribution of each group as a density histogram
// (shared bin edges, translucent) with a Gaussian KDE line on top: the seed
// paper's Figures 1–2 (cosine similarity of positive vs negative pairs).
type Distributions struct {
	// Title, XLabel and YLabel label the figure (defaults: no title,
	// "Cosine similarity", "Density").
	Title, XLabel, YLabel string
	// Histogram and KDE switch the two layers (both on by default).
	Histogram, KDE bool
	// Bins is the number of histogram bins over the x range (default 0:
	// Freedman–Diaconis on the pooled data, clamped to 10–50).
	Bins int
	// Bandwidth is the KDE bandwidth (default 0: Silverman's rule per group).
	Bandwidth float64
	// XMin and XMax fix the x range (default NaN: the data range plus 3 %).
	XMin, XMax float64
	// ShowCounts appends "(n=…)" to each legend name (default true).
	ShowCounts bool
	// Means draws a dashed vertical line at each group's mean (default false).
	Means bool
	// Legend places the legend (default LegendAuto: inside, on the side
	// away from most of the data).
	Legend LegendPosition
	// Style is the look (default PaperStyle).
	Style Style

	groups GroupSlice
}

// NewDistributions returns a distribution figure of g. Every group needs at
// least two finite values.
func NewDistributions(g Groups) (*Distributions, error) {
	gs, err := copyGroups("distributions", g, 2)
	if err != nil {
		return nil, err
	}
	return &Distributions{
		XLabel: "Cosine similarity", YLabel: "Density",
		Histogram: true, KDE: true, ShowCounts: true,
		XMin: math.NaN(), XMax: math.NaN(),
		Style: PaperStyle(), groups: gs,
	}, nil
}

// xRange returns the x range of the figure.
func (d *Distributions) xRange() (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, g := range d.groups {
		for _, v := range g.Values {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if hi == lo {
		lo, hi = lo-0.5, hi+0.5
	}
	pad := 0.03 * (hi - lo)
	lo, hi = lo-pad, hi+pad
	if finite(d.XMin) {
		lo = d.XMin
	}
	if finite(d.XMax) {
		hi = d.XMax
	}
	return lo, hi
}

// xData implements xBinned.
func (d *Distributions) xData() (lo, hi float64, values []float64) {
	lo, hi = d.xRange()
	for _, g := range d.groups {
		values = append(values, g.Values...)
	}
	return lo, hi, values
}

// onXRange implements xBinned: a copy of d over [lo, hi] with bins bins
// unless d fixes its own.
func (d *Distributions) onXRange(lo, hi float64, bins int) panel {
	cp := *d
	cp.XMin, cp.XMax = lo, hi
	if cp.Bins <= 0 {
		cp.Bins = bins
	}
	return &cp
}

// bins returns the number of histogram bins.
func (d *Distributions) bins(lo, hi float64) int {
	if d.Bins > 0 {
		return d.Bins
	}
	var all []float64
	for _, g := range d.groups {
		all = append(all, g.Values...)
	}
	return freedmanDiaconisBins(all, lo, hi)
}

// freedmanDiaconisBins returns the Freedman–Diaconis number of bins of
// values over [lo, hi], clamped to 10–50 (20 when the IQR is 0).
func freedmanDiaconisBins(values []float64, lo, hi float64) int {
	all := append([]float64(nil), values...)
	sort.Float64s(all)
	iqr := stat.Quantile(0.75, stat.LinInterp, all, nil) - stat.Quantile(0.25, stat.LinInterp, all, nil)
	if iqr <= 0 {
		return 20
	}
	width := 2 * iqr / math.Cbrt(float64(len(all)))
	n := int(math.Ceil((hi - lo) / width))
	return min(max(n, 10), 50)
}

// Render draws the figure on c.
func (d *Distributions) Render(c draw.Canvas) error {
	b, err := d.build(withMargin(c), false)
	if err != nil {
		return err
	}
	b.draw(c)
	return nil
}

// build implements panel.
func (d *Distributions) build(c draw.Canvas, shared bool) (*built, error) {
	if !d.Histogram && !d.KDE {
		return nil, errorf("distributions: both Histogram and KDE are off")
	}
	lo, hi := d.xRange()
	if !(hi > lo) {
		return nil, errorf("distributions: empty x range [%g, %g]", lo, hi)
	}
	st := d.Style.orDefault()
	p := st.newPlot(d.Title, d.XLabel, d.YLabel, gridHorizontal)
	p.X.Min, p.X.Max = lo, hi
	p.Y.Min = 0
	nb := d.bins(lo, hi)
	width := (hi - lo) / float64(nb)
	var entries []legendEntry
	var sumMed float64
	out := &built{p: p, st: st}
	if d.Histogram {
		out.binLo, out.binWidth = lo, width
	}
	if d.KDE {
		out.curveLo, out.curveHi = lo, hi
	}
	names := make([]string, len(d.groups))
	for i, g := range d.groups {
		names[i] = g.Name
	}
	idx := st.looks(names)
	for i, g := range d.groups {
		i := idx[i]
		col := st.Color(i)
		out.series = append(out.series, st.look(g.Name, i))
		name := g.Name
		if d.ShowCounts {
			name = fmt.Sprintf("%s (n=%d)", g.Name, len(g.Values))
		}
		var thumbs []plot.Thumbnailer
		if d.Histogram {
			h := &plotter.Histogram{Width: width, FillColor: withAlpha(col, 0.30),
				LineStyle: draw.LineStyle{Color: withAlpha(col, 0.8), Width: vg.Points(0.4)}}
			h.Bins = make([]plotter.HistogramBin, nb)
			for b := range h.Bins {
				h.Bins[b] = plotter.HistogramBin{Min: lo + float64(b)*width, Max: lo + float64(b+1)*width}
			}
			for _, v := range g.Values {
				b := int((v - lo) / width)
				if v == hi {
					b = nb - 1
				}
				if b >= 0 && b < nb {
					h.Bins[b].Weight++
				}
			}
			for b := range h.Bins {
				h.Bins[b].Weight /= float64(len(g.Values)) * width
			}
			p.Add(h)
			thumbs = append(thumbs, h)
		}
		if d.KDE {
			bw := d.Bandwidth
			if bw <= 0 {
				bw = SilvermanBandwidth(g.Values)
			}
			if bw <= 0 {
				bw = (hi - lo) / 50
			}
			const n = 256
			at := make([]float64, n)
			for k := range at {
				at[k] = lo + (hi-lo)*float64(k)/(n-1)
			}
			ys := KDE(g.Values, bw, at)
			xy := make(plotter.XYs, n)
			for k := range xy {
				xy[k].X, xy[k].Y = at[k], ys[k]
			}
			l, err := plotter.NewLine(xy)
			if err != nil {
				return nil, errorf("distributions: group %q: %w", g.Name, err)
			}
			l.LineStyle = st.Line(i)
			p.Add(l)
			thumbs = append(thumbs, l)
		}
		if d.Means {
			p.Add(vLine{x: stat.Mean(g.Values, nil), style: draw.LineStyle{Color: col, Width: vg.Points(0.8),
				Dashes: []vg.Length{vg.Points(3), vg.Points(2)}}})
		}
		sorted := append([]float64(nil), g.Values...)
		sort.Float64s(sorted)
		sumMed += stat.Quantile(0.5, stat.Empirical, sorted, nil)
		entries = append(entries, legendEntry{name: name, thumbs: thumbs})
	}
	// Headroom for an inside legend.
	if !shared && d.Legend != LegendBelow && d.Legend != LegendHidden {
		p.Y.Max *= 1.12 + 0.08*float64(len(d.groups))
	} else {
		// A little headroom, so that the tallest bar does not end at the
		// axis' end, above its last tick.
		p.Y.Max *= 1.05
	}
	pos := d.Legend
	if pos == LegendAuto {
		pos = LegendTopRight
		if sumMed/float64(len(d.groups)) > (lo+hi)/2 {
			pos = LegendTopLeft
		}
	}
	if shared {
		pos = LegendHidden
	}
	out.entries, out.pos = entries, pos
	return out, nil
}
