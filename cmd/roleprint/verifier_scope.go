package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/roleprint/roleprint/data/pairs"
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
