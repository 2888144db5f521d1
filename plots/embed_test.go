package plots

import (
	"bytes"
	"testing"
)

// TestFontsEmbedded checks that exported SVG and PDF carry their fonts
// (journals require it; viewers without Liberation keep the metrics) and
// that EncodeWith can leave them out (inline notebook SVG).
func TestFontsEmbedded(t *testing.T) {
	f, err := NewROC(Curve{Name: "a", Data: LabelledScores{Scores: []float64{0.1, 0.9, 0.4}, Positive: []bool{false, true, true}}})
	if err != nil {
		t.Fatal(err)
	}
	sz := ColumnSize()
	svg, err := Bytes(f, SVG, sz)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(svg, []byte("@font-face")) {
		t.Error("SVG: no embedded @font-face")
	}
	pdf, err := Bytes(f, PDF, sz)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(pdf, []byte("/FontFile")) {
		t.Error("PDF: no embedded font program (/FontFile)")
	}
	var lite bytes.Buffer
	if err := EncodeWith(&lite, f, SVG, sz, EncodeOptions{}); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(lite.Bytes(), []byte("@font-face")) || lite.Len() >= len(svg) {
		t.Errorf("SVG without fonts: %d bytes (with: %d)", lite.Len(), len(svg))
	}
}
