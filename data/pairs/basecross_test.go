package pairs_test

import (
	"testing"

	"github.com/roleprint/roleprint/data/corpus"
	"github.com/roleprint/roleprint/data/pairs"
)

// baseNegativeSources counts the Base-level test negatives of c whose two
// sets are of one source, and all of them.
func baseNegativeSources(c *pairs.PairCorpus) (sameSource, total int) {
	for _, e := range pairs.Exposures {
		for _, p := range c.Tests[pairs.TestKey{Exposure: e, Level: pairs.Base}] {
			if p.Label == 1 {
				continue
			}
			total++
			if c.Sets[p.A].Source == c.Sets[p.B].Source {
				sameSource++
			}
		}
	}
	return sameSource, total
}

// TestBaseNegativesCrossSources checks the paper's Base level: by default
// every Base negative pairs sets of two sources (Hermione of Harry Potter
// with Sheldon of TBBT), and PairStats says 100 %; "any" restores the old
// draw, which on four sources gives same-source negatives too.
func TestBaseNegativesCrossSources(t *testing.T) {
	utts := pairFixture(fixtureConvs)
	cfg := pairs.DefaultPairConfig()
	if cfg.BaseNegatives != pairs.BaseNegativesSource {
		t.Fatalf("default base_negatives %q, want %q", cfg.BaseNegatives, pairs.BaseNegativesSource)
	}
	c := mustBuild(t, utts, cfg)
	same, total := baseNegativeSources(c)
	if total == 0 || same != 0 {
		t.Errorf("default build: %d of %d Base test negatives within one source, want 0 of > 0", same, total)
	}
	for _, s := range pairs.PairStats(c).Splits {
		if s.Level == pairs.Base && s.Negatives > 0 && s.CrossSourceNegatives != 1 {
			t.Errorf("%s: %.2f of negatives cross sources, want 1", s.Name, s.CrossSourceNegatives)
		}
	}

	cfg.BaseNegatives = pairs.BaseNegativesAny
	c = mustBuild(t, utts, cfg)
	if same, total = baseNegativeSources(c); same == 0 {
		t.Errorf("base_negatives any: none of %d Base negatives within one source; the option draws from every source", total)
	}
	cfg.BaseNegatives = "elsewhere"
	if err := cfg.Validate(); err == nil {
		t.Error("base_negatives \"elsewhere\" validated")
	}
}

// TestEmbeddedCorpusNineCells builds the embedded Shakespeare corpus with
// the default config and checks that every exposure × level test exists,
// that the unseen speakers come from two or more plays, and that each level
// is what it says: Base negatives all cross sources, Hard ones never, and
// Harder ones all share a conversation.
func TestEmbeddedCorpusNineCells(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pairs over the embedded corpus")
	}
	utts, err := corpus.Default()
	if err != nil {
		t.Fatal(err)
	}
	c := mustBuild(t, utts, pairs.DefaultPairConfig())
	unseenPlays := map[string]bool{}
	for _, p := range c.Tests[pairs.TestKey{Exposure: pairs.UnseenUnseen, Level: pairs.Base}] {
		unseenPlays[c.Sets[p.A].Source] = true
		unseenPlays[c.Sets[p.B].Source] = true
	}
	if len(unseenPlays) < 2 {
		t.Errorf("unseen speakers come from %d play(s), want ≥ 2: Unseen-Unseen Base would be Hard", len(unseenPlays))
	}
	for _, s := range pairs.PairStats(c).Splits {
		if s.Exposure == "" {
			continue
		}
		if s.Pairs == 0 || s.Negatives == 0 {
			t.Errorf("%s is empty", s.Name)
			continue
		}
		switch s.Level {
		case pairs.Base:
			if s.CrossSourceNegatives != 1 {
				t.Errorf("%s: %.3f of negatives cross sources, want 1", s.Name, s.CrossSourceNegatives)
			}
		case pairs.Hard:
			if s.CrossSourceNegatives != 0 {
				t.Errorf("%s: %.3f of negatives cross sources, want 0", s.Name, s.CrossSourceNegatives)
			}
		case pairs.Harder:
			if s.SameConversationNegatives != 1 {
				t.Errorf("%s: %.3f of negatives share a conversation, want 1", s.Name, s.SameConversationNegatives)
			}
		}
		t.Logf("%s: %d pairs, %.0f %% cross-source, %.0f %% same-conversation negatives",
			s.Name, s.Pairs, 100*s.CrossSourceNegatives, 100*s.SameConversationNegatives)
	}
}
