// Package encoder holds the two types every text encoder shares: the
// Encoder interface and its Progress callback. It imports nothing of this
// repository, so a package that only consumes vectors (persona/textmetrics'
// BERTScore and deduplication, persona/align's sentence matching) can take
// an encoder without importing sv, its registry and its runner. sv
// re-exports both as sv.Encoder and sv.Progress; the optional interfaces
// (Fitter, Trainable, PairScorer, ...) and the registry stay in sv.
package encoder

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
