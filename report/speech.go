package report

import (
	"fmt"
	"math"
	"sort"

	"github.com/roleprint/roleprint/plots"
	"github.com/roleprint/roleprint/speech"
	"gonum.org/v1/plot/plotter"
)

// profileFeature is one of the three profile features.
type profileFeature struct {
	title, label string
	value        func(speech.Profile) float64
	level        func(speech.Profile) speech.Level
}

var profileFeatures = []profileFeature{
	{"Pitch", "Mean F0 (Hz)", func(p speech.Profile) float64 { return p.F0MeanHz }, func(p speech.Profile) speech.Level { return p.Pitch }},
	{"Energy", "Mean intensity (dB)", func(p speech.Profile) float64 { return p.IntensityMeanDB }, func(p speech.Profile) speech.Level { return p.Energy }},
	{"Speaking rate", "Syllables / s", func(p speech.Profile) float64 { return p.SpeakingRateSylS }, func(p speech.Profile) speech.Level { return p.Rate }},
}

// ProfileFigure draws the acoustic profiles of the characters (VoxRole's
// 20/60/20 bins): one panel per feature (mean F0, mean intensity,
// speaking rate), the characters along x in one order in every panel (by
// mean F0, those without one last), each a marker whose colour and shape
// give its bin (Low, Medium, High), the bins' edges dotted (midway between
// the highest value of one bin and the lowest of the next, over every
// character), one legend for the figure. At most maxCharacters are drawn
// (0: 24), those with the most speech.
func ProfileFigure(profiles []speech.Profile, maxCharacters int) (*plots.Grid, error) {
	if maxCharacters <= 0 {
		maxCharacters = 24
	}
	ps := append([]speech.Profile(nil), profiles...)
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].DurationS > ps[j].DurationS })
	if len(ps) > maxCharacters {
		ps = ps[:maxCharacters]
	}
	if len(ps) < 2 {
		return nil, fmt.Errorf("report: an acoustic profile figure needs at least two characters (have %d)", len(ps))
	}
	f0 := profileFeatures[0].value
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := f0(ps[i]), f0(ps[j])
		if math.IsNaN(a) || math.IsNaN(b) {
			return !math.IsNaN(a) && math.IsNaN(b)
		}
		return a < b
	})
	var ticks []string
	for _, p := range ps {
		ticks = append(ticks, p.Character)
	}
	style := plots.PaperStyle()
	style.Series = map[string]int{}
	for i, l := range []speech.Level{speech.Low, speech.Medium, speech.High} {
		style.Series[l.String()] = i // a bin keeps its look in every panel, also when another is empty
	}
	var panels []plots.Figure
	for _, f := range profileFeatures {
		byLevel := map[speech.Level]plotter.XYs{}
		for x, p := range ps {
			if v := f.value(p); !math.IsNaN(v) {
				byLevel[f.level(p)] = append(byLevel[f.level(p)], plotter.XY{X: float64(x), Y: v})
			}
		}
		var series []plots.LineSeries
		for _, l := range []speech.Level{speech.Low, speech.Medium, speech.High} {
			if xy := byLevel[l]; len(xy) > 0 {
				series = append(series, plots.LineSeries{Name: l.String(), XY: xy})
			}
		}
		if len(series) == 0 {
			return nil, fmt.Errorf("report: no character has a %s value", f.title)
		}
		lines, err := plots.NewLines(series...)
		if err != nil {
			return nil, fmt.Errorf("report: %s panel: %w", f.title, err)
		}
		lines.Style = style
		lines.Connect = false
		lines.XTicks = ticks
		lines.Title = f.title
		lines.YLabel = f.label
		lines.Guides, lines.GuideName = binEdges(profiles, f), "bin edges (20/60/20)"
		panels = append(panels, lines)
	}
	g, err := plots.NewGrid(3, panels...)
	if err != nil {
		return nil, err
	}
	g.SharedLegend = true
	return g, nil
}

// binEdges returns where feature f's bins meet among all profiles: midway
// between the highest Low and the lowest value above it, and between the
// highest value below High and the lowest High (none where a bin is empty).
func binEdges(profiles []speech.Profile, f profileFeature) []float64 {
	edge := func(below func(speech.Level) bool) (float64, bool) {
		lo, hi := math.Inf(-1), math.Inf(1)
		for _, p := range profiles {
			v, l := f.value(p), f.level(p)
			if math.IsNaN(v) || l == speech.Unknown {
				continue
			}
			if below(l) {
				lo = math.Max(lo, v)
			} else {
				hi = math.Min(hi, v)
			}
		}
		return (lo + hi) / 2, !math.IsInf(lo, 0) && !math.IsInf(hi, 0)
	}
	var out []float64
	if e, ok := edge(func(l speech.Level) bool { return l == speech.Low }); ok {
		out = append(out, e)
	}
	if e, ok := edge(func(l speech.Level) bool { return l != speech.High }); ok {
		out = append(out, e)
	}
	return out
}

// ProfileTable returns the profiles as a table: per character the
// utterances, duration, mean F0, intensity and speaking rate with their
// bins.
func ProfileTable(profiles []speech.Profile) *Table {
	t := &Table{Name: "speech-profile", Title: "Acoustic profiles (VoxRole-style 20/60/20 bins among the characters).",
		Columns: []string{"Character", "Utterances", "Duration (s)", "Mean F0 (Hz)", "Pitch", "Intensity (dB)", "Energy", "Rate (syl/s)", "Rate bin"},
		Digits:  1}
	for _, p := range profiles {
		t.Rows = append(t.Rows, Row{Cells: []Cell{Text(p.Character), Text(fmt.Sprint(p.Utterances)), Num(p.DurationS),
			Num(p.F0MeanHz), Text(p.Pitch.String()), Num(p.IntensityMeanDB), Text(p.Energy.String()), Num(p.SpeakingRateSylS), Text(p.Rate.String())}})
	}
	return t
}
