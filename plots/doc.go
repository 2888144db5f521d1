// Package plots draws RolePrint's paper figures with gonum.org/v1/plot.
//
// There is one file per figure kind, each a type with a constructor that
// validates its data and returns (*T, error), exported fields with documented
// defaults, and one Render method:
//
//   - [Distributions]: similarity distributions (density histogram + Gaussian
//     KDE per group), e.g. positive vs negative pairs (the seed paper's Figures 1–2).
//   - [ROC]: ROC curves with the AUC of each curve in the legend.
//   - [Bars]: grouped bars with error bars (Table 2 / Table 3 scores, mean ± std).
//   - [Heatmap]: a labelled matrix with a colour bar (role × role similarity,
//     Simulation Rank).
//   - [Lines]: line plots with markers and error bars (ablations over levels or
//     context lengths).
//   - [Boxes]: box plots (acoustic features per character or per bin).
//   - [Grid]: several figures as panels of one figure.
//
// Data comes in through tiny interfaces in the style of gonum's plotter
// package ([Groups], [Labelled], [BarValues], [MatrixValues], and plotter.XYer /
// plotter.YErrorer for lines), with small concrete types ([Group] slices,
// [LabelledScores], [BarTable], [Matrix]) for the common case.
//
// Every figure uses one paper style ([PaperStyle]): Liberation Sans (metric
// compatible with Arial/Helvetica) at sizes readable at one paper column
// (3.5 in), and the colour-blind-safe Okabe–Ito palette ([OkabeIto]), with
// dashes and marker shapes as a second cue. [Save], [SaveAll] and [Encode]
// export PNG (at a chosen DPI), SVG and PDF at a chosen [Size].
package plots
