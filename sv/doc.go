// Package sv is speaker verification: encoders that turn utterances into
// vectors (style features, pretrained word vectors, TF-IDF, GoMLX models),
// set embeddings by mean pooling, the per-cell evaluation (EvaluateCell,
// over the metrics of package stats), the experiment runner behind the paper's Table 2, and the
// role-play scores (Simulation, Distinction, Simulation Rank).
//
// Every model implements Encoder; the runner, the role-play scores, the
// CLI and the notebooks only ever see that interface.
package sv
