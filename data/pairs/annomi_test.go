package pairs_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/pairs"
)

// annomiLike builds a corpus shaped like the annomi importer's output: per
// transcript T, sessions alternating "therapist:T" and "client:T" lines.
func annomiLike(transcripts, sessions int) []data.Utterance {
	var utts []data.Utterance
	for tr := range transcripts {
		for s := range sessions {
			conv := fmt.Sprintf("t%d-s%02d", tr, s)
			for turn := range 12 {
				role := "client"
				if turn%2 == 0 {
					role = "therapist"
				}
				utts = append(utts, data.Utterance{Source: "annomi", ConversationID: conv, Turn: int32(turn),
					Speaker: fmt.Sprintf("%s:%d", role, tr),
					Text:    fmt.Sprintf("%s %d says twelve words in session %d turn %d of this talk", role, tr, s, turn)})
			}
		}
	}
	return utts
}

// TestBuildPairsExcludesTherapists checks that AnnoMI's therapists are not
// identities by default: the client is the verified speaker, and the
// therapists' lines only count towards the conversation length.
func TestBuildPairsExcludesTherapists(t *testing.T) {
	cfg := pairs.DefaultPairConfig()
	cfg.AllowEmptySplits = true // one client per session: no Harder negatives
	c := mustBuild(t, annomiLike(30, 6), cfg)
	clients := 0
	for _, s := range c.Sets {
		if strings.HasPrefix(s.Speaker, "therapist:") {
			t.Fatalf("set %s is a therapist's (%s)", s.ID, s.Speaker)
		}
		if strings.HasPrefix(s.Speaker, "client:") {
			clients++
		}
	}
	if clients == 0 || len(c.Train) == 0 {
		t.Fatalf("no client sets (%d) or training pairs (%d)", clients, len(c.Train))
	}
	in := pairs.PairCorpusInfo(c).Input
	if in.ExcludedUtterances != 30*6*6 || in.ExcludedNames["therapist:7"] != 6*6 {
		t.Errorf("excluded %d utterances, therapist:7 %d; want every therapist line", in.ExcludedUtterances, in.ExcludedNames["therapist:7"])
	}
	// "*:" scopes an entry to every corpus; without it "therapist" would be
	// read as a corpus name and match nothing.
	cfg.ExcludeSpeakers = []string{"therapist:*"}
	c = mustBuild(t, annomiLike(30, 6), cfg)
	if pairs.PairCorpusInfo(c).Input.ExcludedUtterances != 0 {
		t.Errorf("\"therapist:*\" is scoped to a corpus \"therapist\" and should match nothing here")
	}
}
