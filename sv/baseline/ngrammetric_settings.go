package baseline

import (
	"github.com/roleprint/roleprint/internal/options"
	"github.com/roleprint/roleprint/sv"
)

// NgramMetricFromSettings resolves the "ngram-metric" (and
// "ngram-metric_ft") options: DefaultNgramMetricOptions with o.Settings
// applied by internal/options (keys: `roleprint config ngram-metric_ft`;
// an unknown key is an error listing the valid ones).
func NgramMetricFromSettings(o sv.EncoderOptions) (NgramMetricOptions, error) {
	d := DefaultNgramMetricOptions()
	if err := options.Apply(&d, o.Settings); err != nil {
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
	if opts.Weights != "" {
		mf, err := readMetricFile(opts.Weights)
		if err != nil {
			return nil, err
		}
		metricOf(f).pending = mf
	}
	return f, nil
}
