package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/roleprint/roleprint/data/corpus"
	"github.com/roleprint/roleprint/report"
	"github.com/roleprint/roleprint/sv/table2"
)

// reproWriteOutputs writes reproduce's figures (ROC per exposure × level,
// Table 2 bars, level drop), table2.tex/.md, the --latex file and
// report.html into dir, and returns files with what it wrote added (for
// the manifest's outputs, which the page shows too). Files the previous
// run's manifest in dir listed and this run does not write are deleted,
// so that a rerun leaves no stale figure beside the new ones. The paper's
// marks go on the bars only when every input is one of the paper's
// corpora.
func reproWriteOutputs(e *env, o *outputFlags, res *table2.Result, m *table2.Manifest, dir, corpus string, files []string) ([]string, error) {
	previous, err := report.ManifestOutputs(filepath.Join(dir, table2.ManifestFile), "reproduce")
	if err != nil {
		return nil, err
	}
	w, err := o.writer(e, dir)
	if err != nil {
		return nil, err
	}
	w.FigureOptions.PaperMarks = reproPaperMarks(m.Inputs)
	w.NoMarkdown = true // sv writes the fuller table2.md
	if err := report.WriteTable2(w, res, o.paperRows()); err != nil {
		return nil, err
	}
	if res.Transfer != nil && len(res.Transfer.Rows) > 0 {
		if err := w.Table(report.TransferTable(res.Transfer)); err != nil { // transfer.tex (sv writes transfer.md)
			return nil, err
		}
	}
	out := append(append([]string(nil), files...), w.Files()...)
	if !*o.noHTML {
		out = append(out, report.HTMLFile)
	}
	if reproWritesVerifier(res) {
		out = append(out, "verifier/")
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
	// The checkpoints make a rerun resume: never stale, whatever this run lists.
	if err := removeStale(e, dir, previous, append(slices.Clone(out), reproCheckpoints)); err != nil {
		return nil, err
	}
	return out, nil
}

// reproCheckpoints is the manifest entry of the folder of --out that keeps
// each (round, encoder) result, so that a rerun resumes (table2's
// CheckpointDir): listed among the outputs, never removed as stale.
const reproCheckpoints = "checkpoints/"

// reproWritesVerifier reports whether reproSaveVerifier will write the
// OUT/verifier bundle: the last round has a mixed_ft row with its parts.
func reproWritesVerifier(res *table2.Result) bool {
	for i := range res.PerRound {
		if er := &res.PerRound[i]; er.Round == res.Config.Rounds && er.Encoder == table2.MixedFTName && er.Mixed != nil {
			return true
		}
	}
	return false
}

// removeStale deletes what the previous run in dir wrote (previous, from
// its manifest) and this run did not (current), and says so on stderr.
func removeStale(e *env, dir string, previous, current []string) error {
	removed, err := report.RemoveStale(dir, previous, current)
	if len(removed) > 0 {
		e.Logf("removed %d file(s) the previous run in %s wrote and this one did not: %s", len(removed), dir, strings.Join(removed, ", "))
	}
	return err
}

// reproPaperMarks reports whether every input lies in one of the paper's
// corpora (corpus.Paper): only there did the paper measure what the bars
// show. The embedded corpus is none of them.
func reproPaperMarks(inputs []table2.InputFile) bool {
	var roots []string
	for _, c := range corpus.Paper() {
		if paths, ok := c.Inputs(); ok {
			for _, p := range paths {
				if abs, err := filepath.Abs(p); err == nil {
					roots = append(roots, abs)
				}
			}
		}
	}
	if len(inputs) == 0 || len(roots) == 0 {
		return false
	}
	for _, in := range inputs {
		abs, err := filepath.Abs(in.Path)
		if err != nil || strings.HasPrefix(in.Path, "embedded:") {
			return false
		}
		inside := false
		for _, r := range roots {
			if rel, err := filepath.Rel(r, abs); err == nil && filepath.IsLocal(rel) || abs == r {
				inside = true
			}
		}
		if !inside {
			return false
		}
	}
	return true
}
