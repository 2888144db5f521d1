package pairs_test

import (
	"slices"
	"testing"

	"github.com/roleprint/roleprint/data/pairs"
)

// TestBuildEvalPairsLevels checks each evaluation level's negatives (Base:
// another corpus; Hard: the anchor's source; Harder: its conversation),
// that every split is 1:1 without repeats, that main roles take part (no
// speaker is held back for training) and that seeds change the draw but
// not the sets.
func TestBuildEvalPairsLevels(t *testing.T) {
	utts := pairFixture(20)
	cfg := pairs.DefaultPairConfig()
	cfg.MaxTestPairs = 200
	ev, err := pairs.BuildEvalPairs(utts, cfg, []int64{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"alpha", "beta", "play"}; !slices.Equal(ev.Corpora, want) {
		t.Fatalf("corpora %v, want %v", ev.Corpora, want)
	}
	if len(ev.Rounds) != 3 {
		t.Fatalf("%d rounds, want 3", len(ev.Rounds))
	}
	var names []string
	for _, sp := range ev.Rounds[0].Splits {
		names = append(names, sp.Name())
	}
	want := []string{"all-base", "alpha-hard", "alpha-harder", "beta-hard", "beta-harder", "play-hard", "play-harder"}
	if !slices.Equal(names, want) {
		t.Fatalf("splits %v, want %v", names, want)
	}
	speakers := map[string]bool{}
	for _, r := range ev.Rounds {
		for _, sp := range r.Splits {
			pos, seen := 0, map[[2]string]bool{}
			for _, p := range sp.Pairs {
				a, b := ev.Sets[p.A], ev.Sets[p.B]
				if a == nil || b == nil {
					t.Fatalf("%s: pair %s names a set not in Sets", sp.Name(), p.ID)
				}
				k := [2]string{min(p.A, p.B), max(p.A, p.B)}
				if seen[k] || p.A == p.B {
					t.Fatalf("%s: pair %s repeats or pairs a set with itself", sp.Name(), p.ID)
				}
				seen[k] = true
				speakers[a.Speaker] = true
				if p.Label == 1 {
					pos++
					if speakerOf(a) != speakerOf(b) {
						t.Fatalf("%s: positive %s pairs two speakers", sp.Name(), p.ID)
					}
					continue
				}
				if a.Speaker == b.Speaker {
					t.Fatalf("%s: negative %s pairs one name", sp.Name(), p.ID)
				}
				switch sp.Level {
				case pairs.Base:
					if pairs.CorpusOf(a.Source) == pairs.CorpusOf(b.Source) {
						t.Fatalf("%s: Base negative %s within corpus %s", sp.Name(), p.ID, pairs.CorpusOf(a.Source))
					}
				case pairs.Hard:
					if a.Source != b.Source || pairs.CorpusOf(a.Source) != sp.Corpus {
						t.Fatalf("%s: Hard negative %s across sources %s, %s", sp.Name(), p.ID, a.Source, b.Source)
					}
				case pairs.Harder:
					if convOf(a) != convOf(b) {
						t.Fatalf("%s: Harder negative %s across conversations", sp.Name(), p.ID)
					}
				}
			}
			if len(sp.Pairs) == 0 || 2*pos != len(sp.Pairs) || len(sp.Pairs) > cfg.MaxTestPairs {
				t.Fatalf("%s: %d pairs, %d positive: want 1:1 and at most %d", sp.Name(), len(sp.Pairs), pos, cfg.MaxTestPairs)
			}
		}
	}
	if !speakers["Rachel"] || !speakers["Cy"] {
		t.Fatalf("speakers %v: want main roles and minors alike", speakers)
	}
	if slices.Equal(ev.Rounds[0].Splits[1].Pairs, ev.Rounds[1].Splits[1].Pairs) {
		t.Fatal("seeds 1 and 2 drew the same Hard pairs")
	}
	again, err := pairs.BuildEvalPairs(utts, cfg, []int64{2})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(again.Rounds[0].Splits[1].Pairs, ev.Rounds[1].Splits[1].Pairs) {
		t.Fatal("seed 2 drew different pairs alone than as the second round")
	}
}

// TestBuildEvalPairsOneCorpus has no Base split, and a corpus without
// any kept set is an error naming the filters.
func TestBuildEvalPairsOneCorpus(t *testing.T) {
	var one = pairFixture(20)[:0]
	for _, u := range pairFixture(20) {
		if u.Source == "alpha" {
			one = append(one, u)
		}
	}
	ev, err := pairs.BuildEvalPairs(one, pairs.DefaultPairConfig(), []int64{1})
	if err != nil {
		t.Fatal(err)
	}
	for _, sp := range ev.Rounds[0].Splits {
		if sp.Level == pairs.Base {
			t.Fatalf("one corpus: split %s, want no Base", sp.Name())
		}
	}
	if _, err := pairs.BuildEvalPairs(one[:3], pairs.DefaultPairConfig(), []int64{1}); err == nil {
		t.Fatal("three utterances: no error")
	}
}
