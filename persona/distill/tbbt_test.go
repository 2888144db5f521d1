package distill

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/persona/script"
)

// loadTBBTSeason parses every episode of one season of the shared TBBT
// corpus (raw_corpus/S_E.txt) with the screenplay parser.
func loadTBBTSeason(t testing.TB, season int) *script.Script {
	dir, ok := data.SharedCorpus("tbbt")
	if !ok {
		t.Skip("shared corpus tbbt absent")
	}
	all := &script.Script{Name: fmt.Sprintf("tbbt-s%d", season)}
	for ep := 1; ep <= 30; ep++ {
		p := filepath.Join(dir, "preprocessing", "raw_corpus", fmt.Sprintf("%d_%d.txt", season, ep))
		if _, err := os.Stat(p); err != nil {
			continue
		}
		s, err := script.ParseFile(p, script.ParseOptions{Source: "tbbt", Episode: fmt.Sprintf("s%02de%02d", season, ep)})
		if err != nil {
			t.Fatal(err)
		}
		all.Append(s)
	}
	if len(all.Scenes) == 0 {
		t.Skipf("no episodes of season %d", season)
	}
	return all
}

// TestExtractiveTBBTSeason distils season 1 of The Big Bang Theory end to
// end with the extractive backend.
func TestExtractiveTBBTSeason(t *testing.T) {
	s := loadTBBTSeason(t, 1)
	dir := t.TempDir()
	res, err := Run(context.Background(), s, NewExtractive(), dir, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s → %d chunks, %d characters, %d relationships in %.2fs", s, res.Chunks, len(res.Characters), len(res.Relationships), res.Seconds)
	for _, c := range []string{"Sheldon", "Leonard", "Penny", "Howard", "Raj"} {
		if !slices.Contains(res.Characters, c) {
			t.Fatalf("main character %s missing from %v", c, res.Characters)
		}
	}
	if res.Characters[0] != "Sheldon" && res.Characters[0] != "Leonard" {
		t.Fatalf("most lines: %s", res.Characters[0])
	}
	var sheldonLeonard *Relationship
	for i, r := range res.Relationships {
		if r.A == "Leonard" && r.B == "Sheldon" {
			sheldonLeonard = &res.Relationships[i]
		}
	}
	if sheldonLeonard == nil || sheldonLeonard.CoEvents < 50 || sheldonLeonard.Replies < 100 {
		t.Fatalf("Leonard–Sheldon relationship %+v", sheldonLeonard)
	}
	for i, p := range res.Personas {
		if !strings.HasPrefix(p.Prompt, "You are "+p.Character) || res.Personalities[i].Lines < 20 {
			t.Fatalf("persona %d %+v", i, p)
		}
	}
	if os.Getenv("ROLEPRINT_SHOW") != "" {
		for i, c := range res.Characters[:3] {
			t.Logf("%s\n%s\n%s\n%s", c, res.Personalities[i].Description, res.Styles[i].Description, res.Personas[i].Prompt)
		}
	}
}
