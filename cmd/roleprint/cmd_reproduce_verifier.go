package main

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"

	"github.com/roleprint/roleprint/sv"
	"github.com/roleprint/roleprint/sv/neural"
	"github.com/roleprint/roleprint/sv/table2"
	"github.com/roleprint/roleprint/sv/verifier"
)

// reproSaveVerifier writes OUT/verifier from a finished run: the last
// round's mixed_ft row (its parts and weights, chosen on dev pairs), with
// the fine-tuned parts' weights taken from their training checkpoints in
// the run's work folders and the untuned parts refitted on the round's
// training texts (with their sources for sv.SourceFitter parts), exactly
// as the run fitted them; the bundle keeps both. The dev cosines of
// mixed_ft give the threshold and the calibration; m is the bundle's
// manifest. A run without a fine-tuned row writes no bundle. Failures are
// reported (the reports are already written) and return "".
func reproSaveVerifier(ctx context.Context, e *env, res *table2.Table2, source table2.CorpusSource, out string, m *table2.Manifest) string {
	dir, err := reproBuildVerifier(ctx, e, res, source, out, m)
	if err != nil {
		e.Logf("reproduce: verifier bundle not written: %v", err)
		return ""
	}
	return dir
}

func reproBuildVerifier(ctx context.Context, e *env, res *table2.Table2, source table2.CorpusSource, out string, m *table2.Manifest) (string, error) {
	cfg := res.Config
	r := cfg.Rounds
	var row *table2.EncoderRound
	for i := range res.PerRound {
		if er := &res.PerRound[i]; er.Round == r && er.Encoder == table2.MixedFTName {
			row = er
		}
	}
	if row == nil || row.Mixed == nil {
		return "", nil // no fine-tuned row: nothing to save
	}
	seed := cfg.Seed + int64(r-1)
	c, err := source(ctx, r, seed)
	if err != nil {
		return "", fmt.Errorf("round %d pairs: %w", r, err)
	}
	fit, sources := sv.TrainTextSources(c, cfg.FitMaxTexts)
	var parts []verifier.SavePart
	defer func() {
		for _, p := range parts {
			if cl, ok := p.Encoder.(sv.Closer); ok {
				_ = cl.Close()
			}
		}
	}()
	for i, name := range row.Mixed.Parts {
		opts := cfg.EncoderOptions(name, seed)
		opts.Logf = e.Logf
		settings := maps.Clone(opts.Settings)
		if settings == nil {
			settings = map[string]string{}
		}
		opts.Settings = maps.Clone(settings)
		base, ft := sv.SplitFineTuned(name)
		if ft {
			wd := cfg.EncoderWorkDir(r, name)
			if wd == "" {
				return "", fmt.Errorf("%s: the run kept no training checkpoints", name)
			}
			opts.Settings[neural.SetWeights] = filepath.Join(wd, "checkpoints")
		}
		enc, err := sv.NewEncoder(base, opts)
		if err != nil {
			return "", fmt.Errorf("%s: %w", name, err)
		}
		parts = append(parts, verifier.SavePart{Row: name, Base: base, Encoder: enc, Settings: settings, Seed: seed, Weight: row.Mixed.Weights[i]})
		if f, ok := enc.(sv.Fitter); ok {
			if err := sv.FitWithSources(ctx, f, fit, sources); err != nil { // as the run fitted it
				return "", fmt.Errorf("%s: fit: %w", name, err)
			}
		}
	}
	dir := filepath.Join(out, "verifier")
	demo := reproDemonstration(m, row.DevCosines(), table2.PairLabels(c.Dev))
	spec, err := verifier.Save(dir, verifier.SaveOptions{Name: table2.MixedFTName, Parts: parts, FitTexts: fit, FitSources: sources,
		DevCosines: row.DevCosines(), DevLabels: table2.PairLabels(c.Dev), Criterion: cfg.Criterion, Manifest: m,
		Domain: bundleDomain(e, "reproduce", c), Demonstration: demo})
	if err != nil {
		return "", err
	}
	if demo != "" {
		e.Logf("reproduce: demonstration verifier bundle %s in %s: %s", spec.Name, dir, demo)
		return dir, nil
	}
	e.Logf("reproduce: verifier bundle %s in %s: %s, round %d dev pairs, trained on %s; use it with `roleprint verify --verifier %s A.txt B.txt` or `roleprint score --verifier %s`, and measure it on corpora it was not trained on with `roleprint eval --verifier %s`",
		spec.Name, dir, row.Mixed, r, reproCorpora(c), dir, dir, dir)
	return dir, nil
}
