package textmetrics

import (
	"strings"
	"unicode"

	porter "github.com/blevesearch/go-porterstemmer"
)

// Words lower-cases s and returns its runs of letters and digits, the
// tokens rouge-score uses (it keeps only [a-z0-9]; Words keeps any
// Unicode letter or digit so that non-English text is not emptied).
func Words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// Tokens lower-cases s and splits it like a simple Penn-Treebank
// tokenizer (NLTK's word_tokenize, which METEOR's common wrapper uses):
// words with their inner apostrophes and hyphens, "n't" and other clitics
// ("'s", "'re", "'ll", "'ve", "'d", "'m") split off, and every other
// punctuation mark a token of its own.
func Tokens(s string) []string {
	s = strings.ToLower(strings.NewReplacer("’", "'", "‘", "'", "“", "\"", "”", "\"").Replace(s))
	var out []string
	rs := []rune(s)
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsSpace(r):
			i++
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			j := i + 1
			for j < len(rs) {
				if unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j]) {
					j++
					continue
				}
				if (rs[j] == '\'' || rs[j] == '-' || rs[j] == '.' && unicode.IsDigit(rs[j-1])) && j+1 < len(rs) && (unicode.IsLetter(rs[j+1]) || unicode.IsDigit(rs[j+1])) {
					j++
					continue
				}
				break
			}
			out = append(out, splitClitic(string(rs[i:j]))...)
			i = j
		default:
			j := i + 1
			for j < len(rs) && rs[j] == r && (r == '.' || r == '-' || r == '!' || r == '?') {
				j++
			}
			out = append(out, string(rs[i:j]))
			i = j
		}
	}
	return out
}

var clitics = []string{"n't", "'s", "'re", "'ll", "'ve", "'d", "'m"}

func splitClitic(w string) []string {
	for _, c := range clitics {
		if strings.HasSuffix(w, c) && len(w) > len(c) {
			return []string{w[:len(w)-len(c)], c}
		}
	}
	return []string{w}
}

// Stem returns the Porter stem of a lower-case word.
func Stem(w string) string {
	return porter.StemString(w)
}
