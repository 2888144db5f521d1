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
