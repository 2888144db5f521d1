package evaluate

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/roleprint/roleprint/internal/fsx"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv/verifier"
)

// The report files EvalReport.WriteFiles writes.
const (
	EvalMarkdown = "eval.md"
	EvalCSV      = "eval.csv"
	EvalJSON     = "eval.json"
	EvalManifest = "manifest.json"
)

// EvalFiles lists the report files in the order WriteFiles writes them.
var EvalFiles = []string{EvalMarkdown, EvalCSV, EvalJSON, EvalManifest}

// WriteFiles writes the report's Markdown, CSV and JSON and the manifest
// m (any JSON value: the command line, inputs, software) to dir, each
// file through a temporary file and a rename, so that none is left half
// written.
func (r *EvalReport) WriteFiles(dir string, m any) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var md strings.Builder
	if err := r.WriteMarkdown(&md); err != nil {
		return err
	}
	var cs strings.Builder
	if err := r.WriteCSV(&cs); err != nil {
		return err
	}
	js, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	mj, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	body := map[string][]byte{EvalMarkdown: []byte(md.String()), EvalCSV: []byte(cs.String()),
		EvalJSON: append(js, '\n'), EvalManifest: append(mj, '\n')}
	for _, name := range EvalFiles {
		if err := fsx.WriteFile(filepath.Join(dir, name), body[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// evalHeader is the CSV's header, the JSON rows' keys.
var evalHeader = []string{"encoder", "corpus", "level", "auc_mean", "auc_std", "acc_mean", "f1_mean", "acc_best_mean", "eer_mean", "ece", "rule", "pairs", "rounds",
	"scoring", "calibration_source", "calibration_scoring"}

// WriteCSV writes one line per row under evalHeader (NaN as empty).
func (r *EvalReport) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(evalHeader); err != nil {
		return err
	}
	f := func(x stats.Float) string {
		if !x.Defined() {
			return ""
		}
		return fmt.Sprintf("%.4f", float64(x))
	}
	for _, row := range r.Rows {
		if err := cw.Write([]string{row.Encoder, row.Corpus, row.Level, f(row.AUCMean), f(row.AUCStd), f(row.AccMean), f(row.F1Mean),
			f(row.AccBestMean), f(row.EERMean), f(row.ECE), row.Rule, fmt.Sprint(row.Pairs), fmt.Sprint(row.Rounds),
			row.Scoring, row.CalibrationSource, row.CalibrationScoring}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteMarkdown writes the report as a Markdown page: what was evaluated,
// the rows, the comparisons and the domain check.
func (r *EvalReport) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	trained := "its training corpora are not recorded"
	if len(r.TrainedOn) > 0 {
		trained = "trained on " + strings.Join(r.TrainedOn, ", ")
	}
	fmt.Fprintf(&b, "# Verifier %s on corpora it was not trained on\n\n", r.Name)
	frozen := "frozen"
	if len(r.Adapted) > 0 {
		frozen = "its weights frozen, adapted without labels to " + strings.Join(r.Adapted, ", ") +
			" (vocabularies, centring and s-norm cohort refitted on that corpus's texts; --adapt " + r.Adapt + ")"
	}
	fmt.Fprintf(&b, "Bundle `%s` (%s), %s, on %s; every speaker unseen; %d rounds of pair sampling (seeds %v). ",
		r.Verifier, trained, frozen, strings.Join(r.Corpora, ", "), len(r.Seeds), r.Seeds)
	fmt.Fprintf(&b, "Compared with %s fitted on the evaluated texts only, on the same pairs.\n\n", orNone(r.Vs))
	if r.Demonstration != "" {
		fmt.Fprintf(&b, "**Demonstration bundle**: %s.\n\n", r.Demonstration)
	}
	for _, c := range r.Calibrations {
		how := "scored as saved"
		if c.Scoring == verifier.ScoringAdapted {
			how = "scored adapted"
		}
		switch c.Source {
		case verifier.CalibrationHeldOut:
			fmt.Fprintf(&b, "Pairs %s: the bundle's P(same) is calibrated on held-out corpora (the scores of leave-one-corpus-out folds on the corpus each never trained on), ", how)
		default:
			fmt.Fprintf(&b, "Pairs %s: the bundle's P(same) is calibrated on dev pairs of its own training corpora, ", how)
		}
		if c.Matches() {
			fmt.Fprintf(&b, "on scores computed the same way; its ECE below measures that calibration.\n\n")
		} else {
			fmt.Fprintf(&b, "on scores %s: the bundle has no calibration of %s scores, so its ECE below measures a calibration of another kind of score.\n\n",
				strings.ReplaceAll(c.FittedOn, "_", " "), strings.ReplaceAll(c.Scoring, "_", " "))
		}
	}
	b.WriteString("Hard pairs take negatives of the anchor's source, Harder of its conversation, Base of another corpus. " +
		"AUC, ACC, F1 (macro), best-threshold ACC and EER in percent, mean ± std over rounds; ECE of the rule's probabilities (a fraction). " +
		"ACC and F1 follow each row's rule: the bundle's own decision, P(same) ≥ 0.5, frozen; an untuned encoder's Platt " +
		"calibration cross-fitted on the other half of the pairs. Best-threshold ACC is chosen on the test pairs themselves: an upper bound.\n\n")
	b.WriteString("| encoder | corpus | level | AUC | ACC | F1 | best ACC | EER | ECE | pairs |\n|---|---|---|---|---|---|---|---|---|---|\n")
	p := func(x stats.Float) string {
		if !x.Defined() {
			return "–"
		}
		return fmt.Sprintf("%.2f", float64(x))
	}
	for _, row := range r.Rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s ± %s | %s | %s | %s | %s | %s | %d |\n", row.Encoder, row.Corpus, row.Level,
			p(row.AUCMean), p(row.AUCStd), p(row.AccMean), p(row.F1Mean), p(row.AccBestMean), p(row.EERMean),
			fmt.Sprintf("%.3f", float64(row.ECE)), row.Pairs)
	}
	if len(r.Comparisons) > 0 {
		b.WriteString("\n## Paired bootstrap of the AUC difference\n\n")
		b.WriteString("AUC(A) − AUC(B) in points, mean over rounds, 95 % percentile interval of a paired bootstrap of the pairs (the same draw for both); " +
			"share not above: the share of replicates in which A is not above B.\n\n")
		b.WriteString("| corpus | level | A | B | difference | interval | share not above | pairs |\n|---|---|---|---|---|---|---|---|\n")
		for _, c := range r.Comparisons {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %+.2f | [%+.2f, %+.2f] | %.3f | %d |\n", c.Corpus, c.Level, c.A, c.B,
				100*float64(c.AUCDiff), 100*float64(c.AUCDiffCI[0]), 100*float64(c.AUCDiffCI[1]), float64(c.ShareNotAbove), c.Pairs)
		}
	}
	if len(r.Domain) > 0 {
		b.WriteString("\n## Domain\n\nSets outside the bundle's training domain (word profile and unknown words; see the bundle's domain.json).\n\n")
		b.WriteString("| corpus | sets | outside | in domain |\n|---|---|---|---|\n")
		for _, d := range r.Domain {
			fmt.Fprintf(&b, "| %s | %d | %d | %v |\n", d.Corpus, d.Sets, d.OutOfDomain, d.InDomain)
		}
	}
	if len(r.Notes) > 0 {
		b.WriteString("\n## Notes\n\n")
		for _, n := range r.Notes {
			fmt.Fprintf(&b, "- %s\n", n)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// orNone joins names, or says "no other encoder".
func orNone(names []string) string {
	if len(names) == 0 {
		return "no other encoder"
	}
	return "`" + strings.Join(names, "`, `") + "`"
}
