package pairs_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/pairs"
)

// aliasFixture has, in each of two corpora, conversations where Sheldon
// talks with Leslie, labelled "Lesley" in the odd ones, and with Howard's
// mother, labelled "Howard's Mother" in the odd ones and "Mrs Wolowitz" in
// the even ones. The aliases are scoped to tbbt, so in "other" Leslie and
// LESLEY stay two speakers.
func aliasFixture() []data.Utterance {
	var utts []data.Utterance
	for _, src := range []string{"tbbt", "other"} {
		for c := range 12 {
			names := []string{"Sheldon", "Leslie", "Mrs Wolowitz"}
			if c%2 == 1 {
				names = []string{"Sheldon", "LESLEY", "Howard's Mother"}
			}
			for turn := range 18 {
				who := names[turn%3]
				utts = append(utts, data.Utterance{Source: src, ConversationID: fmt.Sprintf("c%02d", c), Turn: int32(turn),
					Speaker: who, Text: fmt.Sprintf("%s speaks a line of about twelve words here in turn %d", who, turn)})
			}
		}
	}
	return utts
}

// TestBuildPairsAliases checks that the default aliases merge one person's
// labels (before the generic-role filter, which would drop "Howard's
// Mother"), only within their corpus, and that an entry without "=" is
// rejected.
func TestBuildPairsAliases(t *testing.T) {
	cfg := pairs.DefaultPairConfig()
	cfg.AllowEmptySplits = true
	cfg.MinSpeakerSets = 2
	c := mustBuild(t, aliasFixture(), cfg)
	speakers := map[string]bool{}
	for _, s := range c.Sets {
		speakers[s.Source+"/"+s.Speaker] = true
	}
	for name, want := range map[string]bool{
		"tbbt/Leslie": true, "tbbt/Mrs Wolowitz": true, "tbbt/Lesley": false, "tbbt/LESLEY": false,
		"tbbt/Howard's Mother": false, "other/Lesley": false,
	} {
		if speakers[name] != want {
			t.Errorf("speaker %s in the pairs: %v, want %v (all: %v)", name, speakers[name], want, speakers)
		}
	}
	in := pairs.PairCorpusInfo(c).Input
	// tbbt: Sheldon, Leslie, Mrs Wolowitz; other: Sheldon, Leslie, LESLEY,
	// Mrs Wolowitz (its "Howard's Mother" is a generic role there).
	if in.AliasedUtterances != 2*6*6 || in.ExcludedNames["Howard's Mother"] != 6*6 || in.Speakers != 7 {
		t.Errorf("aliased %d utterances (want 72), excluded %v (want Howard's Mother 36 in other), %d speakers (want 7)",
			in.AliasedUtterances, in.ExcludedNames, in.Speakers)
	}

	cfg.Aliases = []string{"tbbt:Lesley"}
	if _, err := pairs.BuildPairs(aliasFixture(), cfg); err == nil || !strings.Contains(err.Error(), `alias "tbbt:Lesley"`) {
		t.Errorf("malformed alias: %v", err)
	}
}

// TestDefaultAliasesMergeFriendsFullNames: a Friends corpus mixing the
// fangj/MELD first names and the emorynlp full names ("Joey Tribbiani")
// has one Joey, so no negative pair compares Joey with himself.
func TestDefaultAliasesMergeFriendsFullNames(t *testing.T) {
	var utts []data.Utterance
	for c := range 12 {
		names := []string{"Joey", "Ross"}
		if c%2 == 1 {
			names = []string{"Joey Tribbiani", "Ross Geller"}
		}
		for turn := range 12 {
			who := names[turn%2]
			utts = append(utts, data.Utterance{Source: "friends", ConversationID: fmt.Sprintf("c%02d", c), Turn: int32(turn),
				Speaker: who, Text: fmt.Sprintf("%s says a line of about twelve words in turn %d here", who, turn)})
		}
	}
	cfg := pairs.DefaultPairConfig()
	cfg.AllowEmptySplits = true
	c := mustBuild(t, utts, cfg)
	if in := pairs.PairCorpusInfo(c).Input; in.Speakers != 2 || in.AliasedUtterances != 6*12 {
		t.Errorf("%d speakers (want Joey and Ross), %d aliased utterances (want 72)", in.Speakers, in.AliasedUtterances)
	}
	for _, s := range c.Sets {
		if s.Speaker != "Joey" && s.Speaker != "Ross" {
			t.Errorf("set %s of %q", s.ID, s.Speaker)
		}
	}
}
