package sv

import (
	"context"
	"fmt"
	"strings"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/stats"
)

// Trainable is an Encoder that can be fine-tuned on a round's pairs. The
// runner builds a fresh encoder for a row named "x_ft", calls Train with
// the round's PairCorpus (train pairs to learn from; dev pairs for early
// stopping or monitoring, never the test pairs), then embeds and scores
// the test sets as for any encoder. The untrained encoder "x" is its own
// row, so a table shows what fine-tuning adds.
//
// Train must honour ctx (return ctx.Err() promptly when cancelled), report
// progress in steps, and be deterministic for EncoderOptions.Seed where
// the backend allows it.
type Trainable interface {
	Encoder
	Train(ctx context.Context, c *pairs.PairCorpus, progress Progress) error
}

// SetEncoder is an Encoder that embeds whole utterance sets itself instead
// of by the mean of its utterance vectors: an attention-pooling head over
// utterance vectors (LUAR), or a document-level representation of the
// set's concatenated text. EmbedSets uses EncodeSets when an encoder has
// it; each inner slice of sets holds one set's texts in order.
type SetEncoder interface {
	Encoder
	EncodeSets(ctx context.Context, sets [][]string, progress Progress) ([][]float32, error)
}

// PairScorer is an Encoder whose set embeddings are compared with its own
// similarity instead of the cosine (Language Style Matching, say). Higher
// means "more likely the same speaker".
type PairScorer interface {
	Encoder
	Score(a, b []float32) float64
}

// SimilarityNamer is implemented by PairScorers whose score is not a
// cosine, to name it in reports and on figure axes ("P(same speaker)").
type SimilarityNamer interface {
	SimilarityName() string
}

// SimilarityName names the similarity ScorePair gives for enc: the
// encoder's own name for it, else "Cosine similarity" (also for a
// PairScorer that does not name its score).
func SimilarityName(enc Encoder) string {
	if n, ok := enc.(SimilarityNamer); ok {
		return n.SimilarityName()
	}
	return "Cosine similarity"
}

// Closer is implemented by encoders that hold resources (a GoMLX backend,
// an ONNX session); the runner calls Close when a row is done.
type Closer interface {
	Close() error
}

// CloseAll closes every encoder of parts that is a Closer, even after one
// fails; the error names the combination (name) and every part's error.
func CloseAll(name string, parts []Encoder) error {
	var errs []string
	for _, p := range parts {
		if c, ok := p.(Closer); ok {
			if err := c.Close(); err != nil {
				errs = append(errs, err.Error())
			}
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s: close: %s", name, strings.Join(errs, "; "))
	}
	return nil
}

// ScorePair compares two set embeddings the way enc wants: its Score when
// it is a PairScorer, else the cosine.
func ScorePair(enc Encoder, a, b []float32) float64 {
	if s, ok := enc.(PairScorer); ok {
		return s.Score(a, b)
	}
	return stats.Cosine(a, b)
}

// Describer is implemented by encoders that can say what they are built
// from (the word vectors and their version, the model file, the fitted
// vocabulary size); the runner writes it into results and manifests.
type Describer interface {
	Describe() string
}
