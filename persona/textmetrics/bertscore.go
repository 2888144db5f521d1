package textmetrics

import (
	"context"
	"fmt"
	"math"

	"github.com/roleprint/roleprint/sv/encoder"
)

// BERTScoreOptions tune BERTScore.
type BERTScoreOptions struct {
	// IDF weighs each token by its inverse document frequency over the
	// references, log((M+1)/(df+1)), as BERTScore's idf option does.
	// Default false (uniform weights).
	IDF bool
	// Tokenize splits texts into tokens; default Words.
	Tokenize func(string) []string
	// Progress reports encoded tokens.
	Progress encoder.Progress
}

// BERTScore computes BERTScore-style precision, recall and F1 of each
// candidate against its reference (Zhang et al. 2020) with the token
// vectors of enc: every distinct token is embedded once by enc (as a
// one-word text), each reference token is matched greedily to its most
// similar candidate token for recall, each candidate token to its most
// similar reference token for precision, and F1 = 2PR/(P+R). It is the
// offline fallback: the same computation over static word vectors, each
// word embedded alone; ContextualBERTScore is BERTScore proper. No
// baseline rescaling is applied.
func BERTScore(ctx context.Context, enc encoder.Encoder, candidates, references []string, opts BERTScoreOptions) ([]PRF, error) {
	if len(candidates) != len(references) {
		return nil, fmt.Errorf("bertscore: %d candidates for %d references", len(candidates), len(references))
	}
	if opts.Tokenize == nil {
		opts.Tokenize = Words
	}
	ct := make([][]string, len(candidates))
	rt := make([][]string, len(references))
	index := map[string]int{}
	var vocab []string
	addAll := func(toks []string) {
		for _, t := range toks {
			if _, ok := index[t]; !ok {
				index[t] = len(vocab)
				vocab = append(vocab, t)
			}
		}
	}
	for i := range candidates {
		ct[i] = opts.Tokenize(candidates[i])
		rt[i] = opts.Tokenize(references[i])
		addAll(ct[i])
		addAll(rt[i])
	}
	vecs, err := enc.Encode(ctx, vocab, opts.Progress)
	if err != nil {
		return nil, fmt.Errorf("bertscore: encode %d tokens with %s: %w", len(vocab), enc.Name(), err)
	}
	if len(vecs) != len(vocab) {
		return nil, fmt.Errorf("bertscore: encoder %s returned %d vectors for %d tokens", enc.Name(), len(vecs), len(vocab))
	}
	for _, v := range vecs {
		normalize(v)
	}
	weight := func(string) float64 { return 1 }
	if opts.IDF {
		df := map[string]int{}
		for _, r := range rt {
			seen := map[string]bool{}
			for _, t := range r {
				if !seen[t] {
					seen[t] = true
					df[t]++
				}
			}
		}
		m := float64(len(references))
		weight = func(t string) float64 { return math.Log((m + 1) / (float64(df[t]) + 1)) }
	}
	out := make([]PRF, len(candidates))
	for i := range candidates {
		if len(ct[i]) == 0 || len(rt[i]) == 0 {
			continue
		}
		p := greedy(ct[i], rt[i], vecs, index, weight)
		r := greedy(rt[i], ct[i], vecs, index, weight)
		out[i] = PRF{Precision: p, Recall: r, F: fmeasure(p, r, 1)}
	}
	return out, nil
}

// greedy returns the weighted mean over tokens a of the best cosine with
// any token of b.
func greedy(a, b []string, vecs [][]float32, index map[string]int, weight func(string) float64) float64 {
	var sum, wsum float64
	for _, x := range a {
		best := math.Inf(-1)
		vx := vecs[index[x]]
		for _, y := range b {
			if c := float64(dot(vx, vecs[index[y]])); c > best {
				best = c
			}
		}
		w := weight(x)
		sum += w * best
		wsum += w
	}
	if wsum == 0 {
		return 0
	}
	return sum / wsum
}
