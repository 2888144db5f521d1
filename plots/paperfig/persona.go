package paperfig

import (
	"fmt"
	"math"

	"github.com/roleprint/roleprint/persona/distill"
	"github.com/roleprint/roleprint/plots"
)

// RelationshipHeatmap draws a character × character matrix of the events
// each pair shares (the co-occurrence behind distilled relationships), for
// the given characters in order (nil: every character of rels, in order of
// first appearance). Pairs without a relationship are empty cells; the
// diagonal is empty.
func RelationshipHeatmap(rels []distill.Relationship, characters []string) (*plots.Heatmap, error) {
	if len(characters) == 0 {
		seen := map[string]bool{}
		for _, r := range rels {
			for _, c := range []string{r.A, r.B} {
				if !seen[c] {
					seen[c] = true
					characters = append(characters, c)
				}
			}
		}
	}
	if len(characters) < 2 {
		return nil, fmt.Errorf("paperfig: need at least two characters with relationships (have %d)", len(characters))
	}
	idx := map[string]int{}
	for i, c := range characters {
		idx[c] = i
	}
	m := plots.Matrix{Rows: characters, Cols: characters, Values: make([][]float64, len(characters))}
	for i := range m.Values {
		m.Values[i] = make([]float64, len(characters))
		for j := range m.Values[i] {
			m.Values[i][j] = math.NaN()
		}
	}
	for _, r := range rels {
		a, okA := idx[r.A]
		b, okB := idx[r.B]
		if okA && okB {
			m.Values[a][b] = float64(r.CoEvents)
			m.Values[b][a] = float64(r.CoEvents)
		}
	}
	h, err := plots.NewHeatmap(m)
	if err != nil {
		return nil, err
	}
	h.Format = "%.0f"
	h.ColorBarLabel = "Shared events"
	h.Min = 0
	return h, nil
}
