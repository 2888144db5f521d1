package table2

import (
	"context"
	"fmt"
	"strings"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
)

// MixedName is the row name of Mixed Features in reports.
const MixedName = "mixed"

// Mixed is the paper's "Mixed Features": the concatenation of the
// L2-normalised set embeddings of several encoders. Because every part is
// unit length, the cosine of two mixed embeddings is the mean of the
// parts' cosines (when no part embedding is all zeros), so each part
// weighs the same whatever its dimension.
//
// Mixed is a SetEncoder (EmbedSets pools each part by its own rule, then
// normalises and concatenates) and a Fitter (Fit fits the parts that are
// Fitters). Its per-utterance Encode concatenates normalised utterance
// vectors, which is what `roleprint embed` prints.
type Mixed struct {
	name  string
	parts []sv.Encoder
}

// NewMixed combines parts (at least one) under name (MixedName when
// empty).
func NewMixed(name string, parts ...sv.Encoder) (*Mixed, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("mixed features: no encoders to combine")
	}
	if name == "" {
		name = MixedName
	}
	return &Mixed{name: name, parts: parts}, nil
}

// Name returns the mixed encoder's name.
func (m *Mixed) Name() string { return m.name }

// Dim is the sum of the parts' dimensions (which may change when Fit
// fits a vocabulary).
func (m *Mixed) Dim() int {
	d := 0
	for _, p := range m.parts {
		d += p.Dim()
	}
	return d
}

// Parts returns the combined encoders.
func (m *Mixed) Parts() []sv.Encoder { return m.parts }

// Fit fits every part that is a Fitter on texts.
func (m *Mixed) Fit(ctx context.Context, texts []string) error {
	for _, p := range m.parts {
		if f, ok := p.(sv.Fitter); ok {
			if err := f.Fit(ctx, texts); err != nil {
				return fmt.Errorf("%s: fit %s: %w", m.name, p.Name(), err)
			}
		}
	}
	return nil
}

// Encode concatenates the parts' L2-normalised utterance vectors.
func (m *Mixed) Encode(ctx context.Context, texts []string, progress sv.Progress) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i := range out {
		out[i] = make([]float32, 0, m.Dim())
	}
	for k, p := range m.parts {
		vecs, err := p.Encode(ctx, texts, nil)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", m.name, p.Name(), err)
		}
		for i, v := range vecs {
			out[i] = append(out[i], stats.Normalize(append([]float32(nil), v...))...)
		}
		progress.Report(k+1, len(m.parts))
	}
	return out, nil
}

// EncodeSets embeds the sets with each part (EmbedSets rules), normalises
// each part's set embedding and concatenates them.
func (m *Mixed) EncodeSets(ctx context.Context, sets [][]string, progress sv.Progress) ([][]float32, error) {
	us := make([]*pairs.UtteranceSet, len(sets))
	for i, texts := range sets {
		us[i] = &pairs.UtteranceSet{ID: fmt.Sprint(i), Texts: texts}
	}
	parts := make([]map[string][]float32, len(m.parts))
	for k, p := range m.parts {
		e, err := sv.EmbedSets(ctx, p, us, nil)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.name, err)
		}
		parts[k] = e
		progress.Report(k+1, len(m.parts))
	}
	return concatNormalized(us, parts), nil
}

// concatNormalized builds mixed set embeddings from per-encoder set
// embeddings (one map per encoder, keyed by set ID): for each set, in the
// order of sets, the L2-normalised part vectors concatenated.
func concatNormalized(sets []*pairs.UtteranceSet, parts []map[string][]float32) [][]float32 {
	out := make([][]float32, len(sets))
	for i, s := range sets {
		var v []float32
		for _, p := range parts {
			v = append(v, stats.Normalize(append([]float32(nil), p[s.ID]...))...)
		}
		out[i] = v
	}
	return out
}

// Close closes the parts that hold resources.
func (m *Mixed) Close() error {
	return sv.CloseAll(m.name, m.parts)
}

// mixedPartsSetting is the EncoderOptions setting that lists the parts of
// the registered "mixed" encoder, separated by "+"
// ("parts=glove-sif+tfidf"); DefaultMixedParts when absent.
const mixedPartsSetting = "parts"

// DefaultMixedParts are the parts of "mixed" when none are named: the
// CPU-cheap baselines that carry different signals (style, content words,
// character n-grams).
var DefaultMixedParts = []string{"liwc", "glove-sif", "tfidf"}

func init() {
	sv.RegisterEncoder(MixedName, func(opts sv.EncoderOptions) (sv.Encoder, error) {
		names := DefaultMixedParts
		if s := opts.String(mixedPartsSetting, ""); s != "" {
			names = strings.Split(s, "+")
		}
		parts := make([]sv.Encoder, 0, len(names))
		for _, n := range names {
			n = strings.TrimSpace(n)
			if n == MixedName {
				return nil, fmt.Errorf("mixed features cannot contain itself")
			}
			po := opts
			po.Settings = sv.SettingsFor(n, opts.Settings) // each part gets the keys it has
			e, err := sv.NewEncoder(n, po)
			if err != nil {
				return nil, err
			}
			parts = append(parts, e)
		}
		return NewMixed(MixedName, parts...)
	})
}
