package roleplay

import (
	"fmt"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"

	"github.com/roleprint/roleprint/sv"
)

// dotRows is an sv.DotForm evaluated on every set of a run: per term the
// sets' Xₖ (row-major, one matrix product per block) and Pₖ, and Q.
type dotRows struct {
	form sv.DotForm
	x    [][]float32 // per term: len(sets)*dims[k]
	dims []int
	p    [][]float64 // per term: Pₖ of each set; nil when the term's P is nil
	q    []float64
}

// newDotRows maps vecs (the sets' vectors, in run order, each of length
// dim) through form's terms.
func newDotRows(form sv.DotForm, vecs [][]float32, dim int) (*dotRows, error) {
	r := &dotRows{form: form, x: make([][]float32, len(form.Terms)), dims: make([]int, len(form.Terms)),
		p: make([][]float64, len(form.Terms)), q: make([]float64, len(vecs))}
	for i, v := range vecs {
		if len(v) != dim {
			return nil, fmt.Errorf("set %d: vector of length %d, want %d", i, len(v), dim)
		}
		r.q[i] = form.Offset(v)
	}
	for k, t := range form.Terms {
		if t.P != nil {
			r.p[k] = make([]float64, len(vecs))
		}
		for i, v := range vecs {
			x := t.X(v)
			if i == 0 {
				r.dims[k] = len(x)
				r.x[k] = make([]float32, 0, len(vecs)*len(x))
			} else if len(x) != r.dims[k] {
				return nil, fmt.Errorf("dot form term %d: set %d maps to length %d, set 0 to %d", k, i, len(x), r.dims[k])
			}
			r.x[k] = append(r.x[k], x...)
			if t.P != nil {
				r.p[k][i] = t.P(v)
			}
		}
	}
	return r, nil
}

// block fills b's similarities: per term one matrix product of the two
// ranges' Xₖ, weighted by Pₖ(a) + Pₖ(b), plus Q(a) + Q(b), through Link.
func (r *dotRows) block(b *block) {
	na, nb := b.a1-b.a0, b.b1-b.b0
	acc := make([]float64, na*nb)
	for i := range na {
		for j := range nb {
			acc[i*nb+j] = r.q[b.a0+i] + r.q[b.b0+j]
		}
	}
	prod := make([]float32, na*nb)
	for k, d := range r.dims {
		if d == 0 {
			continue
		}
		ma := blas32.General{Rows: na, Cols: d, Stride: d, Data: r.x[k][b.a0*d : b.a1*d]}
		mb := blas32.General{Rows: nb, Cols: d, Stride: d, Data: r.x[k][b.b0*d : b.b1*d]}
		blas32.Gemm(blas.NoTrans, blas.Trans, 1, ma, mb, 0, blas32.General{Rows: na, Cols: nb, Stride: nb, Data: prod})
		p := r.p[k]
		for i := range na {
			for j := range nb {
				w := 1.0
				if p != nil {
					w = p[b.a0+i] + p[b.b0+j]
				}
				acc[i*nb+j] += float64(prod[i*nb+j]) * w
			}
		}
	}
	for i, s := range acc {
		b.v[i] = float32(r.form.Apply(s))
	}
}
