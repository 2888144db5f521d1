// Package sv is speaker verification: encoders that turn utterances into
// vectors (style features, pretrained word vectors, TF-IDF, GoMLX models),
// set embeddings by mean pooling, metrics (ROC AUC, accuracy, macro-F1,
// EER), the experiment runner behind the paper's Table 2, and the
// role-play scores (Simulation, Distinction, Simulation Rank).
//
// Every model implements Encoder; the runner, the role-play scores, the
// CLI and the notebooks only ever see that interface.
package sv

//go:generate go run github.com/roleprint/roleprint/internal/options/optdoc -type Table2Config
