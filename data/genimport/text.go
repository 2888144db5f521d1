package genimport

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/roleprint/roleprint/data"
)

var (
	// wikiItalic matches MediaWiki italics, ''…'', which the fan
	// transcripts behind ChatHaruhi's TBBT roles use for stage directions.
	wikiItalic = regexp.MustCompile(`''[^']*(?:'[^'][^']*)*''`)
	// bracketed matches (…) and […] asides.
	bracketed = regexp.MustCompile(`\([^()]*\)|\[[^\[\]]*\]`)
	// curlyQuote matches one “…” quotation.
	curlyQuote = regexp.MustCompile(`“([^“”]*)”`)
)

// CleanLine returns the spoken text of one generated or real line: the
// 「…」 brackets ChatHaruhi wraps lines in and quotes wrapping the whole
// line are removed, stage directions (”…”, (…), […]) are dropped, and
// runs of white space become one space. It returns "" when nothing spoken
// is left.
func CleanLine(s string) string {
	s = strings.TrimSpace(s)
	s = unwrap(s, "「", "」")
	s = wikiItalic.ReplaceAllString(s, " ")
	s = bracketed.ReplaceAllString(s, " ")
	s = collapseSpace(s)
	s = unwrap(s, "\"", "\"")
	s = unwrap(s, "“", "”")
	return collapseSpace(s)
}

// SpeechOnly keeps only the quoted speech of a line that mixes speech with
// narration, as lines taken from novels do: `“She deserved it,” Harry
// said. “Keep away.”` becomes `She deserved it, Keep away.`. A line
// without a complete “…” quotation is returned unchanged.
func SpeechOnly(s string) string {
	m := curlyQuote.FindAllStringSubmatch(s, -1)
	if len(m) == 0 {
		return s
	}
	parts := make([]string, 0, len(m))
	for _, q := range m {
		if t := strings.TrimSpace(q[1]); t != "" {
			parts = append(parts, t)
		}
	}
	return collapseSpace(strings.Join(parts, " "))
}

// unwrap removes open and close from the ends of s when s starts with
// open; a missing close is tolerated (generated lines are sometimes cut).
func unwrap(s, open, close string) string {
	if !strings.HasPrefix(s, open) {
		return s
	}
	inner := strings.TrimPrefix(s, open)
	if strings.HasSuffix(inner, close) {
		inner = strings.TrimSuffix(inner, close)
	} else if open == close {
		return s // an opening quote only: not a wrapper
	}
	if open == close && strings.Contains(inner, open) {
		return s // "a" said "b": quotes inside, not a wrapper
	}
	return strings.TrimSpace(inner)
}

func collapseSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// CopyKey is the form in which lines are compared to detect a generated
// line that copies a real one: lower case, letters and digits only, so
// typographic apostrophes, quotes and spacing do not hide a copy.
func CopyKey(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// stripSpeakerPrefix removes a leading "Name:" from a generated answer
// when Name relates to role by the name matcher or is one word of it
// (RoleGPT sometimes starts with "Coriolanus:" or "Holmes:").
func stripSpeakerPrefix(s, role string, m *NameMatcher) string {
	head, rest, ok := strings.Cut(s, ":")
	if !ok || len(head) > 40 || strings.TrimSpace(rest) == "" {
		return s
	}
	head = strings.TrimSpace(head)
	if m.Compare(head, role) == MatchNone && !roleWord(head, role) {
		return s
	}
	return strings.TrimSpace(rest)
}

// roleWord reports whether name is one word of the role's name, titles
// aside ("Holmes:" written by Sherlock Holmes, "Sparrow:" by Jack
// Sparrow): the short form an answer may open with.
func roleWord(name, role string) bool {
	n := data.NormalizeCharacterName(name)
	if n == "" || strings.Contains(n, " ") {
		return false
	}
	return slices.Contains(nameTokens(data.NormalizeCharacterName(role)), n)
}
