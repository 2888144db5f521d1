package table2

import (
	"time"

	"github.com/roleprint/roleprint/sv"
)

// mixedFT builds the round's mixed_ft row from the rows computed so far
// (nil when none is fine-tuned): parts and weights chosen by chooseMixedFT
// on the dev pairs' scores only, then applied to every test set. A row's
// score is the one its own row reports (the cosine, or a PairScorer's own
// score such as ngram-metric_ft's s-norm), so mixed_ft of one part is that
// row, and the verifier bundle fuses the same scores (sv/verifier
// scored_mixture.go). The
// choice is the row's About (so it lands in the run manifest's encoders)
// and its Mixed field.
func (rr *roundRunner) mixedFT(rows map[string]*EncoderRound) (*EncoderRound, error) {
	t := time.Now()
	devCos := map[string][]float64{}
	anyFT := false
	for name, er := range rows {
		if er == nil || er.scores == nil {
			continue
		}
		devCos[name] = er.scores.Dev
		if _, ft := sv.SplitFineTuned(name); ft {
			anyFT = true
		}
	}
	if !anyFT {
		return nil, nil
	}
	choice, err := chooseMixedFT(devCos, sv.PairLabels(rr.corpus.Dev))
	if err != nil {
		return nil, err
	}
	er := &EncoderRound{Round: rr.round, Seed: rr.seed, Encoder: MixedFTName, About: "mixed features of " + choice.String(), Mixed: &choice}
	er.scores = &pairScores{Tests: map[string][]float64{}}
	partCos := func(key string) [][]float64 {
		out := make([][]float64, len(choice.Parts))
		for i, p := range choice.Parts {
			if key == "" {
				out[i] = rows[p].scores.Dev
			} else {
				out[i] = rows[p].scores.Tests[key]
			}
		}
		return out
	}
	er.scores.Dev = fuseCosines(partCos(""), choice.Weights)
	for _, k := range allTestKeys() {
		ks := k.String()
		er.scores.Tests[ks] = fuseCosines(partCos(ks), choice.Weights)
	}
	for _, p := range choice.Parts {
		er.Dim += rows[p].Dim
	}
	er.Timing.ScoreS = time.Since(t).Seconds()
	er.Timing.TotalS = er.Timing.ScoreS
	rr.evaluate(er)
	return er, nil
}
