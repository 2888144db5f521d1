package genimport

import (
	"testing"

	"github.com/roleprint/roleprint/data"
)

func TestNormalizeName(t *testing.T) {
	for in, want := range map[string]string{
		"D_Artagnan":         "d artagnan",
		"d'Artagnan":         "d artagnan",
		"Dr. Frank-N-Furter": "dr frank n furter",
		"  SHELDON ":         "sheldon",
		"...":                "",
	} {
		if got := data.NormalizeCharacterName(in); got != want {
			t.Errorf("data.NormalizeCharacterName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNameMatcherCompare(t *testing.T) {
	m := DefaultNameMatcher()
	for _, c := range []struct {
		a, b string
		want MatchKind
	}{
		{"Sheldon", "SHELDON", MatchExact},
		{"Hermione", "Hermione Granger", MatchAlias},
		{"Voldemort", "Lord Voldemort", MatchAlias},
		{"Tom Riddle", "Voldemort", MatchAlias},
		{"McGonagall", "Professor McGonagall", MatchAlias},
		{"Raj", "Rajesh Koothrappali", MatchAlias},
		{"Hermione", "Hermione Jean Granger", MatchSubset}, // via the canonical "hermione granger"
		{"Granger", "Hermione Granger", MatchNone},         // one word alone: no
		{"Oliver Queen", "Oliver", MatchNone},              // "Queen" is a surname here, not a title
		{"Bruno Antony", "Antony", MatchNone},
		{"Nathan Jessep", "Colonel Nathan R. Jessep", MatchSubset}, // two words with the surname
		{"Nathan R.", "Colonel Nathan R. Jessep", MatchNone},       // no surname
		{"Gandalf", "Gandalf the Grey", MatchNone},                 // a first name alone: no
		{"Antonio", "Antonio Salieri", MatchNone},
		{"Mr. Weasley", "Ron", MatchNone}, // a titled family name
		{"Dr. Koothrappali", "Raj", MatchNone},
		{"Professor Trelawney", "Trelawney", MatchSubset},   // titles aside
		{"Leonard Shelby", "Leonard", MatchNone},            // Leonard is Hofstadter
		{"Leonard Shelby", "Leonard Hofstadter", MatchNone}, // two people
		{"Queen Elizabeth I", "Queen Elizabeth", MatchNone}, // listed as distinct
		{"Harry", "Hermione", MatchNone},
		{"Malfoy", "Lucius Malfoy", MatchNone}, // Malfoy is Draco
		{"", "Harry", MatchNone},
	} {
		if got := m.Compare(c.a, c.b); got != c.want {
			t.Errorf("Compare(%q, %q) = %q, want %q", c.a, c.b, got, c.want)
		}
		if got := m.Compare(c.b, c.a); got != c.want {
			t.Errorf("Compare(%q, %q) = %q, want %q (symmetry)", c.b, c.a, got, c.want)
		}
	}
	// A custom table: the user's groups come first.
	u := NewNameMatcher(append([][]string{{"Doctor Who", "The Doctor", "Eleventh Doctor"}}, data.CharacterAliasGroups()...), nil)
	if got := u.Compare("The Doctor", "Eleventh Doctor"); got != MatchAlias {
		t.Errorf("custom alias: %q", got)
	}
}

func TestCleanLine(t *testing.T) {
	for in, want := range map[string]string{
		"「Again, time machine.」":                               "Again, time machine.",
		"「''(Knocking)'' Penny. ''(Knock, knock)'' Penny.」":    "Penny. Penny.",
		"\"Oh, absolutely! Count me in!\"":                     "Oh, absolutely! Count me in!",
		"\"Yes\" he said \"no\"":                               "\"Yes\" he said \"no\"",
		"「Cut short":                                           "Cut short",
		"「''(Leonard starts rattling the doors violently.)''」": "",
		"Sheldon's  spot  [points] is   here":                  "Sheldon's spot is here",
	} {
		if got := CleanLine(in); got != want {
			t.Errorf("CleanLine(%q) = %q, want %q", in, got, want)
		}
	}
	if got := SpeechOnly("“She deserved it,” Harry said. “Keep away.”"); got != "She deserved it, Keep away." {
		t.Errorf("SpeechOnly = %q", got)
	}
	if got := SpeechOnly("No quotes here."); got != "No quotes here." {
		t.Errorf("SpeechOnly = %q", got)
	}
	if CopyKey("That’s enough, Mr. Weasley!") != CopyKey("That's enough, Mr. Weasley.") {
		t.Error("CopyKey should ignore punctuation")
	}
}

func TestNaturalLess(t *testing.T) {
	if !naturalLess("texts/text_9.txt", "texts/text_10.txt") || naturalLess("text_10", "text_9") || !naturalLess("a", "b") {
		t.Error("natural order")
	}
}
