package corpus

import (
	"os"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/importers"
)

// TestCatalogEntries checks that every entry names a registered importer,
// that names are unique, and that Lookup finds them and names the others
// on a miss.
func TestCatalogEntries(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range Catalog() {
		if seen[e.Name] {
			t.Errorf("corpus %q listed twice", e.Name)
		}
		seen[e.Name] = true
		if _, ok := importers.Lookup(e.Format); !ok {
			t.Errorf("corpus %s: format %q is not registered", e.Name, e.Format)
		}
		if e.Dir == "" || e.About == "" {
			t.Errorf("corpus %s: empty Dir or About", e.Name)
		}
		got, err := Lookup(e.Name)
		if err != nil || got.Name != e.Name || got.Format != e.Format {
			t.Errorf("Lookup(%q) = %+v, %v", e.Name, got, err)
		}
	}
	if _, err := Lookup("nope"); err == nil || !strings.Contains(err.Error(), "tbbt") {
		t.Errorf("unknown corpus: err %v, want the list of names", err)
	}
	var paper []string
	for _, e := range Paper() {
		paper = append(paper, e.Name)
	}
	if strings.Join(paper, ",") != "friends,tbbt,annomi" {
		t.Errorf("Paper() = %v", paper)
	}
	// Catalog returns copies: changing one does not change the table.
	c := Catalog()
	c[0].Paths[0] = "changed"
	if Catalog()[0].Paths[0] == "changed" {
		t.Error("Catalog shares its slices")
	}
}

// TestCatalogOnSharedCorpora checks every entry's folder exists in
// ../shared/corpora and imports TBBT by name: the counts of
// docs/corpora.md ("Measured counts").
func TestCatalogOnSharedCorpora(t *testing.T) {
	if _, ok := data.SharedCorporaDir(); !ok {
		t.Skip("../shared/corpora is absent")
	}
	for _, e := range Catalog() {
		in, ok := e.Inputs()
		if !ok {
			t.Errorf("corpus %s: folder %s absent", e.Name, e.Dir)
			continue
		}
		for _, p := range in {
			if _, err := os.Stat(p); err != nil {
				t.Errorf("corpus %s: %v", e.Name, err)
			}
		}
	}
	// The Star Wars tables, read with the catalog's column names.
	sw, err := MustLookup("starwars").Import(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if c := sw.Counts; c.Utterances != 2523 || c.Conversations != 3 || c.Files != 3 {
		t.Errorf("starwars: %+v; want 2523 utterances in 3 conversations from 3 files", c)
	}
	res, err := MustLookup("tbbt").Import(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Counts; c.Utterances != 44789 || c.Speakers != 347 || c.Conversations != 2442 {
		t.Errorf("tbbt: %d utterances, %d speakers, %d conversations; want 44789, 347, 2442", c.Utterances, c.Speakers, c.Conversations)
	}
}
