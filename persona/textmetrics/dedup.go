package textmetrics

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/roleprint/roleprint/sv/encoder"
)

// DedupOptions tune Dedup. Zero fields take the defaults.
type DedupOptions struct {
	// Threshold is the cosine at or above which an item duplicates an
	// earlier kept one. Default 0.9 (SpeechRole).
	Threshold float64
	// Method is "exact" (compare with every kept item), "lsh" (random-
	// hyperplane LSH candidates, verified exactly) or "auto" (exact below
	// ExactBelow items, else lsh). Default "auto".
	Method string
	// ExactBelow is where auto switches to LSH. Default 20000.
	ExactBelow int
	// Bits is how many of the 64 hyperplane signs key each hash table.
	// Default 12.
	Bits int
	// Tables is the number of hash tables: more tables find more
	// duplicates at more cost. Default 32: a pair at cosine 0.9 agrees on
	// each sign with probability 1 − acos(0.9)/π ≈ 0.856, so it shares a
	// bucket in at least one table with probability
	// 1 − (1 − 0.856^12)^32 ≈ 0.996.
	Tables int
	// Seed seeds the hyperplanes. Default 1.
	Seed uint64
	// Progress reports items processed.
	Progress encoder.Progress
}

func (o DedupOptions) withDefaults() DedupOptions {
	if o.Threshold == 0 {
		o.Threshold = 0.9
	}
	if o.Method == "" {
		o.Method = "auto"
	}
	if o.ExactBelow == 0 {
		o.ExactBelow = 20000
	}
	if o.Bits == 0 {
		o.Bits = 12
	}
	if o.Tables == 0 {
		o.Tables = 32
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	return o
}

// Duplicate records that item Index was dropped as a near-copy of the
// kept item Of.
type Duplicate struct {
	Index  int     `json:"index"`
	Of     int     `json:"of"`
	Cosine float64 `json:"cosine"`
}

// DedupResult lists what Dedup kept and dropped.
type DedupResult struct {
	// Keep are the indices of kept items, in input order.
	Keep []int `json:"keep"`
	// Duplicates are the dropped items with the kept item each copies.
	Duplicates []Duplicate `json:"duplicates"`
	// Method is the method that ran ("exact" or "lsh").
	Method string `json:"method"`
	// Comparisons counts exact cosine computations.
	Comparisons int64 `json:"comparisons"`
}

// Dedup removes near-duplicates greedily in input order: an item whose
// cosine with an already kept item is ≥ Threshold is dropped, otherwise
// kept. Vectors are normalised internally (the input is not modified);
// zero vectors are never duplicates.
//
// The exact method is O(n·kept). The lsh method indexes kept items by
// random-hyperplane signatures (Charikar 2002): 64 hyperplane signs per
// vector, of which each table keys on its own Bits; items sharing a
// bucket with the query in some table are screened by signature Hamming
// distance and then verified exactly, so its cost grows with the bucket sizes
// rather than with n; it may miss a duplicate (BenchmarkDedup and
// TestDedupLSHRecall measure how rarely) but never drops a non-duplicate.
func Dedup(ctx context.Context, vecs [][]float32, opts DedupOptions) (*DedupResult, error) {
	opts = opts.withDefaults()
	if len(vecs) == 0 {
		return &DedupResult{Method: opts.Method}, nil
	}
	dim := len(vecs[0])
	unit := make([][]float32, len(vecs))
	for i, v := range vecs {
		if len(v) != dim {
			return nil, fmt.Errorf("dedup: vector %d has %d dimensions, vector 0 has %d", i, len(v), dim)
		}
		u := append([]float32(nil), v...)
		normalize(u)
		unit[i] = u
	}
	method := opts.Method
	if method == "auto" {
		method = "exact"
		if len(vecs) >= opts.ExactBelow {
			method = "lsh"
		}
	}
	var idx candidateIndex
	switch method {
	case "exact":
		idx = &exactIndex{}
	case "lsh":
		idx = newLSH(dim, opts)
	default:
		return nil, fmt.Errorf("dedup: unknown method %q (exact, lsh, auto)", opts.Method)
	}
	res := &DedupResult{Method: method}
	thr := float32(opts.Threshold)
	for i, u := range unit {
		if i%2048 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			opts.Progress.Report(i, len(unit))
		}
		dup, of, cos := false, -1, float32(0)
		idx.candidates(u, func(j int) bool {
			res.Comparisons++
			if c := dot(u, unit[j]); c >= thr {
				dup, of, cos = true, j, c
				return false
			}
			return true
		})
		if dup {
			res.Duplicates = append(res.Duplicates, Duplicate{Index: i, Of: of, Cosine: float64(cos)})
			continue
		}
		res.Keep = append(res.Keep, i)
		idx.add(i, u)
	}
	opts.Progress.Report(len(unit), len(unit))
	return res, nil
}

// candidateIndex yields kept items that may be near a query.
type candidateIndex interface {
	add(id int, u []float32)
	// candidates calls fn for candidate ids until fn returns false.
	candidates(u []float32, fn func(id int) bool)
}

type exactIndex struct{ ids []int }

func (e *exactIndex) add(id int, _ []float32) { e.ids = append(e.ids, id) }

func (e *exactIndex) candidates(_ []float32, fn func(int) bool) {
	for _, id := range e.ids {
		if !fn(id) {
			return
		}
	}
}

// lshIndex hashes each vector to a 64-bit signature, the signs of its
// projections on 64 random hyperplanes. Each table keys on Bits of those
// 64 bits; a candidate found in a bucket is first screened by the Hamming
// distance of the full signatures (cheap, one popcount), and only those
// within maxHam get an exact cosine.
type lshIndex struct {
	planes [][]float32 // 64 × dim
	tables []lshTable
	sigs   []uint64 // signature per id (ids are input positions)
	seen   []uint32 // last query that visited each id
	query  uint32
	maxHam int
}

type lshTable struct {
	bits    []uint // signature bit positions
	buckets map[uint32][]int32
}

// lshPlanes is the number of hyperplanes: one 64-bit signature.
const lshPlanes = 64

func newLSH(dim int, o DedupOptions) *lshIndex {
	rng := rand.New(rand.NewPCG(o.Seed, 0x5eed))
	l := &lshIndex{}
	for p := 0; p < lshPlanes; p++ {
		v := make([]float32, dim)
		for i := range v {
			v[i] = float32(rng.NormFloat64())
		}
		l.planes = append(l.planes, v)
	}
	bits := min(o.Bits, lshPlanes, 32)
	for t := 0; t < o.Tables; t++ {
		var bs []uint
		for _, b := range rng.Perm(lshPlanes)[:bits] {
			bs = append(bs, uint(b))
		}
		l.tables = append(l.tables, lshTable{bits: bs, buckets: map[uint32][]int32{}})
	}
	// Two unit vectors at angle θ disagree on each hyperplane with
	// probability θ/π; allow the mean plus 4.5 standard deviations of that
	// binomial at the threshold angle, so the screen itself loses about one
	// true duplicate in 300,000.
	p := math.Acos(max(-1, min(1, o.Threshold))) / math.Pi
	l.maxHam = int(math.Ceil(lshPlanes*p + 4.5*math.Sqrt(lshPlanes*p*(1-p))))
	return l
}

func (l *lshIndex) signature(u []float32) uint64 {
	var s uint64
	for p, pl := range l.planes {
		if dot(u, pl) >= 0 {
			s |= 1 << uint(p)
		}
	}
	return s
}

func (t *lshTable) key(sig uint64) uint32 {
	var k uint32
	for i, b := range t.bits {
		k |= uint32(sig>>b&1) << uint(i)
	}
	return k
}

func (l *lshIndex) grow(id int) {
	for len(l.sigs) <= id {
		l.sigs = append(l.sigs, 0)
		l.seen = append(l.seen, 0)
	}
}

func (l *lshIndex) add(id int, u []float32) {
	l.grow(id)
	sig := l.signature(u)
	l.sigs[id] = sig
	for i := range l.tables {
		t := &l.tables[i]
		k := t.key(sig)
		t.buckets[k] = append(t.buckets[k], int32(id))
	}
}

func (l *lshIndex) candidates(u []float32, fn func(int) bool) {
	l.query++
	sig := l.signature(u)
	for i := range l.tables {
		t := &l.tables[i]
		for _, id32 := range t.buckets[t.key(sig)] {
			id := int(id32)
			if l.seen[id] == l.query {
				continue
			}
			l.seen[id] = l.query
			if bits.OnesCount64(sig^l.sigs[id]) > l.maxHam {
				continue
			}
			if !fn(id) {
				return
			}
		}
	}
}
