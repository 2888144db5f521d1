package baseline

import (
	"reflect"
	"testing"
)

func TestTokenize(t *testing.T) {
	cases := map[string][]string{
		"I don't know... Really?!":         {"i", "do", "n't", "know", "...", "really", "?", "!"},
		"She'll say 'tis well-known -- ok": {"she", "'ll", "say", "'tis", "well-known", "--", "ok"},
		"Can’t “quote” me":                 {"ca", "n't", "\"", "quote", "\"", "me"},
		"O'er the hills, 3 times.":         {"o'er", "the", "hills", ",", "3", "times", "."},
		"'Hello,' he said":                 {"'", "hello", ",", "'", "he", "said"},
		"":                                 nil,
	}
	for in, want := range cases {
		if got := Tokenize(in); !reflect.DeepEqual(got, want) {
			t.Errorf("Tokenize(%q) = %q, want %q", in, got, want)
		}
	}
}
