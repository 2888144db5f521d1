package table2

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
)

// pct formats a fraction as the paper prints it: "85.75 ±0.51" (×100).
func pct(mean, std stats.Float) string {
	m, s := float64(mean), float64(std)
	if math.IsNaN(m) {
		return "–"
	}
	if math.IsNaN(s) {
		return fmt.Sprintf("%.2f", 100*m)
	}
	return fmt.Sprintf("%.2f ±%.2f", 100*m, 100*s)
}

// rowIndex indexes rows by encoder and test set and lists the encoders
// in order of first appearance.
func rowIndex(rows []Row) (map[string]map[pairs.TestKey]Row, []string) {
	idx := map[string]map[pairs.TestKey]Row{}
	var order []string
	for _, r := range rows {
		if idx[r.Encoder] == nil {
			idx[r.Encoder] = map[pairs.TestKey]Row{}
			order = append(order, r.Encoder)
		}
		idx[r.Encoder][pairs.TestKey{Exposure: pairs.Exposure(r.Exposure), Level: pairs.Level(r.Level)}] = r
	}
	return idx, order
}

func table2Header(w io.Writer, first string) {
	fmt.Fprintf(w, "| %s |", first)
	for _, e := range pairs.Exposures {
		t := e.Title()
		fmt.Fprintf(w, " %s AUC | %s ACC | %s F1 |", t, t, t)
	}
	fmt.Fprint(w, "\n|---|")
	fmt.Fprint(w, strings.Repeat("---:|", 9))
	fmt.Fprintln(w)
}

// writeRow writes one Table 2 line: the row name, then AUC, ACC and F1
// (mean ± std, ×100) of level l for each exposure.
func writeRow(w io.Writer, name string, cells map[pairs.TestKey]Row, l pairs.Level) {
	fmt.Fprintf(w, "| %s |", name)
	for _, e := range pairs.Exposures {
		r := cells[pairs.TestKey{Exposure: e, Level: l}]
		fmt.Fprintf(w, " %s | %s | %s |", pct(r.AUCMean, r.AUCStd), pct(r.ACCMean, r.ACCStd), pct(r.F1Mean, r.F1Std))
	}
	fmt.Fprintln(w)
}

// WriteTableMarkdown writes only this run's Table 2 in the paper's layout
// (levels as blocks; AUC, ACC, F1 ×100 with ± the standard deviation over
// rounds): what `roleprint reproduce` prints.
func (t *Result) WriteTableMarkdown(w io.Writer) error {
	ew := &errWriter{w: w}
	t.writeTable(ew)
	return ew.err
}

func (t *Result) writeTable(ew *errWriter) {
	idx, order := rowIndex(t.Rows)
	fmt.Fprintf(ew, "## Table 2: speaker verification (mean ± std over %d rounds, seeds %s)\n\n", t.Config.Rounds, seedList(t))
	rule := t.DecisionRule
	if rule == "" { // a result decoded from JSON written without the key
		rule = fmt.Sprintf("ACC and F1 at the threshold that maximises %s on the dev pairs", t.Config.Criterion)
	}
	fmt.Fprintf(ew, "Decision rule: %s. Values ×100; best-threshold ACC beside ACC below.\n\n", rule)
	for _, l := range pairs.Levels {
		fmt.Fprintf(ew, "**%s level**\n\n", l.Title())
		table2Header(ew, "Encoder")
		for _, enc := range order {
			writeRow(ew, enc, idx[enc], l)
		}
		fmt.Fprintln(ew)
	}
}

// WriteMarkdown writes the full report as Markdown: this run's Table 2
// (WriteTableMarkdown), the same cells beside the paper's published rows,
// best-threshold ACC and F1 and the EER, the pairs per round, and the
// skipped encoders and notes.
func (t *Result) WriteMarkdown(w io.Writer) error {
	idx, order := rowIndex(t.Rows)
	ew := &errWriter{w: w}
	t.writeTable(ew)
	fmt.Fprintf(ew, "## Beside the paper (Yang et al., Table 2)\n\n")
	fmt.Fprintf(ew, "Rows marked *paper* are the published numbers; the others are this run. Our corpora, pairs and encoders differ from the paper's (see docs/reproduce.md).\n\n")
	for _, l := range pairs.Levels {
		fmt.Fprintf(ew, "**%s level**\n\n", l.Title())
		table2Header(ew, "Model")
		for _, pr := range PaperTable2() {
			if pr.Level != l {
				continue
			}
			fmt.Fprintf(ew, "| %s *paper* |", pr.Model)
			for _, e := range pairs.Exposures {
				c := pr.Cells[e]
				fmt.Fprintf(ew, " %.2f ±%.2f | %.2f ±%.2f | %.2f ±%.2f |", c.AUC.Mean, c.AUC.Std, c.ACC.Mean, c.ACC.Std, c.F1.Mean, c.F1.Std)
			}
			fmt.Fprintln(ew)
		}
		for _, enc := range order {
			name := enc
			if pm := sv.PaperCounterpart(enc); pm != "" {
				name += " (cf. " + pm + ")"
			}
			writeRow(ew, name, idx[enc], l)
		}
		fmt.Fprintln(ew)
	}
	fmt.Fprintf(ew, "## ACC beside best-threshold ACC; best F1, EER and average precision (×100)\n\n")
	fmt.Fprintf(ew, "ACC is at the decision rule's threshold and best ACC at the threshold that maximises accuracy on the test set itself (an upper bound), both mean ± std over rounds; best F1 likewise (mean); EER and AP (average precision, the area under the precision–recall curve; chance is the share of same-speaker pairs, not 50) are threshold-free (means).\n\n")
	fmt.Fprint(ew, "| Encoder | Level |")
	for _, e := range pairs.Exposures {
		t := e.Title()
		fmt.Fprintf(ew, " %s ACC | %s best ACC | %s best F1 | %s EER | %s AP |", t, t, t, t, t)
	}
	fmt.Fprint(ew, "\n|---|---|"+strings.Repeat("---:|", 15)+"\n")
	for _, enc := range order {
		for _, l := range pairs.Levels {
			fmt.Fprintf(ew, "| %s | %s |", enc, l.Title())
			for _, e := range pairs.Exposures {
				r := idx[enc][pairs.TestKey{Exposure: e, Level: l}]
				fmt.Fprintf(ew, " %s | %s | %s | %s | %s |", pct(r.ACCMean, r.ACCStd), pct(r.BestACCMean, r.BestACCStd), pct(r.BestF1Mean, stats.Float(math.NaN())),
					pct(r.EERMean, stats.Float(math.NaN())), pct(r.AveragePrecisionMean, stats.Float(math.NaN())))
			}
			fmt.Fprintln(ew)
		}
	}
	fmt.Fprintln(ew)
	t.writeComparisons(ew)
	if len(t.Rounds) > 0 {
		fmt.Fprintf(ew, "## Pairs per round\n\n| Round | Seed | Train | Dev |")
		for _, k := range allTestKeys() {
			fmt.Fprintf(ew, " %s |", k)
		}
		fmt.Fprint(ew, "\n|---:|---:|---:|---:|"+strings.Repeat("---:|", 9)+"\n")
		for _, ri := range t.Rounds {
			fmt.Fprintf(ew, "| %d | %d | %d | %d |", ri.Round, ri.Seed, ri.Pairs["train"], ri.Pairs["dev"])
			for _, k := range allTestKeys() {
				fmt.Fprintf(ew, " %d |", ri.Pairs[k.String()])
			}
			fmt.Fprintln(ew)
		}
		fmt.Fprintln(ew)
	}
	if len(t.Skipped) > 0 || len(t.Notes) > 0 {
		fmt.Fprintf(ew, "## Notes\n\n")
		for _, s := range t.Skipped {
			fmt.Fprintf(ew, "- skipped %s: %s\n", s.Encoder, s.Reason)
		}
		for _, n := range t.Notes {
			fmt.Fprintf(ew, "- %s\n", n)
		}
		fmt.Fprintln(ew)
	}
	fmt.Fprintf(ew, "Run time %.1f s.\n", t.Seconds)
	return ew.err
}

func seedList(t *Result) string {
	var s []string
	for r := 0; r < t.Config.Rounds; r++ {
		s = append(s, fmt.Sprint(t.Config.Seed+int64(r)))
	}
	return strings.Join(s, ", ")
}

// errWriter remembers the first write error so report code can write
// freely and check once.
type errWriter struct {
	w   io.Writer
	err error
}

// Write writes p unless an earlier write failed; it always reports
// success so fmt.Fprintf callers need not check.
func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return len(p), nil
	}
	n, err := e.w.Write(p)
	if err != nil {
		e.err = err
	}
	return n, nil
}
