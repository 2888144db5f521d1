package baseline

import (
	"strings"
	"unicode"
)

// Tokenize splits text into lower-case tokens the way GloVe's corpus was
// tokenised (Penn Treebank conventions, close enough for lookup): words
// keep inner hyphens and apostrophes, clitics are split off ("don't" →
// "do", "n't"; "she'll" → "she", "'ll"), each punctuation mark is its own
// token except that "..." and "--" stay whole. Curly quotes and
// apostrophes are folded to straight ones.
func Tokenize(text string) []string {
	text = strings.NewReplacer("\u2019", "'", "\u2018", "'", "\u201c", "\"", "\u201d", "\"", "\u2026", "...", "\u2014", "--", "\u2013", "--").Replace(text)
	var toks []string
	rs := []rune(text)
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsSpace(r):
			i++
		case isWordRune(r):
			j := i + 1
			for j < len(rs) {
				if isWordRune(rs[j]) {
					j++
					continue
				}
				// Inner hyphen or apostrophe followed by a letter.
				if (rs[j] == '-' || rs[j] == '\'') && j+1 < len(rs) && isWordRune(rs[j+1]) {
					j += 2
					continue
				}
				break
			}
			toks = append(toks, splitClitics(strings.ToLower(string(rs[i:j])))...)
			i = j
		case r == '\'' && i+1 < len(rs) && unicode.IsLetter(rs[i+1]):
			// A leading apostrophe: "'em", "'tis", or a quote mark.
			j := i + 1
			for j < len(rs) && isWordRune(rs[j]) {
				j++
			}
			w := strings.ToLower(string(rs[i:j]))
			switch w {
			case "'em", "'tis", "'twas", "'cause", "'bout", "'til", "'round", "'tween":
				toks = append(toks, w)
			default:
				toks = append(toks, "'")
				toks = append(toks, splitClitics(w[1:])...)
			}
			i = j
		case r == '.' || r == '-':
			j := i
			for j < len(rs) && rs[j] == r {
				j++
			}
			switch {
			case r == '.' && j-i >= 2:
				toks = append(toks, "...")
			case r == '-' && j-i >= 2:
				toks = append(toks, "--")
			default:
				toks = append(toks, string(r))
			}
			i = j
		default:
			if unicode.IsPunct(r) || unicode.IsSymbol(r) {
				toks = append(toks, string(r))
			}
			i++
		}
	}
	return toks
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// clitics split off the end of a word, longest first.
var clitics = []string{"n't", "'ll", "'re", "'ve", "'s", "'m", "'d"}

func splitClitics(w string) []string {
	for _, c := range clitics {
		if strings.HasSuffix(w, c) && len(w) > len(c) {
			// "can't" → "ca", "n't" as in the Treebank; "cannot" has no
			// apostrophe and stays whole.
			return []string{w[:len(w)-len(c)], c}
		}
	}
	return []string{w}
}

// isWord reports whether a token is a word (starts with a letter or digit,
// or is a clitic such as "n't").
func isWord(tok string) bool {
	for _, r := range tok {
		return isWordRune(r) || (r == '\'' && len(tok) > 1)
	}
	return false
}
