package table2

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/roleprint/roleprint/internal/fsx"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv/verifier"
)

// Files of the transfer table, written beside Table 2's.
const (
	TransferMarkdown = "transfer.md"
	TransferCSV      = "transfer.csv"
	TransferJSON     = "transfer.json"
)

// TransferFiles lists the files WriteReport writes.
func TransferFiles() []string { return []string{TransferMarkdown, TransferCSV, TransferJSON} }

// WriteReport writes transfer.md, transfer.csv and transfer.json into
// dir, each atomically.
func (t *TransferResult) WriteReport(dir string) error {
	var md bytes.Buffer
	if err := t.WriteMarkdown(&md); err != nil {
		return err
	}
	var c bytes.Buffer
	if err := t.WriteCSV(&c); err != nil {
		return err
	}
	js, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return err
	}
	for name, b := range map[string][]byte{TransferMarkdown: md.Bytes(), TransferCSV: c.Bytes(), TransferJSON: append(js, '\n')} {
		if err := fsx.WriteFileAll(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// WriteMarkdown writes the transfer table: one line per row, held-out
// corpus and level, then the held-out calibrations and the notes.
func (t *TransferResult) WriteMarkdown(w io.Writer) error {
	vs := strings.Join(t.Plan.Vs, ", ")
	if vs == "" {
		vs = "vs"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "## Transfer to unseen corpora (leave one corpus out)\n\n")
	fmt.Fprintf(&b, "| row | held out | trained on | level | AUC | ACC | F1 | EER | ECE | ECE cross-fit | AUC as saved | ECE cross-fit as saved | pairs | %s AUC | Δ AUC [95 %% CI] |\n", vs)
	b.WriteString("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range t.Rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %d | %s | %s |\n", r.Row, r.HeldOut, strings.Join(r.TrainedOn, " + "), r.Level,
			pm(r.AUCMean, r.AUCStd), num(r.AccMean, 2), num(r.F1Mean, 2), num(r.EERMean, 2), num(r.ECE, 3), num(r.ECECrossFit, 3),
			num(r.AUCMeanAsSaved, 2), num(r.ECECrossFitAsSaved, 3), r.Pairs, pm(r.VsAUCMean, r.VsAUCStd), diffCI(r.AUCDiff, r.AUCDiffCI))
	}
	fmt.Fprintf(&b, "\nAUC, ACC, F1, EER, ECE and ECE cross-fit are of the scores adapted without labels to the held-out corpus (--adapt %s); AUC as saved and ECE cross-fit as saved of the same pairs scored by the bundle as saved (--adapt %s, as `verify` scores), each cross-fit calibrated on the other corpora's scores of its own mode.\n",
		t.Plan.Adapt, t.Plan.AsSaved)
	if len(t.Calibrations) > 0 {
		b.WriteString("\nP(same) calibrated on held-out corpora (Platt, the held-out pairs pooled), one per scoring mode:\n\n")
		for _, c := range t.Calibrations {
			mark := ""
			if c.Row == t.Bundle {
				key := "calibration"
				if c.Scoring == verifier.ScoringAdapted {
					key = "calibration_adapted"
				}
				mark = fmt.Sprintf(" (the run's verifier bundle carries it as %s)", key)
			}
			fmt.Fprintf(&b, "- %s, scores %s: %d %s pairs of %s: a = %.4g, b = %.4g%s\n", c.Row, strings.ReplaceAll(c.Scoring, "_", " "), c.Pairs, c.Level,
				strings.Join(c.Corpora, ", "), c.Calibration.A, c.Calibration.B, mark)
		}
	}
	if len(t.Notes) > 0 {
		b.WriteString("\n")
		for _, n := range t.Notes {
			fmt.Fprintf(&b, "- %s\n", n)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteCSV writes the transfer table's rows, one per row, held-out
// corpus and level, with the JSON keys as its header (AUCs in percent,
// the difference and its interval in points).
func (t *TransferResult) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"row", "held_out", "trained_on", "level", "auc_mean", "auc_std", "acc_mean", "f1_mean", "eer_mean", "ece", "ece_cross_fit",
		"auc_mean_as_saved", "ece_cross_fit_as_saved", "pairs", "rounds", "vs", "vs_auc_mean", "vs_auc_std", "auc_diff", "auc_diff_lo", "auc_diff_hi", "share_not_above"})
	f := func(x stats.Float) string {
		if math.IsNaN(float64(x)) {
			return ""
		}
		return strconv.FormatFloat(float64(x), 'g', 6, 64)
	}
	for _, r := range t.Rows {
		_ = cw.Write([]string{r.Row, r.HeldOut, strings.Join(r.TrainedOn, "+"), r.Level, f(r.AUCMean), f(r.AUCStd), f(r.AccMean), f(r.F1Mean),
			f(r.EERMean), f(r.ECE), f(r.ECECrossFit), f(r.AUCMeanAsSaved), f(r.ECECrossFitAsSaved), strconv.Itoa(r.Pairs), strconv.Itoa(r.Rounds), r.Vs, f(r.VsAUCMean), f(r.VsAUCStd),
			f(100 * r.AUCDiff), f(100 * r.AUCDiffCI[0]), f(100 * r.AUCDiffCI[1]), f(r.ShareNotAbove)})
	}
	cw.Flush()
	return cw.Error()
}

// pm formats mean ± std ("—" for NaN).
func pm(m, s stats.Float) string {
	if math.IsNaN(float64(m)) {
		return "—"
	}
	return fmt.Sprintf("%.2f ± %.2f", float64(m), float64(s))
}

// num formats x with prec decimals ("—" for NaN).
func num(x stats.Float, prec int) string {
	if math.IsNaN(float64(x)) {
		return "—"
	}
	return strconv.FormatFloat(float64(x), 'f', prec, 64)
}

// diffCI formats an AUC difference (a fraction) and its interval in
// points ("—" without one).
func diffCI(d stats.Float, ci stats.Interval) string {
	if math.IsNaN(float64(d)) {
		return "—"
	}
	return fmt.Sprintf("%+.2f [%+.2f, %+.2f]", 100*float64(d), 100*float64(ci[0]), 100*float64(ci[1]))
}
