package pairs_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/pairs"
)

// pairFixtureSources are the synthetic sources: two corpora of one source
// each and a "play" corpus of two sources, which DatasetByCorpus treats as
// one dataset. Every source uses the same speaker names, so the tests can
// check that a name in two sources is two people.
var pairFixtureSources = []string{"alpha", "beta", "play/one", "play/two"}

// pairFixtureMajors speak in every conversation (60 sets or more each, too
// many to be held out); Rachel and Joey are also main roles. The minors
// join one or two at a time and are the unseen and dev candidates.
var (
	pairFixtureMajors = []string{"Rachel", "Joey", "Ann", "Bob"}
	pairFixtureMinors = []string{"Cy", "Dee", "Eve", "King", "Lu", "Mo"}
)

// pairFixture builds a synthetic corpus: per source, convs conversations in
// which the four majors and one or two minors each speak 6 lines of 12
// words, plus noise the filters must remove: generic roles ("Man", "First
// Lord"), a conversation shorter than 5 turns, a speaker with too few sets
// ("Rare"), a set with too few words ("Terse") and agent-generated rows.
// Rows are shuffled, so sets must be put back in turn order.
func pairFixture(convs int) []data.Utterance {
	r := rand.New(rand.NewPCG(42, 7))
	var utts []data.Utterance
	for si, src := range pairFixtureSources {
		for c := range convs {
			conv := fmt.Sprintf("c%03d", c)
			names := slices.Clone(pairFixtureMajors)
			for _, m := range r.Perm(len(pairFixtureMinors))[:1+r.IntN(2)] {
				names = append(names, pairFixtureMinors[m])
			}
			turn := int32(0)
			add := func(speaker, text string) {
				utts = append(utts, data.Utterance{Source: src, ConversationID: conv, Turn: turn, Speaker: speaker, Text: text})
				turn++
			}
			for line := range 6 {
				for _, name := range names {
					add(name, fmt.Sprintf("%s%d line %d turn %d of %s in %s says words w%d x y z end", name, si, line, turn, conv, src, r.IntN(100)))
				}
				if c%5 == 0 {
					add("Man", strings.Repeat("generic man talk ", 4))
					add("First Lord", strings.Repeat("my lord indeed ", 4))
				}
				if c%7 == 0 {
					add("Terse", "ok")
				}
				if c == 3 {
					add("Rare", strings.Repeat("rare words here ", 4))
				}
			}
			if c%6 == 0 {
				g := data.Utterance{Source: src, ConversationID: conv, Turn: turn, Speaker: "Ann",
					Text: "generated text by an agent", AgentModel: "gpt-x", Role: "Ann"}
				utts = append(utts, g)
			}
		}
		// A conversation too short to keep (4 turns).
		for t := range 4 {
			utts = append(utts, data.Utterance{Source: src, ConversationID: "short", Turn: int32(t),
				Speaker: "Ann", Text: strings.Repeat("short scene words ", 10)})
		}
	}
	r.Shuffle(len(utts), func(i, j int) { utts[i], utts[j] = utts[j], utts[i] })
	return utts
}

// speakerOf is a set's identity as BuildPairs defines it.
func speakerOf(s *pairs.UtteranceSet) string {
	return s.Source + "\x00" + s.Speaker + "\x00" + s.AgentModel
}

// convOf is a set's conversation identity.
func convOf(s *pairs.UtteranceSet) string { return s.Source + "\x00" + s.ConversationID }

// allSplits returns every split of c by name.
func allSplits(c *pairs.PairCorpus) map[string][]pairs.Pair {
	m := map[string][]pairs.Pair{"train": c.Train, "dev": c.Dev}
	for _, e := range pairs.Exposures {
		for _, l := range pairs.Levels {
			k := pairs.TestKey{Exposure: e, Level: l}
			m[k.String()] = c.Tests[k]
		}
	}
	return m
}

func mustBuild(t testing.TB, utts []data.Utterance, cfg pairs.PairConfig) *pairs.PairCorpus {
	t.Helper()
	c, err := pairs.BuildPairs(utts, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// fixtureConvs is the number of conversations per source in the tests: the
// majors then have 60 sets each, more than UnseenMaxSets.
const fixtureConvs = 60
