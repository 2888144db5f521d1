package importers

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/roleprint/roleprint/data"
)

// Importer reads one input format. Register makes it reachable by name.
//
// Read receives the input files already expanded (folders walked with
// Match, sorted, duplicates removed) and adds every line it finds to the
// Collector, which normalises, counts and stores them. Read must return an
// *InputError (see Errorf) for malformed input.
type Importer interface {
	// Describe is a one-line description for `roleprint import --help`:
	// the files the format reads.
	Describe() string
	// Match reports whether a file found while walking a folder belongs to
	// the format (usually by extension). Files named explicitly are always
	// read.
	Match(path string) bool
	// Params lists the format-specific settings the importer accepts in
	// Options.Params, with their defaults; nil when there are none.
	Params() []Param
	// Read reads files into c.
	Read(ctx context.Context, files []string, opts Options, c *Collector) error
}

// Param documents one format-specific setting (Options.Params).
type Param struct {
	// Name is the key in Options.Params (and of `roleprint import --set`).
	Name string
	// Default is the value used when the key is absent.
	Default string
	// Doc says what the setting does and which values it takes.
	Doc string
}

// Options configures one import. The zero value uses every format's
// defaults.
type Options struct {
	// Source replaces the format's default source name ("friends", "tbbt",
	// "shakespeare"); for collections of works ("shakespeare/hamlet",
	// "cornell/<movie>") it replaces the part before the slash.
	Source string
	// Encoding overrides the reading layer's choice: "utf-8" (strict),
	// "latin-1" (the whole file as Windows-1252, its superset that
	// browsers use for the label) or "auto". Empty means "auto" for every
	// format: UTF-8, with bytes that are not UTF-8 read as Windows-1252
	// and mojibake repaired (see textenc.go). A byte-order mark or UTF-16
	// text wins over any setting.
	Encoding string
	// Columns maps utterance fields to column names for the "lines" format
	// (CLI: --map speaker=who,text=line,conversation=scene). See the lines
	// format for the fields and their default column names.
	Columns map[string]string
	// Params holds format-specific settings by name (CLI: --set
	// key=value); each Importer's Params method lists the keys it accepts
	// and their defaults. An unknown key is an error.
	Params map[string]string
	// Progress, when set, is called after each input file with the number
	// of files done and the total.
	Progress func(done, total int)
	// Logf, when set, receives notes (files skipped while walking a
	// folder, conversations read twice).
	Logf func(format string, args ...any)
}

// SourceOr returns o.Source, or def when o.Source is empty.
func (o Options) SourceOr(def string) string {
	if o.Source != "" {
		return o.Source
	}
	return def
}

// Param returns the value of a format-specific setting, or def when unset.
func (o Options) Param(name, def string) string {
	if v, ok := o.Params[name]; ok {
		return v
	}
	return def
}

func (o Options) logf(format string, args ...any) {
	if o.Logf != nil {
		o.Logf(format, args...)
	}
}

// Result is what an import produced.
type Result struct {
	// Format is the format name the files were read with.
	Format string `json:"format"`
	// Utterances holds the kept lines, grouped by conversation in order of
	// first appearance, turns numbered from 0 within each conversation.
	Utterances []data.Utterance `json:"-"`
	// Counts summarises the import.
	Counts Counts `json:"counts"`
	// Files lists the files read (given, or found walking a folder), in
	// reading order, skipped files excluded.
	Files []string `json:"-"`
	// Skipped lists the files met while walking a folder that are not part
	// of the format (a README, a backup, a data dictionary, an empty file),
	// each with the reason; they are left out with a note, never an abort.
	Skipped []SkippedFile `json:"skipped"`
	// Segmentation is the rule that cut the transcripts into
	// conversations, for formats whose settings choose it (Segmenter);
	// nil for the others, whose unit is fixed and documented.
	Segmentation *Segmentation `json:"segmentation,omitempty"`
}

// Segmentation says how an import cut transcripts into conversations,
// when the user chose the rule (the lines format's scenes and scene_lines
// settings).
type Segmentation struct {
	// Scenes is the scene-mark rule: "column" (the conversation column,
	// else the whole file), "headings" (scene-heading rows start a new
	// conversation) or "blank" (a blank line does).
	Scenes string `json:"scenes"`
	// SceneLines, when above 0, cuts every conversation into consecutive
	// windows of that many kept utterances (pseudo-scenes; ids end in
	// "#wK").
	SceneLines int `json:"scene_lines"`
	// Rule says the same in words, for reports.
	Rule string `json:"rule"`
}

// Segmenter is implemented by importers whose conversation boundaries a
// setting chooses: Segmentation validates the settings and states the
// rule before any file is read.
type Segmenter interface {
	Segmentation(opts Options) (*Segmentation, error)
}

// SkippedFile is one file left out of an import, and why.
type SkippedFile struct {
	// File is the path as found while walking.
	File string `json:"file"`
	// Reason says why the file is not part of the format.
	Reason string `json:"reason"`
}

// Counts summarises an import. Speakers are counted per source: the same
// name in two sources ("First Citizen" in two plays) is two speakers.
type Counts struct {
	// Files is the number of input files read.
	Files int `json:"files"`
	// SkippedFiles counts files met while walking a folder that held no
	// content of the format (an index page beside the transcripts).
	SkippedFiles int `json:"skipped_files"`
	// Sources is the number of distinct sources.
	Sources int `json:"num_sources"`
	// Speakers is the number of distinct (source, speaker) pairs.
	Speakers int `json:"speakers"`
	// Utterances is the number of kept lines.
	Utterances int `json:"utterances"`
	// Conversations is the number of distinct (source, conversation) pairs.
	Conversations int `json:"conversations"`
	// Dropped counts lines left out, by reason (the Drop* constants).
	Dropped map[string]int `json:"dropped"`
}

// DroppedTotal returns the number of dropped lines over all reasons.
func (c Counts) DroppedTotal() int {
	n := 0
	for _, v := range c.Dropped {
		n += v
	}
	return n
}

var (
	regMu    sync.RWMutex
	registry = map[string]Importer{}
)

// Register makes an importer available under name (lower case, e.g.
// "friends-html"). Packages call it from an init function. Registering a
// name twice, an empty name or a nil importer panics: it is a programming
// error.
func Register(name string, imp Importer) {
	regMu.Lock()
	defer regMu.Unlock()
	switch {
	case name == "" || name != strings.ToLower(name) || strings.ContainsAny(name, " \t,"):
		panic(fmt.Sprintf("importers: invalid format name %q", name))
	case imp == nil:
		panic("importers: nil importer for " + name)
	}
	if _, dup := registry[name]; dup {
		panic("importers: format registered twice: " + name)
	}
	registry[name] = imp
}

// Formats returns the registered format names, sorted.
func Formats() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	return slices.Sorted(maps.Keys(registry))
}

// Lookup returns the importer registered under name.
func Lookup(name string) (Importer, bool) {
	regMu.RLock()
	defer regMu.RUnlock()
	imp, ok := registry[name]
	return imp, ok
}

// Import reads paths (files, or folders walked for the format's files) in
// the given format. Folders are walked recursively and the files the
// format's Match accepts are read in sorted order, so the result is the
// same on every machine. It fails on an unknown format, an unknown
// format-specific setting, a missing path, a folder without files of the
// format, malformed input (an *InputError naming file and line), or when no
// utterance at all was found.
func Import(ctx context.Context, format string, paths []string, opts Options) (*Result, error) {
	imp, ok := Lookup(format)
	if !ok {
		return nil, fmt.Errorf("unknown format %q (known: %s)", format, strings.Join(Formats(), ", "))
	}
	if err := checkParams(format, imp, opts.Params); err != nil {
		return nil, err
	}
	var seg *Segmentation
	if sg, ok := imp.(Segmenter); ok {
		var err error
		if seg, err = sg.Segmentation(opts); err != nil {
			return nil, err
		}
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("import %s: no input files given", format)
	}
	files, walked, skipped, err := expandPaths(paths, imp.Match)
	if err != nil {
		return nil, fmt.Errorf("import %s: %w", format, err)
	}
	c := newCollector(format, opts, walked)
	for _, s := range skipped {
		c.Skip(s.File, s.Reason)
	}
	if err := imp.Read(ctx, files, opts, c); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := c.checkFiles(files); err != nil {
		return nil, err
	}
	res := c.result()
	res.Segmentation = seg
	for _, f := range files {
		if !c.isSkipped(f) {
			res.Files = append(res.Files, f)
		}
	}
	if res.Counts.Utterances == 0 {
		return nil, fmt.Errorf("import %s: no utterances found in %s (%d lines dropped: %v)",
			format, strings.Join(paths, ", "), res.Counts.DroppedTotal(), res.Counts.Dropped)
	}
	return res, nil
}

// checkParams rejects settings the importer does not declare.
func checkParams(format string, imp Importer, params map[string]string) error {
	if len(params) == 0 {
		return nil
	}
	known := map[string]bool{}
	var names []string
	for _, p := range imp.Params() {
		known[p.Name] = true
		names = append(names, p.Name)
	}
	for _, k := range slices.Sorted(maps.Keys(params)) {
		if !known[k] {
			if len(names) == 0 {
				return fmt.Errorf("format %s takes no settings, got %q", format, k)
			}
			return fmt.Errorf("format %s: unknown setting %q (known: %s)", format, k, strings.Join(names, ", "))
		}
	}
	return nil
}
