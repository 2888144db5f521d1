package main

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/corpus"
	"github.com/roleprint/roleprint/data/corpusstats"

	// genimport registers the role-play formats (rolebench, chatharuhi, ...).
	_ "github.com/roleprint/roleprint/data/genimport"
	"github.com/roleprint/roleprint/data/importers"
)

func init() {
	register(&command{
		Name:    "import",
		Summary: "convert transcripts (files or folders; --format F, or detected from the content; or --corpus NAME of the catalog) into a Parquet corpus file",
		Run:     runImport,
	})
}

// importOutput is the --json object of `roleprint import`; its keys are
// documented in docs/corpora.md.
type importOutput struct {
	Corpus        string                     `json:"corpus,omitempty"`
	Format        string                     `json:"format"`
	Detected      *importers.Detection       `json:"detected,omitempty"`
	Out           string                     `json:"out"`
	Inputs        []string                   `json:"inputs"`
	Files         int                        `json:"files"`
	SkippedFiles  int                        `json:"skipped_files"`
	Skipped       []importers.SkippedFile    `json:"skipped"`
	NumSources    int                        `json:"num_sources"`
	Speakers      int                        `json:"speakers"`
	Utterances    int                        `json:"utterances"`
	Conversations int                        `json:"conversations"`
	Dropped       map[string]int             `json:"dropped"`
	DroppedTotal  int                        `json:"dropped_total"`
	TopSpeakers   []corpusstats.SpeakerCount `json:"top_speakers"`
	Seconds       float64                    `json:"seconds"`
}

// keyValues is a repeatable flag of key=value pairs, also accepting
// several pairs separated by commas or semicolons in one value. A comma or
// semicolon separates pairs only when a key= follows it, so a value may
// be one of those characters ("--set delimiter=;", "delimiter=,").
type keyValues map[string]string

func (kv keyValues) String() string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(kv)) {
		parts = append(parts, k+"="+kv[k])
	}
	return strings.Join(parts, ",")
}

func (kv keyValues) Set(s string) error {
	for _, part := range splitPairs(s) {
		k, v, ok := strings.Cut(part, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return fmt.Errorf("%q: expected key=value", part)
		}
		if t := strings.TrimSpace(v); t != "" {
			v = t // a value of spaces only is kept: "delimiter= " is a space
		}
		kv[k] = v
	}
	return nil
}

// runImport reads the inputs with one importer and writes the corpus file
// atomically: on any error the output path is left as it was.
func runImport(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "import", "PATH... | --corpus NAME")
	format := fs.String("format", "", "input format (--formats lists them); detected from the files' content when omitted")
	out := fs.String("out", "", "output corpus file (.parquet, required); replaced only when the import succeeds, never an input")
	force := fs.Bool("force", false, "allow an --out that does not end in .parquet")
	asJSON := fs.Bool("json", false, "print one JSON object with the counts (keys in docs/corpora.md)")
	source := fs.String("source", "", "replace the format's source name (the part before '/' for collections)")
	encoding := fs.String("encoding", "", "text encoding: utf-8, latin-1 or auto (default: the format's)")
	listFormats := fs.Bool("formats", false, "list the formats, their files and settings, then stop")
	corpusName := fs.String("corpus", "", "import a corpus of the catalog by name (format and paths under ../shared/corpora from data/corpus; --corpora lists them) instead of PATHs")
	listCorpora := fs.Bool("corpora", false, "list the corpus catalog (name, format, folder, what it is), then stop")
	columns := keyValues{}
	params := keyValues{}
	fs.Var(columns, "map", "lines format: field=column pairs, e.g. speaker=who,text=line,conversation=scene")
	fs.Var(params, "set", "format setting key=value (repeatable; --formats lists each format's settings)")
	if err := parseFlags(fs, args); err != nil {
		return flagUsage(err)
	}
	if *listFormats {
		return printFormats(e)
	}
	if *listCorpora {
		return printCorpora(e, *asJSON)
	}
	inputs := fs.Args()
	if *corpusName != "" {
		if len(inputs) > 0 {
			return usagef("--corpus %s takes no PATH arguments (the catalog gives them)", *corpusName)
		}
		c, err := corpus.Lookup(*corpusName)
		if err != nil {
			return usagef("--corpus: %v", err)
		}
		if *format != "" && *format != c.Format {
			return usagef("--corpus %s is read with --format %s, not %s", c.Name, c.Format, *format)
		}
		in, ok := c.Inputs()
		if !ok {
			d, _ := data.SharedCorporaDir()
			return fmt.Errorf("corpus %s: folder %s not found under %q (set $%s)", c.Name, c.Dir, d, data.SharedEnv)
		}
		*format, inputs = c.Format, in
		if len(columns) == 0 {
			maps.Copy(columns, c.Columns) // the catalog's column names (lines format)
		}
	}
	if *format != "" {
		if _, ok := importers.Lookup(*format); !ok {
			return usagef("unknown format %q (one of: %s)", *format, strings.Join(importers.Formats(), ", "))
		}
	}
	if *out == "" {
		return usagef("--out FILE.parquet is required")
	}
	if !*force && !strings.EqualFold(filepath.Ext(*out), ".parquet") {
		return usagef("--out %s does not end in .parquet; pass --force to write a corpus file there anyway", *out)
	}
	if len(inputs) == 0 {
		return usagef("no input files or folders given (or --corpus NAME)")
	}
	if err := checkOutNotInput(*out, inputs); err != nil {
		return err
	}
	var detected *importers.Detection
	if *format == "" && len(columns) > 0 {
		*format = "lines" // --map is the lines format's
	}
	if *format == "" {
		d, err := importers.Detect(inputs)
		if err != nil {
			if d != nil && d.Proposal != nil {
				return fmt.Errorf("%s", d.Proposal.Message(inputs, *out))
			}
			return err
		}
		detected, *format = d, d.Format
		e.Logf("format: %s (detected: %s)", d.Format, d.Reason)
	}
	if len(columns) > 0 && *format != "lines" {
		return usagef("--map applies to the lines format only")
	}
	start := time.Now()
	report, finish := e.progress("import " + *format)
	opts := importers.Options{
		Source:   *source,
		Encoding: *encoding,
		Columns:  columns,
		Params:   params,
		// Progress appears only for imports longer than a second.
		Progress: func(done, total int) {
			if time.Since(start) > time.Second {
				report(done, total)
			}
		},
		Logf: e.Logf,
	}
	res, err := importers.Import(ctx, *format, inputs, opts)
	finish()
	if err != nil {
		return err
	}
	if err := checkOutNotInput(*out, append(slices.Clone(res.Files), skippedPaths(res.Skipped)...)); err != nil {
		return err
	}
	if err := data.WriteUtterances(*out, res.Utterances); err != nil {
		return err
	}
	c := res.Counts
	o := importOutput{
		Corpus: *corpusName, Format: *format, Detected: detected, Out: *out, Inputs: inputs, Files: c.Files, SkippedFiles: c.SkippedFiles,
		Skipped:    res.Skipped,
		NumSources: c.Sources, Speakers: c.Speakers, Utterances: c.Utterances, Conversations: c.Conversations,
		Dropped: c.Dropped, DroppedTotal: c.DroppedTotal(),
		TopSpeakers: corpusstats.Compute(res.Utterances).TopSpeakers,
		Seconds:     time.Since(start).Seconds(),
	}
	if *asJSON {
		return e.JSON(o)
	}
	w := e.Stdout()
	fmt.Fprintf(w, "imported %s: %d utterances, %d speakers, %d conversations, %d sources from %d files → %s (%.1fs)\n",
		*format, o.Utterances, o.Speakers, o.Conversations, o.NumSources, o.Files, *out, o.Seconds)
	if o.SkippedFiles > 0 {
		fmt.Fprintf(w, "skipped %d files that are not %s data:\n", o.SkippedFiles, *format)
		for _, s := range o.Skipped {
			fmt.Fprintf(w, "  %s: %s\n", s.File, s.Reason)
		}
	}
	if o.DroppedTotal > 0 {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(o.Dropped)) {
			parts = append(parts, fmt.Sprintf("%s %d", k, o.Dropped[k]))
		}
		fmt.Fprintf(w, "dropped %d lines: %s\n", o.DroppedTotal, strings.Join(parts, ", "))
	}
	var top []string
	for _, s := range o.TopSpeakers {
		top = append(top, fmt.Sprintf("%s (%d)", s.Speaker, s.Utterances))
	}
	fmt.Fprintf(w, "top speakers: %s\n", strings.Join(top, ", "))
	return nil
}

// flagUsage turns a flag-parsing error (an unknown flag, a bad value) into
// a usage error, so the command exits with 2 as for other command-line
// mistakes.
func flagUsage(err error) error {
	if err == nil || isUsage(err) {
		return err
	}
	return usagef("%v", err)
}

// printFormats lists every registered format with its description and
// settings.
func printFormats(e *env) error {
	w := e.Stdout()
	for _, name := range importers.Formats() {
		imp, _ := importers.Lookup(name)
		fmt.Fprintf(w, "%s\n    %s\n", name, imp.Describe())
		for _, p := range imp.Params() {
			def := p.Default
			if def == "" {
				def = `""`
			}
			fmt.Fprintf(w, "    --set %s=... (default %s): %s\n", p.Name, def, p.Doc)
		}
	}
	return nil
}

// printCorpora lists the corpus catalog of data/corpus: one line per
// corpus (name, format, folder under ../shared/corpora, what it is), or
// with --json one object {"corpora": [...]}.
func printCorpora(e *env, asJSON bool) error {
	if asJSON {
		return e.JSON(struct {
			Corpora []corpus.Entry `json:"corpora"`
		}{corpus.Catalog()})
	}
	w := e.Stdout()
	for _, c := range corpus.Catalog() {
		where := c.Dir
		if len(c.Paths) > 0 {
			where += "/{" + strings.Join(c.Paths, ",") + "}"
		}
		paper := ""
		if c.Paper {
			paper = " [paper]"
		}
		fmt.Fprintf(w, "%-14s %-17s %-45s %s%s\n", c.Name, c.Format, where, c.About, paper)
	}
	return nil
}

// splitPairs cuts s at each comma or semicolon that a "key=" follows.
func splitPairs(s string) []string {
	var parts []string
	start := 0
	for i := 0; i < len(s); i++ {
		if (s[i] == ',' || s[i] == ';') && pairStart.MatchString(s[i+1:]) {
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	parts = append(parts, s[start:])
	var out []string
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			out = append(out, p)
		}
	}
	return out
}

var pairStart = regexp.MustCompile(`^\s*[A-Za-z_][A-Za-z0-9_.-]*\s*=`)

// checkOutNotInput refuses an output path that is one of the inputs (the
// same file by path or by identity, through links), so an import can
// never replace the data it reads. Folders among inputs are not compared
// (the files read from them are, after the import).
func checkOutNotInput(out string, inputs []string) error {
	ost, oerr := os.Stat(out)
	oabs, _ := filepath.Abs(out)
	for _, in := range inputs {
		ist, err := os.Stat(in)
		if err == nil && ist.IsDir() {
			continue
		}
		iabs, _ := filepath.Abs(in)
		same := iabs == oabs
		if !same && err == nil && oerr == nil {
			same = os.SameFile(ist, ost)
		}
		if same {
			return usagef("--out %s is an input file (%s): refusing to overwrite it; choose another output path", out, in)
		}
	}
	return nil
}

// skippedPaths returns the files of s.
func skippedPaths(s []importers.SkippedFile) []string {
	var out []string
	for _, f := range s {
		out = append(out, f.File)
	}
	return out
}
