// Package paperfig builds the papers' figures from RolePrint's result
// types: it adapts sv's Table 2 rows, sv/roleplay's reports and speech's
// acoustic profiles to the figure kinds of package plots, so that a
// notebook cell draws a paper figure with one call.
//
// It only draws: it computes no embeddings (the scores behind a ROC curve
// come from sv.PairScores or the runner, the role × role matrix from
// roleplay.RoleSimilarity) and renders no tables (those are package
// report's). It sits above sv, speech and persona and below report.
//
// Package plots itself stays free of these dependencies (and quick to
// test); this package is where the data model meets the figures.
package paperfig
