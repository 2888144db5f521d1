package importers

import (
	"regexp"
	"strings"
	"unicode"
)

// CleanText removes stage directions from a spoken line and tidies its
// spacing: balanced parenthesised, bracketed and angle-bracketed spans are
// removed ("(to Ross) Hi [Within]" → "Hi"; "<i>Yes</i>" → "Yes"), as is a
// span opened with one bracket and closed with another ("(hugs her.]"); a
// parenthesis or bracket left open before a letter runs to the end of the
// line ("Okay. (He hugs her." → "Okay."), since transcripts cut such
// directions off at the line break. White space runs become one space, and
// a space left before punctuation by a removal goes. Other unbalanced
// brackets (an emoticon, a list "1)") are kept as written. The result may
// be empty; the Collector drops lines with no letter or digit left.
func CleanText(s string) string {
	if !strings.ContainsAny(s, "([{<") {
		return collapseSpace(s)
	}
	s = removeSpans(s, removedMark, true)
	s = spaceBeforePunct.ReplaceAllString(s, "$1")
	return collapseSpace(strings.ReplaceAll(s, removedMark, " "))
}

// removedMark stands where a span was removed, so that only the spaces a
// removal leaves before punctuation are tidied ("Wait (looks) , what?" →
// "Wait, what?"), not an emoticon's ("sad :(").
const removedMark = "\x00"

var spaceBeforePunct = regexp.MustCompile(`\s*\x00[\s\x00]*([,.;:!?…])`)

// removeBracketed deletes every balanced (...), [...], {...} and <...>
// span, nested ones included, leaving a space in its place. Brackets
// without a partner are kept.
func removeBracketed(s string) string {
	if !strings.ContainsAny(s, "([{<") {
		return s
	}
	return removeSpans(s, " ", false)
}

// removeSpans replaces each balanced bracketed span of s with repl. A
// closing parenthesis, bracket or brace with no opener of its kind open
// closes the innermost open one of the three ("(sighs]"); angle brackets
// pair only with each other. With openToEnd, the first "(" or "[" left
// open, when a letter follows it and it does not end an emoticon (":(",
// ";(", "=("), is a direction cut off by the line break: it and the rest
// of s are replaced too.
func removeSpans(s, repl string, openToEnd bool) string {
	rs := []rune(s)
	// match[i] is the index of the closing bracket for an opening one.
	match := make([]int, len(rs))
	for i := range match {
		match[i] = -1
	}
	var stack []int
	for i, r := range rs {
		switch r {
		case '(', '[', '{', '<':
			stack = append(stack, i)
		case ')', ']', '}', '>':
			// Pop to the nearest opener of the same kind; openers
			// skipped over stay unmatched.
			found := false
			for j := len(stack) - 1; j >= 0; j-- {
				if closerOf(rs[stack[j]]) == r {
					match[stack[j]] = i
					stack = stack[:j]
					found = true
					break
				}
			}
			// Else close the innermost open (, [ or {.
			if !found && r != '>' {
				for j := len(stack) - 1; j >= 0; j-- {
					if rs[stack[j]] != '<' {
						match[stack[j]] = i
						stack = stack[:j]
						break
					}
				}
			}
		}
	}
	if openToEnd {
		for _, i := range stack {
			if (rs[i] == '(' || rs[i] == '[') && i+1 < len(rs) && unicode.IsLetter(rs[i+1]) &&
				(i == 0 || !strings.ContainsRune(":;=", rs[i-1])) {
				match[i] = len(rs) - 1
				break
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
	case '<':
		return '>'
	}
	return '}'
}

// hasWordChar reports whether s holds a letter or a digit.
func hasWordChar(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) })
}
