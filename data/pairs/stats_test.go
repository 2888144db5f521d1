package pairs_test

import (
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data/pairs"
)

func TestPairStatsHandMade(t *testing.T) {
	set := func(id, src, conv, spk string, texts ...string) *pairs.UtteranceSet {
		return &pairs.UtteranceSet{ID: id, Source: src, ConversationID: conv, Speaker: spk, Texts: texts}
	}
	c := &pairs.PairCorpus{
		Sets: map[string]*pairs.UtteranceSet{
			"a1": set("a1", "x", "1", "Ann", "one two", "three"),  // 2 utterances, 3 words
			"a2": set("a2", "x", "2", "Ann", "four five six"),     // 1, 3
			"b1": set("b1", "x", "1", "Bob", "seven"),             // 1, 1
			"k1": set("k1", "y", "1", "Ann", "a b c d", "e", "f"), // another Ann: 3, 6
			"k2": set("k2", "y", "2", "Ann", "g"),                 // 1, 1
		},
		Train: []pairs.Pair{{ID: "t1", A: "a1", B: "a2", Label: 1}, {ID: "t2", A: "a1", B: "b1", Label: 0}},
		Dev:   []pairs.Pair{},
		Tests: map[pairs.TestKey][]pairs.Pair{
			{Exposure: pairs.UnseenUnseen, Level: pairs.Hard}: {
				{ID: "u1", A: "k1", B: "k2", Label: 1}, {ID: "u2", A: "k1", B: "a2", Label: 0}, {ID: "u3", A: "k2", B: "b1", Label: 0},
			},
		},
	}
	st := pairs.PairStats(c)
	byName := map[string]pairs.SplitStats{}
	for _, s := range st.Splits {
		byName[s.Name] = s
	}
	if len(st.Splits) != 11 {
		t.Fatalf("%d split rows, want 11", len(st.Splits))
	}
	tr := byName["train"]
	if tr.Pairs != 2 || tr.Positives != 1 || tr.Negatives != 1 || tr.Speakers != 2 || tr.Sets != 3 || !tr.Balanced() {
		t.Errorf("train row %+v", tr)
	}
	if tr.MeanUtterances != 4.0/3 || tr.MeanWords != 7.0/3 {
		t.Errorf("train means %.3f utterances, %.3f words; want 1.333, 2.333", tr.MeanUtterances, tr.MeanWords)
	}
	u := byName["unseen-unseen-hard"]
	// Ann of x and Ann of y are two speakers: k-Ann, x-Ann, Bob.
	if u.Pairs != 3 || u.Positives != 1 || u.Negatives != 2 || u.Speakers != 3 || u.Balanced() || u.Exposure != pairs.UnseenUnseen || u.Level != pairs.Hard {
		t.Errorf("unseen-unseen-hard row %+v", u)
	}
	// Train's negative a1–b1 is one conversation of one source; both of
	// unseen-unseen-hard's negatives (k1–a2, k2–b1) cross sources.
	if tr.CrossSourceNegatives != 0 || tr.SameConversationNegatives != 1 ||
		u.CrossSourceNegatives != 1 || u.SameConversationNegatives != 0 {
		t.Errorf("negative shares: train %.2f cross-source, %.2f same conversation (want 0, 1); unseen-unseen-hard %.2f, %.2f (want 1, 0)",
			tr.CrossSourceNegatives, tr.SameConversationNegatives, u.CrossSourceNegatives, u.SameConversationNegatives)
	}
	// Train (1:1) and the empty splits are balanced, unseen-unseen-hard
	// (1:2) is not.
	if got := st.Unbalanced(); len(got) != 1 || got[0] != "unseen-unseen-hard" || st.Balanced() {
		t.Errorf("unbalanced splits %v (balanced %v), want [unseen-unseen-hard]", got, st.Balanced())
	}
	if !(pairs.PairStatistics{Splits: []pairs.SplitStats{tr}}).Balanced() {
		t.Errorf("train alone is balanced")
	}
	if st.SpeakersSeen != 2 || st.SpeakersUnseen != 3 || st.SpeakersDev != 0 || st.Sets != 5 || st.Utterances != 8 || st.Words != 14 {
		t.Errorf("totals %+v", st)
	}
	md := st.Markdown()
	for _, want := range []string{"| Train |  | 2 | 2 | 1 | 1 | 0 % | 100 % | 3 | 1.3 | 2.3 |", "| Unseen-Unseen | Hard | 3 | 3 | 1 | 2 |", "3 unseen"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	// Table 5 order: train, dev, then level by level.
	if i, j := strings.Index(md, "| Seen-Unseen | Base"), strings.Index(md, "| Seen-Seen | Hard"); i < 0 || j < 0 || i > j {
		t.Errorf("markdown rows not in level-major order:\n%s", md)
	}
}

func TestPairStatsOfBuild(t *testing.T) {
	c := mustBuild(t, pairFixture(fixtureConvs), pairs.DefaultPairConfig())
	st := pairs.PairStats(c)
	info := pairs.PairCorpusInfo(c)
	for i, s := range st.Splits {
		if s.Pairs != len(allSplits(c)[s.Name]) || !s.Balanced() || s.Pairs != info.Splits[i].Pairs {
			t.Errorf("%s: stats %+v, info %+v", s.Name, s, info.Splits[i])
		}
	}
	if st.SpeakersUnseen != info.SpeakersUnseen || st.SpeakersDev != info.SpeakersDev {
		t.Errorf("stats see %d unseen and %d dev speakers, build drew %d and %d",
			st.SpeakersUnseen, st.SpeakersDev, info.SpeakersUnseen, info.SpeakersDev)
	}
	t.Logf("fixture pair statistics:\n%s", st.Markdown())
}

func TestExposureAndLevelTitles(t *testing.T) {
	var got []string
	for _, e := range pairs.Exposures {
		got = append(got, e.Title())
	}
	for _, l := range pairs.Levels {
		got = append(got, l.Title())
	}
	got = append(got, pairs.Exposure("other").Title(), pairs.Level("").Title())
	if want := "Seen-Seen|Seen-Unseen|Unseen-Unseen|Base|Hard|Harder|other|"; strings.Join(got, "|") != want {
		t.Errorf("titles %q, want %q", strings.Join(got, "|"), want)
	}
}
