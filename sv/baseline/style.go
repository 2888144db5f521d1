package baseline

import (
	"math"
	"strings"
	"unicode"

	"github.com/roleprint/roleprint/sv"
)

// StyleFeatureNames lists the dimensions of the "liwc" style vector: the
// rate per word of each LSM and extra category, then punctuation rates per
// word, then length and lexical features.
var StyleFeatureNames = func() []string {
	var n []string
	for _, c := range LSMCategories {
		n = append(n, c.Name)
	}
	for _, c := range ExtraCategories {
		n = append(n, c.Name)
	}
	return append(n, punctNames...)
}()

// punctNames are the non-category features, in order.
var punctNames = []string{
	"period", "comma", "question", "exclaim", "ellipsis", "dash", "colon_semicolon",
	"quote", "paren", "clitic", // punctuation and contraction rates per word
	"log_words", "letters_per_word", "long_words", "type_token", "capitalised", "all_caps", "digits",
}

var styleCats = append(append([]Category(nil), LSMCategories...), ExtraCategories...)
var styleLexicon = newLexicon(styleCats)

// StyleFeatures returns the raw (unstandardised) style vector of one text:
//
//   - the share of words in each category of LSMCategories and
//     ExtraCategories (words are Tokenize tokens that start with a letter
//     or digit, plus clitics such as "n't");
//   - per word: periods, commas, question marks, exclamation marks,
//     ellipses, dashes, colons and semicolons, quotes, parentheses, and
//     clitic tokens (contractions);
//   - log(1+words), mean letters per word, the share of words longer than
//     six letters, the type-token ratio, the shares of capitalised,
//     all-capital and numeric words.
//
// A text without words has all rates 0.
func StyleFeatures(text string) []float64 {
	f := make([]float64, len(StyleFeatureNames))
	toks := Tokenize(text)
	nc := len(styleCats)
	var words, letters, long, clitic float64
	types := map[string]bool{}
	for _, t := range toks {
		if !isWord(t) {
			p := nc
			switch t {
			case ".":
			case ",":
				p++
			case "?":
				p += 2
			case "!":
				p += 3
			case "...":
				p += 4
			case "--", "-":
				p += 5
			case ":", ";":
				p += 6
			case "\"", "'", "`":
				p += 7
			case "(", ")", "[", "]":
				p += 8
			default:
				continue
			}
			f[p]++
			continue
		}
		words++
		types[t] = true
		if t[0] == '\'' {
			clitic++
		}
		n := 0
		for _, r := range t {
			if unicode.IsLetter(r) {
				n++
			}
		}
		letters += float64(n)
		if n > 6 {
			long++
		}
		for _, ci := range styleLexicon[t] {
			f[ci]++
		}
	}
	f[nc+9] = clitic
	var caps, allCaps, digits float64
	for _, w := range strings.Fields(text) {
		w = strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if w == "" {
			continue
		}
		rs := []rune(w)
		switch {
		case unicode.IsDigit(rs[0]):
			digits++
		case len(rs) > 1 && strings.ToUpper(w) == w && unicode.IsLetter(rs[1]):
			allCaps++
		case unicode.IsUpper(rs[0]):
			caps++
		}
	}
	if words == 0 {
		return make([]float64, len(f))
	}
	for i := 0; i < nc+10; i++ {
		f[i] /= words
	}
	k := nc + 10
	f[k] = math.Log1p(words)
	f[k+1] = letters / words
	f[k+2] = long / words
	f[k+3] = float64(len(types)) / words
	f[k+4] = caps / words
	f[k+5] = allCaps / words
	f[k+6] = digits / words
	return f
}

// NewStyle returns the "liwc" encoder: StyleFeatures, standardised with the
// training split's statistics once fitted. It is an sv.Fitter.
func NewStyle() sv.Fitter {
	return &featureEncoder{name: "liwc", names: StyleFeatureNames, features: StyleFeatures}
}
