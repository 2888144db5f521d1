package roleplay

import (
	"bufio"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/genimport"

	"github.com/roleprint/roleprint/internal/fsx"
)

// RoleMatch reports how one generated role name was paired with real
// speakers. Score lists one per generated role name.
type RoleMatch struct {
	// Role is the generated role name (Utterance.Role).
	Role string `json:"role"`
	// Models lists the agent models that played it.
	Models []string `json:"models"`
	// RealRole names the real role it was matched to: the name of the
	// pooled real speakers' most frequent speaker; "" when unmatched.
	RealRole string `json:"real_role"`
	// RealSpeakers lists the real speaker names pooled into RealRole
	// (every name any generated role matched within that group).
	RealSpeakers []string `json:"real_speakers"`
	// Method says how: "exact", "alias", "token-subset", "role-map", or ""
	// when no real speaker matched.
	Method genimport.MatchKind `json:"method"`
	// Candidates lists real speakers that matched by token subset but
	// ambiguously (not one person), so none was taken. Add the right one
	// to a role map.
	Candidates []string `json:"candidates,omitempty"`
	// RealUtterances counts the real utterances of RealRole.
	RealUtterances int `json:"real_utterances"`
	// DistinctionOnly is true when the role has no real lines: it is
	// scored for Distinction (and is a Simulation Rank candidate) only.
	DistinctionOnly bool `json:"distinction_only"`
}

// GenRole is one role one model played.
type GenRole struct {
	Model, Role string
}

// MatchRoles pairs generated role names with real speaker names
// (speakers maps each real speaker name to its utterance count). For each
// distinct role name, in this order:
//
//  1. a role-map entry (cfg.RoleMap) decides, when there is one;
//  2. real speakers whose name is the role's exactly or through the alias
//     table (genimport.NameMatcher) are taken, all of them;
//  3. otherwise real speakers related by token subset ("Hermione" and
//     "Hermione Jean Granger") are taken when they are one person (their
//     names all relate pairwise) and no other role of the same model
//     claimed them in steps 1–2; several unrelated candidates are
//     ambiguous and none is taken.
//
// Real speakers matched by one role are pooled, and pools that share a
// speaker merge, so "Sheldon" (ChatHaruhi) and "Sheldon Cooper" (RoleGPT)
// meet the same real role. notes lists role-map entries naming speakers
// absent from the real data.
func MatchRoles(gen []GenRole, speakers map[string]int, cfg Config) (matches []RoleMatch, notes []string) {
	names := cfg.Names
	if names == nil {
		names = genimport.DefaultNameMatcher()
	}
	// Distinct role names, the models of each, and each model's roles.
	models := map[string][]string{}
	modelRoles := map[string][]string{}
	var roles []string
	for _, g := range gen {
		if _, ok := models[g.Role]; !ok {
			roles = append(roles, g.Role)
		}
		if !slices.Contains(models[g.Role], g.Model) {
			models[g.Role] = append(models[g.Role], g.Model)
		}
		if !slices.Contains(modelRoles[g.Model], g.Role) {
			modelRoles[g.Model] = append(modelRoles[g.Model], g.Role)
		}
	}
	sort.Strings(roles)
	realNames := make([]string, 0, len(speakers))
	for s := range speakers {
		realNames = append(realNames, s)
	}
	sort.Strings(realNames)
	byNorm := map[string][]string{}
	for _, s := range realNames {
		n := data.NormalizeCharacterName(s)
		byNorm[n] = append(byNorm[n], s)
	}
	roleMap := map[string][]string{}
	for k, v := range cfg.RoleMap {
		roleMap[data.NormalizeCharacterName(k)] = v
	}

	matched := map[string][]string{}
	method := map[string]genimport.MatchKind{}
	// Steps 1 and 2.
	for _, r := range roles {
		if v, ok := roleMap[data.NormalizeCharacterName(r)]; ok {
			method[r] = genimport.MatchRoleMap
			for _, want := range v {
				got := byNorm[data.NormalizeCharacterName(want)]
				if len(got) == 0 {
					notes = append(notes, fmt.Sprintf("role map: %q → %q: no real speaker of that name", r, want))
				}
				matched[r] = append(matched[r], got...)
			}
			continue
		}
		kind := genimport.MatchNone
		for _, s := range realNames {
			switch k := names.Compare(r, s); k {
			case genimport.MatchExact, genimport.MatchAlias:
				matched[r] = append(matched[r], s)
				if kind != genimport.MatchExact {
					kind = k
				}
			}
		}
		method[r] = kind
	}
	// Step 3.
	claimedBy := map[string][]string{} // real speaker → roles that took it in steps 1–2
	for r, ss := range matched {
		for _, s := range ss {
			claimedBy[s] = append(claimedBy[s], r)
		}
	}
	candidates := map[string][]string{}
	for _, r := range roles {
		if method[r] != genimport.MatchNone {
			continue
		}
		var cands []string
		for _, s := range realNames {
			if names.Compare(r, s) != genimport.MatchSubset {
				continue
			}
			if claimedByRival(s, r, claimedBy, models, modelRoles) {
				continue
			}
			cands = append(cands, s)
		}
		if len(cands) == 0 {
			continue
		}
		if onePerson(cands, names) {
			matched[r] = cands
			method[r] = genimport.MatchSubset
		} else {
			candidates[r] = cands
		}
	}
	// Pool speakers: union-find over real names matched by one role.
	parent := map[string]string{}
	var find func(string) string
	find = func(s string) string {
		if p, ok := parent[s]; ok && p != s {
			parent[s] = find(p)
			return parent[s]
		}
		parent[s] = s
		return s
	}
	for _, ss := range matched {
		if len(ss) == 0 {
			continue
		}
		for _, s := range ss[1:] {
			parent[find(s)] = find(ss[0])
		}
	}
	pool := map[string][]string{}
	for _, ss := range matched {
		for _, s := range ss {
			root := find(s)
			if !slices.Contains(pool[root], s) {
				pool[root] = append(pool[root], s)
			}
		}
	}
	for _, r := range roles {
		m := RoleMatch{Role: r, Models: models[r], Method: method[r], Candidates: candidates[r]}
		sort.Strings(m.Models)
		if ss := matched[r]; len(ss) > 0 {
			group := slices.Clone(pool[find(ss[0])])
			sort.Strings(group)
			m.RealSpeakers = group
			best := -1
			for _, s := range group {
				m.RealUtterances += speakers[s]
				if speakers[s] > best {
					best, m.RealRole = speakers[s], s
				}
			}
		}
		m.DistinctionOnly = m.RealRole == ""
		if m.DistinctionOnly && m.Method != genimport.MatchRoleMap {
			m.Method = genimport.MatchNone
		}
		matches = append(matches, m)
	}
	return matches, notes
}

// claimedByRival reports whether real speaker s was taken in steps 1–2 by
// a role other than r that one of r's models also plays (RoleBench's
// "Jack" keeps the real "Jack" from its "Jack Sparrow").
func claimedByRival(s, r string, claimedBy, models, modelRoles map[string][]string) bool {
	for _, other := range claimedBy[s] {
		if other == r {
			continue
		}
		for _, m := range models[r] {
			if slices.Contains(modelRoles[m], other) {
				return true
			}
		}
	}
	return false
}

// onePerson reports whether names all relate pairwise.
func onePerson(ss []string, names *genimport.NameMatcher) bool {
	for i := range ss {
		for j := i + 1; j < len(ss); j++ {
			if names.Compare(ss[i], ss[j]) == genimport.MatchNone {
				return false
			}
		}
	}
	return true
}

// ReadRoleMap reads a role map file for Config.RoleMap. The text form has
// one role per line,
//
//	# comment
//	Sheldon Cooper = Sheldon
//	Harry Potter = Harry; Harry Potter
//	Caesar =
//
// the generated role name, "=", and the real speaker names separated by
// ";" (none: the role has no real lines). A file ending in .json holds one
// object {"role": ["speaker", ...]}. Errors name the file and line.
func ReadRoleMap(path string) (map[string][]string, error) {
	if strings.EqualFold(filepath.Ext(path), ".json") {
		b, err := fsx.ReadFile(path, fsx.MaxInput)
		if err != nil {
			return nil, fmt.Errorf("role map: %w", err)
		}
		var m map[string][]string
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, fmt.Errorf("role map %s: expected an object {\"role\": [\"real speaker\", ...]}: %w", path, err)
		}
		return m, nil
	}
	f, err := fsx.Open(path)
	if err != nil {
		return nil, fmt.Errorf("role map: %w", err)
	}
	defer f.Close()
	m := map[string][]string{}
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		role, rest, ok := strings.Cut(line, "=")
		role = strings.TrimSpace(role)
		if !ok || role == "" {
			return nil, fmt.Errorf("role map %s:%d: expected \"generated role = real speaker[; real speaker...]\", got %q", path, n, line)
		}
		if _, dup := m[role]; dup {
			return nil, fmt.Errorf("role map %s:%d: role %q listed twice", path, n, role)
		}
		var ss []string
		for _, s := range strings.Split(rest, ";") {
			if s = strings.TrimSpace(s); s != "" {
				ss = append(ss, s)
			}
		}
		m[role] = ss
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("role map %s: %w", path, err)
	}
	return m, nil
}

// CheckRoleMap checks a role map (Config.RoleMap) against the data: every
// role it names must be a generated role and every speaker it names a
// real speaker (both compared with genimport.NormalizeName), so that a
// typo fails loudly instead of leaving a role without real lines. The
// error quotes the entry and lists what was expected.
func CheckRoleMap(roleMap map[string][]string, genRoles, realSpeakers []string) error {
	norm := func(names []string) map[string]bool {
		m := map[string]bool{}
		for _, n := range names {
			m[data.NormalizeCharacterName(n)] = true
		}
		return m
	}
	gen, real := norm(genRoles), norm(realSpeakers)
	keys := make([]string, 0, len(roleMap))
	for k := range roleMap {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !gen[data.NormalizeCharacterName(k)] {
			return fmt.Errorf("role map entry %q: no generated role of that name; expected one of %s", k, someNames(genRoles))
		}
		for _, s := range roleMap[k] {
			if !real[data.NormalizeCharacterName(s)] {
				return fmt.Errorf("role map entry %q = %q: no real speaker of that name in the real rows; expected one of %s", k, s, someNames(realSpeakers))
			}
		}
	}
	return nil
}

// someNames lists up to 12 of names, sorted, for an error message.
func someNames(names []string) string {
	s := slices.Clone(names)
	sort.Strings(s)
	s = slices.Compact(s)
	if len(s) > 12 {
		return strings.Join(s[:12], ", ") + fmt.Sprintf(", … (%d in all)", len(s))
	}
	return strings.Join(s, ", ")
}
