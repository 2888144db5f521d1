package main

import (
	"context"
	"fmt"
	"maps"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/corpus"
	"github.com/roleprint/roleprint/data/corpusstats"
)

func init() {
	register(&command{
		Name:    "stats",
		Summary: "corpus statistics like the paper's Table 4 (speakers, utterances, conversations, top speakers) and suspicious content",
		Run:     runStats,
	})
}

// statsOutput is the --json object of `roleprint stats`: the corpus
// statistics (overall figures at the top level, then datasets and
// sources) and the files they were computed from. Keys are documented in
// docs/corpora.md.
type statsOutput struct {
	Inputs []string `json:"inputs"`
	// Imports says, per input file, how it was imported (format,
	// settings, the conversation rule) when the file records it; empty
	// fields for a file without the record.
	Imports []statsImport `json:"imports"`
	*corpusstats.Stats
	// Suspicious counts likely import defects, with examples naming
	// file and row.
	Suspicious *corpusstats.Suspicious `json:"suspicious"`
}

// runStats streams the corpus files (or the embedded default corpus when
// none is given) through a statistics accumulator, so memory does not grow
// with the number of rows beyond the distinct speakers and conversations.
func runStats(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "stats", "[CORPUS.parquet...]")
	asJSON := fs.Bool("json", false, "print one JSON object (keys in docs/corpora.md) instead of Markdown tables")
	top := fs.Int("top", corpusstats.DefaultTopSpeakers, "how many top speakers to list per row")
	examples := fs.Int("examples", corpusstats.DefaultSuspiciousExamples, "how many examples to list per suspicious-content check")
	outs := addStatsOutputFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return flagUsage(err)
	}
	if *top < 1 {
		return usagef("--top must be at least 1")
	}
	acc := corpusstats.NewAccumulator(*top)
	sus := corpusstats.NewSuspiciousScanner(*examples)
	inputs := fs.Args()
	if len(inputs) == 0 {
		utts, err := corpus.Default()
		if err != nil {
			return err
		}
		acc.Add(utts...)
		inputs = []string{"embedded:" + corpus.DefaultName}
		for i := range utts {
			sus.Add(inputs[0], i, &utts[i])
		}
	}
	var imports []statsImport
	for _, p := range fs.Args() {
		info, err := data.ReadImportInfo(p)
		if err != nil {
			return err
		}
		imports = append(imports, newStatsImport(p, info))
		row := 0
		// Rows are read without Validate: the suspicious-content report
		// names the rows that fail it instead of the first one stopping
		// the command.
		err = data.ScanParquet(p, func(batch []data.Utterance) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			acc.Add(batch...)
			for i := range batch {
				sus.Add(p, row, &batch[i])
				row++
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	st := acc.Stats()
	if err := outs.write(e, st); err != nil {
		return err
	}
	if *asJSON {
		return e.JSON(statsOutput{Inputs: inputs, Imports: nonNil(imports), Stats: st, Suspicious: sus.Result()})
	}
	fmt.Fprintf(e.Stdout(), "corpus: %v\n", inputs)
	for _, im := range imports {
		if im.ConversationRule != "" {
			fmt.Fprintf(e.Stdout(), "conversations of %s (import --format %s): %s\n", im.File, im.Format, im.ConversationRule)
		}
	}
	fmt.Fprintln(e.Stdout())
	if err := corpusstats.WriteMarkdown(e.Stdout(), st); err != nil {
		return err
	}
	fmt.Fprintln(e.Stdout())
	return corpusstats.WriteSuspicious(e.Stdout(), sus.Result())
}

// statsImport is one input's import record in `stats --json` (key
// "imports"): the file and the fields of its data.ImportInfo, every key
// present in every row (format "", empty settings and columns, scene_lines
// 0 for a file without the record).
type statsImport struct {
	File             string            `json:"file"`
	Format           string            `json:"format"`
	Settings         map[string]string `json:"settings"`
	Columns          map[string]string `json:"columns"`
	ConversationRule string            `json:"conversation_rule"`
	SceneLines       int               `json:"scene_lines"`
}

// newStatsImport returns file's row of "imports" from its record (nil
// when the file has none).
func newStatsImport(file string, info *data.ImportInfo) statsImport {
	im := statsImport{File: file, Settings: map[string]string{}, Columns: map[string]string{}}
	if info == nil {
		return im
	}
	im.Format, im.ConversationRule, im.SceneLines = info.Format, info.ConversationRule, info.SceneLines
	maps.Copy(im.Settings, info.Settings)
	maps.Copy(im.Columns, info.Columns)
	return im
}
