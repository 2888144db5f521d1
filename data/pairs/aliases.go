package pairs

import (
	"fmt"
	"strings"
)

// DefaultAliases returns the speaker aliases merged by default: labels the
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
// does not count Joey twice. (The seed paper's code
// also merges Friends' "Celia" into "Cecilia" and "Cailin" into "Caitlin";
// in the fangj transcripts those are different women of seasons 1/7 and
// 3/5, so they are not merged here.)
func DefaultAliases() []string {
	return []string{
		"tbbt:Beverley=Beverly", "tbbt:Dr Hofstadter=Beverly", "tbbt:Lesley=Leslie",
		"tbbt:Howard's Mother=Mrs Wolowitz", "tbbt:Past Sheldon=Sheldon", "tbbt:Past Leonard=Leonard",
		"tbbt:Sheldon-Bot=Sheldon",
		"friends:Mr. Greene=Dr. Green", "friends:Mrs. Greene=Mrs. Green", "friends:Rahcel=Rachel",
		"friends:Racel=Rachel", "friends:Rache=Rachel", "friends:Chandlers=Chandler",
		"friends:Rachel Green=Rachel", "friends:Ross Geller=Ross", "friends:Monica Geller=Monica",
		"friends:Chandler Bing=Chandler", "friends:Joey Tribbiani=Joey", "friends:Phoebe Buffay=Phoebe",
	}
}

// aliasMap resolves PairConfig.Aliases: folded (scope, name) → new name.
type aliasMap map[[2]string]string

// newAliasMap parses alias entries, naming the first malformed one.
func newAliasMap(entries []string) (aliasMap, error) {
	m := aliasMap{}
	for _, e := range entries {
		scope, rest := splitScope(e)
		from, to, ok := strings.Cut(rest, "=")
		from, to = foldName(from), strings.Join(strings.Fields(to), " ")
		if !ok || from == "" || to == "" {
			return nil, fmt.Errorf("pair config: alias %q: want From=To, optionally scoped (\"tbbt:Lesley=Leslie\")", e)
		}
		m[[2]string{scope, from}] = to
	}
	return m, nil
}

// lookup returns the name a speaker of source is merged into, if any; an
// entry scoped to the source's corpus wins over an unscoped one.
func (m aliasMap) lookup(source, speaker string) (string, bool) {
	if len(m) == 0 {
		return "", false
	}
	name := foldName(speaker)
	if to, ok := m[[2]string{strings.ToLower(CorpusOf(source)), name}]; ok {
		return to, true
	}
	to, ok := m[[2]string{"", name}]
	return to, ok
}

// foldName lower-cases a name and collapses its white space, the form in
// which speaker lists match names.
func foldName(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }
