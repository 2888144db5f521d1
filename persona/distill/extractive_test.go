package distill

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// Counts describe the whole script even when an LLM backend would only be
// shown a sample of the events: with MaxEvents 2 the extractive persona
// still counts every scene a character speaks in, every shared event and
// every direct reply.
func TestExtractiveCountsAllEvents(t *testing.T) {
	s := fixture(t)
	cfg := smallConfig()
	cfg.MaxEvents = 2
	res, err := Run(context.Background(), s, NewExtractive(), t.TempDir(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Scenes and replies counted directly from the script.
	scenes := map[string]map[string]bool{}
	replies := map[[2]string]int{}
	for _, sc := range s.Scenes {
		prev := ""
		for _, l := range sc.Lines {
			if l.IsNarration() {
				continue
			}
			if scenes[l.Speaker] == nil {
				scenes[l.Speaker] = map[string]bool{}
			}
			scenes[l.Speaker][sc.ID] = true
			if prev != "" && prev != l.Speaker {
				k := [2]string{min(prev, l.Speaker), max(prev, l.Speaker)}
				replies[k]++
			}
			prev = l.Speaker
		}
	}
	for i, p := range res.Personalities {
		if want := len(scenes[p.Character]); p.Scenes != want || want <= 2 {
			t.Errorf("%s: %d scenes, want %d", p.Character, p.Scenes, want)
		}
		if !strings.Contains(res.Personas[i].Prompt, " in "+count(p.Scenes, "scene")+" of the story") {
			t.Errorf("%s's prompt does not state %d scenes:\n%s", p.Character, p.Scenes, res.Personas[i].Prompt)
		}
	}
	checked := 0
	for _, r := range res.Relationships {
		// Chunks cut scenes, so replies across a chunk boundary are not
		// counted: at most the direct count, and most of it.
		want := replies[[2]string{r.A, r.B}]
		if r.Replies > want || 10*r.Replies < 8*want {
			t.Errorf("%s–%s: %d replies counted, %d in the script", r.A, r.B, r.Replies, want)
		}
		if r.CoEvents > 2 {
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no pair shares more events than MaxEvents: the test proves nothing")
	}
}

func TestPhrasesKeepPossessivesAndSkipFragments(t *testing.T) {
	got := phrases("Penny’s apartment is two of a kind, Howard's mother said.")
	for _, want := range []string{"penny's apartment", "howard's mother"} {
		if !slices.Contains(got, want) {
			t.Errorf("%q missing from %q", want, got)
		}
	}
	for _, g := range got {
		for _, w := range strings.Fields(g) {
			if w == "s" {
				t.Errorf("phrase %q has a stray clitic", g)
			}
		}
		if g == "two of" || g == "a kind" || strings.HasPrefix(g, "of ") || strings.HasSuffix(g, " is") {
			t.Errorf("fragment %q kept", g)
		}
	}
}

// The second-person prompt reads as English: no "1 times", no "0 times",
// no clause about names nobody uses.
func TestExtractivePromptWording(t *testing.T) {
	p := Profile{
		Personality: Personality{Character: "Ada", Lines: 21, Scenes: 1},
		Style:       Style{Stats: StyleStats{MeanWords: 7}},
		Relationships: []Relationship{
			{A: "Ada", B: "Bob", CoEvents: 1, Replies: 1, AAddressesB: 1, BAddressesA: 2},
			{A: "Ada", B: "Cleo", CoEvents: 3, Replies: 0},
			{A: "Dev", B: "Ada", CoEvents: 4, Replies: 5, AAddressesB: 3},
		},
	}
	per, err := NewExtractive().Prompt(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"1 times", "0 times", "1 scenes", "1 events", "answer each other never"} {
		if strings.Contains(per.Prompt, bad) {
			t.Errorf("prompt contains %q:\n%s", bad, per.Prompt)
		}
	}
	for _, want := range []string{"you speak 21 lines in 1 scene of the story",
		"- Bob: you are together in 1 event and answer each other once. You call them by name once; they call you by name twice.",
		"- Cleo: you are together in 3 events.\n",
		"- Dev: you are together in 4 events and answer each other 5 times. They call you by name 3 times; you never use theirs."} {
		if !strings.Contains(per.Prompt, want) {
			t.Errorf("prompt lacks %q:\n%s", want, per.Prompt)
		}
	}
}
