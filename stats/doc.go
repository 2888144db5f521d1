// Package stats is the leaf of statistics every other layer shares: small
// functions over plain slices in the style of gonum's stat package, each
// documenting its edge cases (empty input, one class, ties, NaN).
//
//   - Detection metrics: AUC (Mann–Whitney over mid-ranks), EER (gonum's
//     ROC, interpolated), BestThreshold and its Criterion, Confusion and
//     ConfusionAt, AccuracyF1.
//   - Ranks and correlation: MidRanks (ties averaged), Pearson, Spearman,
//     KendallTauB, CountPairs, PairwiseAgreement.
//   - Vectors: Cosine (float32 or float64), Normalize.
//   - Moments and intervals: Mean, MeanStd, PercentileInterval (the
//     percentile bootstrap interval) and Interval.
//   - JSON: Float, the one NaN-as-null number, and MarshalStruct /
//     UnmarshalStruct for structs whose float fields should write the same.
//
// It imports nothing of this repository (only gonum and the standard
// library), so data, sv, speech, persona and report can all use it.
package stats
