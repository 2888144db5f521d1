package pairs_test

import (
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data/pairs"
)

// nameOf is a set's speaker name within its corpus, as BuildPairs compares
// namesakes: corpus, folded name and agent model.
func nameOf(s *pairs.UtteranceSet) string {
	return strings.ToLower(pairs.CorpusOf(s.Source)) + "\x00" + strings.ToLower(s.Speaker) + "\x00" + s.AgentModel
}

// TestBuildPairsNamesakes checks that two speakers of one name in two
// sources of one corpus (the fixture's "play/one" and "play/two" share every
// name, as Falstaff speaks in three plays) are never a negative pair and
// never unseen or dev, while the same name in two corpora ("alpha" and
// "beta") is two people that negatives may pair.
func TestBuildPairsNamesakes(t *testing.T) {
	utts := pairFixture(fixtureConvs)
	for _, by := range []string{pairs.DatasetByCorpus, pairs.DatasetBySource} {
		cfg := pairs.DefaultPairConfig()
		cfg.DatasetBy = by
		c := mustBuild(t, utts, cfg)
		checkCorpus(t, c)
		crossCorpus := 0
		for name, pairList := range allSplits(c) {
			for _, p := range pairList {
				a, b := c.Sets[p.A], c.Sets[p.B]
				if p.Label == 1 {
					continue
				}
				if nameOf(a) == nameOf(b) {
					t.Fatalf("%s: %s pair %s: negative of namesakes %q (%s) and %q (%s)", by, name, p.ID, a.Speaker, a.Source, b.Speaker, b.Source)
				}
				if strings.EqualFold(a.Speaker, b.Speaker) {
					crossCorpus++
				}
			}
		}
		if crossCorpus == 0 {
			t.Errorf("%s: no negative pairs one name across two corpora (alpha's Ann and beta's Ann are two people)", by)
		}
		_, unseen, dev := roles(c)
		for k := range unseen {
			if strings.HasPrefix(k, "play/") {
				t.Errorf("%s: unseen speaker %q has a namesake in the other play", by, k)
			}
		}
		for k := range dev {
			if strings.HasPrefix(k, "play/") {
				t.Errorf("%s: dev speaker %q has a namesake in the other play", by, k)
			}
		}
		for _, d := range pairs.PairCorpusInfo(c).Datasets {
			if strings.HasPrefix(d.Name, "play") && d.Namesakes != d.Speakers {
				t.Errorf("%s: dataset %s: %d namesakes of %d speakers, want all", by, d.Name, d.Namesakes, d.Speakers)
			}
		}
	}
}
