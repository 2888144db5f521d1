package main

import (
	"fmt"
	"strings"

	"github.com/roleprint/roleprint/report"
	"github.com/roleprint/roleprint/sv/table2"
)

// reproWriteOutputs writes reproduce's figures (ROC per exposure × level,
// Table 2 bars, level drop), table2.tex/.md, the --latex file and
// report.html into dir, and returns files with what it wrote added (for
// the manifest's outputs, which the page shows too).
func reproWriteOutputs(e *env, o *outputFlags, res *table2.Result, m *table2.Manifest, dir, corpus string, files []string) ([]string, error) {
	w, err := o.writer(e, dir)
	if err != nil {
		return nil, err
	}
	w.NoMarkdown = true // sv writes the fuller table2.md
	if err := report.WriteTable2(w, res, o.paperRows()); err != nil {
		return nil, err
	}
	out := append(append([]string(nil), files...), w.Files()...)
	if !*o.noHTML {
		out = append(out, report.HTMLFile)
	}
	m.Outputs = out
	var encoders []string
	for _, er := range res.PerRound {
		if er.Round == res.Rounds[0].Round {
			encoders = append(encoders, er.Encoder)
		}
	}
	page := &report.Page{Title: "RolePrint reproduce: Table 2", Command: m.Command, Manifest: m,
		Facts: [][2]string{{"Corpus", corpus}, {"Rounds", fmt.Sprint(len(res.Rounds))}, {"Seeds", strings.Trim(strings.Join(strings.Fields(fmt.Sprint(m.Seeds)), ", "), "[]")},
			{"Encoders", strings.Join(encoders, ", ")}, {"Wall time", fmt.Sprintf("%.1f s", res.Seconds)}, {"Go", m.GoVersion}},
		Notes: res.Notes}
	for _, s := range res.Skipped {
		page.Notes = append(page.Notes, "skipped "+s.Encoder+": "+s.Reason)
	}
	if _, err := o.finish(w, page); err != nil {
		return nil, err
	}
	return out, nil
}
