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

	"github.com/roleprint/roleprint/internal/fsx"
)

// This file is the one place where importers read bytes: every format goes
// through openText (encoding), scanLines (line-oriented text), readText
// (whole documents: HTML, JSON) or scanCSV (tables with a header), so the
// encoding rules and the error messages for missing, empty and
// mis-encoded files are the same everywhere.

// Encodings accepted in Options.Encoding.
const (
	// UTF8 text must be valid UTF-8; an invalid byte is an error naming
	// its line. Only when asked for explicitly (--encoding utf-8).
	UTF8 = "utf-8"
	// Latin1 text is decoded as Windows-1252, the superset of ISO-8859-1
	// that browsers use for that label, for the whole file.
	Latin1 = "latin-1"
	// Auto, the default of every format, reads UTF-8 and repairs what is
	// not: a byte that is not part of a valid UTF-8 sequence is read as
	// Windows-1252 (so Latin-1 files, and files mixing both encodings line
	// by line, decode right), and Windows-1252 mojibake of UTF-8 text
	// ("SÃ©lithaeine") is turned back (see textenc.go).
	Auto = "auto"
)

// resolveEncoding maps the user's encoding name to UTF8, Latin1 or Auto.
// When the user gave none the result is Auto whatever the format's usual
// encoding def: Auto reads both UTF-8 and Windows-1252 right, file by file
// and line by line, so def only documents what a format's files usually
// hold.
func resolveEncoding(name, def string) (string, error) {
	if name == "" {
		if def != "" {
			if _, err := resolveEncoding(def, ""); err != nil {
				return "", err
			}
		}
		return Auto, nil
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

// maxTextFile bounds the size of one text file read whole (1 GiB): far
// above any corpus release file, far below what would exhaust memory.
const maxTextFile = 1 << 30

// decodeFile reads path whole and decodes it with decodeText. A missing
// file, a folder, a device or FIFO (internal/fsx refuses what is not a
// regular file), a file over maxTextFile and a read error are
// *InputErrors naming path.
func decodeFile(path, enc string) (string, textInfo, error) {
	b, err := fsx.ReadFile(path, maxTextFile)
	if err != nil {
		return "", textInfo{}, readError(path, err)
	}
	return decodeText(path, b, enc)
}

// readError turns an error of internal/fsx into an *InputError naming
// path once.
func readError(path string, err error) error {
	if errors.Is(err, os.ErrNotExist) {
		return &InputError{Pos: Pos{File: path}, Msg: "no such file", Err: err}
	}
	return &InputError{Pos: Pos{File: path}, Msg: strings.TrimPrefix(err.Error(), "read "+path+": "), Err: err}
}

// ReadTextFile returns the text of path as UTF-8 with "\n" line ends and
// no byte-order mark, decoded by the reading layer every format uses: a
// BOM or a UTF-16 byte pattern decides the encoding, else encoding does
// ("" or "auto": UTF-8 with Windows-1252 bytes and mojibake repaired;
// "utf-8": strict; "latin-1": Windows-1252). Errors are *InputErrors
// naming path (and the line, for invalid UTF-8 in strict mode).
func ReadTextFile(path, encoding string) (string, error) {
	enc, err := resolveEncoding(encoding, "")
	if err != nil {
		return "", err
	}
	text, _, err := decodeFile(path, enc)
	return text, err
}

// DecodeText is ReadTextFile for bytes already read (standard input):
// name stands for the file in errors; the bytes are at most maxTextFile.
func DecodeText(name string, b []byte, encoding string) (string, error) {
	enc, err := resolveEncoding(encoding, "")
	if err != nil {
		return "", err
	}
	if len(b) > maxTextFile {
		return "", Errorf(Pos{File: name}, "%d bytes, larger than the limit of %s", len(b), fsx.FormatBytes(maxTextFile))
	}
	text, _, err := decodeText(name, b, enc)
	return text, err
}

// MaxTextFile is the most bytes the reading layer reads from one file.
const MaxTextFile = maxTextFile

// openText opens path and returns a reader of its text as UTF-8 (see
// decodeText: BOM and UTF-16 detection, the encoding rules, line ends
// unified to "\n"). A missing file is an *InputError. The close function
// is kept for the callers' sake; the file is already closed.
func openText(path, enc string) (io.Reader, func() error, error) {
	text, _, err := decodeFile(path, enc)
	if err != nil {
		return nil, nil, err
	}
	return strings.NewReader(text), func() error { return nil }, nil
}

// badUTF8 is the message for text that is not UTF-8.
func badUTF8(what string) string {
	return fmt.Sprintf("invalid UTF-8 in %s; expected UTF-8 text (leave --encoding unset to read Latin-1 bytes too, or pass --encoding latin-1)", what)
}

// scanLines calls fn for every line of path with its 1-based number,
// without the line ending (LF, CRLF or CR) and without a byte-order mark.
// It fails with an *InputError for a missing or empty file (expect says
// what the file should hold) and for text that does not decode.
func scanLines(ctx context.Context, path, enc, expect string, fn func(n int, line string) error) error {
	text, _, err := decodeFile(path, enc)
	if err != nil {
		return err
	}
	if strings.TrimSpace(text) == "" {
		return Errorf(Pos{File: path}, "empty file; expected %s", expect)
	}
	return eachLine(ctx, text, fn)
}

// eachLine calls fn for every "\n"-separated line of text (a final line
// end does not start another line), checking ctx every 4096 lines.
func eachLine(ctx context.Context, text string, fn func(n int, line string) error) error {
	n := 0
	for len(text) > 0 {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		n++
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if err := fn(n, line); err != nil {
			return err
		}
	}
	return nil
}

// readText reads a whole document (HTML, JSON) as UTF-8 text with "\n"
// line ends, with the same checks as scanLines.
func readText(path, enc, expect string) (string, error) {
	text, _, err := decodeFile(path, enc)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(text) == "" {
		return "", Errorf(Pos{File: path}, "empty file; expected %s", expect)
	}
	return text, nil
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
	Row int
	// AfterBlank is set when one or more blank lines (empty or white
	// space only) separate the row from the data row before it; scanTable
	// sets it, scanCSV does not.
	AfterBlank bool
	fields     []string
	index      map[string]int
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
	if enc == UTF8 {
		enc = utf8Unchecked // checked field by field below, naming row and column
	}
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
	var names []string
	for i, h := range header {
		if i == 0 {
			h = strings.TrimPrefix(h, "\ufeff")
		}
		if !utf8.ValidString(h) {
			return Errorf(Pos{File: path, Line: 1}, "%s", badUTF8("header"))
		}
		names = append(names, strings.TrimSpace(h))
	}
	index, err := columnIndex(path, names, required, expect)
	if err != nil {
		return err
	}
	row := 0
	for {
		rec, err := readRecord(cr, path, expect)
		if rec == nil || err != nil {
			return err
		}
		row++
		line, _ := cr.FieldPos(0)
		if row%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if err := checkFieldsUTF8(cr, path, row, names, rec); err != nil {
			return err
		}
		if err := fn(csvRow{Pos: Pos{File: path, Line: line}, Row: row, fields: rec, index: index}); err != nil {
			return err
		}
	}
}

// readRecord reads the table's next record: nil at its end, an
// *InputError naming the line for malformed quoting.
func readRecord(cr *csv.Reader, path, expect string) ([]string, error) {
	rec, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, nil
	}
	if err != nil {
		return nil, csvError(path, err, expect)
	}
	return rec, nil
}

// checkFieldsUTF8 checks that every field of rec (data row row, read by
// cr) is valid UTF-8; the first that is not is an *InputError naming its
// line and column.
func checkFieldsUTF8(cr *csv.Reader, path string, row int, names, rec []string) error {
	for i, f := range rec {
		if !utf8.ValidString(f) {
			l, _ := cr.FieldPos(i)
			return Errorf(Pos{File: path, Line: l}, "row %d, column %q: %s", row, names[i], badUTF8("field"))
		}
	}
	return nil
}

// columnIndex maps each lower-cased header name to its first column and
// checks that every required column is present (case-insensitive); a
// missing one is an *InputError on the header line listing the header and
// expect.
func columnIndex(path string, names, required []string, expect string) (map[string]int, error) {
	index := map[string]int{}
	for i, h := range names {
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
		return nil, Errorf(Pos{File: path, Line: 1}, "missing column(s) %s in header [%s]; expected %s",
			strings.Join(missing, ", "), strings.Join(names, ", "), expect)
	}
	return index, nil
}

// csvError turns an encoding/csv parse error into an *InputError.
func csvError(path string, err error, expect string) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return Errorf(Pos{File: path, Line: pe.Line}, "malformed table: %v; expected %s", pe.Err, expect)
	}
	return Errorf(Pos{File: path}, "%v", err)
}
