package verifier

import "github.com/roleprint/roleprint/sv"

var (
	_ sv.DotFormer = scoredMixture{}
	_ sv.DotFormer = (*probMixture)(nil)
)

// DotForm implements sv.DotFormer: the weighted mean of the parts' scores
// as one DotForm, each part's terms reading its slice of the vector with
// its share wᵢ/Σw of the weight (a plain part's term is its cosine). ok is
// false when a part scores pairs without such a form (lsm), or a part's
// form has a Link (the mean is of scores, not of linked ones).
func (s scoredMixture) DotForm() (sv.DotForm, bool) {
	var total float64
	for _, w := range s.weights {
		total += w
	}
	if total == 0 {
		return sv.DotForm{}, false
	}
	var f sv.DotForm
	var offsets []func([]float32) float64
	off := 0
	for k, p := range s.parts {
		d := p.Dim()
		part := sv.CosineForm()
		if _, ok := p.(sv.PairScorer); ok {
			df, isForm := p.(sv.DotFormer)
			if !isForm {
				return sv.DotForm{}, false
			}
			var ok bool
			if part, ok = df.DotForm(); !ok || part.Link != nil {
				return sv.DotForm{}, false
			}
		}
		w, lo, hi := s.weights[k]/total, off, off+d
		for _, t := range part.Terms {
			f.Terms = append(f.Terms, sv.SliceTerm(t, lo, hi, w))
		}
		if q := part.Q; q != nil {
			offsets = append(offsets, func(v []float32) float64 { return w * q(v[lo:hi]) })
		}
		off = hi
	}
	if len(offsets) > 0 {
		f.Q = func(v []float32) float64 {
			var q float64
			for _, o := range offsets {
				q += o(v)
			}
			return q
		}
	}
	return f, true
}

// DotForm implements sv.DotFormer: the fused score's form, linked to the
// calibrated probability unless an adapted part left the s-norm (see Score).
func (p *probMixture) DotForm() (sv.DotForm, bool) {
	f, ok := p.scoredMixture.DotForm()
	if !ok {
		return f, false
	}
	f.Link = func(s float64) float64 {
		if p.raw {
			return s
		}
		return p.Calibration().Calibration.Probability(s)
	}
	return f, true
}
