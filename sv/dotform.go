package sv

import "github.com/roleprint/roleprint/stats"

// DotForm writes a PairScorer's score as dot products of per-vector maps,
// so that a caller scoring many pairs (role-play scoring: every generated
// set against every reference set) computes each term for a whole block
// of pairs by one matrix product instead of calling Score pair by pair:
//
//	Score(a, b) = Link(Σₖ ⟨Xₖ(a), Xₖ(b)⟩·(Pₖ(a) + Pₖ(b)) + Q(a) + Q(b))
//
// The s-norm of an n-gram metric is of this form (Xₖ the unit style
// vector, Pₖ = 1/(2σ), Q = −μ/(2σ)), and so is a weighted mean of such
// scores and cosines (a verifier bundle scoring by its parts' scores).
type DotForm struct {
	// Terms are the dot products.
	Terms []DotTerm
	// Q is a per-vector offset; nil is 0.
	Q func(v []float32) float64
	// Link maps the sum to the score; nil is the identity.
	Link func(s float64) float64
}

// DotTerm is one dot product of a DotForm.
type DotTerm struct {
	// X maps a set vector to the term's vector; all of a term's vectors
	// have one length. It returns a new slice.
	X func(v []float32) []float32
	// P is the term's per-vector weight; nil means Pₖ(a) + Pₖ(b) = 1.
	P func(v []float32) float64
}

// DotFormer is a PairScorer that can give its score's DotForm; ok is
// false when this instance has none (a bundle with an LSM part), and the
// caller scores pair by pair.
type DotFormer interface {
	PairScorer
	DotForm() (f DotForm, ok bool)
}

// Weight returns term t's Pₜ(a) + Pₜ(b).
func (t DotTerm) Weight(a, b []float32) float64 {
	if t.P == nil {
		return 1
	}
	return t.P(a) + t.P(b)
}

// Offset returns Q(v) (0 for a nil Q).
func (f DotForm) Offset(v []float32) float64 {
	if f.Q == nil {
		return 0
	}
	return f.Q(v)
}

// Apply returns Link(s) (s for a nil Link).
func (f DotForm) Apply(s float64) float64 {
	if f.Link == nil {
		return s
	}
	return f.Link(s)
}

// Eval is the form's score of one pair, computed from its definition (what
// a matrix-product caller must agree with, and what tests compare with the
// scorer's Score).
func (f DotForm) Eval(a, b []float32) float64 {
	s := f.Offset(a) + f.Offset(b)
	for _, t := range f.Terms {
		x, y := t.X(a), t.X(b)
		var d float64
		for i := range x {
			d += float64(x[i]) * float64(y[i])
		}
		s += d * t.Weight(a, b)
	}
	return f.Apply(s)
}

// SliceTerm returns t reading v[lo:hi] of a longer vector, its weight
// scaled by w (a part of weight w in a mixture whose vectors are the
// parts' concatenated).
func SliceTerm(t DotTerm, lo, hi int, w float64) DotTerm {
	p := t.P
	return DotTerm{
		X: func(v []float32) []float32 { return t.X(v[lo:hi]) },
		P: func(v []float32) float64 {
			if p == nil {
				return w / 2
			}
			return w * p(v[lo:hi])
		},
	}
}

// CosineForm is the DotForm of the cosine: one term, the unit vectors.
func CosineForm() DotForm { return DotForm{Terms: []DotTerm{{X: Unit}}} }

// Unit returns v scaled to unit length as a new slice (a zero vector stays
// zero, so its dot products, like its cosines, are 0).
func Unit(v []float32) []float32 { return stats.Normalize(append([]float32(nil), v...)) }
