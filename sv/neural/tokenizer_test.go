package neural

import (
	"reflect"
	"strings"
	"testing"
)

func TestDefaultTokenizer(t *testing.T) {
	tok, err := DefaultTokenizer()
	if err != nil {
		t.Fatal(err)
	}
	if tok.VocabSize() != 30522 || tok.PadID() != 0 {
		t.Fatalf("bert-base-uncased: vocab %d, pad %d", tok.VocabSize(), tok.PadID())
	}
	// Ids of bert-base-uncased: [CLS]=101, hello=7592, ","=1010, world=2088, "!"=999, [SEP]=102.
	if got, want := tok.Encode("Hello, World!", 32), []int32{101, 7592, 1010, 2088, 999, 102}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Encode = %v, want %v", got, want)
	}
	// Accents are stripped and unknown pieces split into word pieces.
	toks, err := tok.Tokens("Café gophers")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(toks, " ") != "cafe go ##pher ##s" {
		t.Fatalf("Tokens = %q", toks)
	}
	// Truncation keeps [CLS] and [SEP]; an empty text is [CLS] [SEP].
	long := tok.Encode(strings.Repeat("word ", 50), 8)
	if len(long) != 8 || long[0] != 101 || long[7] != 102 {
		t.Fatalf("truncated = %v", long)
	}
	if got := tok.Encode("", 8); !reflect.DeepEqual(got, []int32{101, 102}) {
		t.Fatalf("empty = %v", got)
	}
}

func TestLoadTokenizerVocabFile(t *testing.T) {
	tok, err := LoadTokenizer("testdata/vocab.txt")
	if err != nil {
		t.Fatal(err)
	}
	ids := tok.Encode("Thee shall go!", 16)
	if len(ids) != 6 || ids[0] != 2 || ids[5] != 3 {
		t.Fatalf("Encode = %v (want [CLS]=2 … [SEP]=3)", ids)
	}
	if _, err := LoadTokenizer("testdata/missing.txt"); err == nil {
		t.Fatal("missing vocabulary: want an error")
	}
	if _, err := NewWordPiece(strings.NewReader("a\nb\n"), "bad", true); err == nil || !strings.Contains(err.Error(), "[") {
		t.Fatalf("vocabulary without special tokens: %v", err)
	}
}
