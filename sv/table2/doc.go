// Package table2 is the experiment runner behind the paper's Table 2: its
// config (Table2Config, presets, settings), the default-row registry
// (RegisterDefaultRow, DefaultRow, budgets, costs, calibration), the
// per-cell evaluation (EvaluateCell, over the metrics of package stats),
// the Mixed encoders, per-round checkpoints, the manifest and the reports
// (Markdown, CSV, JSON, Parquet).
//
// It sits over the sv core (Encoder, registry, pooling, PairScores). The
// model packages (sv/baseline, sv/neural, sv/uselite) import it to register
// their default rows, so it imports none of them; the names keep their
// Table2 prefix (table2.RunTable2, table2.Table2Config) as before the move.
package table2

//go:generate go run github.com/roleprint/roleprint/internal/options/optdoc -type Table2Config
