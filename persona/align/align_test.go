package align

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/persona/script"
)

func TestEditAlignSmall(t *testing.T) {
	// script: a b c d ; transcript: a x c d e → a=a, b~x, c=c, d=d, +e.
	p, err := editAlign(context.Background(), []string{"a", "b", "c", "d"}, []string{"a", "x", "c", "d", "e"}, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := []pair{{0, 0}, {1, 1}, {2, 2}, {3, 3}, {-1, 4}}
	if fmt.Sprint(p) != fmt.Sprint(want) {
		t.Fatalf("alignment %v, want %v", p, want)
	}
	// A deletion: script a b c, transcript a c.
	p, _ = editAlign(context.Background(), []string{"a", "b", "c"}, []string{"a", "c"}, 1)
	if fmt.Sprint(p) != fmt.Sprint([]pair{{0, 0}, {1, -1}, {2, 1}}) {
		t.Fatalf("deletion alignment %v", p)
	}
}

func TestAlignCarriesTimesAndValidates(t *testing.T) {
	lines := []Line{
		{Speaker: "A", Text: "Hello there, Bob.", Scene: "s1"},
		{Speaker: "B", Text: "Hi Alice, how are you?", Scene: "s1"},
		{Speaker: "A", Text: "This line was never spoken at all.", Scene: "s1"},
		{Speaker: "A", Text: "Fine, thanks for asking.", Scene: "s1"},
	}
	ws := []string{"hello", "there", "bob", "hi", "alice", "how", "are", "you", "fine", "thanks", "for", "asking"}
	var words []Word
	for i, w := range ws {
		words = append(words, Word{Text: w, Start: float64(i), End: float64(i) + 0.5})
	}
	a, err := Align(context.Background(), lines, words, Options{})
	if err != nil {
		t.Fatal(err)
	}
	l1 := a.Lines[1]
	if l1.FirstWord != 3 || l1.LastWord != 7 || *l1.Start != 3 || *l1.End != 7.5 || !l1.Valid || l1.Matched != 5 {
		t.Fatalf("line 1 %+v", l1)
	}
	if a.Lines[2].Valid {
		t.Fatalf("unspoken line validated: %+v", a.Lines[2])
	}
	if !a.Lines[3].Valid || *a.Lines[3].Start != 8 {
		t.Fatalf("line 3 %+v", a.Lines[3])
	}
	if a.Stats.Deletions != 7 || a.Stats.Matches != 12 || a.Stats.ValidLines != 3 || a.Encoder != "hash-ngram" {
		t.Fatalf("stats %+v", a.Stats)
	}
	bad := append([]Word(nil), words...)
	bad[3].Start = -1
	if _, err := Align(context.Background(), lines, bad, Options{}); err == nil {
		t.Fatal("out-of-order words accepted")
	}
}

func TestSegments(t *testing.T) {
	mk := func(sp ...string) *Alignment {
		a := &Alignment{}
		for i, s := range sp {
			st, en := float64(i), float64(i)+0.5
			a.Lines = append(a.Lines, AlignedLine{Index: i, Speaker: s, Valid: s != "-", Start: &st, End: &en, Scene: "x"})
		}
		return a
	}
	got := Segments(mk("A", "B", "A", "B", "C", "B", "C", "-", "A", "B", "A", "A", "B"), SegmentOptions{})
	var s []string
	for _, g := range got {
		s = append(s, fmt.Sprint(g.Speakers, g.Lines))
	}
	want := []string{"[A B] [0 1 2 3]", "[B C] [3 4 5 6]", "[A B] [8 9 10 11 12]"}
	if fmt.Sprint(s) != fmt.Sprint(want) {
		t.Fatalf("segments %v, want %v", s, want)
	}
	if len(Segments(mk("A", "B"), SegmentOptions{})) != 0 {
		t.Fatal("two-turn segment accepted")
	}
	if len(Segments(mk("A", "A", "A"), SegmentOptions{})) != 0 {
		t.Fatal("one-speaker segment accepted")
	}
}

// checkRecovery synthesizes a perturbed transcript of lines, aligns it and
// requires ≥ 95 % of sentence boundaries recovered exactly.
func checkRecovery(t *testing.T, name string, lines []Line) {
	t.Helper()
	opts := DefaultPerturbOptions()
	words, truth := Synthesize(lines, opts)
	a, err := Align(context.Background(), lines, words, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := ScoreBoundaries(a, truth, words, 0.5)
	segs := Segments(a, SegmentOptions{})
	t.Logf("%s: %d lines, %d transcript words, WER %.3f; boundaries %d: exact %.4f, within 0.5 s %.4f; deleted lines rejected %d/%d; clean lines valid %d/%d; %d two-speaker segments",
		name, len(lines), len(words), a.Stats.WordErrorRate, s.Boundaries, s.ExactRate, s.ToleranceRate, s.DeletedRejected, s.DeletedLines, s.PresentValid, s.PresentLines, len(segs))
	if s.ExactRate < 0.95 {
		t.Fatalf("%s: %.4f of boundaries recovered exactly, want ≥ 0.95", name, s.ExactRate)
	}
	if s.DeletedLines > 0 && float64(s.DeletedRejected) < 0.9*float64(s.DeletedLines) {
		t.Fatalf("%s: only %d of %d deleted lines rejected", name, s.DeletedRejected, s.DeletedLines)
	}
	if float64(s.PresentValid) < 0.9*float64(s.PresentLines) {
		t.Fatalf("%s: only %d of %d clean lines validated", name, s.PresentValid, s.PresentLines)
	}
	if len(segs) == 0 {
		t.Fatalf("%s: no segments", name)
	}
}

func TestRecoveryTBBT(t *testing.T) {
	dir, ok := data.SharedCorpus("tbbt")
	if !ok {
		t.Skip("shared corpus tbbt absent")
	}
	var lines []Line
	for ep := 1; ep <= 4; ep++ {
		s, err := script.ParseFile(filepath.Join(dir, "preprocessing", "raw_corpus", fmt.Sprintf("1_%d.txt", ep)), script.ParseOptions{DropNarration: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, sc := range s.Scenes {
			for _, l := range sc.Lines {
				lines = append(lines, Line{Speaker: l.Speaker, Text: l.Text, Scene: sc.ID})
			}
		}
	}
	checkRecovery(t, "tbbt s01e01-04", lines)
}

func TestRecoveryFriends(t *testing.T) {
	dir, ok := data.SharedCorpus("friends-emorynlp")
	if !ok {
		t.Skip("shared corpus friends-emorynlp absent")
	}
	b, err := os.ReadFile(filepath.Join(dir, "character-identification", "json", "character-identification-dev.json"))
	if err != nil {
		t.Skip(err)
	}
	var season struct {
		Episodes []struct {
			Scenes []struct {
				SceneID    string `json:"scene_id"`
				Utterances []struct {
					Speakers   []string `json:"speakers"`
					Transcript string   `json:"transcript"`
				} `json:"utterances"`
			} `json:"scenes"`
		} `json:"episodes"`
	}
	if err := json.Unmarshal(b, &season); err != nil {
		t.Fatal(err)
	}
	var lines []Line
	for _, ep := range season.Episodes[:min(4, len(season.Episodes))] {
		for _, sc := range ep.Scenes {
			for _, u := range sc.Utterances {
				if len(u.Speakers) == 0 || u.Transcript == "" {
					continue
				}
				sp := append([]string(nil), u.Speakers...)
				sort.Strings(sp)
				lines = append(lines, Line{Speaker: sp[0], Text: u.Transcript, Scene: sc.SceneID})
			}
		}
	}
	checkRecovery(t, "friends dev e1-4", lines)
}

func TestLowSimilarity(t *testing.T) {
	a := &Alignment{Lines: []AlignedLine{
		{Index: 0, FirstWord: 0, Valid: true, Similarity: 0.9},
		{Index: 1, FirstWord: 2, Valid: false, Similarity: 0.4},
		{Index: 2, FirstWord: -1, LastWord: -1},
	}}
	got := a.LowSimilarity()
	if len(got) != 1 || got[0].Index != 1 {
		t.Fatalf("flagged %+v, want line 1 only (line 2 never aligned)", got)
	}
}
