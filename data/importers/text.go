package importers

import (
	"regexp"
	"strings"
	"unicode"
)

// CleanText removes stage directions from a spoken line and tidies its
// spacing: balanced parenthesised and bracketed spans are removed ("(to
// Ross) Hi [Within]" → "Hi"), white space runs become one space, and a
// space left before punctuation by a removal goes. Unbalanced brackets
// (an emoticon, a typo) are kept as written. The result may be empty; the
// Collector drops lines with no letter or digit left.
func CleanText(s string) string {
	if !strings.ContainsAny(s, "([{") {
		return collapseSpace(s)
	}
	s = removeSpans(s, removedMark)
	s = spaceBeforePunct.ReplaceAllString(s, "$1")
	return collapseSpace(strings.ReplaceAll(s, removedMark, " "))
}

// removedMark stands where a span was removed, so that only the spaces a
// removal leaves before punctuation are tidied ("Wait (looks) , what?" →
// "Wait, what?"), not an emoticon's ("sad :(").
const removedMark = "\x00"

var spaceBeforePunct = regexp.MustCompile(`\s*\x00[\s\x00]*([,.;:!?…])`)

// removeBracketed deletes every balanced (...), [...] and {...} span,
// nested ones included, leaving a space in its place. Brackets without a
// partner are kept.
func removeBracketed(s string) string {
	if !strings.ContainsAny(s, "([{") {
		return s
	}
	return removeSpans(s, " ")
}

// removeSpans replaces each balanced bracketed span of s with repl.
func removeSpans(s, repl string) string {
	rs := []rune(s)
	// match[i] is the index of the closing bracket for an opening one.
	match := make([]int, len(rs))
	for i := range match {
		match[i] = -1
	}
	var stack []int
	for i, r := range rs {
		switch r {
		case '(', '[', '{':
			stack = append(stack, i)
		case ')', ']', '}':
			// Pop to the nearest opener of the same kind; openers
			// skipped over stay unmatched.
			for j := len(stack) - 1; j >= 0; j-- {
				if closerOf(rs[stack[j]]) == r {
					match[stack[j]] = i
					stack = stack[:j]
					break
				}
			}
		}
	}
	var b strings.Builder
	for i := 0; i < len(rs); i++ {
		if match[i] >= 0 {
			i = match[i]
			b.WriteString(repl)
			continue
		}
		b.WriteRune(rs[i])
	}
	return b.String()
}

func closerOf(r rune) rune {
	switch r {
	case '(':
		return ')'
	case '[':
		return ']'
	}
	return '}'
}

// hasWordChar reports whether s holds a letter or a digit.
func hasWordChar(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) })
}
