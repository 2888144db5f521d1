package paperfig

import (
	"fmt"
	"math"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/plots"
	"github.com/roleprint/roleprint/sv/table2"
)

// Metric names a Table 2 metric.
type Metric string

// The Table 2 metrics.
const (
	AUC Metric = "auc"
	ACC Metric = "acc"
	F1  Metric = "f1"
	EER Metric = "eer"
)

// label returns the axis label of a metric, shown ×100 like the tables.
func (m Metric) label() string {
	switch m {
	case AUC:
		return "AUC ×100"
	case ACC:
		return "Accuracy ×100"
	case F1:
		return "Macro-F1 ×100"
	case EER:
		return "EER ×100"
	}
	return string(m)
}

// Percent is the factor of the Table 2 figures' values: ×100, as the
// tables print them, so that a figure and the table beside it show the
// same numbers.
const Percent = 100

// ChanceAUC is the AUC of a detector that guesses, ×100: the dashed line
// of every AUC figure.
const ChanceAUC = 50

// value returns the metric's mean, std and the paper's mean from a row.
func (m Metric) value(r table2.Row) (mean, std, paper float64, err error) {
	switch m {
	case AUC:
		return float64(r.AUCMean), float64(r.AUCStd), float64(r.PaperAUC), nil
	case ACC:
		return float64(r.ACCMean), float64(r.ACCStd), float64(r.PaperACC), nil
	case F1:
		return float64(r.F1Mean), float64(r.F1Std), float64(r.PaperF1), nil
	case EER:
		return float64(r.EERMean), float64(r.EERStd), math.NaN(), nil
	}
	return 0, 0, 0, fmt.Errorf("paperfig: unknown metric %q (want auc, acc, f1 or eer)", m)
}

// ExposureName returns the paper's name of an exposure ("Seen-Unseen"):
// pairs.Exposure.Title, for callers holding a string.
func ExposureName(e string) string { return pairs.Exposure(e).Title() }

// LevelName returns the paper's name of a level ("Hard"):
// pairs.Level.Title, for callers holding a string.
func LevelName(l string) string { return pairs.Level(l).Title() }

// encodersOf lists the encoders of rows in order of first appearance.
func encodersOf(rows []table2.Row, keep func(string) bool) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range rows {
		if !seen[r.Encoder] && (keep == nil || keep(r.Encoder)) {
			seen[r.Encoder] = true
			out = append(out, r.Encoder)
		}
	}
	return out
}

// Table2Bars draws one level of Table 2 as grouped bars: the three
// exposures along x, one bar per encoder (mean over rounds ×100, error bar
// ± std), with the paper's published value of each encoder's counterpart
// marked on its bar when there is one (set Reference to nil where the run
// did not measure what the paper did, e.g. on a corpus the paper never
// used). Rates span 0–100 on every level, so that the levels' figures
// read alike; AUC has a dashed chance line at 50. encoders selects and
// orders the rows (nil: all, in table order).
func Table2Bars(rows []table2.Row, level pairs.Level, metric Metric, encoders []string) (*plots.Bars, error) {
	if len(encoders) == 0 {
		encoders = encodersOf(rows, nil)
	}
	bt := plots.BarTable{}
	ref := plots.BarTable{}
	for _, e := range pairs.Exposures {
		bt.Groups = append(bt.Groups, ExposureName(string(e)))
	}
	anyRef := false
	for _, enc := range encoders {
		ys, errs, refs := make([]float64, len(pairs.Exposures)), make([]float64, len(pairs.Exposures)), make([]float64, len(pairs.Exposures))
		found := false
		for i := range ys {
			ys[i], errs[i], refs[i] = math.NaN(), 0, math.NaN()
		}
		for _, r := range rows {
			if r.Encoder != enc || r.Level != string(level) {
				continue
			}
			for i, e := range pairs.Exposures {
				if r.Exposure != string(e) {
					continue
				}
				mean, std, paper, err := metric.value(r)
				if err != nil {
					return nil, err
				}
				if math.IsNaN(std) {
					std = 0
				}
				ys[i], errs[i], refs[i] = Percent*mean, Percent*std, Percent*paper
				found = true
				anyRef = anyRef || !math.IsNaN(paper)
			}
		}
		if !found {
			return nil, fmt.Errorf("paperfig: no %s-level rows for encoder %q", level, enc)
		}
		bt.Series = append(bt.Series, enc)
		bt.Y = append(bt.Y, ys)
		bt.Err = append(bt.Err, errs)
		ref.Y = append(ref.Y, refs)
	}
	b, err := plots.NewBars(bt)
	if err != nil {
		return nil, err
	}
	b.Title = LevelName(string(level)) + " level"
	b.YLabel = metric.label()
	b.YMin, b.YMax = 0, Percent
	if metric == AUC {
		b.Baseline, b.BaselineName = ChanceAUC, "chance (AUC 50)"
	}
	if anyRef {
		ref.Groups, ref.Series = bt.Groups, bt.Series
		b.Reference = ref
		b.ReferenceName = "paper"
	}
	return b, nil
}

// LevelLines draws how a metric falls from the Base to the Harder level for
// one exposure: x = level, one line per encoder with ± std error bars, ×100
// (the difficulty ablation), AUC with a dashed chance line at 50. encoders
// selects and orders the rows (nil: all).
func LevelLines(rows []table2.Row, exposure pairs.Exposure, metric Metric, encoders []string) (*plots.Lines, error) {
	if len(encoders) == 0 {
		encoders = encodersOf(rows, nil)
	}
	var series []plots.LineSeries
	for _, enc := range encoders {
		var xy plotterXYs
		for li, l := range pairs.Levels {
			for _, r := range rows {
				if r.Encoder == enc && r.Exposure == string(exposure) && r.Level == string(l) {
					mean, std, _, err := metric.value(r)
					if err != nil {
						return nil, err
					}
					if math.IsNaN(mean) {
						continue
					}
					if math.IsNaN(std) {
						std = 0
					}
					xy = append(xy, xyErr{float64(li), Percent * mean, Percent * std})
				}
			}
		}
		if len(xy) == 0 {
			return nil, fmt.Errorf("paperfig: no %s rows for encoder %q", exposure, enc)
		}
		series = append(series, plots.LineSeries{Name: enc, XY: xy, Err: xy})
	}
	l, err := plots.NewLines(series...)
	if err != nil {
		return nil, err
	}
	for _, lv := range pairs.Levels {
		l.XTicks = append(l.XTicks, LevelName(string(lv)))
	}
	l.Title = ExposureName(string(exposure))
	l.XLabel = "Difficulty level"
	l.YLabel = metric.label()
	if metric == AUC {
		l.Baseline, l.BaselineName = ChanceAUC, "chance (AUC 50)"
	}
	return l, nil
}

// xyErr is a point with a symmetric error; plotterXYs implements
// plotter.XYer and plotter.YErrorer.
type xyErr struct{ x, y, err float64 }

type plotterXYs []xyErr

func (p plotterXYs) Len() int                        { return len(p) }
func (p plotterXYs) XY(i int) (float64, float64)     { return p[i].x, p[i].y }
func (p plotterXYs) YError(i int) (float64, float64) { return p[i].err, p[i].err }
