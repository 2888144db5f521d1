package importers

import (
	"context"
	"encoding/csv"
	"fmt"
	"regexp"
	"strings"
)

func init() {
	Register("hp-movies", hpMovies{})
}

// hpMovies reads the Kaggle "Harry Potter movies" tables (CSV):
// Dialogue.csv (Dialogue ID, Chapter ID, Place ID, Character ID, Dialogue)
// and Characters.csv (Character ID, Character Name, ...) are required;
// Chapters.csv (Chapter ID, Chapter Name, Movie ID, ...), Places.csv
// (Place ID, Place Name, ...) and Movies.csv (Movie ID, Movie Title, ...)
// only add metadata when given.
//
// Tables are told apart by their header, not their name, so the download
// folder can be passed whole: its other CSV files (Spells.csv,
// Data_Dictionary.csv) are skipped with a reason, and of two tables of one
// kind the one with the table's own name is read and a backup
// (Characters-bak.csv) skipped.
//
// The source is "harry-potter" (one cast across the eight films). A
// conversation is one (chapter, place) pair, ID "c<chapter>-p<place>",
// its lines in file order even when the film returns to the place later
// in the chapter; Episode is "<movie title>: <chapter name>" and Scene the
// place name when those tables are given. A line whose Character ID is not
// in Characters.csv counts as dropped: unknown_speaker_id; a line of a
// group the characters table lists as a character ("Students", "Ghosts",
// "Gryffindors") as group_label (DropGroupLabel).
type hpMovies struct{}

// DropGroupLabel counts hp-movies lines whose "character" is a group
// ("Students", "Ghosts"): no one speaker said them.
const DropGroupLabel = "group_label"

// Describe implements Importer.
func (hpMovies) Describe() string {
	return "Harry Potter movie scripts (Kaggle: Dialogue.csv + Characters.csv [+ Chapters.csv, Places.csv, Movies.csv], " +
		"told apart by header; other tables skipped); source \"harry-potter\", one (chapter, place) = one conversation"
}

var hpTables = map[string]string{
	"dialogue.csv": "dialogue", "dialogues.csv": "dialogue", "characters.csv": "characters",
	"chapters.csv": "chapters", "places.csv": "places", "movies.csv": "movies",
}

// Match implements Importer: every CSV file; Read tells the tables apart
// by header.
func (hpMovies) Match(path string) bool { return hasExt(path, ".csv") }

// Params implements Importer.
func (hpMovies) Params() []Param { return nil }

// hpKind names the table a header belongs to ("dialogue", "characters",
// "chapters", "places", "movies"), or "" for another table.
func hpKind(header []string) string {
	has := map[string]bool{}
	for _, h := range header {
		has[strings.ToLower(strings.TrimSpace(h))] = true
	}
	switch {
	case has["dialogue"] && has["character id"] && has["chapter id"] && has["place id"]:
		return "dialogue"
	case has["character id"] && has["character name"]:
		return "characters"
	case has["chapter id"] && has["chapter name"]:
		return "chapters"
	case has["place id"] && has["place name"]:
		return "places"
	case has["movie id"] && has["movie title"]:
		return "movies"
	}
	return ""
}

// hpHeader reads the header line of a CSV file, without a byte-order
// mark.
func hpHeader(path, enc string) ([]string, error) {
	r, closeFn, err := openText(path, enc)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = true
	rec, err := cr.Read()
	if err != nil {
		return nil, nil // empty or unreadable: not a table of the dataset
	}
	if len(rec) > 0 {
		// A UTF-8 byte-order mark, also as it reads when decoded as
		// Windows-1252.
		rec[0] = strings.TrimPrefix(strings.TrimPrefix(rec[0], "\ufeff"), "\u00ef\u00bb\u00bf")
	}
	return rec, nil
}

// hpBackupRe matches file names of backup copies.
var hpBackupRe = regexp.MustCompile(`(?i)([-_ .](bak|backup|old|copy|orig)\b|~$|\(\d+\)$)`)

// hpSkipReason says why a CSV file of another kind is not read.
func hpSkipReason(path string, header []string) string {
	name := strings.ToLower(stem(path))
	switch {
	case strings.Contains(name, "dictionary"):
		return "data dictionary of the dataset, no dialogue"
	case strings.Contains(name, "spell"):
		return "spells table, no dialogue"
	case len(header) == 0:
		return "empty table"
	}
	return fmt.Sprintf("not a table of the dataset (columns %s)", strings.Join(header, ", "))
}

// Read implements Importer.
func (hpMovies) Read(ctx context.Context, files []string, opts Options, c *Collector) error {
	enc, err := resolveEncoding(opts.Encoding, Latin1)
	if err != nil {
		return err
	}
	tables := map[string]string{}
	for _, f := range files {
		header, err := hpHeader(f, enc)
		if err != nil {
			return err
		}
		kind := hpKind(header)
		if kind == "" {
			c.Skip(f, hpSkipReason(f, header))
			continue
		}
		prev, dup := tables[kind]
		if !dup {
			tables[kind] = f
			continue
		}
		// Two tables of one kind: keep the one with the table's own name,
		// skip a backup copy; two real copies are an error.
		own := func(p string) bool { return hpTables[strings.ToLower(baseName(p))] == kind }
		switch {
		case own(prev) && hpBackupRe.MatchString(stem(f)):
			c.Skip(f, "backup copy of "+baseName(prev))
		case own(f) && hpBackupRe.MatchString(stem(prev)):
			c.Skip(prev, "backup copy of "+baseName(f))
			tables[kind] = f
		default:
			return Errorf(Pos{File: f}, "second %s table (first: %s); give one copy of the dataset", kind, prev)
		}
	}
	if tables["dialogue"] == "" || tables["characters"] == "" {
		return fmt.Errorf("hp-movies: need both Dialogue.csv and Characters.csv (got %s)", strings.Join(files, ", "))
	}
	// lookup reads an ID → value table.
	lookup := func(kind, idCol, valCol string, extra ...string) (map[string][]string, error) {
		out := map[string][]string{}
		p := tables[kind]
		if p == "" {
			return out, nil
		}
		cols := append([]string{idCol, valCol}, extra...)
		err := scanCSV(ctx, p, enc, ',', cols, "the "+kind+" table with columns "+strings.Join(cols, ", "), func(r csvRow) error {
			var vals []string
			for _, col := range cols[1:] {
				vals = append(vals, strings.TrimSpace(r.Get(col)))
			}
			out[strings.TrimSpace(r.Get(idCol))] = vals
			return nil
		})
		c.MarkRead(p)
		return out, err
	}
	chars, err := lookup("characters", "Character ID", "Character Name")
	if err != nil {
		return err
	}
	movies, err := lookup("movies", "Movie ID", "Movie Title")
	if err != nil {
		return err
	}
	chapters, err := lookup("chapters", "Chapter ID", "Chapter Name", "Movie ID")
	if err != nil {
		return err
	}
	places, err := lookup("places", "Place ID", "Place Name")
	if err != nil {
		return err
	}
	source := opts.SourceOr("harry-potter")
	cols := []string{"Chapter ID", "Place ID", "Character ID", "Dialogue"}
	return scanCSV(ctx, tables["dialogue"], enc, ',', cols, "the dialogue table with columns Dialogue ID, "+strings.Join(cols, ", "), func(r csvRow) error {
		chapter, place := strings.TrimSpace(r.Get("Chapter ID")), strings.TrimSpace(r.Get("Place ID"))
		if chapter == "" || place == "" {
			return r.errorf("empty Chapter ID or Place ID; expected both")
		}
		l := Line{Source: source, ConversationID: fmt.Sprintf("c%s-p%s", chapter, place), Text: r.Get("Dialogue"), Pos: r.Pos}
		if ch, ok := chapters[chapter]; ok {
			l.Episode = ch[0]
			if mv, ok := movies[ch[1]]; ok && mv[0] != "" {
				l.Episode = mv[0] + ": " + ch[0]
			}
		}
		if pl, ok := places[place]; ok {
			l.Scene = pl[0]
		}
		name, ok := chars[strings.TrimSpace(r.Get("Character ID"))]
		if !ok {
			c.Drop(l, DropUnknownSpeakerID)
			return nil
		}
		if hpGroupLabel(name[0]) {
			c.Drop(l, DropGroupLabel)
			return nil
		}
		l.Speaker = name[0]
		c.Add(l)
		return nil
	})
}

// hpGroupNouns are the plural nouns the dataset's characters table uses
// for groups; hpGroupWords may stand before them ("Gryffindor Students",
// "First Years", "Death Eaters").
var (
	hpGroupNouns = map[string]bool{
		"students": true, "ghosts": true, "gryffindors": true, "slytherins": true, "hufflepuffs": true,
		"ravenclaws": true, "eaters": true, "dursleys": true, "weasleys": true, "twins": true, "boys": true,
		"girls": true, "children": true, "kids": true, "pupils": true, "years": true, "people": true,
		"goblins": true, "centaurs": true, "dementors": true, "portraits": true, "spectators": true,
		"teachers": true, "professors": true, "champions": true, "aurors": true, "voices": true,
		"crowd": true, "class": true, "team": true, "choir": true, "audience": true, "others": true,
		"everyone": true, "everybody": true, "all": true, "both": true, "members": true, "prefects": true,
	}
	hpGroupWords = map[string]bool{
		"the": true, "death": true, "weasley": true, "gryffindor": true, "slytherin": true, "hufflepuff": true,
		"ravenclaw": true, "hogwarts": true, "first": true, "second": true, "third": true, "fourth": true,
		"fifth": true, "sixth": true, "seventh": true, "year": true, "other": true, "order": true, "quidditch": true,
		"durmstrang": true, "beauxbatons": true, "several": true, "some": true, "many": true,
	}
)

// hpGroupLabel reports whether a characters-table name stands for a group:
// its last word is a group noun and every word before it a house, a year
// or another group qualifier.
func hpGroupLabel(name string) bool {
	words := strings.Fields(strings.ToLower(strings.NewReplacer("-", " ", "'", "", ".", "").Replace(name)))
	if len(words) == 0 || !hpGroupNouns[words[len(words)-1]] {
		return false
	}
	for _, w := range words[:len(words)-1] {
		if !hpGroupWords[w] && !hpGroupNouns[w] {
			return false
		}
	}
	return true
}
