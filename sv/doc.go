// Package sv is speaker verification: encoders that turn utterances into
// vectors (style features, pretrained word vectors, TF-IDF, GoMLX models),
// set embeddings by mean pooling, pair scores, and the encoder registry.
//
// Every model implements Encoder; the Table 2 runner (package sv/table2),
// the role-play scores (sv/roleplay), the CLI and the notebooks only ever
// see that interface.
//
// Configuration: each encoder with settings registers one typed options
// struct (RegisterOptions; its Default…() holds every default, its field
// doc comments document the keys), applied by internal/options. The
// runner's presets, default rows, budgets and manifest live in sv/table2.
package sv
