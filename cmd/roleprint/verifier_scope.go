package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv/table2"
	"github.com/roleprint/roleprint/sv/verifier"
)

// bundleDomain is the Domain a bundle trained on c records (its training
// sets, limits from its other sets), or nil with a note on stderr when c
// has too few sets for one.
func bundleDomain(e *env, cmd string, c *pairs.PairCorpus) *verifier.Domain {
	d, err := verifier.CorpusDomain(c)
	if err != nil {
		e.Logf("%s: the verifier bundle records no domain: %v", cmd, err)
		return nil
	}
	return d
}

// reproDemonstration labels the bundle of a run on the embedded corpus
// alone a demonstration (one playwright, its dev AUC), "" otherwise.
func reproDemonstration(m *table2.Manifest, devScores []float64, devLabels []bool) string {
	if m == nil || len(m.Inputs) == 0 {
		return ""
	}
	for _, in := range m.Inputs {
		if !strings.HasPrefix(in.Path, "embedded:") {
			return ""
		}
	}
	return fmt.Sprintf("trained on the embedded corpus alone (Shakespeare: one playwright's verse drama; dev AUC %.2f); it shows how a bundle is made and used, and is not a verifier for other text: train one on your corpora with `roleprint reproduce CORPUS.parquet...` and measure it on corpora it was not trained on with `roleprint eval`",
		stats.AUC(devScores, devLabels))
}

// reproClosingLine is the last line `roleprint reproduce` prints about
// the bundle in dir: for a demonstration bundle, what it is and is not.
func reproClosingLine(e *env, dir string) {
	if dir == "" {
		return
	}
	s, err := verifier.ReadSpec(dir)
	if err != nil || s.Demonstration == "" {
		return
	}
	fmt.Fprintf(e.Stdout(), "The verifier bundle in %s is a demonstration, %s.\n", dir, s.Demonstration)
}

// reproCorpora names the corpora of c's sets ("shakespeare, tbbt").
func reproCorpora(c *pairs.PairCorpus) string {
	seen := map[string]bool{}
	var out []string
	for _, s := range c.Sets {
		if n := pairs.CorpusOf(s.Source); !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}
