package baseline

import (
	"github.com/roleprint/roleprint/sv"
)

// NgramMetricFromSettings returns DefaultNgramMetricOptions overridden by
// o's settings (keys in NgramMetricOptions' field comments).
func NgramMetricFromSettings(o sv.EncoderOptions) (NgramMetricOptions, error) {
	d := DefaultNgramMetricOptions()
	var err error
	ints := []struct {
		key string
		p   *int
	}{
		{"ngram_min", &d.Char.MinN}, {"ngram_max", &d.Char.MaxN}, {"max_features", &d.Char.MaxFeatures},
		{"min_df", &d.Char.MinDF}, {"topic_mask", &d.TopicMask}, {"epochs", &d.Epochs},
		{"patience", &d.Patience}, {"rank", &d.Rank}, {"batch_size", &d.BatchSize}, {"threads", &d.Threads},
	}
	for _, x := range ints {
		if *x.p, err = o.Int(x.key, *x.p); err != nil {
			return d, err
		}
	}
	floats := []struct {
		key string
		p   *float64
	}{{"masked_weight", &d.MaskedWeight}, {"lr", &d.LearningRate}, {"margin", &d.Margin}, {"decay", &d.Decay}, {"hard_weight", &d.HardWeight}, {"rank_weight", &d.RankWeight}}
	for _, x := range floats {
		if *x.p, err = o.Float(x.key, *x.p); err != nil {
			return d, err
		}
	}
	if d.DevByLevel, err = o.Bool("dev_by_level", d.DevByLevel); err != nil {
		return d, err
	}
	if d.Char.Lowercase, err = o.Bool("lowercase", d.Char.Lowercase); err != nil {
		return d, err
	}
	if d.Char.SublinearTF, err = o.Bool("sublinear_tf", d.Char.SublinearTF); err != nil {
		return d, err
	}
	if d.Char.Center, err = o.Bool("center", d.Char.Center); err != nil {
		return d, err
	}
	return d, nil
}

// ngramMetricFromOptions builds "ngram-metric" from encoder options; the
// setting "weights" (a file or a training folder's checkpoints) gives
// trained weights, applied after Fit.
func ngramMetricFromOptions(o sv.EncoderOptions) (sv.Encoder, error) {
	opts, err := NgramMetricFromSettings(o)
	if err != nil {
		return nil, err
	}
	logf := o.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	f, err := NewNgramMetric(opts, o.Seed, o.WorkDir, logf)
	if err != nil {
		return nil, err
	}
	if p := o.String(SetMetricWeights, ""); p != "" {
		mf, err := readMetricFile(p)
		if err != nil {
			return nil, err
		}
		f.(*ngramMetric).pending = mf
	}
	return f, nil
}
