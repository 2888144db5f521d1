package importers

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The Kaggle download as it comes: UTF-8 byte-order marks on the headers,
// a backup of the characters table, a data dictionary and a spells table
// beside the tables, group labels in the characters table, and a dialogue
// table mixing Windows-1252 lines with UTF-8 lines. The decoding of the
// mixed table is the reading layer's (per-line repair); this test checks
// the result: no mojibake, no U+FFFD.
func TestHPMoviesReleaseFolder(t *testing.T) {
	res := importFixture(t, "hp-movies", Options{}, "hp-release")
	checkRows(t, res.Utterances,
		"c1-p8|0|Harry Potter|I should’ve known.",
		"c1-p8|1|Hermione Granger|Yes, you should have – and into the water.”",
		"c1-p8|2|Harry Potter|Sélithaeine? That’s not a word.",
		"c2-p9|0|Séamus Finnigan|Café au lait?",
		"c2-p9|1|Hermione Granger|Wingardium Leviosa — it’s Levi-O-sa.",
	)
	checkDropped(t, res.Counts, map[string]int{DropGroupLabel: 2, DropUnknownSpeakerID: 1})
	checkNoMojibake(t, res.Utterances)
	// The folder walk may skip the backup by its name before the importer
	// sees it; either way it is listed with a reason naming a backup.
	var skipped []string
	for _, s := range res.Skipped {
		reason := s.Reason
		if strings.Contains(reason, "backup") {
			reason = "backup"
		}
		skipped = append(skipped, baseName(s.File)+": "+reason)
	}
	sort.Strings(skipped)
	want := []string{
		"Characters-bak.csv: backup",
		"Data_Dictionary.csv: data dictionary of the dataset, no dialogue",
		"Spells.csv: spells table, no dialogue",
	}
	if strings.Join(skipped, "\n") != strings.Join(want, "\n") {
		t.Errorf("skipped:\n%s\nwant\n%s", strings.Join(skipped, "\n"), strings.Join(want, "\n"))
	}
	if res.Counts.Files != 5 || res.Utterances[0].Episode != "Harry Potter and the Philosopher's Stone: Doorstep Delivery" {
		t.Errorf("files %d, episode %q (Movies.csv has a byte-order mark)", res.Counts.Files, res.Utterances[0].Episode)
	}
}

func TestHPGroupLabel(t *testing.T) {
	for name, want := range map[string]bool{
		"Students": true, "Ghosts": true, "Gryffindors": true, "Death Eaters": true, "First Years": true,
		"Weasley Twins": true, "Gryffindor Students": true, "Harry Potter": false, "Mrs. Weasley": false,
		"Fred Weasley": false, "Dursleys": true, "Vernon Dursley": false, "The Fat Lady": false,
	} {
		if got := hpGroupLabel(name); got != want {
			t.Errorf("hpGroupLabel(%q) = %v", name, got)
		}
	}
}

// A glob names every file of the download: the importer itself skips the
// backup, the dictionary and the spells table by their headers.
func TestHPMoviesReleaseGlob(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "hp-release", "*.csv"))
	if err != nil || len(files) != 8 {
		t.Fatalf("glob: %v %v", files, err)
	}
	res, err := Import(context.Background(), "hp-movies", files, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var skipped []string
	for _, s := range res.Skipped {
		skipped = append(skipped, baseName(s.File)+": "+s.Reason)
	}
	sort.Strings(skipped)
	want := "Characters-bak.csv: backup copy of Characters.csv|Data_Dictionary.csv: data dictionary of the dataset, no dialogue|Spells.csv: spells table, no dialogue"
	if strings.Join(skipped, "|") != want || res.Counts.Utterances != 5 {
		t.Errorf("skipped %q, %d utterances", skipped, res.Counts.Utterances)
	}
	// Two real copies of one table are still an error.
	dir := t.TempDir()
	for _, f := range []string{"Dialogue.csv", "Characters.csv"} {
		b, _ := os.ReadFile(filepath.Join("testdata", "hp-release", f))
		putFixtureFile(t, filepath.Join(dir, f), b)
	}
	b, _ := os.ReadFile(filepath.Join("testdata", "hp-release", "Characters.csv"))
	putFixtureFile(t, filepath.Join(dir, "Cast.csv"), b)
	_, err = Import(context.Background(), "hp-movies", []string{dir}, Options{})
	if err == nil || !strings.Contains(err.Error(), "second characters table") {
		t.Errorf("two characters tables: %v", err)
	}
}
