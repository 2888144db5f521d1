package selfplay

import (
	"fmt"
	"strings"
)

// Pairing names which roles meet in a scene.
type Pairing string

const (
	// PairsAll makes a scene of every unordered pair of roles.
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

// Scenes lists the scenes of roles under pairing p: perPair
// conversations per pair, the two roles taking turns to speak first
// (replicate k starts with the pair's first role when k is even). Each
// scene's seed is seed + its index.
func Scenes(roles []Role, p Pairing, perPair int, seed int64) ([]Scene, error) {
	if perPair < 1 {
		perPair = 1
	}
	var pairs [][2]string
	for i := range roles {
		for j := i + 1; j < len(roles); j++ {
			if p == PairsPaper && roles[i].Source != roles[j].Source {
				continue
			}
			pairs = append(pairs, [2]string{roles[i].Name, roles[j].Name})
		}
	}
	if len(pairs) == 0 {
		if p == PairsPaper && len(roles) > 1 {
			return nil, fmt.Errorf("--pairs paper: no two roles share a source (give a third column in the roles file, or use --pairs all)")
		}
		return nil, fmt.Errorf("self-play needs at least two roles (got %d)", len(roles))
	}
	var out []Scene
	for _, pr := range pairs {
		for k := 0; k < perPair; k++ {
			rs := []string{pr[0], pr[1]}
			if k%2 == 1 {
				rs = []string{pr[1], pr[0]}
			}
			out = append(out, Scene{ID: fmt.Sprintf("%s+%s#%d", pr[0], pr[1], k), Roles: rs, Replicate: k, Seed: seed + int64(len(out))})
		}
	}
	return out, nil
}
