package baseline

import (
	"context"
	"strings"
)

// Document pooling and channels of an adapted encoder
// (NgramMetricOptions.AdaptPool, AdaptChannels). Training pools a set as
// the mean of its texts' unit TF-IDF vectors, so "Yeah." weighs as much
// as a forty-word speech; on a show held out of training, a set whose
// texts are counted as one document (n-gram counts summed before the
// sublinear TF, the IDF and the norm) ranks Hard pairs better. Two things
// make that hold: the centre is the mean of documents of a set's size
// (the mean of single texts lies far from where documents lie, and
// centring on it loses to mean pooling), and a long set is the mean of
// its documents of that size rather than one document (whose vector
// would drift with its length). Measured: docs/training.md.

// Values of NgramMetricOptions.AdaptPool and AdaptChannels.
const (
	adaptPoolMean     = "mean"
	adaptPoolDoc      = "doc"
	adaptChannelsAll  = "all"
	adaptChannelsChar = "char"
)

// docChunkTexts is the number of texts of a document when the encoder
// has no cohort to take a set's size from: about the mean size of a set
// under the paper's filters (9 to 15 utterances on the four default
// corpora).
const docChunkTexts = 12

// chanBeta is channel ci's weight β in a set vector: its trained β, or 0
// for every channel but "char" while adapted with adapt_channels=char.
func (e *ngramMetric) chanBeta(ci int) float64 {
	c := e.chans[ci]
	if e.target != nil && e.opts.AdaptChannels == adaptChannelsChar && c.name != "char" {
		return 0
	}
	return c.beta
}

// adaptDoc reports whether an adapted encoder pools a set's texts as
// documents (adapt_pool=doc).
func (e *ngramMetric) adaptDoc() bool { return e.opts.AdaptPool == adaptPoolDoc }

// poolSize is the number of texts of a document an adapted encoder pools
// a set by: docChunkSize with adapt_pool=doc, else 1 (mean pooling).
func (e *ngramMetric) poolSize() int {
	if e.adaptDoc() {
		return e.docChunkSize()
	}
	return 1
}

// docChunkSize is the number of texts of a document (docChunks): the
// training cohort's mean set size, or docChunkTexts without a cohort.
func (e *ngramMetric) docChunkSize() int {
	if e.cohort != nil {
		return e.cohort.meanSetSize()
	}
	return docChunkTexts
}

// joinDoc is texts as one document (white space is collapsed
// when n-grams are counted, so the newlines are word boundaries).
func joinDoc(texts []string) string { return strings.Join(texts, "\n") }

// docTarget is channel c's mean unit document vector over texts cut into
// documents of size (docChunks); size 1 is the mean of the texts'
// vectors.
func docTarget(ctx context.Context, c *metricChannel, texts []string, size int) ([]float64, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sum := make([]float64, c.tf.Dim())
	docMean(c, texts, size, map[int32]float64{}, sum)
	return sum, nil
}

// docMean sets sum to the mean of the unit TF-IDF vectors of channel c
// of texts' documents of size (docChunks); counts is scratch space.
func docMean(c *metricChannel, texts []string, size int, counts map[int32]float64, sum []float64) {
	clear(sum)
	docs := docChunks(texts, size)
	for _, d := range docs {
		c.tf.sparse(joinDoc(d), counts, func(d int32, x float64) { sum[d] += x })
	}
	inv := 1 / float64(max(len(docs), 1))
	for d := range sum {
		sum[d] *= inv
	}
}

// docChunks cuts a set's texts into consecutive documents of size texts;
// a remainder shorter than half of size joins the document before it, so
// a set of up to 1.5 × size texts is one document.
func docChunks(texts []string, size int) [][]string {
	var out [][]string
	for start := 0; start < len(texts); start += size {
		end := min(start+size, len(texts))
		if n := len(out); n > 0 && 2*(end-start) < size {
			out[n-1] = texts[start-size : end]
			break
		}
		out = append(out, texts[start:end])
	}
	return out
}
