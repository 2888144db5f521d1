package sv

import (
	"context"
	"fmt"

	"github.com/roleprint/roleprint/data"
)

// PairsFrom is a CorpusSource that builds each round's pairs from utts
// with data.BuildPairs, cfg.Seed replaced by the round's seed (so rounds
// get different speaker splits and pairs, as the paper's three folds).
func PairsFrom(utts []data.Utterance, cfg data.PairConfig) CorpusSource {
	return func(ctx context.Context, round int, seed int64) (*data.PairCorpus, error) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c := cfg
		c.Seed = seed
		pc, err := data.BuildPairs(utts, c)
		if err != nil {
			return nil, fmt.Errorf("build pairs (seed %d): %w", seed, err)
		}
		return pc, nil
	}
}

// QuickTable2Config is the smoke-test preset behind `roleprint reproduce
// --quick`: one round, the default encoders and mixed parts, and at most
// 20,000 training texts for fitting. Pair it with QuickPairConfig.
func QuickTable2Config() Table2Config {
	c := DefaultTable2Config()
	c.Rounds = 1
	c.FitMaxTexts = 20000
	return c
}

// QuickPairConfig caps cfg's splits for a smoke run: 20,000 training
// pairs, 1,000 pairs per test set and 600 dev pairs.
func QuickPairConfig(cfg data.PairConfig) data.PairConfig {
	cfg.MaxTrainPairs = min(cfg.MaxTrainPairs, 20000)
	cfg.MaxTestPairs = min(cfg.MaxTestPairs, 1000)
	cfg.MaxDevPairs = min(cfg.MaxDevPairs, 600)
	return cfg
}

// EmbeddedPairConfig adapts cfg to the embedded Shakespeare corpus, one
// dataset of 37 plays with 131 speakers that pass the filters: it holds
// out 12 unseen and 6 dev speakers instead of the paper's 5 and 2 per
// dataset (which suit corpora of one show each), so that the
// Unseen-Unseen tests and the dev set are big enough for stable numbers.
// `roleprint reproduce` without files uses it.
func EmbeddedPairConfig(cfg data.PairConfig) data.PairConfig {
	cfg.UnseenPerDataset = 12
	cfg.DevPerDataset = 6
	return cfg
}
