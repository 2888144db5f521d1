package main

import (
	"context"
	"path/filepath"

	"github.com/roleprint/roleprint/sv/table2"
)

// reproSaveVerifier writes OUT/verifier from a finished run
// (table2.Plan.SaveVerifier: the last round's mixed_ft row as a bundle
// `roleprint verify`, `score` and `eval` load, with the domain it knows and,
// for a run on the embedded corpus alone, its demonstration label) and
// says how to use it. A run without a fine-tuned row writes no bundle.
// Failures are reported (the reports are already written) and return "".
func reproSaveVerifier(ctx context.Context, e *env, plan *table2.Plan, res *table2.Result, out string, m *table2.Manifest) string {
	dir := filepath.Join(out, "verifier")
	spec, err := plan.SaveVerifier(ctx, res, dir, m, e.Logf)
	if err != nil {
		e.Logf("reproduce: verifier bundle not written: %v", err)
		return ""
	}
	if spec == nil {
		return ""
	}
	if spec.Demonstration != "" {
		e.Logf("reproduce: demonstration verifier bundle %s in %s: %s", spec.Name, dir, spec.Demonstration)
		return dir
	}
	if spec.CalibrationNote != "" {
		e.Logf("reproduce: the bundle's P(same) is calibrated on %s: %s", spec.CalibrationSource, spec.CalibrationNote)
	}
	e.Logf("reproduce: verifier bundle %s in %s: %s (round %d dev pairs); use it with `roleprint verify --verifier %s A.txt B.txt` or `roleprint score --verifier %s`, and measure it on corpora it was not trained on with `roleprint eval --verifier %s`",
		spec.Name, dir, reproMixedChoice(res), res.Config.Rounds, dir, dir, dir)
	return dir
}

// reproMixedChoice describes the last round's mixed_ft parts and weights.
func reproMixedChoice(res *table2.Result) string {
	for _, er := range res.PerRound {
		if er.Round == res.Config.Rounds && er.Encoder == table2.MixedFTName && er.Mixed != nil {
			return er.Mixed.String()
		}
	}
	return ""
}
