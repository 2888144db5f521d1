package baseline

import (
	"github.com/roleprint/roleprint/internal/options"
	"github.com/roleprint/roleprint/sv"
)

// Names of the encoders this package registers.
const (
	NameStyle    = "liwc"
	NameLSM      = "lsm"
	NamePOS      = "pos"
	NameGloVe    = "glove"
	NameGloVeSIF = "glove-sif"
	NameTFIDF    = "tfidf"
)

func init() {
	sv.RegisterEncoder(NameStyle, func(sv.EncoderOptions) (sv.Encoder, error) { return NewStyle(), nil })
	sv.RegisterEncoder(NameLSM, func(sv.EncoderOptions) (sv.Encoder, error) { return NewLSM(), nil })
	sv.RegisterEncoder(NamePOS, func(sv.EncoderOptions) (sv.Encoder, error) { return NewPOS(), nil })
	for _, sif := range []bool{false, true} {
		name := NameGloVe
		if sif {
			name = NameGloVeSIF
		}
		sv.RegisterEncoder(name, func(o sv.EncoderOptions) (sv.Encoder, error) {
			opts, err := GloVeOptionsFrom(o, sif)
			if err != nil {
				return nil, err
			}
			return NewGloVe(opts)
		})
		sv.RegisterOptions(name, func(o sv.EncoderOptions) (any, error) { return GloVeOptionsFrom(o, sif) })
	}
	sv.RegisterEncoder(NameTFIDF, func(o sv.EncoderOptions) (sv.Encoder, error) {
		opts, err := TFIDFOptionsFrom(o)
		if err != nil {
			return nil, err
		}
		return NewTFIDF(opts)
	})
	sv.RegisterOptions(NameTFIDF, func(o sv.EncoderOptions) (any, error) { return TFIDFOptionsFrom(o) })
	sv.RegisterEncoder(NameNgramMetric, ngramMetricFromOptions)
	sv.RegisterOptions(NameNgramMetric, func(o sv.EncoderOptions) (any, error) { return NgramMetricFromSettings(o) })
	registerBaselineRows()
	// The fine-tuned n-gram metric is the default fine-tuned row: it trains
	// in under a minute per round on 2 cores (no GoMLX), so it is a default
	// on every backend. Costs are wall seconds per round at load ≈ 2 (as
	// baselineCosts), from the per-round timings of the default run on
	// the four shared corpora (66,121 training texts, 37,708 training pairs,
	// 19,415 evaluation utterances; docs/reproduce.md "Estimates against
	// runs"): ngram-metric fit 10.7 s, embed 3.4 s; ngram-metric_ft fit
	// 11.0 s, train 17.8 s (up to 8 epochs, early stopping on dev), embed
	// 10.3 s (2.9 s before its s-norm: each set's cosines to 150 cohort
	// sets; measured 2026-12-02, rounds 9.1–11.2 s).
	sv.RegisterRow(sv.Row{
		Name: NameNgramMetric, With: NameNgramMetric + sv.FineTunedSuffix,
		Costs: map[string]sv.RowCost{"": {PerTrainText: 1.6e-4, PerEvalText: 1.8e-4, Source: "committed (sv/baseline/register.go)"}},
		Why:   "the n-gram metric untrained (tfidf and topic-masked tfidf), to show what fine-tuning adds",
	})
	sv.RegisterRow(sv.Row{
		Name:  NameNgramMetric + sv.FineTunedSuffix,
		Costs: map[string]sv.RowCost{"": {PerTrainText: 1.7e-4, PerTrainPair: 4.7e-4, PerEvalText: 5.3e-4, Source: "committed (sv/baseline/register.go)"}},
		Why:   "per-feature weights over character n-gram, topic-masked n-gram and word TF-IDF, each set centred on its predicted corpus, fine-tuned with the paper's contrastive loss (under a minute per round on CPU; recipe: table2's ngramMetricFTSettings)",
	})
}

// GloVeOptionsFrom resolves the "glove" (sif false) or "glove-sif" options:
// DefaultGloVeOptions with o.Settings applied (keys: `roleprint config
// glove-sif`), and the cache's GloVe when no "vectors" file is set.
func GloVeOptionsFrom(o sv.EncoderOptions, sif bool) (GloVeOptions, error) {
	opts := DefaultGloVeOptions(sif)
	if err := options.Apply(&opts, o.Settings); err != nil {
		return opts, err
	}
	if opts.Path == "" && o.CacheDir != "" {
		p, err := GloVePath(o.CacheDir)
		if err != nil {
			return opts, err
		}
		opts.Path = p
	}
	return opts, nil
}

// TFIDFOptionsFrom resolves the "tfidf" options: DefaultTFIDFOptions with
// o.Settings applied (keys: `roleprint config tfidf`), validated.
func TFIDFOptionsFrom(o sv.EncoderOptions) (TFIDFOptions, error) {
	opts := DefaultTFIDFOptions()
	if err := options.Apply(&opts, o.Settings); err != nil {
		return opts, err
	}
	return opts, opts.Validate()
}
