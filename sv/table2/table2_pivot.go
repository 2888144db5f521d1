package table2

import "github.com/roleprint/roleprint/data/pairs"

// LevelAUC is one encoder's mean AUC at each level of one exposure, the
// pivot of Table 2 rows that the level ablation (notebook 07) shows.
type LevelAUC struct {
	Encoder string  `json:"encoder"`
	Base    float64 `json:"Base"`
	Hard    float64 `json:"Hard"`
	Harder  float64 `json:"Harder"`
	// Drop is Base − Harder: how much the hardest negatives cost.
	Drop float64 `json:"Base − Harder"`
}

// LevelAUCs pivots rows of exposure e into one LevelAUC per encoder, in
// the rows' order of first appearance. A level an encoder has no row for
// reads 0.
func LevelAUCs(rows []Row, e pairs.Exposure) []LevelAUC {
	var out []LevelAUC
	index := map[string]int{}
	for _, r := range rows {
		if r.Exposure != string(e) {
			continue
		}
		i, ok := index[r.Encoder]
		if !ok {
			i = len(out)
			index[r.Encoder] = i
			out = append(out, LevelAUC{Encoder: r.Encoder})
		}
		switch pairs.Level(r.Level) {
		case pairs.Base:
			out[i].Base = float64(r.AUCMean)
		case pairs.Hard:
			out[i].Hard = float64(r.AUCMean)
		case pairs.Harder:
			out[i].Harder = float64(r.AUCMean)
		}
	}
	for i := range out {
		out[i].Drop = out[i].Base - out[i].Harder
	}
	return out
}
