package verifier

import (
	"context"
	"fmt"

	"github.com/roleprint/roleprint/sv"
)

// A bundle with a part that scores pairs itself (an sv.PairScorer: an
// ngram-metric part with an s-norm cohort, lsm) scores as mixed_ft chose
// it: Σ wᵢ·scoreᵢ / Σ wᵢ, each part's own score on its slice of the set
// vector (the cosine for the other parts). Its set vectors are then the
// parts' raw vectors concatenated (a PairScorer reads its own layout), and
// the bundle's encoder is scoredMixture, itself an sv.PairScorer, so that
// table scoring, role-play scoring and `verify` all use that score.
// Without such a part the bundle stays the plain mixture, whose cosine is
// the fused score (and which role-play scores by one matrix product).

// ScoresParts is Spec.Scores of a bundle that scores by its parts' own
// scores.
const ScoresParts = "parts"

// scoredMixture is a mixture with at least one PairScorer part.
type scoredMixture struct{ *mixture }

var (
	_ sv.PairScorer = scoredMixture{}
	_ sv.SetEncoder = scoredMixture{}
	_ sv.Adapter    = scoredMixture{}
)

// hasPairScorer reports whether any part scores pairs itself.
func (m *mixture) hasPairScorer() bool {
	for _, p := range m.parts {
		if _, ok := p.(sv.PairScorer); ok {
			return true
		}
	}
	return false
}

// encoder is the bundle's encoder: m, or scoredMixture{m} when a part is
// a PairScorer and parts is set (then m.raw is set, so vectors keep the
// parts' layouts); a bundle saved before Spec.Scores existed (parts
// false) keeps the cosine its threshold was chosen on.
func (m *mixture) encoder(parts bool) sv.Encoder {
	if !parts || !m.hasPairScorer() {
		m.raw = false
		return m
	}
	m.raw = true
	return scoredMixture{m}
}

// Score implements sv.PairScorer: the weighted mean of the parts' scores
// (sv.ScorePair) on their slices of a and b. Vectors of another length are
// an error of the caller; they get 0 (never a panic).
func (s scoredMixture) Score(a, b []float32) float64 {
	if len(a) != len(b) || len(a) != s.Dim() {
		return 0
	}
	var sum, w float64
	off := 0
	for k, p := range s.parts {
		d := p.Dim()
		sum += s.weights[k] * sv.ScorePair(p, a[off:off+d], b[off:off+d])
		w += s.weights[k]
		off += d
	}
	if w == 0 {
		return 0
	}
	return sum / w
}

// Describe says how the bundle scores.
func (s scoredMixture) Describe() string {
	return fmt.Sprintf("%s: weighted mean of the parts' own scores (%s)", s.name, s.partNames())
}

// Similarity is the encoder role-play scoring (Eq. 2, Eq. 3 and the
// similarity distributions) uses. For a bundle whose score is the cosine
// it is Encoder(). For a bundle whose score is not (a part scores pairs
// itself: the s-norm's z-scale, unbounded), it is a PairScorer whose score
// is the calibrated same-speaker probability of the fused score, in [0, 1]:
// the equations average a similarity and 1 − similarity, which needs a
// bounded one, and the calibration is monotone, so every ranking and AUC
// is the fused score's. As saved, the probability is the calibration of
// as-saved scores' (Spec.CalibrationFor(ScoringAsSaved)). Adapted (score
// --adapt), an s-norm part draws its cohort from the adaptation texts and
// the probability is the calibration of adapted scores' (CalibrationFor
// (ScoringAdapted): fitted on adapted held-out scores when the bundle has
// one, else the bundle's one calibration, which CalibrationFor states); a
// part left scoring by the cosine (too few texts for a cohort) makes the
// fused score one no calibration was fitted on, and then it scores by the
// fused score.
func (v *Verifier) Similarity() sv.Encoder {
	s, ok := v.scorer.(scoredMixture)
	if !ok {
		return v.scorer
	}
	return &probMixture{scoredMixture: s, cal: v.Spec.CalibrationFor(ScoringAsSaved), calAdapted: v.Spec.CalibrationFor(ScoringAdapted)}
}

// probMixture is Verifier.Similarity of a scoredMixture.
type probMixture struct {
	scoredMixture
	// cal reads scores as saved, calAdapted adapted ones; adapted says Adapt
	// ran, raw that an adapted part left the s-norm (Score is the fused
	// score then).
	cal, calAdapted ModeCalibration
	adapted, raw    bool
}

// Score implements sv.PairScorer: P(same) of the fused score, or the fused
// score once an adapted part scores by the cosine (see Similarity).
func (p *probMixture) Score(a, b []float32) float64 {
	s := p.scoredMixture.Score(a, b)
	if p.raw {
		return s
	}
	return p.Calibration().Calibration.Probability(s)
}

// Calibration is the calibration Score reads its fused score through:
// the adapted scores' once Adapt ran, else the as-saved scores'.
func (p *probMixture) Calibration() ModeCalibration {
	if p.adapted {
		return p.calAdapted
	}
	return p.cal
}

// SimilarityCalibration returns the calibration the role-play similarity
// enc (Verifier.Similarity) reads its scores through now (as saved, or
// adapted once adapted); ok is false when enc's similarity is not a
// calibrated probability (a cosine, or the fused score of an adapted part
// left without its s-norm).
func SimilarityCalibration(enc sv.Encoder) (ModeCalibration, bool) {
	p, ok := enc.(*probMixture)
	if !ok || p.raw {
		return ModeCalibration{}, false
	}
	return p.Calibration(), true
}

// Adapt implements sv.Adapter (the mixture's Adapt), after which Score is
// P(same) under the calibration of adapted scores when every s-norm part
// kept its s-norm (a cohort drawn from texts), else the fused score.
func (p *probMixture) Adapt(ctx context.Context, texts []string) error {
	if err := p.mixture.Adapt(ctx, texts); err != nil {
		return err
	}
	p.adapted, p.raw = true, !p.mixture.keepsSNorm()
	return nil
}

// snormer is a part that says whether it scores pairs by its s-norm now
// (sv/baseline's ngram-metric with a cohort).
type snormer interface{ ScoresBySNorm() bool }

// keepsSNorm reports whether every part Adapt changed is an s-norm part
// that still scores by its s-norm (against a cohort of the adaptation
// texts), and there is one: then the fused score is of the kind the
// calibration was fitted on. An adapted part without an s-norm (a cosine
// n-gram part, or one left without a cohort) changes the score's
// distribution in a way nothing corrects.
func (m *mixture) keepsSNorm() bool {
	n := 0
	for _, p := range m.parts {
		if _, ok := p.(sv.Adapter); !ok {
			continue
		}
		if s, ok := p.(snormer); !ok || !s.ScoresBySNorm() {
			return false
		}
		n++
	}
	return n > 0
}

// SimilarityName implements sv.SimilarityNamer.
func (p *probMixture) SimilarityName() string {
	if p.raw {
		return "Verifier score"
	}
	return "P(same speaker)"
}
