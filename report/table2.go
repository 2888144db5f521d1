package report

import (
	"fmt"
	"math"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/plots"
	"github.com/roleprint/roleprint/plots/paperfig"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv/table2"
)

// Table2Options choose what Table2Table shows.
type Table2Options struct {
	// Paper adds the paper's row of each encoder's counterpart (in
	// italics) after our rows of each level.
	Paper bool
}

// Table2Table returns Table 2 like the paper prints it: a block per level,
// a row per encoder, AUC / ACC / macro-F1 ×100 (mean ± std over rounds)
// for each exposure, the best of each column in bold and, with
// opts.Paper, the paper's rows of our encoders' counterparts in italics.
func Table2Table(res *table2.Result, opts Table2Options) *Table {
	t := &Table{Name: "table2", Scale: 100, Wide: true,
		Title: fmt.Sprintf("Table 2 (RolePrint): speaker verification, %d round(s).", len(res.Rounds)),
		Caption: "AUC, accuracy and macro-F1 ×100, mean ± std over rounds; the threshold is chosen on the dev pairs. " +
			"Best of our rows in bold" + map[bool]string{true: "; the paper's numbers for the counterpart models in italics.", false: "."}[opts.Paper]}
	t.Columns = []string{"Model"}
	t.Spans = []Span{{N: 1}}
	for _, e := range pairs.Exposures {
		t.Columns = append(t.Columns, "AUC", "ACC", "F1")
		t.Spans = append(t.Spans, Span{Name: paperfig.ExposureName(string(e)), N: 3})
	}
	t.Best = []Best{BestNone}
	for range pairs.Exposures {
		t.Best = append(t.Best, BestMax, BestMax, BestMax)
	}
	encoders := encoderOrder(res.Rows)
	for _, l := range pairs.Levels {
		group := paperfig.LevelName(string(l)) + " level"
		var paperRows []Row
		for _, enc := range encoders {
			row := Row{Cells: []Cell{Text(enc)}}
			found := false
			for _, e := range pairs.Exposures {
				r, ok := findRow(res.Rows, enc, e, l)
				if !ok {
					row.Cells = append(row.Cells, NaNCell(), NaNCell(), NaNCell())
					continue
				}
				found = true
				row.Cells = append(row.Cells, meanStd(r.AUCMean, r.AUCStd), meanStd(r.ACCMean, r.ACCStd), meanStd(r.F1Mean, r.F1Std))
			}
			if !found {
				continue
			}
			if group != "" {
				row.Group, group = group, ""
			}
			t.Rows = append(t.Rows, row)
			if model := table2.PaperCounterpart(enc); opts.Paper && model != "" {
				pr := Row{Paper: true, Cells: []Cell{Text("paper: " + model)}}
				any := false
				for _, e := range pairs.Exposures {
					c, ok := table2.PaperTable2Cell(model, pairs.TestKey{Exposure: e, Level: l})
					if !ok {
						pr.Cells = append(pr.Cells, NaNCell(), NaNCell(), NaNCell())
						continue
					}
					any = true
					for _, ms := range []table2.MeanStd{c.AUC, c.ACC, c.F1} {
						pr.Cells = append(pr.Cells, NumStd(ms.Mean/100, ms.Std/100))
					}
				}
				if any {
					paperRows = append(paperRows, pr)
				}
			}
		}
		t.Rows = append(t.Rows, paperRows...)
	}
	return t
}

// meanStd is a mean ± std cell, "–" when the mean is undefined (and no ±
// when the std is: one round).
func meanStd(m, s stats.Float) Cell {
	if math.IsNaN(float64(m)) {
		return NaNCell()
	}
	if math.IsNaN(float64(s)) {
		return Num(float64(m))
	}
	return NumStd(float64(m), float64(s))
}

func encoderOrder(rows []table2.Row) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range rows {
		if !seen[r.Encoder] {
			seen[r.Encoder] = true
			out = append(out, r.Encoder)
		}
	}
	return out
}

func findRow(rows []table2.Row, enc string, e pairs.Exposure, l pairs.Level) (table2.Row, bool) {
	for _, r := range rows {
		if r.Encoder == enc && r.Exposure == string(e) && r.Level == string(l) {
			return r, true
		}
	}
	return table2.Row{}, false
}

// ROCFigure draws the ROC curves of one test set in one round: a curve per
// encoder from the pair scores the run kept (EncoderRound.TestScores).
func ROCFigure(res *table2.Result, round int, k pairs.TestKey) (*plots.ROC, error) {
	var curves []plots.Curve
	for _, er := range res.PerRound {
		if er.Round != round {
			continue
		}
		s, l, ok := er.TestScores(k)
		if !ok {
			continue
		}
		curves = append(curves, plots.Curve{Name: er.Encoder, Data: plots.LabelledScores{Scores: s, Positive: l}})
	}
	if len(curves) == 0 {
		return nil, fmt.Errorf("report: round %d has no pair scores for %s (a resumed JSON report keeps none)", round, k)
	}
	r, err := plots.NewROC(curves...)
	if err != nil {
		return nil, err
	}
	r.Title = paperfig.ExposureName(string(k.Exposure)) + ", " + paperfig.LevelName(string(k.Level))
	if len(curves) > 4 {
		r.Legend = plots.LegendBelow
	}
	return r, nil
}

// WriteTable2 writes the figures and tables of a reproduce run with w:
// ROC curves per exposure × level (round 1's pair scores; one panel grid
// per level), Table 2 bars with ± std error bars and the paper's value
// marked (one figure per level), the level drop Base → Hard → Harder per
// encoder (one panel per exposure), and table2.tex/.md (with the paper's
// rows when paper is true). Figures the run cannot draw are left out
// with a note (see Writer.Errors); a table that cannot be written is an
// error.
func WriteTable2(w *Writer, res *table2.Result, paper bool) error {
	if len(res.Rows) == 0 {
		return fmt.Errorf("report: the Table 2 run has no rows")
	}
	round := 1
	if len(res.Rounds) > 0 {
		round = res.Rounds[0].Round
	}
	for _, l := range pairs.Levels {
		l := l
		w.TryFigure("table2-bars-"+string(l), fmt.Sprintf("Table 2, %s level: AUC per exposure and encoder (mean ± std over rounds; black mark: the paper's counterpart).", l),
			func() (plots.Figure, error) { return paperfig.Table2Bars(res.Rows, l, paperfig.AUC, nil) }, OneColumn, 0.75)
	}
	for _, l := range pairs.Levels {
		l := l
		w.TryFigure("roc-"+string(l), fmt.Sprintf("ROC curves, %s level, round %d: one panel per exposure, AUC in the legend.", l, round),
			func() (plots.Figure, error) {
				var panels []plots.Figure
				for _, e := range pairs.Exposures {
					r, err := ROCFigure(res, round, pairs.TestKey{Exposure: e, Level: l})
					if err != nil {
						return nil, err
					}
					r.Legend = plots.LegendBelow
					panels = append(panels, r)
				}
				return plots.NewGrid(3, panels...)
			}, TwoColumn, 0.42)
	}
	w.TryFigure("level-drop", "Level drop: AUC from the Base to the Harder level per encoder (mean ± std), one panel per exposure.",
		func() (plots.Figure, error) {
			var panels []plots.Figure
			for _, e := range pairs.Exposures {
				lines, err := paperfig.LevelLines(res.Rows, e, paperfig.AUC, nil)
				if err != nil {
					return nil, err
				}
				lines.Legend = plots.LegendBelow
				panels = append(panels, lines)
			}
			return plots.NewGrid(3, panels...)
		}, TwoColumn, 0.42)
	return w.Table(Table2Table(res, Table2Options{Paper: paper}))
}
