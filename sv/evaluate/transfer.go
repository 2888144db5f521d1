package evaluate

import (
	"context"
	"slices"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/sv/table2"
	"github.com/roleprint/roleprint/sv/verifier"
)

// The transfer folds of a Table 2 run (table2.TransferPlan) evaluate each
// fold's bundle on its held-out corpus with Evaluate, exactly as
// `roleprint eval` does; table2 cannot import this package (it imports
// table2), so Evaluate is registered there.
func init() {
	table2.RegisterHeldOutEvaluator(table2.HeldOutEvaluator{Eval: evalHeldOut, Seeds: EvalDefaultSeeds(), Vs: []string{EvalDefaultVs},
		Replicates: table2.CompareReplicates, Confidence: table2.CompareConfidence, Adapt: EvalAdaptAuto, AsSaved: EvalAdaptNone, ECEBins: ECEBins})
}

// evalHeldOut loads the bundle in dir, evaluates it on utts (Evaluate,
// keeping its scores) and returns the evaluation as table2 reads it.
func evalHeldOut(ctx context.Context, dir string, utts []data.Utterance, o table2.HeldOutOptions) (*table2.HeldOutEval, error) {
	v, err := verifier.Load(ctx, dir, verifier.LoadOptions{Backend: o.Backend, BatchSize: o.BatchSize, Logf: o.Logf})
	if err != nil {
		return nil, err
	}
	defer v.Close()
	rep, err := Evaluate(ctx, v, utts, EvalOptions{Seeds: slices.Clone(o.Seeds), Pairs: o.Pairs, Vs: slices.Clone(o.Vs), Replicates: o.Replicates,
		Confidence: o.Confidence, Adapt: o.Adapt,
		Backend: o.Backend, BatchSize: o.BatchSize, KeepScores: true, Logf: o.Logf, Progress: o.Progress})
	if err != nil {
		return nil, err
	}
	out := &table2.HeldOutEval{Adapted: rep.Adapted, Notes: rep.Notes}
	for _, r := range rep.Rows {
		out.Rows = append(out.Rows, table2.HeldOutRow{Encoder: r.Encoder, Level: r.Level, LevelMetrics: r.LevelMetrics, Pairs: r.Pairs, Rounds: r.Rounds})
	}
	for _, c := range rep.Comparisons {
		out.Comparisons = append(out.Comparisons, table2.HeldOutComparison{Level: c.Level, Comparison: c.Comparison})
	}
	for _, s := range rep.Scores {
		out.Scores = append(out.Scores, table2.HeldOutScores{Level: s.Level, Round: s.Round, Scores: s.Scores, Positive: s.Positive})
	}
	return out, nil
}
