package baseline

import (
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
	sv.RegisterEncoder(NameGloVe, func(o sv.EncoderOptions) (sv.Encoder, error) { return gloveFromOptions(o, false) })
	sv.RegisterEncoder(NameGloVeSIF, func(o sv.EncoderOptions) (sv.Encoder, error) { return gloveFromOptions(o, true) })
	sv.RegisterEncoder(NameTFIDF, func(o sv.EncoderOptions) (sv.Encoder, error) { return tfidfFromOptions(o) })
	sv.RegisterEncoder(NameNgramMetric, ngramMetricFromOptions)
	// The fine-tuned n-gram metric is the default fine-tuned row: it trains
	// in seconds on 2 cores (no GoMLX), so it is a default on every backend.
	// Seconds are per round on the embedded corpus (2,100 training pairs,
	// 8 epochs), for 2 idle cores: measured 16 s and 31 s at load average
	// ~10 (five jobs on the 2 cores), taken as a third of that idle. On the
	// four shared corpora (37,700 training pairs, 19,400 evaluation
	// utterances) a round of ngram-metric_ft took 75–163 s at load 7–11:
	// 0.23–0.54 ms per training pair and epoch, 0.7–1.0 ms per embedded
	// utterance, 17–41 s for fitting the two vocabularies.
	sv.RegisterDefaultRow(sv.DefaultRow{
		Name: NameNgramMetric, With: NameNgramMetric + sv.FineTunedSuffix,
		Seconds: map[string]float64{"": 5},
		Why:     "the n-gram metric untrained (tfidf and topic-masked tfidf), to show what fine-tuning adds",
	})
	sv.RegisterDefaultRow(sv.DefaultRow{
		Name:    NameNgramMetric + sv.FineTunedSuffix,
		Seconds: map[string]float64{"": 10},
		Why:     "per-feature weights over character n-gram and topic-masked n-gram TF-IDF, fine-tuned with the paper's contrastive loss (seconds on CPU)",
	})
}

// gloveFromOptions reads the settings "vectors" (file), "sif_a", "pc" and
// "pc_sample".
func gloveFromOptions(o sv.EncoderOptions, sif bool) (sv.Encoder, error) {
	opts := GloVeOptions{SIF: sif, Path: o.String(GloVeSettingPath, "")}
	if opts.Path == "" && o.CacheDir != "" {
		p, err := GloVePath(o.CacheDir)
		if err != nil {
			return nil, err
		}
		opts.Path = p
	}
	var err error
	if opts.A, err = o.Float("sif_a", 1e-3); err != nil {
		return nil, err
	}
	if opts.Components, err = o.Int("pc", 1); err != nil {
		return nil, err
	}
	if opts.FitSample, err = o.Int("pc_sample", 20000); err != nil {
		return nil, err
	}
	center, err := o.Bool("center", true)
	if err != nil {
		return nil, err
	}
	opts.NoCenter = !center
	return NewGloVe(opts)
}

// tfidfFromOptions reads the settings "ngram_min", "ngram_max",
// "max_features", "min_df", "lowercase", "sublinear_tf", "center",
// "pool" and "topic_mask".
func tfidfFromOptions(o sv.EncoderOptions) (sv.Encoder, error) {
	var opts TFIDFOptions
	var err error
	if opts.MinN, err = o.Int("ngram_min", 2); err != nil {
		return nil, err
	}
	if opts.MaxN, err = o.Int("ngram_max", 4); err != nil {
		return nil, err
	}
	if opts.MaxFeatures, err = o.Int("max_features", 20000); err != nil {
		return nil, err
	}
	if opts.MinDF, err = o.Int("min_df", 2); err != nil {
		return nil, err
	}
	if opts.Lowercase, err = o.Bool("lowercase", false); err != nil {
		return nil, err
	}
	sub, err := o.Bool("sublinear_tf", true)
	if err != nil {
		return nil, err
	}
	opts.LinearTF = !sub
	center, err := o.Bool("center", true)
	if err != nil {
		return nil, err
	}
	opts.NoCenter = !center
	if opts.TopicMask, err = o.Int("topic_mask", 0); err != nil {
		return nil, err
	}
	switch p := o.String("pool", "mean"); p {
	case "mean":
	case "doc":
		opts.Document = true
	default:
		return nil, &settingError{"pool", p, "mean or doc"}
	}
	return NewTFIDF(opts)
}

// settingError is a malformed encoder setting.
type settingError struct{ key, val, want string }

// Error names the setting, its value and what was expected.
func (e *settingError) Error() string {
	return "encoder setting " + e.key + "=" + e.val + ": expected " + e.want
}
