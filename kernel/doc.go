// Package kernel is RolePrint's notebook layer for GoNB (the Go kernel for
// Jupyter): it shows tables, figures, audio and utterance sets in a
// notebook, draws progress bars that update in place, caches results
// between cells, and keeps GoNB's promise that the same call also works
// outside a notebook.
//
// Inside GoNB (gonbui.IsNotebook), output goes to the notebook: tables as
// sortable HTML, figures as inline PNG (or SVG), audio as an HTML5 player.
// Outside it (tests, `go run`, the CLI), tables are printed as Markdown and
// figures, audio and HTML are written as files under the notebook's output
// folder, with a line saying where.
//
// A notebook starts with
//
//	var nb = kernel.Open("02-baselines")
//
// which reads the environment once: ROLEPRINT_QUICK=1 selects quick mode
// (small data, for CI), ROLEPRINT_OUT sets the output root (default
// out/notebooks in the repository). Then
//
//	nb.Show(table)                      // any table, figure, audio, Markdown, HTML
//	nb.Figure("fig1-distributions", f)  // show and save as PNG + SVG
//	bar := nb.Progress("embedding")     // bar.Report fits sv.Progress
//	res, err := kernel.Memo(nb, kernel.Key("table2", cfg), func() (*T, error) {...})
//
// GoNB runs every cell as a fresh program, so results computed in one cell
// are not in memory in the next: [Memo] stores them as JSON in the output
// folder so that later cells (and re-runs) load them instead of
// recomputing.
//
// Corpora are loaded by their catalog name (data/corpus):
// nb.Import(ctx, corpus.MustLookup("chatharuhi")) imports once and caches
// Parquet; nb.PaperUtterances loads the seed paper's corpora. kernel sits
// above report and plots and imports no importer itself.
//
// Two interactive cells serve teaching: [Notebook.VerifyDemo] (two text
// areas judged live by a verifier bundle) and [Notebook.ThresholdDemo] (a
// slider over a Table 2 ROC showing ACC and F1 at each threshold). Their
// widgets talk to the cell through GoNB's comms; outside a notebook they
// do nothing, and without a browser (nbconvert) they say so and return.
//
// Sub-package nbcheck checks executed notebooks (errors, panics, failed
// tests, missing figures) for CI.
package kernel
