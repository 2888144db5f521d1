package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/roleprint/roleprint/sv/table2"
)

// TransferTable is the transfer table of a run (table2.TransferResult):
// per evaluated row, held-out corpus and level, the bundle's AUC, ACC,
// EER and ECE (its own and cross-fitted, of its adapted scores and of its
// scores as saved), its AUC as saved, the compared encoder's AUC on
// the same pairs and the paired bootstrap of the difference; a group of
// rows per evaluated row.
func TransferTable(t *table2.TransferResult) *Table {
	vs := strings.Join(t.Plan.Vs, ", ")
	tab := &Table{Name: "transfer", Title: "Transfer to unseen corpora (leave one corpus out).",
		Caption: fmt.Sprintf("Each row is trained on every corpus but the held-out one and evaluated on it with every speaker unseen (AUC, ACC, EER ×100, mean over seeds %s; ECE with the bundle's own calibration and cross-fitted on the other held-out corpora; the bundle scores adapted without labels to the held-out corpus, and the same pairs as saved, as verify scores, with a calibration cross-fitted on as-saved scores), against %s fitted on the held-out corpus alone on the same pairs; Δ AUC is the paired bootstrap difference with its 95 %% interval.",
			strings.Trim(strings.Join(strings.Fields(fmt.Sprint(t.Plan.EvalSeeds)), ", "), "[]"), vs),
		Columns: []string{"Held out", "Level", "AUC", "ACC", "EER", "ECE", "ECE cross-fit", "AUC as saved", "ECE cross-fit as saved", vs + " AUC", "Δ AUC"},
		Best:    []Best{BestNone, BestNone, BestNone, BestNone, BestNone, BestNone, BestNone, BestNone, BestNone, BestNone, BestNone},
		Wide:    true}
	group := ""
	for _, r := range t.Rows {
		row := Row{Cells: []Cell{Text(r.HeldOut), Text(r.Level), NumStd(float64(r.AUCMean), float64(r.AUCStd)), Num(float64(r.AccMean)),
			Num(float64(r.EERMean)), Text(ece(float64(r.ECE))), Text(ece(float64(r.ECECrossFit))),
			Num(float64(r.AUCMeanAsSaved)), Text(ece(float64(r.ECECrossFitAsSaved))), NumStd(float64(r.VsAUCMean), float64(r.VsAUCStd)),
			NumCI(100*float64(r.AUCDiff), 100*float64(r.AUCDiffCI[0]), 100*float64(r.AUCDiffCI[1]))}}
		if r.Row != group {
			group, row.Group = r.Row, r.Row
		}
		tab.Rows = append(tab.Rows, row)
	}
	return tab
}

// ece writes an ECE with three decimals ("–" for NaN).
func ece(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return fmt.Sprintf("%.3f", x)
}
