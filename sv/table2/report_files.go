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

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/internal/fsx"
	"github.com/roleprint/roleprint/stats"
)

// Report file names inside an output folder.
const (
	ReportMarkdown = "table2.md"
	ReportCSV      = "table2.csv"
	ReportParquet  = "table2.parquet"
	ReportJSON     = "table2.json"
	ManifestFile   = "manifest.json"
)

// csvHeader is the CSV column order; the names are Row's JSON keys.
var csvHeader = []string{
	"encoder", "exposure", "level", "auc_mean", "auc_std", "average_precision_mean", "average_precision_std", "acc_mean", "acc_std", "f1_mean", "f1_std",
	"best_acc_mean", "best_acc_std", "best_f1_mean", "best_f1_std", "eer_mean", "eer_std", "rounds", "pairs",
	"paper_model", "paper_auc", "paper_acc", "paper_f1", "decision_rule",
}

// WriteCSV writes the rows as CSV with a header (csvHeader); undefined
// values are empty cells.
func (t *Result) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	f := func(x stats.Float) string {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return ""
		}
		return strconv.FormatFloat(float64(x), 'g', -1, 64)
	}
	for _, r := range t.Rows {
		rec := []string{r.Encoder, r.Exposure, r.Level, f(r.AUCMean), f(r.AUCStd), f(r.AveragePrecisionMean), f(r.AveragePrecisionStd), f(r.ACCMean), f(r.ACCStd),
			f(r.F1Mean), f(r.F1Std), f(r.BestACCMean), f(r.BestACCStd), f(r.BestF1Mean), f(r.BestF1Std),
			f(r.EERMean), f(r.EERStd), strconv.Itoa(r.Rounds), strconv.Itoa(r.Pairs),
			r.PaperModel, f(r.PaperAUC), f(r.PaperACC), f(r.PaperF1), r.DecisionRule}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteReport writes the result into dir (created when missing): the
// Markdown table (ReportMarkdown), CSV (ReportCSV), Parquet (ReportParquet)
// and JSON (ReportJSON, the whole Result) reports, and the manifest
// (ManifestFile) when m is not nil. Every file is written atomically.
func (t *Result) WriteReport(dir string, m *Manifest) error {
	var md bytes.Buffer
	if err := t.WriteMarkdown(&md); err != nil {
		return err
	}
	if err := fsx.WriteFileAll(filepath.Join(dir, ReportMarkdown), md.Bytes(), 0o644); err != nil {
		return err
	}
	var cb bytes.Buffer
	if err := t.WriteCSV(&cb); err != nil {
		return err
	}
	if err := fsx.WriteFileAll(filepath.Join(dir, ReportCSV), cb.Bytes(), 0o644); err != nil {
		return err
	}
	if err := data.WriteParquet(filepath.Join(dir, ReportParquet), t.Rows); err != nil {
		return err
	}
	js, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", ReportJSON, err)
	}
	if err := fsx.WriteFileAll(filepath.Join(dir, ReportJSON), append(js, '\n'), 0o644); err != nil {
		return err
	}
	if m != nil {
		mj, err := json.MarshalIndent(m, "", "  ")
		if err != nil {
			return fmt.Errorf("encode %s: %w", ManifestFile, err)
		}
		if err := fsx.WriteFileAll(filepath.Join(dir, ManifestFile), append(mj, '\n'), 0o644); err != nil {
			return err
		}
	}
	return nil
}
