package table2

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"strings"

	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
	"github.com/roleprint/roleprint/sv/verifier"
)

// Manifest describes res, the result of running p, with the command
// that made it: the build and machine (NewManifest), the backend and why
// it was chosen, the inputs and the resolved pair configuration.
func (p *Plan) Manifest(res *Result, command []string) *Manifest {
	m := NewManifest(res)
	m.Command = command
	m.BackendReason = p.Environment.Backend.Reason
	m.Inputs = p.Inputs.Files
	m.Pairs = p.Pairs
	return m
}

// weightsSetting is the encoder setting naming a trained GoMLX model's
// weights folder (sv/neural's SetWeights; spelled here so that the runner
// links no GoMLX).
const weightsSetting = "weights"

// SaveVerifier writes a verifier bundle (package sv/verifier) into dir
// from res, the finished run of p: the last round's mixed_ft row (its
// parts and weights, chosen on dev pairs), with the fine-tuned parts'
// weights taken from their training checkpoints in the run's work
// folders (res.Config.CheckpointDir must have been set) and the untuned
// parts refitted on the round's training texts (with their sources for
// sv.SourceFitter parts), exactly as the run fitted them; the bundle keeps
// both, and the profiles of the round's training speakers
// (verifier.SpeakerProfiles) for naming the nearest ones. The dev cosines of mixed_ft give the threshold and the
// calibration, unless the run has transfer folds (Result.Transfer): then
// P(same) is calibrated on their held-out-corpus scores, as saved and
// adapted (TransferResult.BundleCalibration); m is the bundle's manifest. It returns the bundle's spec,
// or nil without error when the run has no mixed_ft row (no fine-tuned
// row ran). logf receives the parts' notes (nil discards them).
func (p *Plan) SaveVerifier(ctx context.Context, res *Result, dir string, m *Manifest, logf func(string, ...any)) (*verifier.Spec, error) {
	cfg := res.Config
	r := cfg.Rounds
	var row *EncoderRound
	for i := range res.PerRound {
		if er := &res.PerRound[i]; er.Round == r && er.Encoder == MixedFTName {
			row = er
		}
	}
	if row == nil || row.Mixed == nil {
		return nil, nil
	}
	seed := cfg.Seed + int64(r-1)
	c, err := p.Source()(ctx, r, seed)
	if err != nil {
		return nil, fmt.Errorf("round %d pairs: %w", r, err)
	}
	fit, sources := sv.TrainTextSources(c, cfg.FitMaxTexts)
	parts, err := bundleParts(ctx, &cfg, r, seed, row.Mixed.Parts, row.Mixed.Weights, fit, sources, logf)
	defer closeParts(parts)
	if err != nil {
		return nil, err
	}
	domain, err := verifier.CorpusDomain(c)
	if err != nil {
		logf("reproduce: the verifier bundle records no domain: %v", err)
		domain = nil
	}
	so := verifier.SaveOptions{Name: MixedFTName, Parts: parts, FitTexts: fit, FitSources: sources,
		DevCosines: row.DevCosines(), DevLabels: sv.PairLabels(c.Dev), Criterion: cfg.Criterion, Manifest: m,
		Domain: domain, Demonstration: DemonstrationLabel(m, row.DevCosines(), sv.PairLabels(c.Dev)),
		Speakers: bundleSpeakers(ctx, parts, c, logf)}
	// P(same) fitted on held-out corpora (transfer folds), one calibration
	// per way of scoring: as saved (verify) and adapted (eval, score).
	if cal, note := res.Transfer.BundleCalibration(verifier.ScoringAsSaved); cal != nil {
		so.Calibration, so.CalibrationSource, so.CalibrationNote = cal, verifier.CalibrationHeldOut, note
	}
	if cal, note := res.Transfer.BundleCalibration(verifier.ScoringAdapted); cal != nil {
		so.CalibrationAdapted, so.CalibrationAdaptedSource, so.CalibrationAdaptedNote = cal, verifier.CalibrationHeldOut, note
	}
	return verifier.Save(dir, so)
}

// DemonstrationLabel labels the bundle of a run on the embedded corpus
// alone a demonstration (one playwright, its dev AUC), "" otherwise: such
// a bundle shows how a bundle is made and used, and is no verifier for
// other text.
func DemonstrationLabel(m *Manifest, devScores []float64, devLabels []bool) string {
	if m == nil || len(m.Inputs) == 0 {
		return ""
	}
	for _, in := range m.Inputs {
		if !strings.HasPrefix(in.Path, "embedded:") {
			return ""
		}
	}
	return fmt.Sprintf("trained on the embedded corpus alone (Shakespeare: one playwright's verse drama; dev AUC %.2f); it shows how a bundle is made and used, and is not a verifier for other text: train one on your corpora with `roleprint reproduce CORPUS.parquet...` and measure it on corpora it was not trained on with `roleprint eval`",
		stats.AUC(devScores, devLabels))
}

// bundleParts builds the parts of a verifier bundle as a run trained and
// fitted them: each fine-tuned part reads the weights of its training
// checkpoints in round r's work folder, each part that fits is fitted on
// the training texts with their sources. It returns the parts built so
// far even on error, for closeParts.
func bundleParts(ctx context.Context, cfg *Config, r int, seed int64, names []string, weights []float64,
	fit []string, sources []string, logf func(string, ...any)) ([]verifier.SavePart, error) {
	var parts []verifier.SavePart
	for i, name := range names {
		opts := cfg.EncoderOptions(name, seed)
		opts.Logf = logf
		settings := maps.Clone(opts.Settings)
		if settings == nil {
			settings = map[string]string{}
		}
		opts.Settings = maps.Clone(settings)
		base, ft := sv.SplitFineTuned(name)
		if ft {
			wd := cfg.EncoderWorkDir(r, name)
			if wd == "" {
				return parts, fmt.Errorf("%s: the run kept no training checkpoints", name)
			}
			opts.Settings[weightsSetting] = filepath.Join(wd, "checkpoints")
		}
		enc, err := sv.NewEncoder(base, opts)
		if err != nil {
			return parts, fmt.Errorf("%s: %w", name, err)
		}
		parts = append(parts, verifier.SavePart{Row: name, Base: base, Encoder: enc, Settings: settings, Seed: seed, Weight: weights[i]})
		if f, ok := enc.(sv.Fitter); ok {
			if err := sv.FitWithSources(ctx, f, fit, sources); err != nil { // as the run fitted it
				return parts, fmt.Errorf("%s: fit: %w", name, err)
			}
		}
	}
	return parts, nil
}

// closeParts closes the encoders of parts that hold resources.
func closeParts(parts []verifier.SavePart) {
	for _, p := range parts {
		if cl, ok := p.Encoder.(sv.Closer); ok {
			_ = cl.Close()
		}
	}
}
