package baseline

import "github.com/roleprint/roleprint/sv"

var _ sv.DotFormer = cohortMetric{}

// DotForm implements sv.DotFormer: Score as dot products. With the s-norm
// tail (see Score),
//
//	½·((s − μa)/σa + (s − μb)/σb) + λ·g
//	  = s·(1/(2σa) + 1/(2σb)) − μa/(2σa) − μb/(2σb) + ⟨ga, gb⟩·(κ/2 + κ/2)
//
// with s the dot product of the unit style vectors, ga the group-channel
// slice and κ = λ·Σβ/β_g; once adapted there is no group channel and
// λ·adaptG splits into the two offsets; without the tail (an encoder
// adapted to too few texts for a cohort), the cosine.
func (m cohortMetric) DotForm() (sv.DotForm, bool) {
	e := m.ngramMetric
	if !e.cohortActive() {
		return sv.CosineForm(), true
	}
	d, n := e.styleDim(), e.Dim()
	adapted := 0.0 // half the adapted corpus term on each side
	if e.target != nil {
		adapted = e.opts.CohortGroupWeight * e.adaptG / 2
	}
	stat := func(v []float32) (mu, sd float64) {
		return float64(v[len(v)-2]) / cohortTail, float64(v[len(v)-1]) / cohortTail
	}
	f := sv.DotForm{
		Terms: []sv.DotTerm{{
			X: func(v []float32) []float32 { return sv.Unit(v[:d]) },
			P: func(v []float32) float64 {
				if _, sd := stat(v); sd > 1e-12 {
					return 1 / (2 * sd)
				}
				return 0.5
			},
		}},
		Q: func(v []float32) float64 {
			mu, sd := stat(v)
			if sd > 1e-12 {
				return -mu/(2*sd) + adapted
			}
			return -mu/2 + adapted
		},
	}
	if n-2 > d {
		k := e.opts.CohortGroupWeight
		if gb := e.groupBeta(); gb > 0 {
			k *= e.betaSum(gb) / gb
		}
		f.Terms = append(f.Terms, sv.DotTerm{
			X: func(v []float32) []float32 { return append([]float32(nil), v[d:n-2]...) },
			P: func([]float32) float64 { return k / 2 },
		})
	}
	return f, true
}
