package importers

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// NormalizeSpeaker turns a raw speaker label into the name stored in
// data.Utterance.Speaker, or reports ok=false when the label names no
// single identity. The rules, applied in order:
//
//   - curly apostrophes become "'"; parenthesised and bracketed parts are
//     removed ("Penny (voice off)" → "Penny"), as are screenplay suffixes
//     "V.O.", "O.S.", "O.C." and "CONT'D", surrounding punctuation
//     ("#ALL#" → "All") and trailing periods ("Phoebe Sr." → "Phoebe
//     Sr"); a title gets its space ("Mr.Heckles" → "Mr. Heckles"); runs of
//     white space become one space;
//   - labels naming several people are rejected: "Ross and Joey",
//     "Ross & Joey", "Monica, Rachel and Phoebe", "Ross/Joey", any label
//     containing the word "all", "both", "everyone", "everybody" or
//     "together", a label starting with a number word ("Two Murderers"),
//     and group labels ("Others", "Crowd", "The Gang"). A conjunction only
//     splits a label when every part starts with a capital letter (or the
//     label has no capitals at all), so "Very tall and powerfully built
//     man" stays one speaker;
//   - the name is put in Title Case whatever its input case, so "SHELDON",
//     "sheldon" and "Sheldon" agree: every word is lower-cased and its
//     first letter raised, as are letters after "-", ".", and the prefixes
//     "Mc", "O'" and "D'"; Roman numerals stay upper case ("King Henry V").
//
// Aliases ("Cailin" → "Caitlin") and generic roles ("Man", "Waiter") are
// not handled here: they are choices of the pair builder.
func NormalizeSpeaker(raw string) (name string, ok bool) {
	name, reason := normalizeSpeaker(raw)
	return name, reason == ""
}

// normalizeSpeaker is NormalizeSpeaker that says why a label was rejected:
// DropNoSpeaker or DropMultipleSpeakers.
func normalizeSpeaker(raw string) (name, reason string) {
	s := quoteFixer.Replace(raw)
	s = removeBracketed(s)
	s = collapseSpace(honorificRe.ReplaceAllString(s, "$1. $2"))
	for {
		t := strings.TrimRight(strings.Trim(suffixRe.ReplaceAllString(s, ""), speakerTrim), ".")
		if t == s {
			break
		}
		s = t
	}
	if !strings.ContainsFunc(s, unicode.IsLetter) {
		return "", DropNoSpeaker
	}
	if isGroupLabel(s) {
		return "", DropMultipleSpeakers
	}
	return titleCase(s), ""
}

// speakerTrim is what surrounds a label without being part of it.
const speakerTrim = " \t:;,-–—*#_\"'"

var (
	quoteFixer = strings.NewReplacer("’", "'", "‘", "'", "`", "'", "\u00a0", " ")
	// suffixRe matches a trailing screenplay suffix: (V.O.) and the like
	// have lost their parentheses by now, but bare ones remain.
	suffixRe = regexp.MustCompile(`(?i)[\s,]+(v\.\s?o\.?|o\.\s?s\.?|o\.\s?c\.?|cont'?d\.?|cont\.)$`)
	// honorificRe finds a title glued to the name ("Mr.Heckles").
	honorificRe = regexp.MustCompile(`(?i)\b(mr|mrs|ms|dr|st)\.(\p{L})`)
	// joinRe splits a label at conjunctions and list separators.
	joinRe = regexp.MustCompile(`(?i)\s*,\s*(?:and\s+|&\s*)?|\s+(?:and|und)\s+|\s*&\s*|\s*/\s*|\s+\+\s+`)
	// wordRe splits a label into words for the group-word checks.
	wordRe = regexp.MustCompile(`[\p{L}\p{N}']+`)
)

// groupWords anywhere in a label make it a group ("All Servants").
var groupWords = map[string]bool{
	"all": true, "both": true, "everyone": true, "everybody": true, "together": true,
}

// numberWords starting a label make it a group ("Two Murderers").
var numberWords = map[string]bool{
	"two": true, "three": true, "four": true, "five": true, "six": true, "seven": true,
	"eight": true, "nine": true, "ten": true, "several": true, "various": true, "many": true,
}

// groupLabels are whole labels that name a group.
var groupLabels = map[string]bool{
	"others": true, "the others": true, "crowd": true, "the crowd": true, "gang": true,
	"the gang": true, "audience": true, "the audience": true, "group": true, "guys": true,
	"the guys": true, "girls": true, "the girls": true, "people": true, "various others": true,
}

// nameSuffixes may follow a comma inside one name ("Dr. Green, Sr.").
var nameSuffixes = map[string]bool{"jr": true, "jr.": true, "sr": true, "sr.": true, "md": true, "phd": true}

func isGroupLabel(s string) bool {
	lower := strings.ToLower(s)
	if groupLabels[lower] {
		return true
	}
	words := wordRe.FindAllString(lower, -1)
	for i, w := range words {
		if groupWords[w] {
			return true
		}
		if i == 0 && numberWords[w] || i == 1 && words[0] == "the" && numberWords[w] {
			return true
		}
	}
	parts := joinRe.Split(s, -1)
	var names []string
	for _, p := range parts {
		p = strings.Trim(p, speakerTrim)
		if p == "" || nameSuffixes[strings.ToLower(p)] {
			continue
		}
		names = append(names, p)
	}
	if len(names) < 2 {
		return false
	}
	if !strings.ContainsFunc(s, unicode.IsUpper) {
		return true
	}
	for _, p := range names {
		r, _ := utf8.DecodeRuneInString(p)
		if !unicode.IsUpper(r) {
			return false
		}
	}
	return true
}

var romanRe = regexp.MustCompile(`^(?i)(ii|iii|iv|v|vi|vii|viii|ix|x|xi|xii)$`)

// titleCase lower-cases every word of s and raises its first letter (see
// NormalizeSpeaker for the exceptions).
func titleCase(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		if romanRe.MatchString(w) {
			words[i] = strings.ToUpper(w)
			continue
		}
		words[i] = titleWord(w)
	}
	return strings.Join(words, " ")
}

func titleWord(w string) string {
	rs := []rune(strings.ToLower(w))
	raise := true
	for i, r := range rs {
		if !unicode.IsLetter(r) {
			raise = r == '-' || r == '.' || raise
			continue
		}
		if raise {
			rs[i] = unicode.ToUpper(r)
			raise = false
		}
	}
	lower := string(rs)
	switch {
	case len(rs) > 3 && strings.HasPrefix(lower, "Mc"):
		rs[2] = unicode.ToUpper(rs[2])
	case len(rs) > 2 && (rs[0] == 'O' || rs[0] == 'D') && rs[1] == '\'':
		rs[2] = unicode.ToUpper(rs[2])
	}
	return string(rs)
}

// collapseSpace trims s and turns every run of white space into one space.
func collapseSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
