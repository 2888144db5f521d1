package sv

import (
	"context"
	"fmt"
	"math"

	"github.com/roleprint/roleprint/data/pairs"
)

// EmbedChunk is how many distinct texts EmbedSets hands an encoder at a
// time (fewer for wide vectors, so a chunk holds at most chunkFloats
// values); set sums are updated after each chunk, so memory holds one
// chunk of utterance vectors plus one running sum per set.
const EmbedChunk = 2048

// chunkFloats bounds the float32 values of one chunk of vectors (64 MiB).
const chunkFloats = 1 << 24

// EmbedSets embeds utterance sets the way the paper does (hierarchical
// pooling): every distinct utterance text is encoded once, and a set's
// embedding is the mean of the vectors of its texts, a text repeated in a
// set counting each time. An encoder that is a SetEncoder embeds the sets
// itself instead. Sets are keyed by ID; a set listed twice is embedded once.
//
// progress reports distinct texts (or sets, for a SetEncoder) done. Errors
// name the encoder and, for bad data, the set: a set without texts, a
// vector of the wrong length, or a non-finite value.
func EmbedSets(ctx context.Context, enc Encoder, sets []*pairs.UtteranceSet, progress Progress) (map[string][]float32, error) {
	uniq := make([]*pairs.UtteranceSet, 0, len(sets))
	seen := make(map[string]bool, len(sets))
	for _, s := range sets {
		if s == nil || seen[s.ID] {
			continue
		}
		if len(s.Texts) == 0 {
			return nil, fmt.Errorf("encoder %s: set %q has no utterances", enc.Name(), s.ID)
		}
		seen[s.ID] = true
		uniq = append(uniq, s)
	}
	if se, ok := enc.(SetEncoder); ok {
		return embedWholeSets(ctx, se, uniq, progress)
	}
	dim := enc.Dim()
	// Distinct texts in order of first appearance, each with the sets
	// (with multiplicity) it belongs to.
	textIdx := map[string]int{}
	var texts []string
	var members [][]int32
	for si, s := range uniq {
		for _, t := range s.Texts {
			k, ok := textIdx[t]
			if !ok {
				k = len(texts)
				textIdx[t] = k
				texts = append(texts, t)
				members = append(members, nil)
			}
			members[k] = append(members[k], int32(si))
		}
	}
	sums := make([][]float32, len(uniq))
	for i := range sums {
		sums[i] = make([]float32, dim)
	}
	chunk := max(16, min(EmbedChunk, chunkFloats/max(dim, 1)))
	progress.Report(0, len(texts))
	for start := 0; start < len(texts); start += chunk {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		end := min(start+chunk, len(texts))
		vecs, err := enc.Encode(ctx, texts[start:end], nil)
		if err != nil {
			return nil, fmt.Errorf("encoder %s: %w", enc.Name(), err)
		}
		if len(vecs) != end-start {
			return nil, fmt.Errorf("encoder %s: returned %d vectors for %d texts", enc.Name(), len(vecs), end-start)
		}
		for i, v := range vecs {
			if len(v) != dim {
				return nil, fmt.Errorf("encoder %s: vector of length %d, want Dim() = %d", enc.Name(), len(v), dim)
			}
			for _, si := range members[start+i] {
				sum := sums[si]
				for d, x := range v {
					sum[d] += x
				}
			}
		}
		progress.Report(end, len(texts))
	}
	out := make(map[string][]float32, len(uniq))
	for si, s := range uniq {
		sum := sums[si]
		inv := 1 / float32(len(s.Texts))
		for d := range sum {
			sum[d] *= inv
		}
		if err := checkFinite(sum); err != nil {
			return nil, fmt.Errorf("encoder %s: set %q: %w", enc.Name(), s.ID, err)
		}
		out[s.ID] = sum
	}
	return out, nil
}

func embedWholeSets(ctx context.Context, enc SetEncoder, sets []*pairs.UtteranceSet, progress Progress) (map[string][]float32, error) {
	texts := make([][]string, len(sets))
	for i, s := range sets {
		texts[i] = s.Texts
	}
	vecs, err := enc.EncodeSets(ctx, texts, progress)
	if err != nil {
		return nil, fmt.Errorf("encoder %s: %w", enc.Name(), err)
	}
	if len(vecs) != len(sets) {
		return nil, fmt.Errorf("encoder %s: returned %d set vectors for %d sets", enc.Name(), len(vecs), len(sets))
	}
	out := make(map[string][]float32, len(sets))
	for i, s := range sets {
		if len(vecs[i]) != enc.Dim() {
			return nil, fmt.Errorf("encoder %s: set vector of length %d, want Dim() = %d", enc.Name(), len(vecs[i]), enc.Dim())
		}
		if err := checkFinite(vecs[i]); err != nil {
			return nil, fmt.Errorf("encoder %s: set %q: %w", enc.Name(), s.ID, err)
		}
		out[s.ID] = vecs[i]
	}
	return out, nil
}

// MeanPool returns the element-wise mean of vectors (all of one length),
// or nil for no vectors. Encoders that pool token or utterance vectors
// can share it.
func MeanPool(vectors [][]float32) []float32 {
	if len(vectors) == 0 {
		return nil
	}
	sum := make([]float64, len(vectors[0]))
	for _, v := range vectors {
		for d, x := range v {
			sum[d] += float64(x)
		}
	}
	out := make([]float32, len(sum))
	for d, s := range sum {
		out[d] = float32(s / float64(len(vectors)))
	}
	return out
}

func checkFinite(v []float32) error {
	for d, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return fmt.Errorf("non-finite value %v at dimension %d", x, d)
		}
	}
	return nil
}
