package report

import (
	"math"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv/table2"
)

// TestTransferTable: one group of rows per evaluated row, the cells of
// each held-out corpus and level, an undefined cross-fitted ECE as "–",
// the as-saved AUC and cross-fitted ECE beside the adapted ones, and valid
// LaTeX, HTML and Markdown.
func TestTransferTable(t *testing.T) {
	tr := &table2.TransferResult{Plan: table2.TransferPlan{Vs: []string{"tfidf"}, EvalSeeds: []int64{1, 2, 3}}, Rows: []table2.TransferRow{
		{Row: "x_ft", HeldOut: "a", Level: "hard", LevelMetrics: table2.LevelMetrics{AUCMean: 61.5, AUCStd: 1.2, AccMean: 58, EERMean: 40, ECE: 0.12}, ECECrossFit: 0.034,
			AUCMeanAsSaved: 57.25, ECECrossFitAsSaved: 0.071, VsAUCMean: 60, VsAUCStd: 1, AUCDiff: 0.015, AUCDiffCI: stats.Interval{0.005, 0.025}},
		{Row: "x_ft", HeldOut: "a", Level: "harder", LevelMetrics: table2.LevelMetrics{AUCMean: 30, ECE: 0.3}, ECECrossFit: stats.Float(math.NaN()), VsAUCMean: 25, AUCDiff: 0.05,
			AUCDiffCI: stats.Interval{0.04, 0.06}},
		{Row: "mixed_ft", HeldOut: "a", Level: "hard", LevelMetrics: table2.LevelMetrics{AUCMean: 62, ECE: 0.1}, ECECrossFit: 0.04, VsAUCMean: 60, AUCDiff: 0.02, AUCDiffCI: stats.Interval{0.01, 0.03}},
	}}
	tab := TransferTable(tr)
	if err := tab.Check(); err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 3 || tab.Rows[0].Group != "x_ft" || tab.Rows[1].Group != "" || tab.Rows[2].Group != "mixed_ft" {
		t.Fatalf("groups %q %q %q", tab.Rows[0].Group, tab.Rows[1].Group, tab.Rows[2].Group)
	}
	md := tab.Markdown()
	for _, want := range []string{"tfidf AUC", "0.034", "61.50", "1.50", "–", "ECE cross-fit as saved", "57.25", "0.071"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if !strings.Contains(tab.LaTeX(), `\label{tab:transfer}`) || !strings.Contains(tab.HTML(), "Transfer to unseen corpora") {
		t.Errorf("LaTeX or HTML lacks the label or title")
	}
	// Every character of the headers and caption has a LaTeX form: TeX
	// writes "?" for one pdflatex cannot typeset.
	if tex := tab.LaTeX(); strings.Contains(tex, "?") || !strings.Contains(tex, `$\Delta$ AUC`) {
		t.Errorf("LaTeX has a character it cannot typeset or lacks the Δ column:\n%s", tex)
	}
	if !strings.Contains(tab.Caption, "mean over seeds 1, 2, 3;") {
		t.Errorf("caption does not list the seeds as a reader writes them: %s", tab.Caption)
	}
}
