package data

import (
	"slices"
	"strings"
	"sync"
	"unicode"
)

// CharacterAliasGroups returns RolePrint's one table of character names:
// each group lists the names, short forms and misspellings under which
// corpora label one character, its first entry being the full name. The
// speaker-name matcher of data/genimport (role names of generated data),
// Character-LLM's role names and the HPD importer's speaker merging all
// read it, so a name is fixed in one place. Entries were checked against
// the shared corpora: HPD labels Ollivander "Ollivanders", Filch "Filth",
// Lockhart "Lohate" and Peeves "Pippi" (names back-translated from the
// Chinese edition); Character-LLM names its folders "Beethoven" and
// "Hermonie". The returned slice is a fresh copy.
func CharacterAliasGroups() [][]string {
	g := [][]string{
		// Harry Potter (ChatHaruhi, the HPD corpus, Character-LLM).
		{"Harry Potter", "Harry", "Potter", "Mr. Potter"},
		{"Hermione Granger", "Hermione", "Miss Granger", "Hermonie"},
		{"Ron Weasley", "Ron", "Ronald Weasley", "Ronald"},
		{"Albus Dumbledore", "Dumbledore", "Professor Dumbledore", "Albus Percival Wulfric Brian Dumbledore"},
		{"Severus Snape", "Snape", "Professor Snape"},
		{"Draco Malfoy", "Malfoy", "Draco"},
		{"Minerva McGonagall", "McGonagall", "Professor McGonagall"},
		{"Luna Lovegood", "Luna"},
		{"Lord Voldemort", "Voldemort", "Tom Riddle", "Tom Marvolo Riddle", "You-Know-Who", "The Dark Lord"},
		{"Rubeus Hagrid", "Hagrid"},
		{"Ginny Weasley", "Ginny", "Ginevra Weasley"},
		{"Neville Longbottom", "Neville"},
		{"Sirius Black", "Sirius"},
		{"Remus Lupin", "Lupin", "Professor Lupin"},
		{"Dolores Umbridge", "Umbridge", "Professor Umbridge"},
		{"Cornelius Fudge", "Fudge"},
		{"Vernon Dursley", "Vernon", "Uncle Vernon"},
		{"Petunia Dursley", "Petunia", "Aunt Petunia"},
		{"Dudley Dursley", "Dudley"},
		{"Oliver Wood", "Wood"},
		{"Gilderoy Lockhart", "Lockhart", "Professor Lockhart", "Lohate"},
		{"Cho Chang", "Cho"},
		{"Aberforth Dumbledore", "Aberforth"},
		{"Molly Weasley", "Mrs. Weasley"},
		{"Arthur Weasley", "Mr. Weasley"},
		{"Angelina Johnson", "Angelina"},
		{"Alastor Moody", "Moody", "Mad-Eye Moody"},
		{"Argus Filch", "Filch", "Filth"},
		{"Colin Creevey", "Colin"},
		{"Garrick Ollivander", "Ollivander", "Ollivanders", "Mr. Ollivander"},
		{"Horace Slughorn", "Slughorn", "Professor Slughorn"},
		{"Fred Weasley", "Fred"},
		{"George Weasley", "George"},
		{"Percy Weasley", "Percy"},
		{"Lavender Brown", "Lavender"},
		{"Cedric Diggory", "Cedric"},
		{"Xenophilius Lovegood", "Xenophilius"},
		{"Igor Karkaroff", "Karkaroff"},
		{"Nymphadora Tonks", "Tonks"},
		{"Fleur Delacour", "Fleur"},
		{"Viktor Krum", "Krum"},
		{"Nearly Headless Nick", "Nick"},
		{"Poppy Pomfrey", "Pomfrey", "Madam Pomfrey"},
		{"Justin Finch-Fletchley", "Justin"},
		{"Dean Thomas", "Dean"},
		{"Pomona Sprout", "Sprout", "Professor Sprout"},
		{"Parvati Patil", "Parvati"},
		{"Ludo Bagman", "Bagman"},
		{"Lee Jordan", "Jordan"},
		{"Pansy Parkinson", "Pansy"},
		{"Arabella Figg", "Mrs. Figg"},
		{"Peeves", "Pippi"},
		{"Piers Polkiss", "Piers"},
		// The Big Bang Theory.
		{"Sheldon Cooper", "Sheldon", "Dr. Sheldon Cooper"},
		{"Leonard Hofstadter", "Leonard"},
		{"Howard Wolowitz", "Howard"},
		{"Rajesh Koothrappali", "Raj", "Rajesh"},
		{"Amy Farrah Fowler", "Amy"},
		{"Bernadette Rostenkowski", "Bernadette", "Bernadette Wolowitz"},
		// Friends.
		{"Chandler Bing", "Chandler"},
		{"Joey Tribbiani", "Joey"},
		{"Rachel Green", "Rachel"},
		{"Monica Geller", "Monica"},
		{"Ross Geller", "Ross"},
		{"Phoebe Buffay", "Phoebe"},
		// RoleBench roles whose short forms are common.
		{"Sherlock Holmes", "Sherlock", "Holmes"},
		{"Gregory House", "Dr. House", "House"},
		{"Hannibal Lecter", "Dr. Hannibal Lecter", "Lecter"},
		{"D'Artagnan", "D_Artagnan"},
		{"Tyrion Lannister", "Tyrion"},
		{"Jack Sparrow", "Captain Jack Sparrow"},
		{"Coriolanus", "Caius Marcius", "Marcius", "Caius Marcius Coriolanus"},
		// Character-LLM's nine roles (Shao et al. 2023), as its folders
		// and records name them.
		{"Ludwig van Beethoven", "Beethoven"},
		{"Cleopatra VII", "Cleopatra"},
		{"Julius Caesar", "Caesar"},
		{"Martin Luther King Jr.", "Martin Luther King", "Martin_Luther_King"},
		{"Isaac Newton", "Newton"},
		// ChatHaruhi's Chinese roles: folders in romaji or pinyin, lines
		// naming the role in Chinese.
		{"凉宫春日", "春日", "Haruhi Suzumiya", "Haruhi", "涼宮ハルヒ"},
	}
	out := make([][]string, len(g))
	for i := range g {
		out[i] = slices.Clone(g[i])
	}
	return out
}

// NormalizeCharacterName returns the comparison form of a character or
// speaker name: lower case, letters and digits only, words separated by one
// space. "D_Artagnan" and "d'Artagnan" both become "d artagnan", "Dr.
// Frank-N-Furter" becomes "dr frank n furter". An empty or
// punctuation-only name gives "".
func NormalizeCharacterName(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		space = true
	}
	return b.String()
}

var (
	fullNamesOnce sync.Once
	fullNames     map[string]string // normalised name → full name as written
)

// FullCharacterName returns the full name CharacterAliasGroups gives name
// ("Hermonie" → "Hermione Granger", "Ron" → "Ron Weasley") and true, or
// name unchanged and false when the table does not list it. Names are
// compared with NormalizeCharacterName.
func FullCharacterName(name string) (string, bool) {
	fullNamesOnce.Do(func() {
		fullNames = map[string]string{}
		for _, g := range CharacterAliasGroups() {
			for _, n := range g {
				k := NormalizeCharacterName(n)
				if _, dup := fullNames[k]; !dup && k != "" {
					fullNames[k] = g[0]
				}
			}
		}
	})
	if full, ok := fullNames[NormalizeCharacterName(name)]; ok {
		return full, true
	}
	return name, false
}
