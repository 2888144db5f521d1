package main

import (
	"flag"
	"sort"

	"github.com/roleprint/roleprint/plots"
	"github.com/roleprint/roleprint/report"
)

// metricsOutputs are the metrics job's paper-output flags: --paper-out
// turns them on (--out is the dedup output there).
type metricsOutputs struct {
	out   *string
	flags *outputFlags
}

func addMetricsOutputFlags(fs *flag.FlagSet) *metricsOutputs {
	return &metricsOutputs{
		out:   fs.String("paper-out", "", "agreement: write the judge-vs-human scatter (ρ, τ per dimension) and agreement.tex/.md; text: text-metrics.tex/.md (VoxRole Table 2 style) into this folder"),
		flags: addOutputFlags(fs, false),
	}
}

// write writes the figures and tables of a metrics run into --paper-out
// (nothing without it). For agreement it rereads the rating files.
func (m *metricsOutputs) write(e *env, out *metricsJSON, files []string) error {
	if *m.out == "" {
		return nil
	}
	w, err := m.flags.writer(e, *m.out)
	if err != nil {
		return err
	}
	switch out.Kind {
	case "agreement":
		// One point per item, or per group (its mean scores) with --group-by.
		var rs []report.Ratings
		for _, p := range files {
			rows, _, err := readAgreementCSV(p, "")
			if err != nil {
				return err
			}
			var dims []string
			for d := range rows {
				dims = append(dims, d)
			}
			sort.Strings(dims)
			for _, d := range dims {
				name := d
				if len(files) > 1 {
					name = systemName(p) + ": " + d
				}
				human, judge := rows[d].human, rows[d].judge
				for _, a := range out.Agreement {
					if a.File == systemName(p) && a.Dimension == d && a.Groups > 0 {
						human, judge = a.GroupHuman, a.GroupJudge
					}
				}
				rs = append(rs, report.Ratings{Name: name, Human: human, Judge: judge})
			}
		}
		width, aspect := report.TwoColumn, 0.3*float64((len(rs)+3)/4)
		if len(rs) == 1 {
			width, aspect = report.OneColumn, 0.85
		}
		w.TryFigure("agreement", "Judge against human scores per dimension (points jittered slightly); Spearman ρ and Kendall τ-b in the titles.",
			func() (plots.Figure, error) { return report.AgreementFigure(rs, 0) }, width, aspect)
		var rows []report.AgreementRow
		for _, a := range out.Agreement {
			rows = append(rows, report.AgreementRow{File: a.File, Dimension: a.Dimension, Report: a.GroupReport.Report})
		}
		if err := w.Table(report.AgreementTable(rows)); err != nil {
			return err
		}
	case "text":
		var rows []report.TextMetricsRow
		for _, s := range out.Systems {
			rows = append(rows, report.TextMetricsRow{System: s.System, N: s.N, RougeL: s.RougeL, Meteor: s.Meteor, BERTScoreF1: s.BERTScoreF1})
		}
		if err := w.Table(report.TextMetricsTable(rows, true)); err != nil {
			return err
		}
	default:
		return usagef("--paper-out: nothing to write for --kind %s (agreement or text)", out.Kind)
	}
	written, err := m.flags.finish(w, nil)
	if err == nil {
		e.Logf("metrics: wrote %s", joinFiles(*m.out, written))
	}
	return err
}
