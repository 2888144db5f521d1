package importers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzReadingLayer feeds arbitrary bytes to the reading layer: decodeText
// in every mode, then scanLines, scanCSV (comma and tab) and a JSON decode
// with jsonError over the same file. Nothing may panic; decoded text is
// valid UTF-8 without CR or a leading BOM; every error is an
// *InputError naming the file.
func FuzzReadingLayer(f *testing.F) {
	for _, s := range []string{"a,b\nc,d\n", "\xef\xbb\xbf{\"a\": 1}\n", "x\ry\r", "caf\xe9 \x93q\x94", "SÃ©lithaeine â€\x9d",
		"\xff\xfea\x00,\x00b\x00\n\x00", "a\x00b\x00", "\"unclosed,\n", "{\"a\": [1, 2,]}", "\xc3"} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		stop := watchdog(b)
		defer stop()
		ctx := context.Background()
		for _, enc := range []string{Auto, UTF8, Latin1, utf8Unchecked} {
			text, _, err := decodeText("f", b, enc)
			if err != nil {
				var ie *InputError
				if !errors.As(err, &ie) || ie.File != "f" {
					t.Fatalf("%s: error %v is not an *InputError naming the file", enc, err)
				}
				continue
			}
			if enc != utf8Unchecked && !utf8.ValidString(text) {
				t.Fatalf("%s: invalid UTF-8 out: %q", enc, text)
			}
			if strings.Contains(text, "\r") || strings.HasPrefix(text, "\ufeff") {
				t.Fatalf("%s: CR or BOM left: %q", enc, text)
			}
		}
		p := filepath.Join(dir, "in.txt")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		check := func(what string, err error) {
			var ie *InputError
			if err != nil && (!errors.As(err, &ie) || ie.File != p) {
				t.Fatalf("%s: error %v is not an *InputError naming the file", what, err)
			}
		}
		check("scanLines", scanLines(ctx, p, Auto, "text", func(n int, line string) error {
			if strings.ContainsAny(line, "\r\n") {
				t.Fatalf("line %d holds a line end: %q", n, line)
			}
			return nil
		}))
		for _, comma := range []rune{',', '\t', ';'} {
			check("scanCSV", scanCSV(ctx, p, Auto, comma, []string{"a"}, "a table", func(r csvRow) error {
				_ = r.Get("a")
				return nil
			}))
		}
		doc, err := readText(p, Auto, "JSON")
		check("readText", err)
		if err == nil {
			var v any
			if jerr := json.Unmarshal([]byte(doc), &v); jerr != nil {
				check("jsonError", jsonError(p, []byte(doc), jerr, "JSON"))
			}
		}
	})
}

// watchdog crashes the test binary when one fuzz input runs for more than
// 10 s, so a hang is reported (with its input) like a crash.
func watchdog(b []byte) (stop func()) {
	tm := time.AfterFunc(10*time.Second, func() { panic(fmt.Sprintf("input ran for 10 s: %q", b)) })
	return func() { tm.Stop() }
}
