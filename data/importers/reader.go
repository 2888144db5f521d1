package importers

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// This file is the one place where importers read bytes: every format goes
// through openText (encoding), scanLines (line-oriented text), readText
// (whole documents: HTML, JSON) or scanCSV (tables with a header), so the
// encoding rules and the error messages for missing, empty and
// mis-encoded files are the same everywhere.

// Encodings accepted in Options.Encoding.
const (
	// UTF8 text must be valid UTF-8; an invalid byte is an error naming
	// its line.
	UTF8 = "utf-8"
	// Latin1 text is decoded as Windows-1252, the superset of ISO-8859-1
	// that browsers use for that label.
	Latin1 = "latin-1"
	// Auto reads a file as UTF-8 when it is valid UTF-8 and as Latin1
	// otherwise, file by file: what a browser does with a page that
	// declares no charset. The HTML formats default to it, because the
	// fangj Friends pages mix both encodings undeclared.
	Auto = "auto"
)

// resolveEncoding maps the user's encoding name (or the format default
// when empty) to UTF8 or Latin1.
func resolveEncoding(name, def string) (string, error) {
	if name == "" {
		name = def
	}
	switch strings.ToLower(strings.ReplaceAll(name, "_", "-")) {
	case "utf-8", "utf8":
		return UTF8, nil
	case "latin-1", "latin1", "iso-8859-1", "windows-1252", "cp1252":
		return Latin1, nil
	case "auto":
		return Auto, nil
	}
	return "", fmt.Errorf("unknown encoding %q (known: utf-8, latin-1, auto)", name)
}

// openText opens path and returns a reader of its text as UTF-8: Latin-1
// files are decoded (as Windows-1252), UTF-8 files are passed through
// unchanged (callers validate), Auto files are read whole to choose. A
// missing file is an *InputError.
func openText(path, enc string) (io.Reader, func() error, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil, Errorf(Pos{File: path}, "no such file")
		}
		return nil, nil, Errorf(Pos{File: path}, "%v", err)
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return nil, nil, Errorf(Pos{File: path}, "is a folder, expected a file")
	}
	var r io.Reader = f
	switch enc {
	case Latin1:
		r = charmap.Windows1252.NewDecoder().Reader(f)
	case Auto:
		b, err := io.ReadAll(f)
		if err != nil {
			f.Close()
			return nil, nil, Errorf(Pos{File: path}, "%v", err)
		}
		r = bytes.NewReader(b)
		if !utf8.Valid(b) {
			r = charmap.Windows1252.NewDecoder().Reader(r)
		}
	}
	return r, f.Close, nil
}

// badUTF8 is the message for text that is not UTF-8.
func badUTF8(what string) string {
	return fmt.Sprintf("invalid UTF-8 in %s; expected UTF-8 text (for Latin-1 files pass --encoding latin-1)", what)
}

// scanLines calls fn for every line of path with its 1-based number,
// without the line ending and, on line 1, without a byte-order mark. It
// fails with an *InputError for a missing or empty file (expect says what
// the file should hold) and for a line that is not valid UTF-8.
func scanLines(ctx context.Context, path, enc, expect string, fn func(n int, line string) error) error {
	r, closeFn, err := openText(path, enc)
	if err != nil {
		return err
	}
	defer closeFn()
	br := bufio.NewReaderSize(r, 64*1024)
	n, content := 0, false
	for {
		line, rerr := br.ReadString('\n')
		if rerr != nil && !errors.Is(rerr, io.EOF) {
			return Errorf(Pos{File: path, Line: n + 1}, "%v", rerr)
		}
		if line == "" && rerr != nil {
			break
		}
		n++
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		line = strings.TrimRight(line, "\r\n")
		if n == 1 {
			line = strings.TrimPrefix(line, "\ufeff")
		}
		if !utf8.ValidString(line) {
			return Errorf(Pos{File: path, Line: n}, "%s", badUTF8("line"))
		}
		if strings.TrimSpace(line) != "" {
			content = true
		}
		if err := fn(n, line); err != nil {
			return err
		}
		if rerr != nil {
			break
		}
	}
	if !content {
		return Errorf(Pos{File: path}, "empty file; expected %s", expect)
	}
	return nil
}

// readText reads a whole document (HTML, JSON) as UTF-8 text, with the
// same checks as scanLines; an invalid byte is reported with its line.
func readText(path, enc, expect string) (string, error) {
	r, closeFn, err := openText(path, enc)
	if err != nil {
		return "", err
	}
	defer closeFn()
	b, err := io.ReadAll(r)
	if err != nil {
		return "", Errorf(Pos{File: path}, "%v", err)
	}
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	if !utf8.Valid(b) {
		off := 0
		for off < len(b) {
			r, size := utf8.DecodeRune(b[off:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			off += size
		}
		return "", Errorf(Pos{File: path, Line: lineAt(b, off)}, "%s", badUTF8("byte "+fmt.Sprint(off)))
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return "", Errorf(Pos{File: path}, "empty file; expected %s", expect)
	}
	return string(b), nil
}

// lineAt returns the 1-based line holding byte offset off of b.
func lineAt(b []byte, off int) int {
	off = min(max(off, 0), len(b))
	return bytes.Count(b[:off], []byte{'\n'}) + 1
}

// jsonError turns a JSON decoding error into an *InputError at its line.
func jsonError(path string, doc []byte, err error, expect string) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return Errorf(Pos{File: path, Line: lineAt(doc, int(se.Offset))}, "invalid JSON: %v; expected %s", se, expect)
	case errors.As(err, &te):
		return Errorf(Pos{File: path, Line: lineAt(doc, int(te.Offset))},
			"field %q holds a JSON %s, expected %s; expected %s", te.Field, te.Value, te.Type, expect)
	}
	return Errorf(Pos{File: path}, "invalid JSON: %v; expected %s", err, expect)
}

// csvRow is one data row of a table read by scanCSV.
type csvRow struct {
	// Pos is the file and the physical line where the row starts.
	Pos Pos
	// Row is the 1-based data row number (the header is row 0).
	Row    int
	fields []string
	index  map[string]int
}

// Get returns the value of column col (matched case-insensitively), or ""
// when the table has no such column.
func (r csvRow) Get(col string) string {
	i, ok := r.index[strings.ToLower(col)]
	if !ok || i >= len(r.fields) {
		return ""
	}
	return r.fields[i]
}

// Has reports whether the table has column col.
func (r csvRow) Has(col string) bool {
	_, ok := r.index[strings.ToLower(col)]
	return ok
}

// errorf returns an *InputError at the row, naming it.
func (r csvRow) errorf(format string, args ...any) error {
	return Errorf(r.Pos, "row %d: %s", r.Row, fmt.Sprintf(format, args...))
}

// scanCSV reads a table with a header line: it checks that every column in
// required is present (case-insensitive), then calls fn for each data row.
// comma is the field separator. Missing or empty files, missing columns,
// malformed quoting, rows of the wrong width and invalid UTF-8 are
// *InputErrors naming the file and line; expect describes the table.
func scanCSV(ctx context.Context, path, enc string, comma rune, required []string, expect string, fn func(csvRow) error) error {
	r, closeFn, err := openText(path, enc)
	if err != nil {
		return err
	}
	defer closeFn()
	cr := csv.NewReader(bufio.NewReaderSize(r, 64*1024))
	cr.Comma = comma
	cr.ReuseRecord = true
	// Tab-separated files rarely quote; a stray quote is text there.
	cr.LazyQuotes = comma == '\t'

	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return Errorf(Pos{File: path}, "empty file; expected %s", expect)
	}
	if err != nil {
		return csvError(path, err, expect)
	}
	index := map[string]int{}
	var names []string
	for i, h := range header {
		if i == 0 {
			h = strings.TrimPrefix(h, "\ufeff")
		}
		if !utf8.ValidString(h) {
			return Errorf(Pos{File: path, Line: 1}, "%s", badUTF8("header"))
		}
		h = strings.TrimSpace(h)
		names = append(names, h)
		if _, dup := index[strings.ToLower(h)]; !dup {
			index[strings.ToLower(h)] = i
		}
	}
	var missing []string
	for _, col := range required {
		if _, ok := index[strings.ToLower(col)]; !ok {
			missing = append(missing, col)
		}
	}
	if len(missing) > 0 {
		return Errorf(Pos{File: path, Line: 1}, "missing column(s) %s in header [%s]; expected %s",
			strings.Join(missing, ", "), strings.Join(names, ", "), expect)
	}
	row := 0
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return csvError(path, err, expect)
		}
		row++
		line, _ := cr.FieldPos(0)
		if row%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		for i, f := range rec {
			if !utf8.ValidString(f) {
				l, _ := cr.FieldPos(i)
				return Errorf(Pos{File: path, Line: l}, "row %d, column %q: %s", row, names[i], badUTF8("field"))
			}
		}
		if err := fn(csvRow{Pos: Pos{File: path, Line: line}, Row: row, fields: rec, index: index}); err != nil {
			return err
		}
	}
	return nil
}

// csvError turns an encoding/csv parse error into an *InputError.
func csvError(path string, err error, expect string) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return Errorf(Pos{File: path, Line: pe.Line}, "malformed table: %v; expected %s", pe.Err, expect)
	}
	return Errorf(Pos{File: path}, "%v", err)
}
