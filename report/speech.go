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
// speaking rate), the characters along x in order of the feature, each a
// marker whose colour and shape give its bin (Low, Medium, High). At most
// maxCharacters are drawn (0: 24), those with the most speech.
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
	var panels []plots.Figure
	for _, f := range profileFeatures {
		var order []speech.Profile
		for _, p := range ps {
			if !math.IsNaN(f.value(p)) {
				order = append(order, p)
			}
		}
		if len(order) == 0 {
			return nil, fmt.Errorf("report: no character has a %s value", f.title)
		}
		sort.SliceStable(order, func(i, j int) bool { return f.value(order[i]) < f.value(order[j]) })
		byLevel := map[speech.Level]plotter.XYs{}
		var ticks []string
		for x, p := range order {
			ticks = append(ticks, p.Character)
			l := f.level(p)
			byLevel[l] = append(byLevel[l], plotter.XY{X: float64(x), Y: f.value(p)})
		}
		var series []plots.LineSeries
		style := plots.PaperStyle()
		style.Palette = nil
		for i, l := range []speech.Level{speech.Low, speech.Medium, speech.High} {
			if xy := byLevel[l]; len(xy) > 0 {
				series = append(series, plots.LineSeries{Name: l.String(), XY: xy})
				// Each bin keeps its colour in every panel, also when another bin is empty.
				style.Palette = append(style.Palette, plots.OkabeIto()[i])
			}
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
		lines.Legend = plots.LegendBelow
		panels = append(panels, lines)
	}
	return plots.NewGrid(3, panels...)
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
