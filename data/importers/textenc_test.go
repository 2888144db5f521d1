package importers

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
)

// encodeUTF16 returns s in UTF-16 of the given byte order, with a BOM
// when bom is set.
func encodeUTF16(s string, order binary.AppendByteOrder, bom bool) []byte {
	var out []byte
	units := utf16.Encode([]rune(s))
	if bom {
		units = append([]uint16{0xFEFF}, units...)
	}
	for _, u := range units {
		out = order.AppendUint16(out, u)
	}
	return out
}

func TestDecodeTextEncodings(t *testing.T) {
	const want = "speaker,text\nAnn,Café “quoted” naïve\n"
	cases := []struct {
		name string
		in   []byte
		enc  string
		info string
	}{
		{"utf-8", []byte(want), Auto, "utf-8"},
		{"utf-8 BOM", append([]byte("\xef\xbb\xbf"), want...), Auto, "utf-8"},
		{"utf-8 BOM beats latin-1", append([]byte("\xef\xbb\xbf"), want...), Latin1, "utf-8"},
		{"utf-16le BOM", encodeUTF16(want, binary.LittleEndian, true), Auto, "utf-16le"},
		{"utf-16be BOM", encodeUTF16(want, binary.BigEndian, true), Auto, "utf-16be"},
		{"utf-16le", encodeUTF16(want, binary.LittleEndian, false), Auto, "utf-16le"},
		{"utf-16be", encodeUTF16(want, binary.BigEndian, false), UTF8, "utf-16be"},
		{"cp1252", []byte("speaker,text\nAnn,Caf\xe9 \x93quoted\x94 na\xefve\n"), Auto, "mixed"},
		{"cp1252 explicit", []byte("speaker,text\nAnn,Caf\xe9 \x93quoted\x94 na\xefve\n"), Latin1, "windows-1252"},
		{"mixed lines", []byte("speaker,text\nAnn,Caf\xe9 “quoted” na\xefve\n"), Auto, "mixed"},
		{"mojibake", []byte("speaker,text\nAnn,CafÃ© â€œquotedâ€\x9d naÃ¯ve\n"), Auto, "mixed"},
		{"CRLF", []byte(strings.ReplaceAll(want, "\n", "\r\n")), Auto, "utf-8"},
		{"CR", []byte(strings.ReplaceAll(want, "\n", "\r")), Auto, "utf-8"},
	}
	for _, c := range cases {
		got, info, err := decodeText("f.csv", c.in, c.enc)
		if err != nil || got != want || info.Encoding != c.info {
			t.Errorf("%s: got %q (%+v, %v), want %q as %s", c.name, got, info, err, want, c.info)
		}
	}
}

func TestRepairMojibake(t *testing.T) {
	for in, want := range map[string]string{
		"water.â€�":            "water.”",
		"SÃ©lithaeine":         "Sélithaeine",
		"donâ€™t":              "don’t",
		"Â\u00a0space":         "\u00a0space",
		"café déjà vu":         "café déjà vu", // real accents stay
		"Ça va? «Oui»":         "Ça va? «Oui»",
		"naïve São Paulo Ñu ¡": "naïve São Paulo Ñu ¡",
		"emoji ðŸ˜€":           "emoji 😀",
	} {
		if got, _ := repairMojibake(in); got != want {
			t.Errorf("repairMojibake(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDecodeTextStrictAndBinary(t *testing.T) {
	_, _, err := decodeText("f.txt", []byte("ok\r\nok\rcaf\xe9\n"), UTF8)
	wantInputError(t, err, "f.txt", 3, "invalid UTF-8")
	_, _, err = decodeText("f.png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00"), Auto)
	if !errors.Is(err, ErrNotText) {
		t.Errorf("binary file: %v, want ErrNotText", err)
	}
}

// TestImportReadsEveryEncoding runs whole imports over the defect classes
// of the real releases: UTF-16 CSVs with and without BOM, a JSONL file
// with a BOM, CR line ends.
func TestImportReadsEveryEncoding(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	const csv = "transcript_id,utterance_id,interlocutor,utterance_text\n" +
		"1,0,therapist,How are you feeling today?\n1,1,client,Café was nice.\n"
	variants := map[string][]byte{
		"utf16le-bom.csv": encodeUTF16(csv, binary.LittleEndian, true),
		"utf16be-bom.csv": encodeUTF16(csv, binary.BigEndian, true),
		"utf16le.csv":     encodeUTF16(csv, binary.LittleEndian, false),
		"utf16be.csv":     encodeUTF16(csv, binary.BigEndian, false),
		"cr.csv":          []byte(strings.ReplaceAll(csv, "\n", "\r")),
		"crlf-bom.csv":    []byte("\xef\xbb\xbf" + strings.ReplaceAll(csv, "\n", "\r\n")),
	}
	for name, b := range variants {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := Import(ctx, "annomi", []string{p}, Options{})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(res.Utterances) != 2 || res.Utterances[1].Text != "Café was nice." || res.Utterances[1].Speaker != "client:1" {
			t.Errorf("%s: got %+v", name, res.Utterances)
		}
	}

	// A "lines" table in UTF-16 with a semicolon delimiter.
	p := filepath.Join(dir, "semi.csv")
	os.WriteFile(p, encodeUTF16("speaker;text\nAnn;Hello there.\nBen;Hi, Ann.\n", binary.LittleEndian, false), 0o644)
	res, err := Import(ctx, "lines", []string{p}, Options{Params: map[string]string{"delimiter": ";"}})
	if err != nil || len(res.Utterances) != 2 || res.Utterances[1].Text != "Hi, Ann." {
		t.Errorf("lines utf-16 ;: %v %+v", err, res)
	}

	// MSC JSONL with a BOM and CR line ends.
	msc := `{"dialog": [{"id": "Speaker 1", "text": "hi there"}, {"id": "Speaker 2", "text": "hello you"}], "metadata": {"initial_data_id": "a"}}`
	for name, content := range map[string]string{
		"bom.txt": "\ufeff" + msc + "\n",
		"cr.txt":  msc + "\r" + strings.Replace(msc, `"a"`, `"b"`, 1) + "\r",
	} {
		p := write(t, dir, "msc/"+name, content)
		res, err := Import(ctx, "msc", []string{p}, Options{})
		if err != nil || res.Counts.Utterances == 0 {
			t.Errorf("msc %s: %v %+v", name, err, res)
		}
	}
}

func TestReadTextFile(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "bom.jsonl", "\ufeff{\"a\": 1}\r\n{\"a\": \"caf\xe9\"}\r\n")
	for _, enc := range []string{"", "auto"} {
		got, err := ReadTextFile(p, enc)
		if err != nil || got != "{\"a\": 1}\n{\"a\": \"café\"}\n" {
			t.Errorf("encoding %q: %q %v", enc, got, err)
		}
	}
	if _, err := ReadTextFile(p, "utf-8"); err == nil {
		t.Errorf("strict UTF-8 accepted a Latin-1 byte")
	}
	if _, err := ReadTextFile(p, "ebcdic"); err == nil {
		t.Errorf("unknown encoding accepted")
	}
}
