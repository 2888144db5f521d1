package genimport

import (
	"slices"
	"strings"

	"github.com/roleprint/roleprint/data"
)

// titleWords are honorifics ignored by token-subset matching, so that
// "Professor McGonagall" relates to "McGonagall" and "Lord Voldemort" to
// "Voldemort". A name made only of titles keeps them ("The Doctor").
var titleWords = map[string]bool{
	"mr": true, "mrs": true, "ms": true, "miss": true, "mister": true, "madam": true, "madame": true,
	"dr": true, "doctor": true, "professor": true, "prof": true, "sir": true, "lady": true,
	"lord": true, "captain": true, "capt": true, "colonel": true, "general": true, "sergeant": true,
	"king": true, "queen": true, "prince": true, "princess": true, "uncle": true, "aunt": true,
	"the": true, "st": true, "saint": true,
}

// DefaultDistinct returns pairs of names that token-subset matching would
// relate but that name different characters (RoleBench's Elizabeth I is
// not Richard III's Queen Elizabeth; Memento's Leonard Shelby is not a
// "Leonard"). A fresh copy.
func DefaultDistinct() [][2]string {
	return [][2]string{
		{"Queen Elizabeth I", "Queen Elizabeth"},
		{"Leonard Shelby", "Leonard"},
		{"Jack Sparrow", "Jack"},
		{"Jack Torrance", "Jack"},
	}
}

// MatchKind says how two names were found to name one character.
type MatchKind string

// The ways names match, strongest first. RoleMap is used by callers that
// take an explicit mapping from the user.
const (
	MatchNone    MatchKind = ""
	MatchExact   MatchKind = "exact"        // equal after NormalizeName
	MatchAlias   MatchKind = "alias"        // one alias group
	MatchSubset  MatchKind = "token-subset" // one name's words (titles aside) within the other's
	MatchRoleMap MatchKind = "role-map"     // given by the user
)

// NameMatcher relates role and speaker names: exactly, through an alias
// table, or by token subset. It is immutable after construction and safe
// for concurrent use.
type NameMatcher struct {
	canon    map[string]string // normalised name → normalised canonical name
	distinct map[[2]string]bool
}

// NewNameMatcher builds a matcher from alias groups (see
// DefaultAliasGroups; the first name of a group is canonical) and pairs of
// names that must never match (see DefaultDistinct). A name listed in two
// groups belongs to the first.
func NewNameMatcher(groups [][]string, distinct [][2]string) *NameMatcher {
	m := &NameMatcher{canon: map[string]string{}, distinct: map[[2]string]bool{}}
	for _, g := range groups {
		if len(g) == 0 {
			continue
		}
		c := data.NormalizeCharacterName(g[0])
		for _, n := range g {
			k := data.NormalizeCharacterName(n)
			if _, dup := m.canon[k]; !dup && k != "" {
				m.canon[k] = c
			}
		}
	}
	for _, d := range distinct {
		a, b := data.NormalizeCharacterName(d[0]), data.NormalizeCharacterName(d[1])
		m.distinct[[2]string{a, b}] = true
		m.distinct[[2]string{b, a}] = true
	}
	return m
}

// DefaultNameMatcher returns a matcher with the built-in tables.
func DefaultNameMatcher() *NameMatcher {
	return NewNameMatcher(data.CharacterAliasGroups(), DefaultDistinct())
}

// Canonical returns the normalised canonical form of name: its alias
// group's first name when it has one, else data.NormalizeCharacterName(name).
func (m *NameMatcher) Canonical(name string) string {
	n := data.NormalizeCharacterName(name)
	if c, ok := m.canon[n]; ok {
		return c
	}
	return n
}

// Compare says whether names a and b name one character, and how:
// MatchExact when they normalise equally, MatchAlias when they share an
// alias group, MatchSubset when their canonical forms have the same words
// once leading titles are set aside ("Professor Trelawney" and
// "Trelawney") or when the shorter, of two words or more, has only words
// of the longer including its surname ("Hermione", canonically Hermione
// Granger, and "Hermione Jean Granger"); else MatchNone. One word never
// matches a longer name by words ("Antonio" is not Antonio Salieri), and a
// shorter name with a title is taken for a family name ("Mr. Weasley" is
// not Ron Weasley). A pair listed as distinct never matches beyond
// MatchExact.
func (m *NameMatcher) Compare(a, b string) MatchKind {
	na, nb := data.NormalizeCharacterName(a), data.NormalizeCharacterName(b)
	if na == "" || nb == "" {
		return MatchNone
	}
	if na == nb {
		return MatchExact
	}
	if m.distinct[[2]string{na, nb}] {
		return MatchNone
	}
	ca, cb := m.Canonical(a), m.Canonical(b)
	if ca == cb {
		return MatchAlias
	}
	if m.distinct[[2]string{ca, cb}] {
		return MatchNone
	}
	ta, tb := nameTokens(ca), nameTokens(cb)
	switch {
	case len(ta) == len(tb) && subset(ta, tb):
		return MatchSubset // equal words, titles aside
	case len(ta) < len(tb) && shortForm(ta, tb, ca):
		return MatchSubset
	case len(tb) < len(ta) && shortForm(tb, ta, cb):
		return MatchSubset
	}
	return MatchNone
}

// shortForm reports whether the words short (of the normalised name n)
// are a short form of the longer name long: at least two words, all among
// long's, including its last word (the surname), and no title. One word
// alone is too common to be matched this way ("Antonio" is not Antonio
// Salieri, "Antony" not Bruno Antony, "Lincoln" not Abraham Lincoln): such
// short forms need the alias table or a role map.
func shortForm(short, long []string, n string) bool {
	return len(short) >= 2 && subset(short, long) && slices.Contains(short, long[len(long)-1]) && !hasTitle(n)
}

// hasTitle reports whether a normalised name has a title word. A titled
// short name is a surname ("Mr. Weasley", "Dr. Koothrappali") and may
// belong to any of the family, so it only matches names with the same
// words.
func hasTitle(n string) bool {
	w := strings.Fields(n)
	return len(w) > 0 && titleWords[w[0]]
}

// nameTokens returns the words of a normalised name without its leading
// titles ("Professor", "Lord"), or all its words when it is only titles.
// A title word later in a name is a name ("Oliver Queen").
func nameTokens(n string) []string {
	words := strings.Fields(n)
	i := 0
	for i < len(words) && titleWords[words[i]] {
		i++
	}
	if i == len(words) {
		return words
	}
	return words[i:]
}

// subset reports whether every word of a is in b.
func subset(a, b []string) bool {
	if len(a) == 0 {
		return false
	}
	for _, w := range a {
		if !slices.Contains(b, w) {
			return false
		}
	}
	return true
}
