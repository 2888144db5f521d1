package neural

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// badUTF8 holds the byte strings of the reliability report: a Latin-1
// "é", a lone 0xFF, a cut-off three-byte sequence, and binary data.
var badUTF8 = []string{"caf\xe9\n", "caf\xe9", "\xff", "\xe2\x80", "a \xe2\x80 b", "\x00\x01\xfe\xff\x89PNG\r\n\x1a\n", "\xc3", "ok \xed\xa0\x80 surrogate"}

// fuzzTokenizers returns every tokenizer kind the encoders use: the
// embedded WordPiece, Hugging Face tokenizer.json files (WordPiece and
// byte-level BPE), and the n-gram hasher around WordPiece.
func fuzzTokenizers(tb testing.TB) map[string]Tokenizer {
	tb.Helper()
	wp, err := DefaultTokenizer()
	if err != nil {
		tb.Fatal(err)
	}
	toks := map[string]Tokenizer{"wordpiece": wp}
	for _, fixture := range []string{"bert", "roberta"} {
		tok, err := LoadTokenizer(filepath.Join("testdata", "onnx", fixture, "tokenizer.json"))
		if err != nil {
			tb.Fatal(err)
		}
		toks["hf-"+fixture] = tok
	}
	toks["ngrams"] = newNGramTokenizer(wp, TransformerConfig{MaxLen: 12, NGramBuckets: 1 << 12, NGramMin: 2, NGramMax: 4})
	return toks
}

// checkEncode encodes text with tok and checks the contract every encoder
// relies on: no panic, between 1 and maxLen ids, every id in the
// vocabulary.
func checkEncode(t *testing.T, name string, tok Tokenizer, text string, maxLen int) {
	t.Helper()
	ids := tok.Encode(text, maxLen)
	if len(ids) == 0 || len(ids) > maxLen {
		t.Fatalf("%s: Encode(%q, %d) gave %d ids", name, text, maxLen, len(ids))
	}
	for _, id := range ids {
		if id < 0 || int(id) >= tok.VocabSize() {
			t.Fatalf("%s: Encode(%q) gave id %d outside the vocabulary of %d", name, text, id, tok.VocabSize())
		}
	}
}

// TestTokenizersAcceptInvalidUTF8 encodes the byte strings that crashed
// `verify` and `embed`: every tokenizer returns ids, and a byte that is
// not UTF-8 reads like U+FFFD.
func TestTokenizersAcceptInvalidUTF8(t *testing.T) {
	for name, tok := range fuzzTokenizers(t) {
		for _, s := range badUTF8 {
			checkEncode(t, name, tok, s, 24)
		}
		if a, b := tok.Encode("caf\xe9 au lait", 24), tok.Encode("caf\ufffd au lait", 24); fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("%s: invalid byte gives %v, U+FFFD gives %v", name, a, b)
		}
	}
	wp, _ := DefaultTokenizer()
	if toks, err := wp.Tokens("caf\xe9 ok"); err != nil || len(toks) == 0 || toks[len(toks)-1] != "ok" {
		t.Errorf("Tokens: %q, %v", toks, err)
	}
}

// fuzzTokenizer runs one tokenizer over arbitrary strings and lengths.
func fuzzTokenizer(f *testing.F, name string) {
	for _, s := range append(badUTF8, "", "Hello, World!", "naïve café — “quoted” 😀", "ÅÅÅ\u0301\u0301", "[CLS] [SEP] [UNK] <s> </s>") {
		f.Add(s, 16)
	}
	tok := fuzzTokenizers(f)[name]
	f.Fuzz(func(t *testing.T, text string, maxLen int) {
		maxLen = 2 + abs(maxLen)%64
		tm := time.AfterFunc(10*time.Second, func() { panic(fmt.Sprintf("%s: input ran for 10 s: %q", name, text)) })
		defer tm.Stop()
		checkEncode(t, name, tok, text, maxLen)
	})
}

func abs(x int) int {
	if x < 0 {
		return -(x + 1)
	}
	return x
}

// FuzzWordPiece fuzzes the embedded bert-base-uncased WordPiece tokenizer.
func FuzzWordPiece(f *testing.F) { fuzzTokenizer(f, "wordpiece") }

// FuzzHFWordPiece fuzzes a Hugging Face tokenizer.json with a WordPiece model.
func FuzzHFWordPiece(f *testing.F) { fuzzTokenizer(f, "hf-bert") }

// FuzzByteLevelBPE fuzzes a Hugging Face tokenizer.json with a byte-level
// BPE model (RoBERTa's).
func FuzzByteLevelBPE(f *testing.F) { fuzzTokenizer(f, "hf-roberta") }

// FuzzNGramTokenizer fuzzes the character n-gram hasher around WordPiece.
func FuzzNGramTokenizer(f *testing.F) { fuzzTokenizer(f, "ngrams") }
