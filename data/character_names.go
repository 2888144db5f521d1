package data

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// CharacterAliasGroups returns RolePrint's one table of character names:
// each group lists the names, short forms and misspellings under which
// corpora label one character, its first entry being the full name. The
// role-name matcher of role-play scoring (genimport.DefaultNameMatcher,
// which relates an agent's role to real speakers across corpora) reads
// it; the importers do not: they name speakers and roles as each release
// states them (a header, a system prompt, the records, the most frequent
// speaker), so a role no table lists imports alike. Entries were checked against
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

// SpeakerAliases returns the speaker aliases the pair builder merges by
// default (data/pairs' PairConfig.Aliases, "corpus:From=To" entries): labels the
// shared transcripts use for one person under several names, checked
// against the transcripts. The Big Bang Theory calls Leonard's mother
// "Beverley", "Beverly" and "Dr Hofstadter", Leslie Winkle "Lesley" and
// "Leslie", Howard's mother "Mrs Wolowitz" and "Howard's Mother"; its
// flashbacks label the young Sheldon and Leonard "Past Sheldon" and "Past
// Leonard", and Sheldon's robot "Sheldon-Bot". Friends (fangj) calls
// Rachel's parents "Dr. Green"/"Mr. Greene" and "Mrs. Green"/"Mrs. Greene",
// and misspells Rachel and Chandler a few times; the emorynlp files
// (friends-json, the EmoryNLP CSV) give the six friends full names ("Joey
// Tribbiani") where the fangj pages and MELD give first names, so the full
// names are merged into the first ones and a corpus mixing those imports
// does not count Joey twice. The Harry Potter Dialogue set, its names
// back-translated from the Chinese edition, writes Filch "Filth",
// Ollivander "Ollivanders", Lockhart "Lohate" and Peeves "Pippi" in some
// sessions; its importer keeps the labels as written. (The seed paper's code
// also merges Friends' "Celia" into "Cecilia" and "Cailin" into "Caitlin";
// in the fangj transcripts those are different women of seasons 1/7 and
// 3/5, so they are not merged here.)
func SpeakerAliases() []string {
	return []string{
		"tbbt:Beverley=Beverly", "tbbt:Dr Hofstadter=Beverly", "tbbt:Lesley=Leslie",
		"tbbt:Howard's Mother=Mrs Wolowitz", "tbbt:Past Sheldon=Sheldon", "tbbt:Past Leonard=Leonard",
		"tbbt:Sheldon-Bot=Sheldon",
		"friends:Mr. Greene=Dr. Green", "friends:Mrs. Greene=Mrs. Green", "friends:Rahcel=Rachel",
		"friends:Racel=Rachel", "friends:Rache=Rachel", "friends:Chandlers=Chandler",
		"friends:Rachel Green=Rachel", "friends:Ross Geller=Ross", "friends:Monica Geller=Monica",
		"friends:Chandler Bing=Chandler", "friends:Joey Tribbiani=Joey", "friends:Phoebe Buffay=Phoebe",
		"hpd:Filth=Filch", "hpd:Ollivanders=Ollivander", "hpd:Lohate=Lockhart", "hpd:Pippi=Peeves",
	}
}

// FoldSpeakerName lower-cases a speaker label and collapses its white
// space: the speaker identity of the pair builder (data/pairs) and the form
// in which its alias and speaker lists match. It is deliberately stricter
// than NormalizeCharacterName, which also drops punctuation: on the shared
// corpora that would merge "Dr. Green" with "Dr Green" and "Penny-Warrior"
// with "Penny- Warrior" (4 Friends and 2 TBBT labels), changing the pairs
// of the paper's protocol.
func FoldSpeakerName(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// DisplayCharacterName turns a speaker label into a display name (the
// form a screenplay parser shows; NormalizeCharacterName is the form names
// are compared in): surrounding
// space and punctuation trimmed, runs of space collapsed, an all-capitals
// name title-cased ("SHELDON" → "Sheldon", "MRS. WOLOWITZ" → "Mrs.
// Wolowitz"), other capitalisation kept ("McGonagall").
func DisplayCharacterName(s string) string {
	s = strings.TrimSpace(spaceRun.ReplaceAllString(s, " "))
	s = strings.Trim(s, ".:-&/ ")
	hasLower := false
	for _, r := range s {
		if unicode.IsLower(r) {
			hasLower = true
			break
		}
	}
	if hasLower {
		return s
	}
	words := strings.Fields(strings.ToLower(s))
	for i, w := range words {
		rs := []rune(w)
		rs[0] = unicode.ToUpper(rs[0])
		for j := 1; j < len(rs); j++ {
			if rs[j-1] == '-' || rs[j-1] == '\'' && j >= 2 && rs[j-2] != 'n' {
				rs[j] = unicode.ToUpper(rs[j])
			}
		}
		words[i] = string(rs)
	}
	return strings.Join(words, " ")
}

// spaceRun is a run of ASCII white space (RE2's \s), as the screenplay
// parser has always collapsed it.
var spaceRun = regexp.MustCompile(`\s+`)
