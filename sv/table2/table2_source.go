package table2

import (
	"context"
	"fmt"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/sv"
)

// PairsFrom is a CorpusSource that builds each round's pairs from utts
// with pairs.BuildPairs, cfg.Seed replaced by the round's seed (so rounds
// get different speaker splits and pairs, as the paper's three folds).
func PairsFrom(utts []data.Utterance, cfg pairs.PairConfig) CorpusSource {
	return func(ctx context.Context, round int, seed int64) (*pairs.PairCorpus, error) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c := cfg
		c.Seed = seed
		pc, err := pairs.BuildPairs(utts, c)
		if err != nil {
			return nil, fmt.Errorf("build pairs (seed %d): %w", seed, err)
		}
		return pc, nil
	}
}

// quickConfig is the "quick" preset (Presets) as a config, the
// smoke test behind `roleprint reproduce --quick`: one round, at most
// 20,000 training texts for fitting, and the default encoders and mixed
// parts that belong in a run of under a minute on 2 cores: fine-tuned rows
// ("x_ft") and rows whose sv.Row is not marked Quick (GoMLX encoders)
// are dropped, from Encoders and Mixed alike. Name such rows explicitly
// (set Encoders afterwards, or --encoders) to run them anyway. Pair it
// with QuickPairConfig.
func quickConfig() Config {
	c := DefaultConfig()
	pc := pairs.DefaultPairConfig()
	mustApplyPreset("quick", &c, &pc)
	c.Encoders = quickRows(c.Encoders)
	c.Mixed = quickRows(c.Mixed)
	return c
}

// mustApplyPreset applies a built-in preset, which TestPresetsApply
// checks; failing here is a programming error.
func mustApplyPreset(name string, c *Config, pc *pairs.PairConfig) {
	p, err := PresetNamed(name)
	if err == nil {
		_, err = p.Apply(c, pc)
	}
	if err != nil {
		panic("sv: built-in preset " + name + ": " + err.Error())
	}
}

// quickRows keeps the names that belong in the --quick preset: not
// fine-tuned, and not a registered sv.Row without Quick.
func quickRows(names []string) []string {
	quick := map[string]bool{}
	for _, r := range sv.Rows() {
		quick[r.Name] = r.Quick
	}
	var out []string
	for _, n := range names {
		if _, ft := sv.SplitFineTuned(n); ft {
			continue
		}
		if q, known := quick[n]; known && !q {
			continue
		}
		out = append(out, n)
	}
	return out
}

// QuickPairConfig caps cfg's splits for a smoke run with the "quick"
// preset's pair keys (20,000 training pairs, 1,000 pairs per test set and
// 600 dev pairs); a cap already lower stays.
func QuickPairConfig(cfg pairs.PairConfig) pairs.PairConfig {
	q := cfg
	mustApplyPreset("quick", &Config{}, &q)
	cfg.MaxTrainPairs = min(cfg.MaxTrainPairs, q.MaxTrainPairs)
	cfg.MaxTestPairs = min(cfg.MaxTestPairs, q.MaxTestPairs)
	cfg.MaxDevPairs = min(cfg.MaxDevPairs, q.MaxDevPairs)
	return cfg
}

// EmbeddedPairConfig adapts cfg to the embedded Shakespeare corpus, one
// dataset of 37 plays with 131 speakers that pass the filters: it holds
// out 12 unseen and 6 dev speakers instead of the paper's 5 and 2 per
// dataset (which suit corpora of one show each), so that the
// Unseen-Unseen tests and the dev set are big enough for stable numbers.
// `roleprint reproduce` without files uses it.
func EmbeddedPairConfig(cfg pairs.PairConfig) pairs.PairConfig {
	cfg.UnseenPerDataset = 12
	cfg.DevPerDataset = 6
	return cfg
}
