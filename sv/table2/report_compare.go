package table2

import (
	"fmt"
	"io"

	"github.com/roleprint/roleprint/data/pairs"
)

// writeComparisons writes the report's section on t.Comparisons.
func (t *Result) writeComparisons(w io.Writer) {
	if len(t.Comparisons) == 0 {
		return
	}
	fmt.Fprintf(w, "## Best fine-tuned against best untuned row (paired bootstrap)\n\n")
	fmt.Fprintf(w, "AUC(fine-tuned) − AUC(untuned) ×100, mean over rounds, with a %.0f %% interval from %d paired replicates "+
		"(each round's test pairs redrawn, the same draw for both rows); \"P(≤ 0)\" is the share of replicates where the "+
		"fine-tuned row is not above. Both rows are chosen on these test means.\n\n", 100*CompareConfidence, CompareReplicates)
	fmt.Fprintf(w, "| Test set | Fine-tuned | Untuned | Pairs | Difference | Interval | P(≤ 0) |\n|---|---|---|---:|---:|---|---:|\n")
	for _, c := range t.Comparisons {
		name := c.Test
		var k pairs.TestKey
		for _, kk := range allTestKeys() {
			if kk.String() == c.Test {
				k = kk
				name = k.Exposure.Title() + " " + k.Level.Title()
			}
		}
		fmt.Fprintf(w, "| %s | %s | %s | %d | %+.2f | [%+.2f, %+.2f] | %.3f |\n", name, c.A, c.B, c.Pairs,
			100*float64(c.AUCDiff), 100*float64(c.AUCDiffCI[0]), 100*float64(c.AUCDiffCI[1]), float64(c.ShareNotAbove))
	}
	fmt.Fprintln(w)
}
