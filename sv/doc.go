// Package sv is speaker verification: encoders that turn utterances into
// vectors (style features, pretrained word vectors, TF-IDF, GoMLX models),
// set embeddings by mean pooling, the per-cell evaluation (EvaluateCell,
// over the metrics of package stats), the experiment runner behind the paper's Table 2, and the
// role-play scores (Simulation, Distinction, Simulation Rank).
//
// Every model implements Encoder; the runner, the role-play scores, the
// CLI and the notebooks only ever see that interface.
//
// Configuration: each encoder with settings registers one typed options
// struct (RegisterOptions; its Default…() holds every default, its field
// doc comments document the keys), applied by internal/options; named
// Presets ("cpu", "quick", "paper", "best-cpu", "gpu-ft") are key=value
// lists over the same keys; the manifest records every component's
// resolved options (Table2.Components).
package sv

//go:generate go run github.com/roleprint/roleprint/internal/options/optdoc -type Table2Config
