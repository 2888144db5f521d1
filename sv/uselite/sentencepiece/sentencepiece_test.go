package sentencepiece

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// toyVocab exercises the JavaScript tokenizer's quirks. The expected ids
// below were produced by the Tokenizer of
// @tensorflow-models/universal-sentence-encoder 1.3.3 with this
// vocabulary (Node 20), and agree with working the Viterbi pass by hand.
const toyVocab = `[["�",0],["<s>",0],["</s>",0],["e1",0],["e2",0],["e3",0],
 ["▁",-2],["▁a",-1],["b",-3],["ab",-1.5],["▁ab",-4],[":00",0],["c",-2],["c",-5],["😀x",-1]]`

func toy(t *testing.T) *Tokenizer {
	t.Helper()
	pieces, err := ParseVocab(strings.NewReader(toyVocab))
	if err != nil {
		t.Fatal(err)
	}
	tok, err := New(pieces, ReservedCount)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func TestEncodeMatchesJavaScript(t *testing.T) {
	tok := toy(t)
	cases := []struct {
		text string
		want []int
		why  string
	}{
		{"", nil, "empty text, no pieces"},
		{"a", []int{7}, "▁a beats ▁ + unknown a"},
		{"ab", []int{6, 9}, "▁ + ab (-3.5) beats ▁ab (-4) and ▁a + b (-4)"},
		{"a☃☃b", []int{7, 0, 8}, "two unknown characters merge into one 0"},
		{":00", []int{6, 0}, "a best score of exactly 0 counts as unset: the unknown path wins"},
		{"c", []int{6, 13}, "a piece listed twice maps to its last id"},
		{"ａ", []int{7}, "NFKC folds the full-width a"},
		{"a a", []int{7, 7}, "ASCII spaces become ▁"},
		{"a\tb", []int{7, 0, 8}, "other whitespace stays (unknown here)"},
		{"😀x", []int{6, 0}, "UTF-16 code units: the emoji's halves never match the piece 😀x"},
		{"  a", []int{6, 6, 7}, "leading spaces are kept"},
	}
	for _, c := range cases {
		if got := tok.Encode(c.text); !slices.Equal(got, c.want) {
			t.Errorf("Encode(%q) = %v, want %v (%s)", c.text, got, c.want, c.why)
		}
	}
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"":             "",
		"Hi there":     "▁Hi▁there",
		"ﬁne":          "▁fine",
		"x\u00a0y":     "▁x▁y", // NFKC turns a no-break space into a space
		"e\u0301":      "▁é",
		"１２３":          "▁123",
		"tab\tkept":    "▁tab\tkept",
		"  two spaces": "▁▁▁two▁spaces",
	} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestVocabErrors(t *testing.T) {
	for name, js := range map[string]string{
		"not an array":    `{"a": 1}`,
		"score not float": `[["a", "x"]]`,
		"piece not text":  `[[1, 0.5]]`,
	} {
		if _, err := ParseVocab(strings.NewReader(js)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := New([]Piece{{"a", 0}}, ReservedCount); err == nil {
		t.Error("vocabulary with only reserved pieces accepted")
	}
	if _, err := New([]Piece{{"", 0}, {"", 0}}, 1); err == nil {
		t.Error("empty piece accepted")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "vocab.json")
	if err := os.WriteFile(path, []byte(toyVocab), 0o644); err != nil {
		t.Fatal(err)
	}
	tok, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if tok.VocabSize() != 15 || tok.Piece(9) != "ab" || tok.Piece(99) != "�" {
		t.Errorf("VocabSize %d, Piece(9) %q, Piece(99) %q", tok.VocabSize(), tok.Piece(9), tok.Piece(99))
	}
	if _, err := Load(filepath.Join(dir, "absent.json")); err == nil {
		t.Error("missing file accepted")
	}
}
