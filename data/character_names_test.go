package data

import "testing"

func TestFullCharacterName(t *testing.T) {
	for name, want := range map[string]string{
		"Hermonie": "Hermione Granger", "hermione": "Hermione Granger", "Beethoven": "Ludwig van Beethoven",
		"Ron": "Ron Weasley", "Filth": "Argus Filch", "Mr. Weasley": "Arthur Weasley", "春日": "凉宫春日",
		"Classmate 1": "Classmate 1", "Weasley": "Weasley",
	} {
		got, ok := FullCharacterName(name)
		if got != want || ok != (name != want) {
			t.Errorf("FullCharacterName(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
	// Each name belongs to one group: a second group claiming it would be
	// silently ignored.
	seen := map[string]string{}
	for _, g := range CharacterAliasGroups() {
		for _, n := range g {
			k := NormalizeCharacterName(n)
			if first, dup := seen[k]; dup && first != g[0] {
				t.Errorf("%q is in the groups of %q and %q", n, first, g[0])
			}
			seen[k] = g[0]
		}
	}
}

func TestDisplayCharacterName(t *testing.T) {
	for in, want := range map[string]string{
		"SHELDON": "Sheldon", "MRS. WOLOWITZ": "Mrs. Wolowitz", " Leonard  ": "Leonard",
		"McGonagall": "McGonagall", "JEAN-LUC": "Jean-Luc", "O'NEILL": "O'Neill",
	} {
		if got := DisplayCharacterName(in); got != want {
			t.Errorf("DisplayCharacterName(%q) = %q, want %q", in, got, want)
		}
	}
}
