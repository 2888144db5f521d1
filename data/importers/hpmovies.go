package importers

import (
	"context"
	"fmt"
	"strings"
)

func init() {
	Register("hp-movies", hpMovies{})
}

// hpMovies reads the Kaggle "Harry Potter movies" tables (Latin-1 CSV):
// Dialogue.csv (Dialogue ID, Chapter ID, Place ID, Character ID, Dialogue)
// and Characters.csv (Character ID, Character Name, ...) are required;
// Chapters.csv (Chapter ID, Chapter Name, Movie ID, ...), Places.csv
// (Place ID, Place Name, ...) and Movies.csv (Movie ID, Movie Title, ...)
// only add metadata when given.
//
// The source is "harry-potter" (one cast across the eight films). A
// conversation is one (chapter, place) pair, ID "c<chapter>-p<place>",
// its lines in file order even when the film returns to the place later
// in the chapter; Episode is "<movie title>: <chapter name>" and Scene the
// place name when those tables are given. A line whose Character ID is not
// in Characters.csv counts as dropped: unknown_speaker_id.
type hpMovies struct{}

// Describe implements Importer.
func (hpMovies) Describe() string {
	return "Harry Potter movie scripts (Kaggle: Dialogue.csv + Characters.csv [+ Chapters.csv, Places.csv, Movies.csv]; " +
		"Latin-1); source \"harry-potter\", one (chapter, place) = one conversation"
}

var hpTables = map[string]string{
	"dialogue.csv": "dialogue", "dialogues.csv": "dialogue", "characters.csv": "characters",
	"chapters.csv": "chapters", "places.csv": "places", "movies.csv": "movies",
}

// Match implements Importer.
func (hpMovies) Match(path string) bool { return hpTables[strings.ToLower(baseName(path))] != "" }

// Params implements Importer.
func (hpMovies) Params() []Param { return nil }

// Read implements Importer.
func (hpMovies) Read(ctx context.Context, files []string, opts Options, c *Collector) error {
	enc, err := resolveEncoding(opts.Encoding, Latin1)
	if err != nil {
		return err
	}
	tables := map[string]string{}
	for _, f := range files {
		kind := hpTables[strings.ToLower(baseName(f))]
		if kind == "" {
			return Errorf(Pos{File: f}, "not a Harry Potter movies table; expected Dialogue.csv, Characters.csv, Chapters.csv, Places.csv or Movies.csv")
		}
		if prev, dup := tables[kind]; dup {
			return Errorf(Pos{File: f}, "second %s table (first: %s); give one copy of the dataset", kind, prev)
		}
		tables[kind] = f
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
		l.Speaker = name[0]
		c.Add(l)
		return nil
	})
}
