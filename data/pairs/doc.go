// Package pairs builds the speaker-verification pairs of Yang et al.,
// "Speaker Verification in Agent-generated Conversations": it cuts
// data.Utterance rows into utterance sets, splits speakers into seen,
// unseen and dev, and samples balanced train, dev and nine test splits
// (three exposures × three levels).
//
//   - types.go: the pair schema (UtteranceSet, Pair, PairCorpus, TestKey,
//     Exposure, Level) that sv, persona/llmverify and report read.
//   - config.go: PairConfig with DefaultPairConfig (the paper's protocol)
//     and its variants; aliases.go: the speaker aliases BuildPairs merges.
//   - pairs.go, sets.go, split.go, sample.go: BuildPairs.
//   - io.go, info.go: the Parquet pair directory (WritePairDir, ReadPairDir,
//     manifest.json with PairInfo); stats.go: Table 5's counts (PairStats).
//
// It was a file prefix of package data (pairs_*.go); it imports data for
// the utterance schema and Parquet helpers, and nothing above the data
// layer.
package pairs

//go:generate go run github.com/roleprint/roleprint/internal/options/optdoc -type PairConfig
