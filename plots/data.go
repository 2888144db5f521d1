package plots

import "math"

// Groups is a set of named samples: positive and negative pair similarities,
// an acoustic feature per character, ...
type Groups interface {
	// Len returns the number of groups.
	Len() int
	// Name returns the name of group i (shown in legends and on axes).
	Name(i int) string
	// Values returns the sample of group i. It is not modified.
	Values(i int) []float64
}

// Group is one named sample; a []Group is a [Groups].
type Group struct {
	Name   string
	Values []float64
}

// GroupSlice is a slice of groups that implements [Groups].
type GroupSlice []Group

// Len implements Groups.
func (g GroupSlice) Len() int { return len(g) }

// Name implements Groups.
func (g GroupSlice) Name(i int) string { return g[i].Name }

// Values implements Groups.
func (g GroupSlice) Values(i int) []float64 { return g[i].Values }

// copyGroups validates g (at least one group; every group at least min
// finite values, no NaN or Inf) and returns a private copy.
func copyGroups(what string, g Groups, min int) (GroupSlice, error) {
	if g == nil || g.Len() == 0 {
		return nil, errorf("%s: no groups", what)
	}
	out := make(GroupSlice, g.Len())
	for i := range out {
		vs := g.Values(i)
		name := g.Name(i)
		if len(vs) < min {
			return nil, errorf("%s: group %d (%q) has %d values, need at least %d", what, i, name, len(vs), min)
		}
		for j, v := range vs {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, errorf("%s: group %d (%q) value %d is %v", what, i, name, j, v)
			}
		}
		out[i] = Group{Name: name, Values: append([]float64(nil), vs...)}
	}
	return out, nil
}

// finite reports whether v is neither NaN nor infinite.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
