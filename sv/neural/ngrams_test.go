package neural

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/roleprint/roleprint/sv"
)

func TestNGramTokenizer(t *testing.T) {
	m, err := NewTransformer("transformer", TransformerConfig{Pooling: "mean", Layers: 1, Dim: 32, Heads: 2, FFNDim: 64, MaxLen: 12,
		Vocab: "testdata/vocab.txt", NGramBuckets: 1 << 16, NGramMin: 2, NGramMax: 3, NGramSlots: 10})
	if err != nil {
		t.Fatal(err)
	}
	tok := m.Tokenizer()
	nt, ok := tok.(*ngramTokenizer)
	if !ok || m.MaxLen() != 22 {
		t.Fatalf("tokenizer %T, MaxLen %d: want the n-gram tokenizer and 12 + 10", tok, m.MaxLen())
	}
	wp := m.tok.Encode("Hi hi", 12)
	ids := tok.Encode("Hi hi", 22)
	// "Hi hi": 2-grams Hi, "i ", " h", hi; 3-grams "Hi ", "i h", " hi": 7 distinct.
	if len(ids) != 12+7 {
		t.Fatalf("Encode(\"Hi hi\") = %v (%d ids), want 12 word-piece positions + 7 n-grams", ids, len(ids))
	}
	for i := range 12 {
		want := nt.hole
		if i < len(wp) {
			want = wp[i]
		}
		if ids[i] != want {
			t.Fatalf("position %d: id %d, want %d (word pieces %v, then holes %d)", i, ids[i], want, wp, nt.hole)
		}
	}
	seen := map[int32]bool{}
	for _, id := range ids[12:] {
		if id < nt.ngramStart || int(id) >= tok.VocabSize() || seen[id] {
			t.Fatalf("n-gram ids %v: want distinct ids in [%d, %d)", ids[12:], nt.ngramStart, tok.VocabSize())
		}
		seen[id] = true
	}
	// Case is kept: "hi hi" has hi, "i ", " h", "hi ", "i h", " hi": its
	// "hi " is not "Hi hi"'s "Hi ", and "Hi" is gone.
	lower := tok.Encode("hi hi", 22)
	if len(lower) != 12+6 {
		t.Fatalf("Encode(\"hi hi\") has %d n-grams, want 6", len(lower)-12)
	}
	shared := 0
	for _, id := range lower[12:] {
		if seen[id] {
			shared++
		}
	}
	if shared != 5 {
		t.Fatalf("\"hi hi\" shares %d n-grams with \"Hi hi\", want 5", shared)
	}
	if got := tok.Encode("Hi hi", 22); !equalIDs(got, ids) {
		t.Fatalf("not deterministic: %v then %v", ids, got)
	}
	long := tok.Encode("the quick brown fox jumps over the lazy dog", 22)
	if len(long) != 22 {
		t.Fatalf("long text: %d ids, want 22 (slots capped at 10)", len(long))
	}
	if got := tok.Encode("Hi hi", 12); len(got) != 12 {
		t.Fatalf("budget 12: %d ids, want the word-piece positions only", len(got))
	}
	if got := tok.Encode("Hi hi", 5); len(got) != 5 {
		t.Fatalf("budget 5: %v, want 5 word-piece positions", got)
	}
}

func equalIDs(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// ngramOptions is tinyOptions with character n-gram features.
func ngramOptions(backendName string) sv.EncoderOptions {
	o := tinyOptions(backendName)
	o.Settings["ngram_buckets"] = "512"
	o.Settings["ngram_slots"] = "24"
	return o
}

// TestNGramEncoding checks the masking (a text's vector does not depend on
// the other texts of its batch, whose lengths set the padding) and that
// the n-grams carry what the uncased word pieces lose: case.
func TestNGramEncoding(t *testing.T) {
	ctx := context.Background()
	vec := func(opts sv.EncoderOptions, texts ...string) [][]float32 {
		enc, err := sv.NewEncoder(TransformerName, opts)
		if err != nil {
			t.Fatal(err)
		}
		defer enc.(sv.Closer).Close()
		v, err := enc.Encode(ctx, texts, nil)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	long := "the quantum theory of everything and the pizza place on the corner"
	alone := vec(ngramOptions("go"), "hi there")[0]
	batched := vec(ngramOptions("go"), long, "hi there", "ok")[1]
	if d := maxAbsDiff(alone, batched); d > 1e-5 {
		t.Fatalf("\"hi there\" alone vs in a batch: max difference %g", d)
	}
	plain := vec(tinyOptions("go"), "Hi There", "hi there")
	if d := maxAbsDiff(plain[0], plain[1]); d > 1e-6 {
		t.Fatalf("uncased word pieces alone should not see case: difference %g", d)
	}
	ng := vec(ngramOptions("go"), "Hi There", "hi there")
	if d := maxAbsDiff(ng[0], ng[1]); d < 1e-3 {
		t.Fatalf("with n-grams, case should change the vector: difference %g", d)
	}
}

func maxAbsDiff(a, b []float32) float64 {
	var m float64
	for i := range a {
		m = math.Max(m, math.Abs(float64(a[i]-b[i])))
	}
	return m
}

// TestNGramFineTuning trains the tiny transformer with n-gram features:
// the held-out AUC improves, and ONNX Runtime (when installed) gives the
// go backend's losses.
func TestNGramFineTuning(t *testing.T) {
	run := func(backendName string) []float64 {
		enc, err := sv.NewEncoder(TransformerName+sv.FineTunedSuffix, ngramOptions(backendName))
		if err != nil {
			t.Fatal(err)
		}
		defer enc.(sv.Closer).Close()
		train, test := synthCorpus(1, 8, 160), synthCorpus(2, 8, 160)
		before, after := trainAUC(t, enc, train, test)
		t.Logf("n-gram transformer on %s: held-out AUC %.3f → %.3f", backendName, before, after)
		if !(after > before+0.05) {
			t.Fatalf("fine-tuning did not help: AUC %.3f → %.3f", before, after)
		}
		return enc.(*Encoder).LastTrainResult().Losses
	}
	ref := run("go")
	requireONNX(t)
	onnx := run("onnx")
	for i := range ref {
		if d := math.Abs(ref[i] - onnx[i]); d > 1e-3 {
			t.Fatalf("step %d: loss %.6f on go, %.6f on onnx", i+1, ref[i], onnx[i])
		}
	}
}

// TestNGramHolesMasked checks that the holes padding the word pieces to
// max_len take no part: the same text through a model whose max_len is
// exactly its number of word pieces (no holes; the weights are equal, as
// position rows start at zero) gives the same vector.
func TestNGramHolesMasked(t *testing.T) {
	text := "hi there"
	wp, err := NewTransformer("transformer", TransformerConfig{Pooling: "mean", Layers: 1, Dim: 32, Heads: 2, FFNDim: 64, MaxLen: 12, Vocab: "testdata/vocab.txt"})
	if err != nil {
		t.Fatal(err)
	}
	n := len(wp.tok.Encode(text, 12))
	if n >= 12 {
		t.Fatalf("%q has %d word pieces: the test needs holes", text, n)
	}
	vec := func(maxLen int) []float32 {
		opts := ngramOptions("go")
		opts.Settings["max_len"] = fmt.Sprint(maxLen)
		enc, err := sv.NewEncoder(TransformerName, opts)
		if err != nil {
			t.Fatal(err)
		}
		defer enc.(sv.Closer).Close()
		v, err := enc.Encode(context.Background(), []string{text}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return v[0]
	}
	if d := maxAbsDiff(vec(12), vec(n)); d > 1e-5 {
		t.Fatalf("max_len 12 (with %d holes) vs %d (none): max difference %g", 12-n, n, d)
	}
}
