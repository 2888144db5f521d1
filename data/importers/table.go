package importers

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file reads a user's delimited table by its content: which
// character separates the fields, whether quotes inside quoted fields are
// doubled (RFC 4180) or backslash-escaped (R's write.table), and whether
// the header is one field shorter than the rows because the first column
// holds row names (R's write.table with row.names). encoding/csv parses
// the table once the dialect is known; it has no sniffer, so the choice of
// dialect is made here by trying each candidate with encoding/csv on the
// start of the file and keeping the one whose rows all have the same
// number of fields.

// tableDialect says how a delimited table is written.
type tableDialect struct {
	// Comma separates fields: ',', '\t', ';', '|' or ' '.
	Comma rune
	// BackslashQuote is set when a quote inside a quoted field is written
	// \" (R's qmethod "escape") instead of "".
	BackslashQuote bool
	// RowNames is set when the header has one field fewer than the rows:
	// the first column holds row names and has no header.
	RowNames bool
	// Fields is the number of fields of a data row.
	Fields int
	// Rows is how many data rows the sample held.
	Rows int
	// Quoted is set when the sample's fields are quoted.
	Quoted bool
}

// tableDelimiters are the separators tried, in order of preference when
// several fit equally.
var tableDelimiters = []rune{',', '\t', ';', '|', ' '}

// delimiterName names a separator for messages and --set delimiter.
func delimiterName(c rune) string {
	switch c {
	case '\t':
		return "tab"
	case ' ':
		return "space"
	case ',':
		return "comma"
	case ';':
		return "semicolon"
	case '|':
		return "bar"
	}
	return string(c)
}

// sampleLimit bounds the bytes and rows of a file looked at to sniff its
// dialect.
const (
	sampleBytes = 64 * 1024
	sampleRows  = 200
)

// sniffTable finds the dialect of a table from the start of its text
// (sample, decoded): the separator among tableDelimiters for which every
// sampled line parses to the same number of fields, at least two, the
// header having as many or one fewer. comma, when not 0, is the only
// separator tried (the user's --set delimiter). It fails with a message
// saying what was expected when no separator fits.
func sniffTable(sample string, comma rune) (tableDialect, error) {
	if len(sample) > sampleBytes {
		sample = sample[:sampleBytes]
	}
	// A sample cut inside the file ends in a partial line: drop it.
	if i := strings.LastIndexByte(sample, '\n'); i >= 0 && i < len(sample)-1 {
		sample = sample[:i+1]
	}
	cands := tableDelimiters
	if comma != 0 {
		cands = []rune{comma}
	}
	var best tableDialect
	found := false
	for _, c := range cands {
		for _, bs := range []bool{false, true} {
			if bs && !strings.Contains(sample, `\"`) {
				continue
			}
			d, ok := tryDialect(sample, c, bs)
			if !ok {
				continue
			}
			// More rows parsed, then more fields, then the order of
			// preference.
			if !found || d.Rows > best.Rows || (d.Rows == best.Rows && d.Fields > best.Fields) {
				best, found = d, true
			}
			break
		}
	}
	if !found {
		what := "fields separated by comma, tab, semicolon, bar or space"
		if comma != 0 {
			what = "fields separated by " + delimiterName(comma)
		}
		return tableDialect{}, fmt.Errorf("not a delimited table: expected a header line and rows with the same number of fields (%s, quoted or not)", what)
	}
	return best, nil
}

// tryDialect parses sample with separator comma and reports the dialect
// when every line gives the same number of fields (two or more; the
// header as many or one fewer) and there is at least one data row.
func tryDialect(sample string, comma rune, backslash bool) (tableDialect, bool) {
	cr := tableReader(sample, comma, backslash)
	header, err := cr.Read()
	if err != nil || len(header) == 0 {
		return tableDialect{}, false
	}
	d := tableDialect{Comma: comma, BackslashQuote: backslash}
	widths := map[int]int{} // fields → rows
	rows := 0
	for rows < sampleRows {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return tableDialect{}, false
		}
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		widths[len(rec)]++
		rows++
	}
	for w, n := range widths {
		if n > widths[d.Fields] || (n == widths[d.Fields] && w > d.Fields) {
			d.Fields = w
		}
	}
	// All rows of one width but one in ten (one in a sample of five or
	// more): the odd row is an error the reader reports with its line,
	// not a sign of another separator.
	d.Rows = widths[d.Fields]
	odd := rows / 10
	if rows >= 5 {
		odd = max(odd, 1)
	}
	switch {
	case d.Rows == 0 || d.Fields < 2 || rows-d.Rows > odd:
		return tableDialect{}, false
	case len(header) == d.Fields-1:
		d.RowNames = true
	case len(header) != d.Fields:
		return tableDialect{}, false
	}
	first := strings.TrimLeft(sample, " \t\r\n")
	d.Quoted = strings.HasPrefix(first, `"`)
	return d, true
}

// describe says how the table is written, for notes ("separated by space,
// quoted, \" escapes, a row-name column").
func (d tableDialect) describe() string {
	parts := []string{"separated by " + delimiterName(d.Comma)}
	if d.Quoted {
		parts = append(parts, "quoted")
	}
	if d.BackslashQuote {
		parts = append(parts, `\" escapes`)
	}
	if d.RowNames {
		parts = append(parts, "a row-name column (header one field shorter)")
	}
	return strings.Join(parts, ", ")
}

// rowNamesColumn is the name given to the header-less first column of a
// table whose header is one field shorter than its rows.
const rowNamesColumn = "row_names"

// scanTable reads a delimited table of any dialect (sniffed from the
// text; comma, when not 0, fixes the separator): it checks that every
// column in required is present (case-insensitive), then calls fn for
// each data row. A header one field shorter than the rows gets a first
// column named rowNamesColumn. Missing or empty files, text that is not a
// table, missing columns, malformed quoting, rows of the wrong width and
// invalid UTF-8 are *InputErrors naming the file and line; expect
// describes the table.
func scanTable(ctx context.Context, path, enc string, comma rune, required []string, expect string,
	logf func(string, ...any), fn func(csvRow) error) error {
	strict := enc == UTF8
	if strict {
		enc = utf8Unchecked // checked field by field below, naming row and column
	}
	text, _, err := decodeFile(path, enc)
	if err != nil {
		return err
	}
	if strings.TrimSpace(text) == "" {
		return Errorf(Pos{File: path}, "empty file; expected %s", expect)
	}
	d, err := sniffTable(text, comma)
	if err != nil {
		return Errorf(Pos{File: path, Line: firstBadLine(text, comma)}, "%v; expected %s", err, expect)
	}
	if !d.BackslashQuote && strings.Contains(text, `\"`) && !wholeTable(text, d) {
		// Quotes escaped \" past the sample (R's write.table): take that
		// reading when the whole table parses so.
		bs := d
		bs.BackslashQuote = true
		if wholeTable(text, bs) {
			d = bs
		}
	}
	if logf != nil {
		logf("%s: table %s", path, d.describe())
	}
	cr := tableReader(text, d.Comma, d.BackslashQuote)
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err != nil {
		return csvError(path, err, expect)
	}
	var names []string
	if d.RowNames {
		names = append(names, rowNamesColumn)
	}
	for _, h := range header {
		if strict && !utf8.ValidString(h) {
			return Errorf(Pos{File: path, Line: 1}, "%s", badUTF8("header"))
		}
		names = append(names, strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
	}
	index, err := columnIndex(path, names, required, expect)
	if err != nil {
		return err
	}
	row := 0
	prevEnd := 0 // the last physical line of the previous data row
	for {
		rec, err := readRecord(cr, path, expect)
		if err != nil {
			return err
		}
		if rec == nil {
			break
		}
		line, _ := cr.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue // a blank line of a space-separated table
		}
		// encoding/csv skips empty lines: a gap in the line numbers
		// between two rows is a blank line (the blank-line scene rule).
		afterBlank := prevEnd > 0 && line > prevEnd+1
		lastLine, _ := cr.FieldPos(len(rec) - 1)
		prevEnd = lastLine + strings.Count(rec[len(rec)-1], "\n")
		row++
		if row%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if len(rec) != len(names) {
			return Errorf(Pos{File: path, Line: line}, "row %d has %d fields, expected %d (%s; header [%s])",
				row, len(rec), len(names), d.describe(), strings.Join(names, ", "))
		}
		if strict {
			if err := checkFieldsUTF8(cr, path, row, names, rec); err != nil {
				return err
			}
		}
		if err := fn(csvRow{Pos: Pos{File: path, Line: line}, Row: row, AfterBlank: afterBlank, fields: rec, index: index}); err != nil {
			return err
		}
	}
	if row == 0 {
		return Errorf(Pos{File: path}, "a header and no rows; expected %s", expect)
	}
	return nil
}

// firstBadLine returns the line of the first row that does not parse, or
// has another width than the header, when the table is read with
// separator comma (a comma when 0); 0 when none does.
func firstBadLine(text string, comma rune) int {
	if comma == 0 {
		comma = ','
	}
	cr := tableReader(text, comma, false)
	header, err := cr.Read()
	if err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return pe.Line
		}
		return 0
	}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return 0
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return pe.Line
			}
			return 0
		}
		if len(rec) != len(header) && len(rec) != len(header)+1 {
			line, _ := cr.FieldPos(0)
			return line
		}
	}
}

// tableReader is a csv.Reader of text with separator comma, rows of any
// width (the callers check widths themselves). With backslash, \" quote
// escapes are turned into RFC 4180's doubled quotes first; no line
// changes, so the line numbers of errors stay right.
func tableReader(text string, comma rune, backslash bool) *csv.Reader {
	if backslash {
		text = strings.ReplaceAll(text, `\"`, `""`)
	}
	cr := csv.NewReader(strings.NewReader(text))
	cr.Comma = comma
	cr.FieldsPerRecord = -1
	return cr
}

// wholeTable reports whether all of text parses in dialect d, every row
// of the width the dialect says.
func wholeTable(text string, d tableDialect) bool {
	cr := tableReader(text, d.Comma, d.BackslashQuote)
	cr.ReuseRecord = true
	if _, err := cr.Read(); err != nil {
		return false
	}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return true
		}
		if err != nil {
			return false
		}
		if len(rec) != d.Fields && !(len(rec) == 1 && strings.TrimSpace(rec[0]) == "") {
			return false
		}
	}
}

// tableHead reads up to n bytes of path decoded as text, or false.
func tableHead(path string, n int64) (string, bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, n))
	text, _, err := decodeText(path, b, Auto)
	return text, err == nil
}

// isTableFile reports whether the start of path reads as a delimited
// table (sniffTable) with at least two data rows.
func isTableFile(path string) bool {
	head, ok := tableHead(path, 16*1024)
	if !ok {
		return false
	}
	d, err := sniffTable(head, 0)
	return err == nil && d.Rows >= 2
}

// lineColumns is the outcome of guessing a table's speaker and text
// columns (guessLineColumns).
type lineColumns struct {
	// Speaker and Text are the column names.
	Speaker, Text string
	// Defaults is set when the header names them as the lines format
	// looks for by default ("speaker", "text"), so no --map is needed.
	Defaults bool
	// Dialect is the table's dialect.
	Dialect tableDialect
}

// speakerHints and textHints are header words that make a column more
// likely the speaker or the text when the content leaves a tie.
var (
	speakerHints = []string{"speaker", "character", "name", "who", "role", "person", "interlocutor", "char"}
	textHints    = []string{"text", "utterance", "dialogue", "dialog", "line", "transcript", "content", "sentence", "quote"}
)

// guessLineColumns looks at the start of a table (head) for a speaker-like
// and a text-like column: by the lines format's default names when the
// header has them, else by content. The text column is the one with the
// longest values, several words on average and mostly distinct; the
// speaker column is another, not numeric, of short values (at most four
// words on average) that repeat (fewer distinct values than half the
// rows, in a sample of ten rows or more). Header words (speakerHints,
// textHints), then fewer distinct values, choose among several.
// ok is false when the head is not a table or has no such pair.
func guessLineColumns(head string) (lineColumns, bool) {
	d, err := sniffTable(head, 0)
	if err != nil {
		return lineColumns{}, false
	}
	sample := head
	if i := strings.LastIndexByte(sample, '\n'); i >= 0 && i < len(sample)-1 {
		sample = sample[:i+1]
	}
	cr := tableReader(sample, d.Comma, d.BackslashQuote)
	header, err := cr.Read()
	if err != nil {
		return lineColumns{}, false
	}
	names := slices.Clone(header)
	if d.RowNames {
		names = append([]string{rowNamesColumn}, names...)
	}
	for i := range names {
		names[i] = strings.TrimSpace(strings.TrimPrefix(names[i], "\ufeff"))
	}
	lc := lineColumns{Dialect: d}
	// The lines format's own defaults win.
	idx := func(cands []string) string {
		for _, c := range cands {
			for _, n := range names {
				if strings.EqualFold(n, c) {
					return n
				}
			}
		}
		return ""
	}
	if s, t := idx(lineDefaults["speaker"]), idx(lineDefaults["text"]); s != "" && t != "" {
		lc.Speaker, lc.Text, lc.Defaults = s, t, true
		return lc, true
	}
	type colStat struct {
		runes, words float64
		numeric      int
		distinct     map[string]bool
	}
	stats := make([]colStat, len(names))
	for i := range stats {
		stats[i].distinct = map[string]bool{}
	}
	rows := 0
	for rows < sampleRows {
		rec, err := cr.Read()
		if err != nil {
			break
		}
		if len(rec) != len(names) {
			continue
		}
		rows++
		for i, f := range rec {
			f = strings.TrimSpace(f)
			stats[i].runes += float64(utf8.RuneCountInString(f))
			stats[i].words += float64(len(strings.Fields(f)))
			if _, err := strconv.ParseFloat(f, 64); err == nil {
				stats[i].numeric++
			}
			stats[i].distinct[f] = true
		}
	}
	if rows < 2 {
		return lineColumns{}, false
	}
	hint := func(name string, hints []string) bool {
		n := strings.ToLower(name)
		for _, h := range hints {
			if strings.Contains(n, h) {
				return true
			}
		}
		return false
	}
	n := float64(rows)
	text, speaker := -1, -1
	for i, s := range stats {
		if s.numeric*2 > rows || s.words/n < 3 || len(s.distinct)*10 < rows*8 {
			continue
		}
		if text < 0 || s.runes > stats[text].runes || (s.runes == stats[text].runes && hint(names[i], textHints)) {
			text = i
		}
	}
	if text < 0 {
		return lineColumns{}, false
	}
	for i, s := range stats {
		if i == text || s.numeric*2 > rows || s.words/n > 4 || s.runes == 0 {
			continue
		}
		if rows >= 10 && len(s.distinct)*2 > rows {
			continue // ten rows or more: a cast repeats
		}
		// Fewer distinct values (a cast) first, then a header hint.
		better := speaker < 0 ||
			(hint(names[i], speakerHints) && !hint(names[speaker], speakerHints)) ||
			(hint(names[i], speakerHints) == hint(names[speaker], speakerHints) && len(s.distinct) < len(stats[speaker].distinct))
		if better {
			speaker = i
		}
	}
	if speaker < 0 {
		return lineColumns{}, false
	}
	lc.Speaker, lc.Text = names[speaker], names[text]
	return lc, true
}
