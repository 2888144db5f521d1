package corpus

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/roleprint/roleprint/data"
	// genimport registers the role-play formats (chatharuhi, rolebench,
	// character-llm, pair-records, ...) that catalog entries name.
	_ "github.com/roleprint/roleprint/data/genimport"
	"github.com/roleprint/roleprint/data/importers"
)

// Entry is one corpus of the catalog: a name to load it by, the importer
// that reads it and where it lives under the shared corpora folder
// (data.SharedCorporaDir, ../shared/corpora).
type Entry struct {
	// Name is how the CLI (roleprint import --corpus NAME), the notebooks
	// (nb.Import(ctx, corpus.MustLookup(NAME))) and scripts name it.
	Name string `json:"name"`
	// Format is the importer (importers.Formats).
	Format string `json:"format"`
	// Dir is the corpus folder, relative to the shared corpora folder.
	Dir string `json:"dir"`
	// Paths are the files or folders inside Dir to import; empty: Dir.
	Paths []string `json:"paths,omitempty"`
	// Columns is, for the lines format, the column of each field
	// (importers.Options.Columns): the corpus's own header names.
	Columns map[string]string `json:"columns,omitempty"`
	// About says what the corpus is.
	About string `json:"about"`
	// Paper is true for the corpora of the seed paper's Table 2 (Yang et
	// al.): Friends, The Big Bang Theory, AnnoMI and Shakespeare.
	Paper bool `json:"paper"`
	// Embedded is true for the corpus shipped in this package (Default).
	Embedded bool `json:"embedded,omitempty"`
}

// catalog is the one table of corpora; the counts each import gives are in
// docs/corpora.md ("Measured counts").
var catalog = []Entry{
	{Name: "friends", Format: "friends-html", Dir: "friends-fangj-html", Paths: []string{"season"}, Paper: true,
		About: "Friends transcripts, fangj HTML pages (the seed paper's Friends)"},
	{Name: "tbbt", Format: "tbbt", Dir: "tbbt", Paths: []string{"preprocessing/raw_corpus"}, Paper: true,
		About: "The Big Bang Theory transcripts (TBBTCorpus raw_corpus)"},
	{Name: "annomi", Format: "annomi", Dir: "annomi", Paths: []string{"AnnoMI-simple.csv"}, Paper: true,
		About: "AnnoMI motivational-interviewing sessions (therapist and client)"},
	{Name: DefaultName, Format: DefaultFormat, Dir: DefaultSharedCorpus, Paper: true, Embedded: true,
		About: "Shakespeare's 37 plays, MIT HTML edition (public domain; embedded, see Default)"},
	{Name: "friends-json", Format: "friends-json", Dir: "friends-emorynlp",
		About: "Friends, EmoryNLP character-mining JSON (full speaker names)"},
	{Name: "meld", Format: "meld-csv", Dir: "friends-meld", Paths: []string{"data"},
		About: "Friends, MELD and EmoryNLP emotion CSV files"},
	{Name: "chatharuhi", Format: "chatharuhi", Dir: "chatharuhi",
		About: "ChatHaruhi role-play dialogues: real lines and generated roles"},
	{Name: "rolebench", Format: "rolebench", Dir: "rolebench",
		About: "RoleBench (English) role-play instructions and generated answers"},
	{Name: "agc-examples", Format: "pair-records", Dir: "agc-speaker-verification-examples",
		About: "the seed paper's released pair records (a sample)"},
	{Name: "character-llm", Format: "character-llm", Dir: "releases/character-llm",
		About: "Character-LLM interview generations (release sample)"},
	{Name: "msc", Format: "msc", Dir: "releases/msc",
		About: "Multi-Session Chat (release sample)"},
	{Name: "hpd", Format: "hpd", Dir: "releases/hpd",
		About: "Harry Potter Dialogue dataset (release sample)"},
	{Name: "meld-dyadic", Format: "meld-csv", Dir: "releases/meld-dyadic",
		About: "MELD dyadic conversations (release sample)"},
	{Name: "chatharuhi-zh", Format: "chatharuhi", Dir: "releases/chatharuhi-zh",
		About: "ChatHaruhi Chinese roles (release sample)"},
	{Name: "rolebench-zh", Format: "rolebench", Dir: "releases/rolebench-zh",
		About: "RoleBench Chinese (release sample)"},
	{Name: "cornell-head", Format: "cornell", Dir: "releases/cornell-head",
		About: "Cornell Movie-Dialogs corpus (first files)"},
	{Name: "starwars", Format: "lines", Dir: "starwars-scripts", Columns: map[string]string{"speaker": "character", "text": "dialogue"},
		About: "the three original Star Wars films' dialogue, R write.table tables (one conversation per film)"},
}

// Catalog returns every corpus of the catalog, the paper's first; a fresh
// copy.
func Catalog() []Entry {
	out := make([]Entry, len(catalog))
	for i, e := range catalog {
		e.Paths = slices.Clone(e.Paths)
		e.Columns = maps.Clone(e.Columns)
		out[i] = e
	}
	return out
}

// Names returns the catalog's corpus names in catalog order.
func Names() []string {
	var out []string
	for _, e := range catalog {
		out = append(out, e.Name)
	}
	return out
}

// Lookup returns the catalog entry called name; the error lists the names
// there are.
func Lookup(name string) (Entry, error) {
	for _, e := range Catalog() {
		if e.Name == name {
			return e, nil
		}
	}
	return Entry{}, fmt.Errorf("unknown corpus %q (the catalog has: %s)", name, strings.Join(Names(), ", "))
}

// MustLookup is Lookup for notebooks: it panics on an unknown name.
func MustLookup(name string) Entry {
	e, err := Lookup(name)
	if err != nil {
		panic(err)
	}
	return e
}

// Paper returns the seed paper's corpora that are read from the shared
// folder (Friends, TBBT, AnnoMI); the embedded Shakespeare is Default.
func Paper() []Entry {
	var out []Entry
	for _, e := range Catalog() {
		if e.Paper && !e.Embedded {
			out = append(out, e)
		}
	}
	return out
}

// Inputs returns the paths to import for e under the shared corpora folder
// (data.SharedCorpus(e.Dir) joined with e.Paths), and false when the
// corpus folder is absent.
func (e Entry) Inputs() ([]string, bool) {
	dir, ok := data.SharedCorpus(e.Dir)
	if !ok {
		return nil, false
	}
	if len(e.Paths) == 0 {
		return []string{dir}, true
	}
	var out []string
	for _, p := range e.Paths {
		out = append(out, filepath.Join(dir, p))
	}
	return out, true
}

// Import reads e from the shared corpora folder with its importer. It is
// the data-side entry point for loading a corpus by name, so callers above
// the data layer (kernel, cmd) need not know formats or paths. An absent
// corpus is an error naming the folder looked for. opts may be nil (the
// importer's defaults).
func (e Entry) Import(ctx context.Context, opts *importers.Options) (*importers.Result, error) {
	in, ok := e.Inputs()
	if !ok {
		d, _ := data.SharedCorporaDir()
		return nil, fmt.Errorf("corpus %s: folder %s not found under %q (set $%s)", e.Name, e.Dir, d, data.SharedEnv)
	}
	var o importers.Options
	if opts != nil {
		o = *opts
	}
	if len(o.Columns) == 0 {
		o.Columns = maps.Clone(e.Columns)
	}
	res, err := importers.Import(ctx, e.Format, in, o)
	if err != nil {
		return nil, fmt.Errorf("corpus %s: %w", e.Name, err)
	}
	return res, nil
}
