package roleplay

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
)

// embedding holds the set vectors of a run, one row per set in the run's
// set order. For a plain encoder the rows are L2-normalised, so a matrix
// product gives every cosine at once; a PairScorer keeps raw vectors and
// its own similarity, and when that has an sv.DotForm, the form's terms
// of every set (dot), so that blocks are still matrix products.
type embedding struct {
	dim    int
	rows   []float32 // len(sets)*dim, row-major
	scorer sv.PairScorer
	dot    *dotRows
}

// embed fits enc when it is an sv.Fitter (on fitTexts), adapts it to
// fitTexts when adapt and it is an sv.Adapter, and embeds sets with
// sv.EmbedSets (mean of utterance vectors).
func embed(ctx context.Context, enc sv.Encoder, sets []*uset, fitTexts []string, adapt bool, progress sv.Progress) (*embedding, error) {
	if f, ok := enc.(sv.Fitter); ok {
		if err := f.Fit(ctx, fitTexts); err != nil {
			return nil, fmt.Errorf("fit encoder %s: %w", enc.Name(), err)
		}
	}
	if adapt {
		a, ok := enc.(sv.Adapter)
		if !ok {
			return nil, fmt.Errorf("adapt: encoder %s cannot be adapted (Config.Adapt needs an sv.Adapter such as a verifier bundle with an ngram-metric part)", enc.Name())
		}
		if err := a.Adapt(ctx, fitTexts); err != nil {
			return nil, fmt.Errorf("adapt encoder %s: %w", enc.Name(), err)
		}
	}
	in := make([]*pairs.UtteranceSet, len(sets))
	for i, s := range sets {
		in[i] = &pairs.UtteranceSet{ID: s.id, Texts: s.texts}
	}
	vecs, err := sv.EmbedSets(ctx, enc, in, progress)
	if err != nil {
		return nil, err
	}
	e := &embedding{dim: enc.Dim()}
	if ps, ok := enc.(sv.PairScorer); ok {
		e.scorer = ps
	}
	if df, ok := enc.(sv.DotFormer); ok {
		if form, ok := df.DotForm(); ok {
			ordered := make([][]float32, len(sets))
			for i, s := range sets {
				ordered[i] = vecs[s.id]
			}
			if e.dot, err = newDotRows(form, ordered, e.dim); err != nil {
				return nil, fmt.Errorf("encoder %s: %w", enc.Name(), err)
			}
			return e, nil
		}
	}
	e.rows = make([]float32, len(sets)*e.dim)
	for i, s := range sets {
		v := vecs[s.id]
		if len(v) != e.dim {
			return nil, fmt.Errorf("encoder %s: set %s: vector of length %d, want %d", enc.Name(), s.id, len(v), e.dim)
		}
		row := e.rows[i*e.dim : (i+1)*e.dim]
		copy(row, v)
		if e.scorer == nil {
			stats.Normalize(row)
		}
	}
	return e, nil
}

func (e *embedding) row(i int) []float32 { return e.rows[i*e.dim : (i+1)*e.dim] }

// block is the similarity matrix of set ranges [a0,a1) × [b0,b1).
type block struct {
	a0, a1, b0, b1 int
	v              []float32 // (a1-a0)*(b1-b0), row-major
}

// at returns the similarity of global sets i (in the a range) and j (in
// the b range).
func (b *block) at(i, j int) float32 { return b.v[(i-b.a0)*(b.b1-b.b0)+(j-b.b0)] }

// contains reports whether global sets i and j fall in the block.
func (b *block) contains(i, j int) bool { return i >= b.a0 && i < b.a1 && j >= b.b0 && j < b.b1 }

// similarities computes the block [a0,a1) × [b0,b1): cosines by one
// matrix product (gonum's BLAS, which runs on every core), a PairScorer's
// DotForm by one product per term (dotRows), or else the PairScorer's own
// score pair by pair.
func (e *embedding) similarities(ctx context.Context, a0, a1, b0, b1 int) (*block, error) {
	b := &block{a0: a0, a1: a1, b0: b0, b1: b1, v: make([]float32, (a1-a0)*(b1-b0))}
	na, nb := a1-a0, b1-b0
	if na == 0 || nb == 0 {
		return b, nil
	}
	if e.dot != nil {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		e.dot.block(b)
		return b, nil
	}
	if e.scorer != nil {
		for i := a0; i < a1; i++ {
			if i%64 == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			for j := b0; j < b1; j++ {
				b.v[(i-a0)*nb+(j-b0)] = float32(e.scorer.Score(e.row(i), e.row(j)))
			}
		}
		return b, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ma := blas32.General{Rows: na, Cols: e.dim, Stride: e.dim, Data: e.rows[a0*e.dim : a1*e.dim]}
	mb := blas32.General{Rows: nb, Cols: e.dim, Stride: e.dim, Data: e.rows[b0*e.dim : b1*e.dim]}
	mc := blas32.General{Rows: na, Cols: nb, Stride: nb, Data: b.v}
	blas32.Gemm(blas.NoTrans, blas.Trans, 1, ma, mb, 0, mc)
	for i, x := range b.v { // rounding can leave |cos| a hair above 1
		if x > 1 {
			b.v[i] = 1
		} else if x < -1 {
			b.v[i] = -1
		}
	}
	return b, nil
}

// parallel runs fn(i) for i in [0,n) on all cores.
func parallel(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := 0; i < n; i++ {
			fn(i)
		}
		return
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}
