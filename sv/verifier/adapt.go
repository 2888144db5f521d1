package verifier

import "github.com/roleprint/roleprint/sv"

// CanAdapt reports whether a part of the bundle is an sv.Adapter, so
// that the bundle can be adapted without labels to a corpus it was not
// trained on (sv/evaluate, `roleprint score`).
func (v *Verifier) CanAdapt() bool { return v.enc != nil && v.enc.CanAdapt() }

// CanAdapt reports whether a part of the mixture is an sv.Adapter (what
// Adapt needs): the bundle's encoder and Similarity say so to a caller
// that adapts by default (`roleprint score`).
func (m *mixture) CanAdapt() bool {
	for _, p := range m.parts {
		if _, ok := p.(sv.Adapter); ok {
			return true
		}
	}
	return false
}
