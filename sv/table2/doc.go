// Package table2 is the experiment runner behind the paper's Table 2.
//
// One path leads from a request to a report: a Request (what the caller
// asks: preset, rows, rounds, settings) is resolved once for its Inputs
// on this machine by Resolve into a Plan (defaults < preset < request,
// the rows this machine affords for the measured workload, the estimate),
// and Run runs the plan without filling anything in. `roleprint reproduce`
// builds the Request from its flags and a notebook (package kernel) from
// its Table2Run, so both choose the same rows and give the same numbers.
// RunConfig runs a configuration built by hand.
//
// The package holds the config (Config, presets, settings), the
// selection of the default rows among the sv.Row descriptors the encoder
// packages register (budgets, costs, calibration), the per-cell
// evaluation (over the metrics of package stats), the Mixed encoders,
// per-round checkpoints, the manifest, the reports (Markdown, CSV, JSON,
// Parquet) and the verifier bundle of a run (Plan.SaveVerifier).
//
// It sits over the sv core (Encoder, registry, pooling, PairScores, Row).
// No model package (sv/baseline, sv/neural, sv/uselite, sv/verifier)
// imports it: each describes its own rows with sv.RegisterRow, and the
// runner reads them with sv.Rows.
package table2

//go:generate go run github.com/roleprint/roleprint/internal/options/optdoc -type Config
