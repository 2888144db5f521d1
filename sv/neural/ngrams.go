package neural

import (
	"fmt"
	"hash/fnv"

	. "github.com/gomlx/gomlx/core/graph" //nolint:revive // GoMLX's idiom.
	"github.com/gomlx/gomlx/ml/model"
)

// Character n-gram features of the from-scratch transformer
// (TransformerConfig.NGramBuckets > 0): fastText-style subword features
// learned from scratch beside the word pieces. Each utterance's distinct
// character n-grams (case kept, NGramMin..NGramMax runes, in order of first
// occurrence, at most NGramSlots) are hashed into NGramBuckets rows of a
// trainable table; their mean, layer-normalised, is added to the pooled
// transformer output. The WordPiece vocabulary is uncased and cuts words
// into pieces; the n-grams keep what the TF-IDF baseline shows matters for
// telling speakers apart (capitalisation, spelling, punctuation habits,
// names).
//
// They travel through the Tokenizer contract: ngramTokenizer returns the
// word-piece ids padded to exactly MaxLen positions (with a hole id the
// model masks out), followed by the n-gram ids (offset past the hole), so
// the trainer's and the encoder's batching need no change.
//
// Hashing is written here (FNV-1a over the n-gram's UTF-8 bytes) because
// the ids must be stable across runs and machines, which Go's map or
// maphash seeds are not.

// ngramTokenizer wraps a word-piece tokenizer with hashed character
// n-grams.
type ngramTokenizer struct {
	wp               Tokenizer
	w                int // word-piece positions (TransformerConfig.MaxLen)
	buckets, lo, hi  int
	hole, ngramStart int32
}

func newNGramTokenizer(wp Tokenizer, c TransformerConfig) *ngramTokenizer {
	return &ngramTokenizer{wp: wp, w: c.MaxLen, buckets: c.NGramBuckets, lo: c.NGramMin, hi: c.NGramMax,
		hole: int32(wp.VocabSize()), ngramStart: int32(wp.VocabSize()) + 1}
}

// Name implements Tokenizer.
func (t *ngramTokenizer) Name() string {
	return fmt.Sprintf("%s+char%d-%dgrams/%d", t.wp.Name(), t.lo, t.hi, t.buckets)
}

// VocabSize implements Tokenizer: word pieces, the hole, the buckets.
func (t *ngramTokenizer) VocabSize() int { return int(t.ngramStart) + t.buckets }

// PadID implements Tokenizer.
func (t *ngramTokenizer) PadID() int32 { return t.wp.PadID() }

// Encode implements Tokenizer: min(maxLen, MaxLen) word-piece positions
// (holes after the text's own ids), then up to maxLen − MaxLen n-gram ids.
func (t *ngramTokenizer) Encode(text string, maxLen int) []int32 {
	w := min(t.w, maxLen)
	out := make([]int32, 0, maxLen)
	out = append(out, t.wp.Encode(text, w)...)
	for len(out) < w {
		out = append(out, t.hole)
	}
	slots := maxLen - w
	if slots <= 0 {
		return out
	}
	runes := []rune(text)
	seen := map[int32]bool{}
	h := fnv.New32a()
	for i := range runes {
		for n := t.lo; n <= t.hi && i+n <= len(runes); n++ {
			h.Reset()
			h.Write([]byte(string(runes[i : i+n])))
			id := t.ngramStart + int32(h.Sum32()%uint32(t.buckets))
			if seen[id] {
				continue
			}
			seen[id] = true
			out = append(out, id)
			if len(seen) == slots {
				return out
			}
		}
	}
	return out
}

// initNGrams creates the n-gram table and its layer norm.
func (m *Transformer) initNGrams(scope *model.Scope) {
	c := m.cfg
	initVariable(scope, c.Seed, "ngrams/table", paramInit{kind: "normal", std: 1}, c.NGramBuckets, c.Dim)
	initVariable(scope, c.Seed, "ngrams/ln_gain", paramInit{kind: "ones"}, c.Dim)
	initVariable(scope, c.Seed, "ngrams/ln_bias", paramInit{kind: "zeros"}, c.Dim)
}

// splitNGrams separates a batch of ngramTokenizer ids [N, T] into the
// word-piece part (holes replaced by the pad id and masked out) and the
// n-gram part (bucket indices and mask; nil when T ≤ MaxLen).
func (m *Transformer) splitNGrams(ids, mask *Node) (wpIDs, wpMask, ngIDs, ngMask *Node) {
	nt := m.ntok
	t := ids.Shape().Dimensions[1]
	w := min(m.cfg.MaxLen, t)
	wpIDs = Slice(ids, AxisRange(), AxisRange(0, w))
	wpMask = Slice(mask, AxisRange(), AxisRange(0, w))
	isHole := Equal(wpIDs, Scalar(ids.Graph(), ids.DType(), nt.hole))
	wpMask = And(wpMask, LogicalNot(isHole))
	wpIDs = Where(isHole, BroadcastToDims(Scalar(ids.Graph(), ids.DType(), nt.wp.PadID()), wpIDs.Shape().Dimensions...), wpIDs)
	if t <= w {
		return wpIDs, wpMask, nil, nil
	}
	ngIDs = Slice(ids, AxisRange(), AxisRange(w, t))
	ngMask = Slice(mask, AxisRange(), AxisRange(w, t))
	idx := Sub(ngIDs, Scalar(ids.Graph(), ids.DType(), nt.ngramStart))
	// Padding positions hold the pad id: point them at bucket 0, masked out.
	ngIDs = Where(ngMask, idx, ZerosLike(idx))
	return wpIDs, wpMask, ngIDs, ngMask
}

// ngramVector is the layer-normalised mean of an utterance's n-gram rows
// [N, Dim] (zero rows before the norm for utterances without n-grams).
// With exact (training), the sum comes from the trainer's lookup plan.
func (m *Transformer) ngramVector(scope *model.Scope, ngIDs, ngMask *Node, exact *exactLookup) *Node {
	g := ngIDs.Graph()
	table := param(scope, g, "ngrams/table")
	var bag *Node
	if exact != nil {
		count := MaxScalar(ReduceSum(ConvertDType(ngMask, table.DType()), 1), 1)
		bag = Div(exact.bag(table), InsertAxes(count, -1))
	} else {
		bag = maskedMean(embed(table, ngIDs), ngMask) // [N, S, D] → [N, D]
	}
	return layerNorm(bag, param(scope, g, "ngrams/ln_gain"), param(scope, g, "ngrams/ln_bias"))
}
