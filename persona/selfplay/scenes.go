package selfplay

import (
	"fmt"
	"strings"
)

// Pairing names which roles meet in a scene.
type Pairing string

const (
	// PairsAll makes a scene of every unordered pair (or group, see
	// Config.SceneSize) of roles.
	PairsAll Pairing = "all"
	// PairsPaper follows Yang et al. §6.1 as RolePrint reads it: the
	// characters of one work talk with each other, so every unordered pair
	// of roles of the same Role.Source gets a scene, and roles of different
	// works never meet.
	PairsPaper Pairing = "paper"
)

// ParsePairing reads "all" or "paper".
func ParsePairing(s string) (Pairing, error) {
	switch p := Pairing(strings.ToLower(strings.TrimSpace(s))); p {
	case PairsAll, PairsPaper:
		return p, nil
	}
	return "", fmt.Errorf("pairs %q: want all or paper", s)
}

// Scene is one self-play conversation to generate.
type Scene struct {
	// ID is the conversation id, "ROLE_A+ROLE_B#K".
	ID string `json:"id"`
	// Roles are the speakers in speaking order; Roles[0] answers the
	// greeting.
	Roles []string `json:"roles"`
	// Replicate is K, the scene's index among Config.PerPair
	// conversations of the same roles.
	Replicate int `json:"replicate"`
	// Seed is the sampling seed sent with every request of the scene.
	Seed int64 `json:"seed"`
}

// Scenes lists the scenes of roles under pairing p: every unordered
// group of size roles (size < 2 means 2: pairs) — under PairsPaper only
// groups whose roles share a Source — with perPair conversations per
// group; replicate k rotates the speaking order by k, so the roles take
// turns to open. Scene i's seed is seed + i. IDs are "A+B[+C]#k".
func Scenes(roles []Role, p Pairing, perPair int, seed int64, size int) ([]Scene, error) {
	if perPair < 1 {
		perPair = 1
	}
	if size < 2 {
		size = 2
	}
	var groups [][]string
	var pick func(start int, cur []int)
	pick = func(start int, cur []int) {
		if len(cur) == size {
			g := make([]string, size)
			for i, k := range cur {
				g[i] = roles[k].Name
			}
			groups = append(groups, g)
			return
		}
		for k := start; k < len(roles); k++ {
			if p == PairsPaper && len(cur) > 0 && roles[k].Source != roles[cur[0]].Source {
				continue
			}
			pick(k+1, append(cur, k))
		}
	}
	pick(0, nil)
	if len(groups) == 0 {
		if p == PairsPaper && len(roles) >= size {
			return nil, fmt.Errorf("--pairs paper: no %d roles share a source (give a third column in the roles file, or use --pairs all)", size)
		}
		return nil, fmt.Errorf("self-play needs at least %d roles (got %d)", size, len(roles))
	}
	var out []Scene
	for _, g := range groups {
		for k := 0; k < perPair; k++ {
			rs := append(append([]string(nil), g[k%size:]...), g[:k%size]...)
			out = append(out, Scene{ID: fmt.Sprintf("%s#%d", strings.Join(g, "+"), k), Roles: rs, Replicate: k, Seed: seed + int64(len(out))})
		}
	}
	return out, nil
}
