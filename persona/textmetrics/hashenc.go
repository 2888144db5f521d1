package textmetrics

import (
	"context"
	"hash/fnv"
	"math"

	"github.com/roleprint/roleprint/sv/encoder"
)

// HashEncoder is a cheap lexical encoder (an sv/encoder.Encoder): each text becomes an
// L2-normalised, signed feature-hashed bag of its lower-cased words
// (weight 1) and the character trigrams of its words (weight 0.5). Cosine
// similarity under it is high for texts sharing words and spellings
// (inflections, misspellings), whatever their order — word bigrams were
// tried and left out because they made single-word ASR errors cost
// validation too much — and it needs no training or assets: the
// default encoder for alignment validation and deduplication. Texts with
// no words get the zero vector.
type HashEncoder struct {
	// Dimensions is the vector length; default 1024.
	Dimensions int
}

// NewHashEncoder returns a HashEncoder of dim dimensions (≤ 0: 1024).
func NewHashEncoder(dim int) *HashEncoder {
	if dim <= 0 {
		dim = 1024
	}
	return &HashEncoder{Dimensions: dim}
}

// Name returns "hash-ngram".
func (h *HashEncoder) Name() string { return "hash-ngram" }

// Dim returns the vector length.
func (h *HashEncoder) Dim() int { return h.Dimensions }

// Encode embeds texts; it never fails except for a cancelled ctx.
func (h *HashEncoder) Encode(ctx context.Context, texts []string, progress encoder.Progress) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			progress.Report(i, len(texts))
		}
		out[i] = h.Vector(t)
	}
	progress.Report(len(texts), len(texts))
	return out, nil
}

// Vector embeds one text.
func (h *HashEncoder) Vector(text string) []float32 {
	v := make([]float32, h.Dimensions)
	add := func(feature string, w float32) {
		f := fnv.New64a()
		f.Write([]byte(feature))
		x := f.Sum64()
		idx := int(x % uint64(h.Dimensions))
		if x>>63 == 1 {
			w = -w
		}
		v[idx] += w
	}
	words := Words(text)
	for _, w := range words {
		add("w:"+w, 1)
		rs := []rune("<" + w + ">")
		for j := 0; j+3 <= len(rs); j++ {
			add("c:"+string(rs[j:j+3]), 0.5)
		}
	}
	normalize(v)
	return v
}

// normalize scales v to unit length in place (zero stays zero).
func normalize(v []float32) {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= inv
	}
}

// dot is the float32 inner product, accumulated four lanes at a time.
func dot(a, b []float32) float32 {
	var s0, s1, s2, s3 float32
	n := len(a) &^ 3
	b = b[:len(a)]
	for i := 0; i < n; i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for i := n; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}
