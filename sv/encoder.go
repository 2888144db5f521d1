package sv

import (
	"context"

	"github.com/roleprint/roleprint/sv/encoder"
)

// Encoder turns utterance texts into fixed-size vectors (see
// encoder.Encoder). It is declared in the small package sv/encoder so
// that packages which only take an encoder (persona/textmetrics,
// persona/align) need not import sv; the alias keeps sv.Encoder the name
// every model and caller uses.
type Encoder = encoder.Encoder

// Progress receives how many of total items are done (see
// encoder.Progress); a nil Progress is allowed and ignored.
type Progress = encoder.Progress

// Fitter is an Encoder that must see training texts before it encodes
// (a TF-IDF vocabulary, say). The runner calls Fit with the texts of the
// training split only.
type Fitter interface {
	Encoder
	Fit(ctx context.Context, texts []string) error
}

// SourceFitter is a Fitter that can also use the Source of each training
// text (per-source statistics: tfidf's center_by). The runner calls
// FitSources instead of Fit when an encoder has it, with sources[i] the
// Source of texts[i]; both come from the training split only.
type SourceFitter interface {
	Fitter
	FitSources(ctx context.Context, texts, sources []string) error
}

// Adapter is an Encoder whose unsupervised statistics (vocabulary, IDF,
// centring mean) can be re-estimated, without labels, on the texts it is
// about to score, keeping what training learned: domain adaptation, the
// mean normalisation speaker verification applies to a new channel. A
// verifier trained on four TV and theatre corpora centres its sets on
// those corpora's means; adapted to another domain's texts (a role-play
// benchmark's real and generated lines) it centres every set on that
// domain's mean instead, so what the whole new domain shares cancels.
// Adapt replaces any earlier adaptation; it is an error with no texts.
type Adapter interface {
	Encoder
	Adapt(ctx context.Context, texts []string) error
}
