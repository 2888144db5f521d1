package importers

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

func init() {
	Register("lines", &linesFormat{FileFormat{
		Description: "your own delimited table, one line per row, with a header: any extension; the separator " +
			"(comma, tab, semicolon, bar or space), the quoting (\"\" or \\\") and a row-name column (a header one field " +
			"shorter, as R's write.table writes) are read from the content; --map field=column names the columns (fields: " +
			strings.Join(lineFields, ", ") + ")",
		Extensions: []string{".csv", ".tsv", ".tab"},
		Parameters: []Param{
			{Name: "delimiter", Default: "", Doc: "field separator: tab, space, \",\", \";\" or \"|\"; empty or auto = read from the content"},
			{Name: "normalize", Default: "true", Doc: "\"true\" applies the speaker and text rules of every importer; " +
				"\"false\" keeps speakers as IDs (trimmed) and text as written"},
		},
		ReadFile: readLines,
	}})
}

// linesFormat is the lines format: a FileFormat that also takes, while
// walking a folder, files of any extension whose content is a delimited
// table (R's write.table output is often saved as .txt).
type linesFormat struct{ FileFormat }

// Match accepts .csv, .tsv and .tab files, and any file whose start reads
// as a delimited table.
func (f *linesFormat) Match(path string) bool {
	return f.FileFormat.Match(path) || isTableFile(path)
}

// parseDelimiter reads the delimiter setting: 0 means read it from the
// content.
func parseDelimiter(d string) (rune, error) {
	switch strings.ToLower(d) {
	case "", "auto":
		return 0, nil
	case "tab", "\\t", "\t":
		return '\t', nil
	case "space", " ":
		return ' ', nil
	case ",", ";", "|":
		return rune(d[0]), nil
	}
	return 0, fmt.Errorf("lines: setting delimiter=%q: expected tab, space, \",\", \";\", \"|\" or auto", d)
}

// lineFields are the utterance fields a lines table can fill, in the
// order the help lists them.
var lineFields = []string{"speaker", "text", "conversation", "source", "episode", "scene",
	"start_s", "end_s", "audio_path", "agent_model", "role"}

// lineDefaults are the columns looked for when --map does not name one;
// the first present wins.
var lineDefaults = map[string][]string{
	"speaker": {"speaker"}, "text": {"text", "utterance"}, "conversation": {"conversation_id", "conversation"},
	"source": {"source"}, "episode": {"episode"}, "scene": {"scene"}, "start_s": {"start_s", "start"},
	"end_s": {"end_s", "end"}, "audio_path": {"audio_path", "audio"}, "agent_model": {"agent_model"}, "role": {"role"},
}

// readLines reads one delimited table of any extension, its dialect
// (separator, quoting, a row-name column) read from its content
// (scanTable) unless the delimiter setting fixes the separator. speaker
// and text are required columns: named with --map, else by the default
// names ("speaker", "text"), else the columns whose content looks like
// speakers and text (guessLineColumns), with a note saying which; without a conversation column the whole file is one
// conversation named after the file; without a source column the source
// is Options.Source, else the file name without extension. Rows keep file
// order as turns. start_s/end_s must be numbers of seconds when present.
func readLines(ctx context.Context, path string, opts Options, c *Collector) error {
	enc, err := resolveEncoding(opts.Encoding, UTF8)
	if err != nil {
		return err
	}
	for f := range opts.Columns {
		if !slices.Contains(lineFields, f) {
			return fmt.Errorf("lines: --map names unknown field %q (fields: %s)", f, strings.Join(lineFields, ", "))
		}
	}
	comma, err := parseDelimiter(opts.Param("delimiter", ""))
	if err != nil {
		return err
	}
	normalize, err := strconv.ParseBool(opts.Param("normalize", "true"))
	if err != nil {
		return fmt.Errorf("lines: setting normalize=%q: expected true or false", opts.Param("normalize", "true"))
	}
	var cols map[string]string // field → column, resolved on the first row
	expect := "a table with a header naming at least the speaker and text columns (see --map)"
	// Every column named with --map must exist.
	var required []string
	for _, col := range opts.Columns {
		if col != "" && !slices.Contains(required, col) {
			required = append(required, col)
		}
	}
	slices.Sort(required)
	return scanTable(ctx, path, enc, comma, required, expect, opts.logf, func(r csvRow) error {
		if cols == nil {
			cols = map[string]string{}
			for _, f := range lineFields {
				if col, ok := opts.Columns[f]; ok {
					cols[f] = col
					continue
				}
				for _, cand := range lineDefaults[f] {
					if r.Has(cand) {
						cols[f] = cand
						break
					}
				}
			}
			if cols["speaker"] == "" || cols["text"] == "" {
				// The header names neither as the format looks for by
				// default: take the columns the content shows (short
				// names that repeat, long distinct lines), saying so.
				if head, ok := tableHead(path, sampleBytes); ok {
					if lc, ok := guessLineColumns(head); ok && !lc.Defaults {
						var guessed []string
						for f, col := range map[string]string{"speaker": lc.Speaker, "text": lc.Text} {
							if cols[f] == "" && !slices.Contains(slices.Collect(maps.Values(cols)), col) {
								cols[f] = col
								guessed = append(guessed, f+"="+col)
							}
						}
						slices.Sort(guessed)
						if len(guessed) > 0 {
							opts.logf("%s: no speaker/text column named in the header; by their content %s (short names that repeat, long distinct lines); pass --map to choose others",
								path, strings.Join(guessed, ", "))
						}
					}
				}
			}
			for _, f := range []string{"speaker", "text"} {
				if cols[f] == "" {
					return Errorf(Pos{File: path, Line: 1}, "no %s column (looked for %s, and none looks like one by its content); name it with --map %s=COLUMN",
						f, strings.Join(lineDefaults[f], ", "), f)
				}
			}
			opts.logf("%s: columns %v", path, fmtColumns(cols))
		}
		get := func(f string) string {
			if col := cols[f]; col != "" {
				return strings.TrimSpace(r.Get(col))
			}
			return ""
		}
		l := Line{
			Source: get("source"), ConversationID: get("conversation"), Episode: get("episode"), Scene: get("scene"),
			Speaker: get("speaker"), Text: r.Get(cols["text"]), AudioPath: get("audio_path"),
			AgentModel: get("agent_model"), Role: get("role"), Pos: r.Pos,
			SpeakerIsID: !normalize, KeepText: !normalize,
		}
		if l.Source == "" {
			l.Source = opts.SourceOr(stem(path))
		}
		if l.ConversationID == "" {
			if cols["conversation"] != "" {
				return r.errorf("empty %s column; expected a conversation ID", cols["conversation"])
			}
			l.ConversationID = stem(path)
		}
		for _, f := range []string{"start_s", "end_s"} {
			if v := get(f); v != "" {
				x, err := strconv.ParseFloat(v, 64)
				if err != nil {
					if x := parseClock(v); x != nil {
						setTime(&l, f, *x)
						continue
					}
					return r.errorf("column %s = %q: expected seconds (12.5) or a clock (00:01:02.5)", cols[f], v)
				}
				setTime(&l, f, x)
			}
		}
		c.Add(l)
		return nil
	})
}

func setTime(l *Line, field string, v float64) {
	if field == "start_s" {
		l.StartS = &v
	} else {
		l.EndS = &v
	}
}

// fmtColumns renders a field → column map in field order.
func fmtColumns(cols map[string]string) string {
	var parts []string
	for _, f := range slices.Sorted(maps.Keys(cols)) {
		parts = append(parts, f+"="+cols[f])
	}
	return strings.Join(parts, ",")
}
