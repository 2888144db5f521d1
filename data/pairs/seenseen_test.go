package pairs_test

import (
	"slices"
	"testing"

	"github.com/roleprint/roleprint/data/pairs"
)

// anchorCounts counts the couples each speaker anchors in one test set
// (a couple is one positive and one negative pair; the anchor is set A).
func anchorCounts(c *pairs.PairCorpus, k pairs.TestKey) map[string]int {
	n := map[string]int{}
	for _, p := range c.Tests[k] {
		if p.Label == 1 {
			n[speakerOf(c.Sets[p.A])]++
		}
	}
	return n
}

// TestSeenSeenAnchorsPerSpeaker checks that the Seen-Seen tests draw
// their anchors per seen speaker, as many as its Seen-Unseen hold-outs,
// so both seen exposures have the same speaker mix (the paper's Table 5:
// about two pairs per speaker in each), and that the fixture's majors,
// with four times the minors' sets, no longer dominate Seen-Seen.
func TestSeenSeenAnchorsPerSpeaker(t *testing.T) {
	cfg := pairs.DefaultPairConfig()
	if !cfg.SeenSeenPerSpeaker {
		t.Fatal("SeenSeenPerSpeaker is off by default")
	}
	c := mustBuild(t, pairFixture(fixtureConvs), cfg)
	checkCorpus(t, c)
	for _, l := range pairs.Levels {
		ss := anchorCounts(c, pairs.TestKey{Exposure: pairs.SeenSeen, Level: l})
		for spk, n := range ss {
			if n > cfg.HoldOutLarge*cfg.TestPairsPerAnchor {
				t.Errorf("seen-seen-%s: speaker %q anchors %d couples, want at most %d", l, spk, n, cfg.HoldOutLarge)
			}
		}
		if l != pairs.Base {
			continue
		}
		// Every seen speaker with a spare pairing of two of its training
		// sets (one not already a training pair) takes part.
		trained := map[[2]string]bool{}
		bySpk := map[string][]string{}
		for _, p := range c.Train {
			trained[[2]string{min(p.A, p.B), max(p.A, p.B)}] = true
			for _, id := range []string{p.A, p.B} {
				spk := speakerOf(c.Sets[id])
				if !slices.Contains(bySpk[spk], id) {
					bySpk[spk] = append(bySpk[spk], id)
				}
			}
		}
		spare := 0
		for spk, ids := range bySpk {
			free := false
			for i := range ids {
				for j := range i {
					free = free || !trained[[2]string{min(ids[i], ids[j]), max(ids[i], ids[j])}]
				}
			}
			if free {
				spare++
				if ss[spk] == 0 {
					t.Errorf("seen-seen-base: speaker %q has a spare pairing but anchors no couple", spk)
				}
			}
		}
		if spare < len(bySpk)/2 {
			t.Errorf("only %d of %d seen speakers have a spare pairing", spare, len(bySpk))
		}
		if len(c.Tests[pairs.TestKey{Exposure: pairs.SeenSeen, Level: l}]) > 2*len(c.Tests[pairs.TestKey{Exposure: pairs.SeenUnseen, Level: l}]) {
			t.Errorf("seen-seen-base has %d pairs, seen-unseen-base %d: want comparable sizes", len(c.Tests[pairs.TestKey{Exposure: pairs.SeenSeen, Level: l}]), len(c.Tests[pairs.TestKey{Exposure: pairs.SeenUnseen, Level: l}]))
		}
	}

	// The old draw over all training sets: the majors anchor most couples.
	cfg.SeenSeenPerSpeaker = false
	c = mustBuild(t, pairFixture(fixtureConvs), cfg)
	most := 0
	for _, n := range anchorCounts(c, pairs.TestKey{Exposure: pairs.SeenSeen, Level: pairs.Base}) {
		most = max(most, n)
	}
	if most <= cfg.HoldOutLarge {
		t.Errorf("per-set draw: at most %d couples per speaker; the fixture should show the majors' weight", most)
	}
}
