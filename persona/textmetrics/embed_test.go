package textmetrics

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/roleprint/roleprint/stats"
)

func TestHashEncoder(t *testing.T) {
	e := NewHashEncoder(256)
	v, err := e.Encode(context.Background(), []string{"The cat sat on the mat.", "the cat sat on the mat", "Quantum chromodynamics lecture notes", ""}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(v) != 4 || len(v[0]) != 256 || e.Name() != "hash-ngram" {
		t.Fatalf("shape %d×%d", len(v), len(v[0]))
	}
	if c := stats.Cosine(v[0], v[1]); math.Abs(c-1) > 1e-6 {
		t.Fatalf("case/punctuation changed the vector: cos %v", c)
	}
	if c := stats.Cosine(v[0], v[2]); c > 0.3 {
		t.Fatalf("unrelated texts too similar: %v", c)
	}
	if stats.Cosine(v[0], v[3]) != 0 {
		t.Fatal("empty text not zero")
	}
}

// BERTScore with the hash encoder: identical texts score 1; a candidate
// sharing half the reference's words scores in between; precision and
// recall swap when candidate and reference swap.
func TestBERTScore(t *testing.T) {
	ctx := context.Background()
	e := NewHashEncoder(512)
	s, err := BERTScore(ctx, e, []string{"the cat sat", "the cat", "zebra quantum"}, []string{"the cat sat", "the cat sat on mats", "the cat sat"}, BERTScoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "identical F", s[0].F, 1, 1e-6)
	// "the cat" ⊂ reference: every candidate token has an exact match
	// (P = 1); recall averages 1, 1, 1 and the best cosines of "on",
	// "mats" with "the"/"cat".
	near(t, "subset precision", s[1].Precision, 1, 1e-6)
	if s[1].Recall >= 1 || s[1].Recall < 0.4 {
		t.Fatalf("subset recall %v", s[1].Recall)
	}
	if s[2].F >= s[1].F {
		t.Fatalf("unrelated candidate %v scored ≥ related %v", s[2].F, s[1].F)
	}
	sw, _ := BERTScore(ctx, e, []string{"the cat sat on mats"}, []string{"the cat"}, BERTScoreOptions{})
	near(t, "swap P", sw[0].Precision, s[1].Recall, 1e-6)
	// IDF down-weights "the", which every reference has.
	idf, _ := BERTScore(ctx, e, []string{"the dog"}, []string{"the cat"}, BERTScoreOptions{IDF: true})
	flat, _ := BERTScore(ctx, e, []string{"the dog"}, []string{"the cat"}, BERTScoreOptions{})
	if idf[0].F >= flat[0].F {
		t.Fatalf("idf %v not below flat %v when only the stop word matches", idf[0].F, flat[0].F)
	}
	if _, err := BERTScore(ctx, e, []string{"a"}, nil, BERTScoreOptions{}); err == nil {
		t.Fatal("length mismatch accepted")
	}
}

// nearDupSet returns n random unit vectors of dim d, followed by m noisy
// copies of random earlier ones (cosine ≈ 0.95 with their source), in a
// shuffled order, with the source of each copy.
func nearDupSet(n, m, d int, seed uint64) [][]float32 {
	rng := rand.New(rand.NewPCG(seed, 7))
	vecs := make([][]float32, 0, n+m)
	for i := 0; i < n; i++ {
		v := make([]float32, d)
		for j := range v {
			v[j] = float32(rng.NormFloat64())
		}
		normalize(v)
		vecs = append(vecs, v)
	}
	for i := 0; i < m; i++ {
		src := vecs[rng.IntN(n)]
		v := make([]float32, d)
		for j := range v {
			v[j] = src[j] + float32(rng.NormFloat64()*0.33/math.Sqrt(float64(d)))
		}
		normalize(v)
		vecs = append(vecs, v)
	}
	rng.Shuffle(len(vecs), func(i, j int) { vecs[i], vecs[j] = vecs[j], vecs[i] })
	return vecs
}

func TestDedupExactAndLSHRecall(t *testing.T) {
	ctx := context.Background()
	vecs := nearDupSet(4000, 1000, 128, 3)
	ex, err := Dedup(ctx, vecs, DedupOptions{Method: "exact"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Duplicates) < 950 || len(ex.Duplicates) > 1000 {
		t.Fatalf("exact found %d duplicates of 1000 injected", len(ex.Duplicates))
	}
	for _, d := range ex.Duplicates {
		if d.Of >= d.Index || d.Cosine < 0.9 || math.Abs(stats.Cosine(vecs[d.Index], vecs[d.Of])-d.Cosine) > 1e-4 {
			t.Fatalf("bad duplicate record %+v", d)
		}
	}
	lsh, err := Dedup(ctx, vecs, DedupOptions{Method: "lsh"})
	if err != nil {
		t.Fatal(err)
	}
	exDup := map[int]bool{}
	for _, d := range ex.Duplicates {
		exDup[d.Index] = true
	}
	found := 0
	for _, d := range lsh.Duplicates {
		if d.Cosine < 0.9 {
			t.Fatalf("lsh dropped a non-duplicate %+v", d)
		}
		if exDup[d.Index] {
			found++
		}
	}
	recall := float64(found) / float64(len(ex.Duplicates))
	t.Logf("exact: %d duplicates, %d comparisons; lsh: %d duplicates (recall %.3f), %d comparisons",
		len(ex.Duplicates), ex.Comparisons, len(lsh.Duplicates), recall, lsh.Comparisons)
	if recall < 0.97 {
		t.Fatalf("lsh recall %.3f < 0.97", recall)
	}
	if lsh.Comparisons*5 > ex.Comparisons {
		t.Fatalf("lsh made %d comparisons, exact %d: no saving", lsh.Comparisons, ex.Comparisons)
	}
	if _, err := Dedup(ctx, [][]float32{{1, 0}, {1}}, DedupOptions{}); err == nil {
		t.Fatal("ragged vectors accepted")
	}
}

// BenchmarkDedup100k deduplicates 100k 256-d vectors (10 % near-copies)
// with the LSH index; compare BenchmarkDedupExact20k to see how exact
// search scales (quadratic).
func BenchmarkDedup100k(b *testing.B) {
	vecs := nearDupSet(90000, 10000, 256, 5)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := Dedup(context.Background(), vecs, DedupOptions{Method: "lsh"})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(r.Duplicates)), "dups")
		b.ReportMetric(float64(r.Comparisons)/float64(len(vecs)), "cmp/item")
	}
}

func BenchmarkDedupExact20k(b *testing.B) {
	vecs := nearDupSet(18000, 2000, 256, 5)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := Dedup(context.Background(), vecs, DedupOptions{Method: "exact"})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(r.Duplicates)), "dups")
	}
}

func BenchmarkDedupLSH20k(b *testing.B) {
	vecs := nearDupSet(18000, 2000, 256, 5)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := Dedup(context.Background(), vecs, DedupOptions{Method: "lsh"})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(r.Duplicates)), "dups")
	}
}
