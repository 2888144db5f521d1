// Package report writes what a RolePrint job hands to a paper: its figures
// (PNG, SVG and PDF in the one style of package plots, at one- or
// two-column width), its tables as LaTeX (booktabs, mean ± std, the best
// value of each column in bold, the paper's rows in italics) beside the
// Markdown, and one self-contained report.html per run with the tables,
// the figures, the manifest and the paper's numbers beside ours.
//
// It is the output layer of the jobs (reproduce, score, pairs, stats,
// speech profile, judge/metrics agreement) and of the notebooks' paper
// tables: it builds on sv, sv/roleplay, speech and plots/paperfig, and
// never on the CLI or the notebook kernel (which build on it).
//
// The pieces:
//   - [Table]: a table of numeric cells (value, optional ± std or
//     interval) rendered with one rounding as LaTeX ([Table.LaTeX]), HTML
//     ([Table.HTML]) and Markdown ([Table.Markdown]).
//   - [Writer]: writes figures in the chosen [plots.Format]s and tables as
//     .tex/.md into a folder, and remembers them for the HTML page
//     ([Writer.WriteHTML]) and the collected LaTeX file ([Writer.WriteLaTeX]).
//   - Builders from result types: [Table2] (reproduce), [Roleplay] (score),
//     and the smaller jobs' figures.
package report
