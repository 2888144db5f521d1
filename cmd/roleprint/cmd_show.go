package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/roleprint/roleprint/data"
)

func init() {
	register(&command{
		Name:    "show",
		Summary: "print the rows of a corpus file (first N as a table; filter by speaker, conversation, text; export CSV or JSONL)",
		Run:     runShow,
	})
}

// showOutput is the --json object of `roleprint show`; its keys are
// documented in docs/corpora.md.
type showOutput struct {
	Inputs []string `json:"inputs"`
	// Rows is how many rows the files hold; Matched how many pass the
	// filters; Shown how many are listed.
	Rows    int       `json:"rows"`
	Matched int       `json:"matched"`
	Shown   int       `json:"shown"`
	Utts    []showRow `json:"utterances"`
}

// showRow is one listed row with its 0-based position in its file.
type showRow struct {
	File string `json:"file"`
	Row  int    `json:"row"`
	data.Utterance
}

// runShow lists the rows of corpus files that pass the filters. Rows are
// read as stored, without the checks other commands apply, so a file
// that fails them can still be looked at.
func runShow(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "show", "CORPUS.parquet...")
	n := fs.Int("n", 20, "how many rows to list (0: all); with --format, all rows unless given")
	speaker := fs.String("speaker", "", "only rows of this speaker (case-insensitive)")
	conv := fs.String("conversation", "", "only rows of this conversation ID (or SOURCE/ID)")
	grep := fs.String("grep", "", "only rows whose text matches this regular expression (case-insensitive)")
	format := fs.String("format", "", "export the matching rows to stdout as csv or jsonl instead of a table")
	asJSON := fs.Bool("json", false, "print one JSON object with the counts and the listed rows")
	width := fs.Int("width", 100, "cut texts in the table to this many characters (0: no cut)")
	if err := parseFlags(fs, args); err != nil {
		return flagUsage(err)
	}
	if fs.NArg() == 0 {
		return usagef("no corpus file given")
	}
	if *n < 0 {
		return usagef("--n must be 0 or more")
	}
	if *format != "" && *format != "csv" && *format != "jsonl" {
		return usagef("--format %q: expected csv or jsonl", *format)
	}
	if *format != "" && *asJSON {
		return usagef("--format and --json exclude each other")
	}
	limit := *n
	if *format != "" && !flagGiven(fs, "n") {
		limit = 0
	}
	var re *regexp.Regexp
	if *grep != "" {
		var err error
		if re, err = regexp.Compile("(?i)" + *grep); err != nil {
			return usagef("--grep: %v", err)
		}
	}
	match := func(u *data.Utterance) bool {
		if *speaker != "" && !strings.EqualFold(u.Speaker, *speaker) {
			return false
		}
		if *conv != "" && u.ConversationID != *conv && u.Source+"/"+u.ConversationID != *conv {
			return false
		}
		return re == nil || re.MatchString(u.Text)
	}

	var exp exporter
	switch *format {
	case "csv":
		exp = newCSVExporter(e)
	case "jsonl":
		enc := json.NewEncoder(e.Stdout())
		enc.SetEscapeHTML(false)
		exp = jsonlExporter{enc: enc}
	}
	out := showOutput{Inputs: fs.Args(), Utts: []showRow{}}
	for _, p := range fs.Args() {
		row := 0
		err := data.ScanParquet(p, func(batch []data.Utterance) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			for i := range batch {
				u := &batch[i]
				r := row
				row++
				out.Rows++
				if !match(u) {
					continue
				}
				out.Matched++
				if limit > 0 && out.Shown >= limit {
					continue // keep counting
				}
				out.Shown++
				if exp != nil {
					if err := exp.write(p, r, u); err != nil {
						return err
					}
					continue
				}
				out.Utts = append(out.Utts, showRow{File: p, Row: r, Utterance: *u})
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	if exp != nil {
		if err := exp.flush(); err != nil {
			return err
		}
		e.Logf("exported %d of %d rows (%d matched)", out.Shown, out.Rows, out.Matched)
		return nil
	}
	if *asJSON {
		return e.JSON(out)
	}
	return writeShowTable(e, out, *width)
}

// flagGiven reports whether the flag name was set on the command line.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			given = true
		}
	})
	return given
}

// writeShowTable prints the listed rows as an aligned table.
func writeShowTable(e *env, out showOutput, width int) error {
	w := tabwriter.NewWriter(e.Stdout(), 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "row\tsource\tconversation\tturn\tspeaker\ttext")
	multi := len(out.Inputs) > 1
	for _, r := range out.Utts {
		row := strconv.Itoa(r.Row)
		if multi {
			row = r.File + ":" + row
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%s\t%s\n", row, cell(r.Source, 30), cell(r.ConversationID, 24), r.Turn,
			cell(r.Speaker, 24), cell(r.Text, width))
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(e.Stdout(), "%d of %d rows shown (%d match)\n", out.Shown, out.Rows, out.Matched)
	return nil
}

// cell makes s fit one table cell: line ends and tabs shown as spaces,
// cut to max characters (0: no cut).
func cell(s string, max int) string {
	s = strings.NewReplacer("\n", "⏎", "\r", "⏎", "\t", " ").Replace(s)
	if max > 0 && utf8.RuneCountInString(s) > max {
		s = string([]rune(s)[:max-1]) + "…"
	}
	return s
}

// exporter writes matching rows in an export format.
type exporter interface {
	write(file string, row int, u *data.Utterance) error
	flush() error
}

// csvColumns are the exported columns, the Parquet schema's names.
var csvColumns = []string{"source", "conversation_id", "episode", "scene", "turn", "speaker", "text",
	"start_s", "end_s", "audio_path", "agent_model", "role"}

type csvExporter struct {
	w      *csv.Writer
	header bool
}

func newCSVExporter(e *env) *csvExporter { return &csvExporter{w: csv.NewWriter(e.Stdout())} }

func (c *csvExporter) write(_ string, _ int, u *data.Utterance) error {
	if !c.header {
		c.header = true
		if err := c.w.Write(csvColumns); err != nil {
			return err
		}
	}
	num := func(p *float64) string {
		if p == nil {
			return ""
		}
		return strconv.FormatFloat(*p, 'g', -1, 64)
	}
	return c.w.Write([]string{u.Source, u.ConversationID, u.Episode, u.Scene, strconv.Itoa(int(u.Turn)), u.Speaker, u.Text,
		num(u.StartS), num(u.EndS), u.AudioPath, u.AgentModel, u.Role})
}

func (c *csvExporter) flush() error {
	if !c.header {
		if err := c.w.Write(csvColumns); err != nil {
			return err
		}
	}
	c.w.Flush()
	return c.w.Error()
}

type jsonlExporter struct{ enc *json.Encoder }

func (j jsonlExporter) write(_ string, _ int, u *data.Utterance) error { return j.enc.Encode(u) }
func (j jsonlExporter) flush() error                                   { return nil }
