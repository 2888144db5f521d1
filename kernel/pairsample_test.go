package kernel

import (
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/pairs"
)

func TestPairRowsTakesBothLabelsAndNamesTheNegative(t *testing.T) {
	set := func(id, src, conv, spk string) *pairs.UtteranceSet {
		return &pairs.UtteranceSet{ID: id, Source: src, ConversationID: conv, Speaker: spk, Texts: []string{id + " first", id + " second"}}
	}
	c := &pairs.PairCorpus{Sets: map[string]*pairs.UtteranceSet{
		"a1": set("a1", "s1", "c1", "Ann"), "a2": set("a2", "s1", "c2", "Ann"),
		"b1": set("b1", "s1", "c1", "Bob"), "b2": set("b2", "s1", "c2", "Bob"), "z": set("z", "s2", "c9", "Zed"),
	}}
	split := []pairs.Pair{
		{ID: "p1", A: "a1", B: "a2", Label: 1}, {ID: "p2", A: "b1", B: "b2", Label: 1}, {ID: "p3", A: "a1", B: "a2", Label: 1},
		{ID: "n1", A: "a1", B: "z", Label: 0}, {ID: "n2", A: "a1", B: "b1", Label: 0}, {ID: "n3", A: "a1", B: "b2", Label: 0},
	}
	rows, err := PairRows(c, split, 5)
	if err != nil {
		t.Fatal(err)
	}
	var ids, negs []string
	for _, r := range rows {
		ids, negs = append(ids, r.Pair), append(negs, r.Negative)
	}
	if want := []string{"p1", "p2", "p3", "n1", "n2"}; len(ids) != len(want) || ids[2] != "p3" || ids[3] != "n1" || ids[4] != "n2" {
		t.Fatalf("pairs %v, want %v (3 same, then 2 different)", ids, want)
	}
	if negs[0] != "" || negs[3] != "other source" || negs[4] != "same conversation" {
		t.Errorf("negatives %v", negs)
	}
	if r := rows[3]; r.Label != "different" || r.SpeakerB != "Zed" || r.FirstA != "a1 first" || r.UtterancesB != 2 {
		t.Errorf("row %+v", r)
	}
	if rows, _ := PairRows(c, split[3:], 2); len(rows) != 1 {
		t.Errorf("only negatives, n=2: %d rows, want 1", len(rows))
	}
	if _, err := PairRows(c, []pairs.Pair{{ID: "x", A: "a1", B: "nope", Label: 1}}, 2); err == nil {
		t.Error("a pair naming an absent set: want an error")
	}
}

func TestFirstPerSource(t *testing.T) {
	utts := []data.Utterance{{Source: "a", Text: "1"}, {Source: "b", Text: "2"}, {Source: "a", Text: "3"}, {Source: "a", Text: "4"}, {Source: "b", Text: "5"}, {Source: "c", Text: "6"}}
	var got string
	for _, u := range FirstPerSource(utts, 2) {
		got += u.Text
	}
	if got != "12356" {
		t.Errorf("got %q, want 12356 (two per source, in order)", got)
	}
}

func TestSettingsTableListsTheStruct(t *testing.T) {
	cfg := pairs.DefaultPairConfig()
	cfg.MaxTestPairs = 123
	tab, err := SettingsTable("pairs", cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tab.Markdown(), "123") || !strings.Contains(tab.Markdown(), "max_test_pairs") {
		t.Errorf("table lacks max_test_pairs = 123:\n%s", tab.Markdown())
	}
	if _, err := SettingsTable("x", 3); err == nil {
		t.Error("an int has no settings: want an error")
	}
}
