package table2

import (
	"testing"

	"github.com/roleprint/roleprint/sv"
)

// TestTrainTextSourcesAlign checks that each training text comes with the
// Source of a training set that holds it, that TrainTexts is the same list,
// and that capping keeps texts and sources aligned.
func TestTrainTextSourcesAlign(t *testing.T) {
	c := fixtureCorpus(1, 6, 6, 40, 0.3)
	for _, s := range c.Sets { // one source per speaker, so a misaligned source shows
		s.Source = "src-" + s.Speaker
	}
	holds := map[[2]string]bool{}
	for _, p := range c.Train {
		for _, id := range []string{p.A, p.B} {
			s := c.Sets[id]
			for _, x := range s.Texts {
				holds[[2]string{x, s.Source}] = true
			}
		}
	}
	for _, max := range []int{0, 7} {
		texts, sources := sv.TrainTextSources(c, max)
		if len(texts) == 0 || len(texts) != len(sources) {
			t.Fatalf("max %d: %d texts, %d sources", max, len(texts), len(sources))
		}
		plain := sv.TrainTexts(c, max)
		for i, x := range texts {
			if plain[i] != x {
				t.Fatalf("max %d: text %d %q, TrainTexts has %q", max, i, x, plain[i])
			}
			if !holds[[2]string{x, sources[i]}] {
				t.Errorf("max %d: text %q with source %q: no training set of that source holds it", max, x, sources[i])
			}
		}
	}
}
