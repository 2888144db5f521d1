// Package table2 is the experiment runner behind the paper's Table 2: its
// config (Table2Config, presets, settings), the selection of the default
// rows among the sv.Row descriptors the encoder packages register (budgets,
// costs, calibration), the per-cell evaluation (over the metrics of package
// stats), the Mixed encoders, per-round checkpoints, the manifest and the
// reports (Markdown, CSV, JSON, Parquet).
//
// It sits over the sv core (Encoder, registry, pooling, PairScores, Row).
// No model package (sv/baseline, sv/neural, sv/uselite, sv/verifier)
// imports it: each describes its own rows with sv.RegisterRow, and the
// runner reads them with sv.Rows.
package table2

//go:generate go run github.com/roleprint/roleprint/internal/options/optdoc -type Table2Config
