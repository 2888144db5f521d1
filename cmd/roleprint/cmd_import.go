package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/corpus"
	"github.com/roleprint/roleprint/data/corpusstats"
	"github.com/roleprint/roleprint/data/pairs"

	// genimport registers the role-play formats (rolebench, chatharuhi, ...).
	_ "github.com/roleprint/roleprint/data/genimport"
	"github.com/roleprint/roleprint/data/importers"
	"github.com/roleprint/roleprint/internal/fsx"
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
	Settings      map[string]string          `json:"settings"`
	Segmentation  *importers.Segmentation    `json:"segmentation"`
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
	scenes := fs.String("scenes", "", "lines format: what starts a conversation: column (the conversation column, else each file; the default), headings (also a scene-heading row: INT./EXT., Scene:, [Scene: ...]) or blank (also a blank line between rows)")
	sceneLines := fs.Int("scene-lines", 0, "lines format: cut every conversation into consecutive windows of N kept utterances, whoever speaks (pseudo-scenes for a script without scene marks; ids CONV#wK); 0 = off")
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
			return corpusNotFound(c)
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
	if err := guardPaths(inputs, fsx.Output{Flag: "--out", Path: *out}); err != nil {
		return err
	}
	if err := sceneParams(fs, params, *scenes, *sceneLines); err != nil {
		return err
	}
	if _, ok := params["scene_lines"]; (ok || params["scenes"] != "") && *format == "" {
		*format = "lines" // conversation-boundary settings are the lines format's
	}
	detected, err := importFormat(e, format, inputs, *out, len(columns) > 0)
	if err != nil {
		return err
	}
	seg, err := importSegmentation(e, *format, params)
	if err != nil {
		return err
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
	// The files read from input folders are known only now.
	if err := guardPaths(append(slices.Clone(res.Files), skippedPaths(res.Skipped)...), fsx.Output{Flag: "--out", Path: *out}); err != nil {
		return err
	}
	info := &data.ImportInfo{Format: *format, Settings: map[string]string(params), Columns: map[string]string(columns)}
	if seg != nil {
		info.ConversationRule, info.SceneLines = seg.Rule, seg.SceneLines
	}
	if err := data.WriteUtterancesInfo(*out, res.Utterances, info); err != nil {
		return err
	}
	c := res.Counts
	o := importOutput{
		Corpus: *corpusName, Format: *format, Detected: detected, Out: *out, Inputs: inputs, Files: c.Files, SkippedFiles: c.SkippedFiles,
		Settings: params, Segmentation: res.Segmentation,
		Skipped:    res.Skipped,
		NumSources: c.Sources, Speakers: c.Speakers, Utterances: c.Utterances, Conversations: c.Conversations,
		Dropped: c.Dropped, DroppedTotal: c.DroppedTotal(),
		TopSpeakers: corpusstats.Compute(res.Utterances).TopSpeakers,
		Seconds:     time.Since(start).Seconds(),
	}
	if *asJSON {
		return e.JSON(o)
	}
	printImport(e.Stdout(), &o, *format, *out)
	return nil
}

// printImport prints what an import read and wrote: the counts, the files
// skipped, the lines dropped and the top speakers.
func printImport(w io.Writer, o *importOutput, format, out string) {
	fmt.Fprintf(w, "imported %s: %d utterances, %d speakers, %d conversations, %d sources from %d files → %s (%.1fs)\n",
		format, o.Utterances, o.Speakers, o.Conversations, o.NumSources, o.Files, out, o.Seconds)
	if o.Segmentation != nil {
		fmt.Fprintf(w, "conversations: %s\n", o.Segmentation.Rule)
	}
	if o.SkippedFiles > 0 {
		fmt.Fprintf(w, "skipped %d files that are not %s data:\n", o.SkippedFiles, format)
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

// corpusNotFound says where import --corpus looked for the catalog
// entry's folder and how to point it at the shared corpora.
func corpusNotFound(c corpus.Entry) error {
	if env := os.Getenv(data.SharedEnv); env != "" {
		return fmt.Errorf("corpus %s: folder %s not found under %s ($%s=%s); put the release there or set $%s to the folder that holds corpora/%s",
			c.Name, c.Dir, filepath.Join(env, "corpora"), data.SharedEnv, env, data.SharedEnv, c.Dir)
	}
	wd, _ := os.Getwd()
	d, _ := data.SharedCorporaDir()
	if d == "" {
		return fmt.Errorf("corpus %s: folder %s not found: the shared corpora are looked for in ../shared/corpora beside a RolePrint checkout, and %s is not inside one (no go.mod above it); set $%s to the folder that holds corpora/%s",
			c.Name, c.Dir, wd, data.SharedEnv, c.Dir)
	}
	return fmt.Errorf("corpus %s: folder %s not found under %s (the checkout's ../shared/corpora); put the release there or set $%s to the folder that holds corpora/%s",
		c.Name, c.Dir, d, data.SharedEnv, c.Dir)
}

// skippedPaths returns the files of s.
func skippedPaths(s []importers.SkippedFile) []string {
	var out []string
	for _, f := range s {
		out = append(out, f.File)
	}
	return out
}

// importFormat settles the import's format: --map implies lines, no
// --format means detection (its proposal, for a table it can read as
// lines, is the error), and --map goes with lines only. detected is the
// detection, nil when the format was given.
func importFormat(e *env, format *string, inputs []string, out string, mapped bool) (*importers.Detection, error) {
	if *format == "" && mapped {
		*format = "lines" // --map is the lines format's
	}
	var detected *importers.Detection
	if *format == "" {
		d, err := importers.Detect(inputs)
		if err != nil {
			if d != nil && d.Proposal != nil {
				return nil, fmt.Errorf("%s", d.Proposal.Message(inputs, out))
			}
			return nil, err
		}
		detected, *format = d, d.Format
		e.Logf("format: %s (detected: %s)", d.Format, d.Reason)
	}
	if mapped && *format != "lines" {
		return nil, usagef("--map applies to the lines format only")
	}
	return detected, nil
}

// sceneParams moves --scenes and --scene-lines into the format settings
// (scenes, scene_lines); a --set of the same key with another value is a
// usage error.
func sceneParams(fs *flag.FlagSet, params keyValues, scenes string, sceneLines int) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for _, p := range []struct{ flag, key, value string }{
		{"scenes", "scenes", scenes},
		{"scene-lines", "scene_lines", strconv.Itoa(sceneLines)},
	} {
		if !set[p.flag] {
			continue
		}
		if v, ok := params[p.key]; ok && v != p.value {
			return usagef("--%s %s and --set %s=%s disagree; give one", p.flag, p.value, p.key, v)
		}
		params[p.key] = p.value
	}
	return nil
}

// importSegmentation checks the conversation-boundary settings before any
// file is read, so a bad --scene-lines is a usage error (exit 2) naming
// the flag; it returns the format's rule (nil for a format that has none)
// and notes on stderr a window too short for the pair builder's sets.
func importSegmentation(e *env, format string, params keyValues) (*importers.Segmentation, error) {
	imp, ok := importers.Lookup(format)
	if !ok {
		return nil, nil
	}
	sg, ok := imp.(importers.Segmenter)
	if !ok {
		for _, k := range []string{"scenes", "scene_lines"} {
			if _, given := params[k]; given {
				return nil, usagef("--%s applies to the lines format only (this import reads %s, whose conversations are its own: see --formats)",
					strings.ReplaceAll(k, "_", "-"), format)
			}
		}
		return nil, nil
	}
	seg, err := sg.Segmentation(importers.Options{Params: params})
	if err != nil {
		return nil, usagef("%v (--scenes, --scene-lines)", err)
	}
	if minSet := pairs.DefaultPairConfig().MinSetUtterances; seg.SceneLines > 0 && seg.SceneLines < 2*minSet {
		e.Logf("note: a window of %d utterances holds the %d-utterance set of the pair builder (the paper's filter) for at most one speaker, so no Harder pairs (two speakers of one conversation) can form; %d or more can",
			seg.SceneLines, minSet, 2*minSet)
	}
	return seg, nil
}
