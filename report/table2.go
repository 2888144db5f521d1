package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/plots"
	"github.com/roleprint/roleprint/plots/paperfig"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
	"github.com/roleprint/roleprint/sv/table2"
)

// table2DecisionRule is the result's decision rule for a caption; a
// result decoded from JSON written without one says only where its
// threshold came from.
func table2DecisionRule(res *table2.Result) string {
	if res.DecisionRule != "" {
		return res.DecisionRule
	}
	return "the threshold of ACC and F1 is chosen on the dev pairs"
}

// Table2Options choose what Table2Table shows.
type Table2Options struct {
	// Paper adds the paper's row of each of our encoders' counterparts
	// (in italics, once per counterpart however many of our encoders map
	// to it) after our rows of each level.
	Paper bool
}

// Table2Table returns Table 2 like the paper prints it: a block per level,
// a row per encoder, AUC / AP / ACC / macro-F1 ×100 (mean ± std over
// rounds) for each exposure, the best of our rows in each column and level
// in bold and, with opts.Paper, one italic row per paper model that any of
// our encoders is set beside (table2.PaperCounterpart). The paper did not
// report average precision: its AP cells are "–".
func Table2Table(res *table2.Result, opts Table2Options) *Table {
	t := &Table{Name: "table2", Scale: 100, Wide: true, BestPerGroup: true,
		Title: fmt.Sprintf("Table 2 (RolePrint): speaker verification, %d round(s).", len(res.Rounds)),
		Caption: "AUC, average precision (AP), accuracy and macro-F1 ×100, mean ± std over rounds; " + table2DecisionRule(res) + "; " +
			"AP's chance level is the share of same-speaker pairs. Bold: the best of our rows in each column within a level (ties all bold" +
			map[bool]string{true: "; the paper's rows are not counted). Italics: the paper's numbers for the counterpart models, one row per paper model.", false: ")."}[opts.Paper]}
	t.Columns = []string{"Model"}
	t.Spans = []Span{{N: 1}}
	for _, e := range pairs.Exposures {
		t.Columns = append(t.Columns, "AUC", "AP", "ACC", "F1")
		t.Spans = append(t.Spans, Span{Name: paperfig.ExposureName(string(e)), N: 4})
	}
	t.Best = []Best{BestNone}
	for range pairs.Exposures {
		t.Best = append(t.Best, BestMax, BestMax, BestMax, BestMax)
	}
	encoders := encoderOrder(res.Rows)
	for _, l := range pairs.Levels {
		group := paperfig.LevelName(string(l)) + " level"
		var paperRows []Row
		paperSeen := map[string]bool{}
		for _, enc := range encoders {
			row := Row{Cells: []Cell{Text(enc)}}
			found := false
			for _, e := range pairs.Exposures {
				r, ok := findRow(res.Rows, enc, e, l)
				if !ok {
					row.Cells = append(row.Cells, NaNCell(), NaNCell(), NaNCell(), NaNCell())
					continue
				}
				found = true
				row.Cells = append(row.Cells, meanStd(r.AUCMean, r.AUCStd), meanStd(r.AveragePrecisionMean, r.AveragePrecisionStd),
					meanStd(r.ACCMean, r.ACCStd), meanStd(r.F1Mean, r.F1Std))
			}
			if !found {
				continue
			}
			if group != "" {
				row.Group, group = group, ""
			}
			t.Rows = append(t.Rows, row)
			if model := sv.PaperCounterpart(enc); opts.Paper && model != "" && !paperSeen[model] {
				paperSeen[model] = true
				pr := Row{Paper: true, Cells: []Cell{Text("paper: " + model)}}
				any := false
				for _, e := range pairs.Exposures {
					c, ok := table2.PaperTable2Cell(model, pairs.TestKey{Exposure: e, Level: l})
					if !ok {
						pr.Cells = append(pr.Cells, NaNCell(), NaNCell(), NaNCell(), NaNCell())
						continue
					}
					any = true
					pr.Cells = append(pr.Cells, NumStd(c.AUC.Mean/100, c.AUC.Std/100), NaNCell(),
						NumStd(c.ACC.Mean/100, c.ACC.Std/100), NumStd(c.F1.Mean/100, c.F1.Std/100))
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

// WriteTable2 writes the figures and tables of a reproduce run with w:
// ROC curves per exposure × level (round 1's pair scores; one figure per
// level, a panel per exposure), Table 2 bars with ± std error bars (one
// figure per level, 0–100 on every level), the level drop Base → Hard →
// Harder per encoder (a panel per exposure, one y range), and
// table2.tex/.md (with the paper's rows when paper is true). The figures
// draw the rows w.FigureOptions selects (FigureRows), each in the look RowLooks
// fixes for the run, one legend per figure, AUC ×100 as the table prints
// it, a chance line on every AUC and ROC panel, and the paper's marks only
// with w.FigureOptions.PaperMarks. Figures the run cannot draw are left out with
// a note (see Writer.Errors); a table that cannot be written is an error.
func WriteTable2(w *Writer, res *table2.Result, paper bool) error {
	if len(res.Rows) == 0 {
		return fmt.Errorf("report: the Table 2 run has no rows")
	}
	round := 1
	if len(res.Rounds) > 0 {
		round = res.Rounds[0].Round
	}
	rows, same, err := FigureRows(res, w.FigureOptions.Rows)
	if err != nil {
		w.errs = append(w.errs, err.Error())
		w.logf("%v; drawing the default rows", err)
		rows, same, _ = FigureRows(res, nil)
	}
	st := plots.PaperStyle()
	st.Series = RowLooks(res, rows)
	rowNote := "Rows: " + strings.Join(rows, ", ")
	if len(same) > 0 {
		rowNote += " (" + strings.Join(same, "; ") + ": identical scores, drawn once)"
	}
	rowNote += "."
	marks := ""
	if w.FigureOptions.PaperMarks {
		marks = " Black marks: the paper's published value of each row's counterpart."
	}
	for _, l := range pairs.Levels {
		l := l
		w.TryFigure("table2-bars-"+string(l), fmt.Sprintf("Table 2, %s level: AUC ×100 per exposure and row (mean ± std over rounds); dashed: chance (50).%s %s", paperfig.LevelName(string(l)), marks, rowNote),
			func() (plots.Figure, error) {
				b, err := paperfig.Table2Bars(res.Rows, l, paperfig.AUC, rows)
				if err != nil {
					return nil, err
				}
				b.Style = st
				if !w.FigureOptions.PaperMarks {
					b.Reference = nil
				}
				return b, nil
			}, OneColumn, 0.75)
	}
	for _, l := range pairs.Levels {
		l := l
		w.TryFigure("roc-"+string(l), fmt.Sprintf("ROC curves, %s level, round %d: a panel per exposure, each curve's AUC ×100 inside; dashed: chance. %s", paperfig.LevelName(string(l)), round, rowNote),
			func() (plots.Figure, error) {
				var panels []plots.Figure
				for _, e := range pairs.Exposures {
					r, err := paperfig.RunROC(res, pairs.TestKey{Exposure: e, Level: l}, round, rows...)
					if err != nil {
						return nil, fmt.Errorf("report: %w; a run resumed from a JSON report keeps none", err)
					}
					// A panel names its exposure; the figure's caption gives
					// the level and round.
					r.Title = paperfig.ExposureName(string(e)) + ", " + paperfig.LevelName(string(l))
					if r.Len() > 4 {
						r.Legend = plots.LegendBelow
					}
					r.Style = st
					panels = append(panels, r)
				}
				g, err := plots.NewGrid(3, panels...)
				if err != nil {
					return nil, err
				}
				g.SharedLegend, g.ShareX, g.ShareY = true, true, true
				return g, nil
			}, TwoColumn, 0.42)
	}
	w.TryFigure("level-drop", "Level drop: AUC ×100 from the Base to the Harder level per row (mean ± std), a panel per exposure on one y axis; dashed: chance (50). "+rowNote,
		func() (plots.Figure, error) {
			var panels []plots.Figure
			for _, e := range pairs.Exposures {
				lines, err := paperfig.LevelLines(res.Rows, e, paperfig.AUC, rows)
				if err != nil {
					return nil, err
				}
				lines.Style = st
				panels = append(panels, lines)
			}
			g, err := plots.NewGrid(3, panels...)
			if err != nil {
				return nil, err
			}
			g.SharedLegend, g.ShareY = true, true
			return g, nil
		}, TwoColumn, 0.42)
	return w.Table(Table2Table(res, Table2Options{Paper: paper}))
}
