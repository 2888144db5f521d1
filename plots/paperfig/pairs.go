package paperfig

import (
	"fmt"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/plots"
)

// PairBars draws Table 5's test sets as grouped bars: the three exposures
// along x, one bar per level, its height the number of pairs (each split is
// balanced 1:1, so half are positives).
func PairBars(st pairs.PairStatistics) (*plots.Bars, error) {
	bt := plots.BarTable{}
	for _, e := range pairs.Exposures {
		bt.Groups = append(bt.Groups, ExposureName(string(e)))
	}
	for _, l := range pairs.Levels {
		row := make([]float64, len(pairs.Exposures))
		found := false
		for i, e := range pairs.Exposures {
			for _, s := range st.Splits {
				if s.Exposure == e && s.Level == l {
					row[i] = float64(s.Pairs)
					found = true
				}
			}
		}
		if !found {
			return nil, fmt.Errorf("paperfig: no %s-level test splits in the pair statistics", l)
		}
		bt.Series = append(bt.Series, LevelName(string(l)))
		bt.Y = append(bt.Y, row)
	}
	b, err := plots.NewBars(bt)
	if err != nil {
		return nil, err
	}
	b.YLabel = "Test pairs"
	b.YMin = 0
	return b, nil
}
