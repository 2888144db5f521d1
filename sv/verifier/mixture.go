package verifier

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
)

// mixture is a bundle's encoder: one part as it is, or several parts'
// L2-normalised vectors scaled by √weight and concatenated, so that the
// cosine of two mixtures is Σ wᵢ·cosᵢ / Σ wᵢ. It is deliberately not an
// sv.Fitter: a loaded verifier keeps the state it was saved with (callers
// such as `roleprint score` fit Fitters on their own data otherwise).
type mixture struct {
	name    string
	parts   []sv.Encoder
	weights []float64
	// raw keeps each part's vector as the part gives it (scoredMixture):
	// the fused score is then computed part by part, not by the cosine.
	raw bool
}

var (
	_ sv.Encoder    = (*mixture)(nil)
	_ sv.SetEncoder = (*mixture)(nil)
	_ sv.Closer     = (*mixture)(nil)
)

// Name implements sv.Encoder.
func (m *mixture) Name() string { return m.name }

// Dim implements sv.Encoder.
func (m *mixture) Dim() int {
	d := 0
	for _, p := range m.parts {
		d += p.Dim()
	}
	return d
}

// Encode implements sv.Encoder.
func (m *mixture) Encode(ctx context.Context, texts []string, progress sv.Progress) ([][]float32, error) {
	if len(m.parts) == 1 {
		return m.parts[0].Encode(ctx, texts, progress)
	}
	out := make([][]float32, len(texts))
	for k, p := range m.parts {
		vecs, err := p.Encode(ctx, texts, nil)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", m.name, p.Name(), err)
		}
		for i, v := range vecs {
			out[i] = append(out[i], m.scaled(k, v)...)
		}
		progress.Report(k+1, len(m.parts))
	}
	return out, nil
}

// EncodeSets implements sv.SetEncoder: each part pools sets by its own
// rule (sv.EmbedSets).
func (m *mixture) EncodeSets(ctx context.Context, sets [][]string, progress sv.Progress) ([][]float32, error) {
	us := make([]*pairs.UtteranceSet, len(sets))
	for i, texts := range sets {
		us[i] = &pairs.UtteranceSet{ID: fmt.Sprint(i), Texts: texts}
	}
	out := make([][]float32, len(sets))
	for k, p := range m.parts {
		e, err := sv.EmbedSets(ctx, p, us, nil)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.name, err)
		}
		for i, s := range us {
			if len(m.parts) == 1 {
				out[i] = e[s.ID]
			} else {
				out[i] = append(out[i], m.scaled(k, e[s.ID])...)
			}
		}
		progress.Report(k+1, len(m.parts))
	}
	return out, nil
}

// scaled returns part k's vector normalised and scaled by √weight (as it
// is, with raw).
func (m *mixture) scaled(k int, v []float32) []float32 {
	if m.raw {
		return append([]float32(nil), v...)
	}
	u := stats.Normalize(append([]float32(nil), v...))
	s := float32(math.Sqrt(m.weights[k]))
	for j := range u {
		u[j] *= s
	}
	return u
}

// Close implements sv.Closer.
func (m *mixture) Close() error {
	return sv.CloseAll(m.name, m.parts)
}

var _ sv.Adapter = (*mixture)(nil)

// Adapt implements sv.Adapter: every part that is an sv.Adapter is
// adapted to texts; the others are left as loaded. A mixture with no
// such part is an error (adapting it would silently change nothing).
func (m *mixture) Adapt(ctx context.Context, texts []string) error {
	n := 0
	for _, p := range m.parts {
		if a, ok := p.(sv.Adapter); ok {
			if err := a.Adapt(ctx, texts); err != nil {
				return fmt.Errorf("%s: %s: %w", m.name, p.Name(), err)
			}
			n++
		}
	}
	if n == 0 {
		return fmt.Errorf("%s: adapt: no part can be adapted (only ngram-metric parts can; this bundle has %s)", m.name, m.partNames())
	}
	return nil
}

// partNames lists the parts' encoder names.
func (m *mixture) partNames() string {
	names := make([]string, len(m.parts))
	for i, p := range m.parts {
		names[i] = p.Name()
	}
	return strings.Join(names, ", ")
}
