package script

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
)

func TestParseColonScript(t *testing.T) {
	s, err := ParseFile("testdata/colon.txt", ParseOptions{Episode: "s01e01"})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Scenes) != 2 {
		t.Fatalf("%d scenes, want 2: %+v", len(s.Scenes), s.Scenes)
	}
	a := s.Scenes[0]
	if a.Heading != "A corridor at a sperm bank." || a.ID != "colon/000" || a.Episode != "s01e01" || a.Source != "colon" {
		t.Fatalf("scene 0 meta %+v", a)
	}
	got := [][2]string{}
	for _, l := range a.Lines {
		got = append(got, [2]string{l.Speaker, l.Text})
	}
	want := [][2]string{
		{"Sheldon", "So if a photon is directed through a plane with two slits in it it will not go through both slits."},
		{"Leonard", "Agreed, what’s your point?"},
		{"Receptionist", "Hang on."},
		{Narrator, "They sit and begin to fill in forms"},
		{"Sheldon", "Leonard, I don’t think I can do this. Let's go."},
		{"Leonard", "What, are you kidding?"},
		{"Mrs. Cooper", "Shelly?"},
		{Narrator, "sighs"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("lines\n got %q\nwant %q", got, want)
	}
	if a.Lines[4].SourceLine != 6 {
		t.Fatalf("source line %d, want 6", a.Lines[4].SourceLine)
	}
	b := s.Scenes[1]
	if b.Heading != "Central Perk, the gang is there." || len(b.Lines) != 2 || b.Lines[1].Speaker != "Leonard and Sheldon" {
		t.Fatalf("scene 1 %+v", b)
	}
	sp := s.Speakers(2)
	if len(sp) != 2 || sp[0].Speaker != "Leonard" || sp[0].Lines != 2 || sp[1].Speaker != "Sheldon" || sp[1].Words != 31 {
		t.Fatalf("speakers %+v", sp)
	}
}

func TestParseScreenplayCues(t *testing.T) {
	s, err := ParseFile("testdata/screenplay.txt", ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Scenes) != 2 || s.Scenes[0].Heading != "INT. APARTMENT 4A - NIGHT" || s.Scenes[1].Heading != "EXT. STAIRWELL - CONTINUOUS" {
		t.Fatalf("scenes %+v", s.Scenes)
	}
	var got []string
	for _, l := range s.Scenes[0].Lines {
		got = append(got, l.Speaker+"|"+l.Text)
	}
	want := []string{
		Narrator + "|Sheldon sits in his spot. Leonard enters, holding takeout.",
		"Sheldon|You're late.",
		"Leonard|The line at the Szechuan place was out the door.",
		"Sheldon|Bazinga!",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	if l := s.Scenes[1].Lines; len(l) != 1 || l[0].Speaker != "Penny" || l[0].Text != "Hi guys!" {
		t.Fatalf("scene 2 %+v", l)
	}
}

func TestParseRejectsTextWithoutSpeakers(t *testing.T) {
	_, err := Parse(strings.NewReader("just some prose.\nmore prose, no names.\n"), "x", ParseOptions{})
	if err == nil || !strings.Contains(err.Error(), "no speaker lines") {
		t.Fatalf("got %v", err)
	}
}

func TestChunkScene(t *testing.T) {
	sc := Scene{ID: "s/000", Heading: "h"}
	for i := 0; i < 10; i++ {
		sc.Lines = append(sc.Lines, Line{Speaker: []string{"A", "B"}[i%2], Text: strings.TrimSpace(strings.Repeat("w ", i+1))})
	}
	// 55 words in all; at most 4 lines and 12 words per chunk.
	ch := ChunkScene(sc, ChunkOptions{MaxLines: 4, MaxWords: 12})
	total := 0
	for i, c := range ch {
		words := 0
		for _, l := range c.Lines {
			words += len(strings.Fields(l.Text))
		}
		if len(c.Lines) > 4 || (words > 12 && len(c.Lines) > 1) {
			t.Fatalf("chunk %d too big: %d lines %d words", i, len(c.Lines), words)
		}
		if c.Index != i || c.Of != len(ch) || c.SceneID != "s/000" || c.Heading != "h" {
			t.Fatalf("chunk meta %+v", c)
		}
		total += len(c.Lines)
	}
	if total != 10 {
		t.Fatalf("chunks hold %d lines, want all 10 exactly once", total)
	}
	// A single line longer than MaxWords is a chunk of its own.
	if n := len(ChunkScene(Scene{ID: "x", Lines: []Line{{Speaker: "A", Text: strings.Repeat("w ", 50)}}}, ChunkOptions{MaxWords: 10})); n != 1 {
		t.Fatalf("long line made %d chunks", n)
	}
	// Overlap repeats the previous chunk's tail.
	ov := ChunkScene(sc, ChunkOptions{MaxLines: 5, MaxWords: 1000, Overlap: 2})
	if len(ov) != 2 || len(ov[1].Lines) != 7 || ov[1].Lines[0] != sc.Lines[3] {
		t.Fatalf("overlap chunks %d, second starts %+v", len(ov), ov[1].Lines[0])
	}
	txt := ch[0].Text()
	if !strings.HasPrefix(txt, "[Scene: h]\nA: w\nB: w w\n") {
		t.Fatalf("text %q", txt)
	}
}

func TestFromUtterancesRoundTrip(t *testing.T) {
	utts := []data.Utterance{
		{Source: "tbbt", ConversationID: "c1", Turn: 1, Speaker: "Leonard", Text: "Second"},
		{Source: "tbbt", ConversationID: "c2", Turn: 0, Speaker: "Penny", Text: "Other"},
		{Source: "tbbt", ConversationID: "c1", Turn: 0, Speaker: "Sheldon", Text: "First", Episode: "e1"},
	}
	s := FromUtterances("tbbt", utts)
	if len(s.Scenes) != 2 || s.Scenes[0].ID != "tbbt/c1" || s.Scenes[0].Lines[0].Text != "First" || s.Scenes[0].Lines[1].Speaker != "Leonard" {
		t.Fatalf("scenes %+v", s.Scenes)
	}
	back := s.Utterances("", false)
	if len(back) != 3 || back[0].Turn != 0 || back[1].Turn != 1 || back[0].ConversationID != "tbbt/c1" {
		t.Fatalf("back %+v", back)
	}
	for _, u := range back {
		if err := u.Validate(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestParseSharedTBBTEpisode parses a real episode of the shared corpus.
func TestParseSharedTBBTEpisode(t *testing.T) {
	dir, ok := data.SharedCorpus("tbbt")
	if !ok {
		t.Skip("shared corpus tbbt absent")
	}
	s, err := ParseFile(filepath.Join(dir, "preprocessing", "raw_corpus", "1_1.txt"), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, "preprocessing", "raw_corpus", "1_1.txt"))
	headings := strings.Count(string(raw), "Scene:")
	if len(s.Scenes) < headings-1 || len(s.Scenes) > headings+1 {
		t.Fatalf("%d scenes for %d headings", len(s.Scenes), headings)
	}
	sp := s.Speakers(10)
	names := map[string]bool{}
	for _, c := range sp {
		names[c.Speaker] = true
	}
	for _, n := range []string{"Sheldon", "Leonard", "Penny"} {
		if !names[n] {
			t.Fatalf("main character %s missing from %+v", n, sp)
		}
	}
}
