package plots

import (
	"bytes"
	"compress/zlib"
	"io"
	"regexp"
	"testing"
)

// pdfStreams returns the PDF's content streams, inflated where compressed.
func pdfStreams(t *testing.T, pdf []byte) []byte {
	t.Helper()
	var out []byte
	re := regexp.MustCompile(`(?s)stream\r?\n(.*?)\r?\nendstream`)
	for _, m := range re.FindAllSubmatch(pdf, -1) {
		if r, err := zlib.NewReader(bytes.NewReader(m[1])); err == nil {
			if b, err := io.ReadAll(r); err == nil {
				out = append(out, b...)
				continue
			}
		}
		out = append(out, m[1]...)
	}
	return out
}

// TestPDFTextEncoding: a label with "×" and "–" reaches the PDF in the
// fonts' cp1252 code page, not as UTF-8 bytes shown as "Ã—".
func TestPDFTextEncoding(t *testing.T) {
	l, err := NewLines(lineOf("a–b", 1, 2))
	if err != nil {
		t.Fatal(err)
	}
	l.YLabel = "AUC ×100"
	b, err := Bytes(l, PDF, ColumnSize())
	if err != nil {
		t.Fatal(err)
	}
	s := pdfStreams(t, b)
	if !bytes.Contains(s, []byte("AUC \xd7100")) || !bytes.Contains(s, []byte("a\x96b")) {
		t.Errorf("the PDF lacks the cp1252 text \"AUC \\xd7100\" / \"a\\x96b\"")
	}
	if bytes.Contains(s, []byte("\xc3\x97")) {
		t.Error("the PDF holds \"×\" as UTF-8 bytes (shown as \"Ã—\")")
	}
}
