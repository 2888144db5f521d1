package pairs

import (
	"fmt"
	"strings"

	"github.com/roleprint/roleprint/data"
)

// aliasMap resolves PairConfig.Aliases: folded (scope, name) → new name.
type aliasMap map[[2]string]string

// newAliasMap parses alias entries, naming the first malformed one.
func newAliasMap(entries []string) (aliasMap, error) {
	m := aliasMap{}
	for _, e := range entries {
		scope, rest := splitScope(e)
		from, to, ok := strings.Cut(rest, "=")
		from, to = data.FoldSpeakerName(from), strings.Join(strings.Fields(to), " ")
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
	name := data.FoldSpeakerName(speaker)
	if to, ok := m[[2]string{strings.ToLower(CorpusOf(source)), name}]; ok {
		return to, true
	}
	to, ok := m[[2]string{"", name}]
	return to, ok
}
