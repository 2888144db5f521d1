package roleplay

import (
	"context"
	"fmt"
	"sort"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
)

// SimilarityMatrix is a role × role matrix of similarities; Values is
// indexed [row][col]. Its methods are those of plots.MatrixValues, so
// plots.NewHeatmap draws it as it is.
type SimilarityMatrix struct {
	// Rows and Cols are the role names, in name order.
	Rows, Cols []string
	// Values holds one row of len(Cols) similarities per row role.
	Values [][]float64
}

// Dims returns the number of rows and columns.
func (m SimilarityMatrix) Dims() (rows, cols int) { return len(m.Rows), len(m.Cols) }

// At returns the similarity of row role r and column role c.
func (m SimilarityMatrix) At(r, c int) float64 { return m.Values[r][c] }

// RowName returns the name of row role r.
func (m SimilarityMatrix) RowName(r int) string { return m.Rows[r] }

// ColName returns the name of column role c.
func (m SimilarityMatrix) ColName(c int) string { return m.Cols[c] }

// RoleSimilarity returns a role × role similarity matrix (drawn by
// plots.NewHeatmap): for each row role
// and column role, the mean cosine between their utterance sets, where a
// role's lines are cut into sets of setSize consecutive lines (at most
// maxSets sets per role, evenly spread; 0: all) and each set is embedded by
// enc as the mean of its utterance vectors (sv.EmbedSets). The mean cosine
// over all set pairs is computed exactly as the dot product of the two
// roles' mean unit set vectors. Roles are listed in name order. A Fitter
// encoder is fitted on every text first. progress may be nil.
func RoleSimilarity(ctx context.Context, enc sv.Encoder, rows, cols map[string][]string, setSize, maxSets int, progress sv.Progress) (SimilarityMatrix, error) {
	if setSize <= 0 {
		return SimilarityMatrix{}, fmt.Errorf("roleplay: set size %d must be positive", setSize)
	}
	if len(rows) == 0 || len(cols) == 0 {
		return SimilarityMatrix{}, fmt.Errorf("roleplay: need row and column roles (have %d and %d)", len(rows), len(cols))
	}
	type side struct {
		names []string
		texts map[string][]string
		sets  map[string][]*pairs.UtteranceSet
	}
	build := func(prefix string, texts map[string][]string) side {
		s := side{texts: texts, sets: map[string][]*pairs.UtteranceSet{}}
		for name := range texts {
			s.names = append(s.names, name)
		}
		sort.Strings(s.names)
		for _, name := range s.names {
			lines := texts[name]
			n := len(lines) / setSize
			step := 1.0
			if maxSets > 0 && n > maxSets {
				step = float64(n) / float64(maxSets)
				n = maxSets
			}
			for k := 0; k < n; k++ {
				start := int(float64(k)*step) * setSize
				s.sets[name] = append(s.sets[name], &pairs.UtteranceSet{
					ID: fmt.Sprintf("%s/%s/%d", prefix, name, k), Speaker: name, Texts: lines[start : start+setSize]})
			}
		}
		return s
	}
	r, c := build("row", rows), build("col", cols)
	var all []*pairs.UtteranceSet
	var texts []string
	for _, s := range []side{r, c} {
		for _, name := range s.names {
			if len(s.sets[name]) == 0 {
				return SimilarityMatrix{}, fmt.Errorf("roleplay: role %q has %d lines, fewer than one set of %d", name, len(s.texts[name]), setSize)
			}
			for _, set := range s.sets[name] {
				all = append(all, set)
				texts = append(texts, set.Texts...)
			}
		}
	}
	if f, ok := enc.(sv.Fitter); ok {
		if err := f.Fit(ctx, texts); err != nil {
			return SimilarityMatrix{}, fmt.Errorf("roleplay: fitting %s: %w", enc.Name(), err)
		}
	}
	emb, err := sv.EmbedSets(ctx, enc, all, progress)
	if err != nil {
		return SimilarityMatrix{}, fmt.Errorf("roleplay: embedding with %s: %w", enc.Name(), err)
	}
	centroid := func(sets []*pairs.UtteranceSet) []float64 {
		var out []float64
		for _, set := range sets {
			v := stats.Normalize(emb[set.ID])
			if out == nil {
				out = make([]float64, len(v))
			}
			for i, x := range v {
				out[i] += float64(x) / float64(len(sets))
			}
		}
		return out
	}
	m := SimilarityMatrix{Rows: r.names, Cols: c.names}
	colC := make([][]float64, len(c.names))
	for j, name := range c.names {
		colC[j] = centroid(c.sets[name])
	}
	for _, name := range r.names {
		rc := centroid(r.sets[name])
		row := make([]float64, len(c.names))
		for j := range c.names {
			var dot float64
			for i := range rc {
				dot += rc[i] * colC[j][i]
			}
			row[j] = dot
		}
		m.Values = append(m.Values, row)
	}
	return m, nil
}
