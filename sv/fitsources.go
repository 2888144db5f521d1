package sv

import "context"

// FitWithSources fits f on the training texts: with FitSources when f is a
// SourceFitter and sources (sources[i] the Source of texts[i]) is not nil,
// else with Fit. The runner, the verifier bundles and the CLI fit their
// encoders through it, so a part is fitted the same way everywhere.
func FitWithSources(ctx context.Context, f Fitter, texts, sources []string) error {
	if sf, ok := f.(SourceFitter); ok && sources != nil {
		return sf.FitSources(ctx, texts, sources)
	}
	return f.Fit(ctx, texts)
}
