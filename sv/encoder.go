package sv

import "context"

// Progress receives how many of total items are done. Encoders call it
// after each batch; a nil Progress is allowed and ignored.
type Progress func(done, total int)

// Report calls p when it is not nil.
func (p Progress) Report(done, total int) {
	if p != nil {
		p(done, total)
	}
}

// Encoder turns utterance texts into fixed-size vectors, one per text, in
// order. Implementations batch internally, stop early with ctx.Err() when
// ctx is cancelled, and report progress after each batch.
type Encoder interface {
	// Name is the encoder's registered name ("liwc", "glove-sif", ...).
	Name() string
	// Dim is the length of every vector Encode returns.
	Dim() int
	// Encode embeds texts; the result has len(texts) vectors of Dim().
	Encode(ctx context.Context, texts []string, progress Progress) ([][]float32, error)
}

// Fitter is an Encoder that must see training texts before it encodes
// (a TF-IDF vocabulary, say). The runner calls Fit with the texts of the
// training split only.
type Fitter interface {
	Encoder
	Fit(ctx context.Context, texts []string) error
}
