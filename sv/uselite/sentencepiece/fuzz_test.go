package sentencepiece

import (
	"strings"
	"testing"
)

// FuzzSentencePiece encodes arbitrary strings (invalid UTF-8 included)
// with the toy vocabulary: no panic, every id in the vocabulary, never two
// unknown ids in a row, and no ids for empty text.
func FuzzSentencePiece(f *testing.F) {
	for _, s := range []string{"", "a", "ab a☃☃b", ":00", "caf\xe9", "\xff", "\xe2\x80", "😀x", "  a\tb", "ａｂ"} {
		f.Add(s)
	}
	pieces, err := ParseVocab(strings.NewReader(toyVocab))
	if err != nil {
		f.Fatal(err)
	}
	tok, err := New(pieces, ReservedCount)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		ids := tok.Encode(text)
		for i, id := range ids {
			if id < 0 || id >= tok.VocabSize() {
				t.Fatalf("Encode(%q): id %d outside the vocabulary", text, id)
			}
			if i > 0 && id == 0 && ids[i-1] == 0 {
				t.Fatalf("Encode(%q) = %v: unknown ids not merged", text, ids)
			}
		}
		if Normalize(text) == "" && len(ids) != 0 {
			t.Fatalf("Encode(%q) = %v for empty text", text, ids)
		}
	})
}
