package baseline

import (
	"context"
	"fmt"

	"github.com/roleprint/roleprint/sv"
)

var _ sv.Adapter = (*ngramMetric)(nil)

// Adapt implements sv.Adapter, refitting what training fitted without
// labels on texts, the domain to score, and keeping what it learned:
// every channel's vocabulary, IDF and topic mask are refitted on texts,
// each n-gram keeps the share adapt_keep of its trained weight's offset
// from 1 (default 0: the untrained weight, which transfers better to a
// show held out of training; an n-gram the training texts lacked gets 1),
// and every set is centred on the mean of texts' TF-IDF vectors whatever
// its predicted corpus (with adapt_pool=doc, each set is pooled as
// documents of a set's size and centred on the mean document of texts;
// with adapt_channels=char only the char channel counts). The group
// channel (which training show a set is like) is left out: in a domain
// the verifier never saw, every set belongs to that one new domain, and
// the show it is nearest is noise (on ChatHaruhi it lowered the Real
// row's separation by 4.7 AUC points). An encoder that scores by s-norm
// draws its cohort from texts (ngrammetric_adapt_cohort.go). A second
// Adapt starts again from
// the trained weights. The projection channel (rank > 0) is trained on
// the training vocabulary and cannot follow: Adapt is an error with it.
func (e *ngramMetric) Adapt(ctx context.Context, texts []string) (err error) {
	switch {
	case len(e.chans) == 0 || e.chans[0].w == nil:
		return errMetricUnfitted
	case e.proj != nil:
		return fmt.Errorf("%s: adapt: the rank-%d projection is tied to the training vocabulary; adapt needs rank=0", NameNgramMetric, e.proj.rank)
	case len(texts) == 0:
		return fmt.Errorf("%s: adapt: no texts to adapt to", NameNgramMetric)
	}
	defer func() {
		if err != nil {
			// The channels may be refitted already: never score with a
			// half-adapted state (Encode says it is unfitted instead).
			e.target, e.adaptCohort, e.adaptG = nil, nil, 0
			e.chans[0].w = nil
		}
	}()
	if e.trainedW == nil {
		e.trainedW = make([]map[string]float32, len(e.chans))
		for ci, c := range e.chans {
			m := make(map[string]float32, len(c.w))
			for i, g := range c.tf.Vocabulary() {
				m[g] = c.w[i]
			}
			e.trainedW[ci] = m
		}
	}
	target := make([][]float64, len(e.chans))
	kept, total := 0, 0
	for ci, c := range e.chans {
		if err := c.tf.fitTexts(ctx, texts); err != nil {
			return fmt.Errorf("%s %s channel: adapt: %w", NameNgramMetric, c.name, err)
		}
		kept += e.adaptWeights(ci)
		total += len(c.w)
		m, err := docTarget(ctx, c, texts, e.poolSize())
		if err != nil {
			return err
		}
		target[ci] = m
	}
	e.target = target
	e.adaptCohort, e.adaptG = nil, 0
	norm := ""
	if e.cohort != nil && e.opts.AdaptScore == adaptScoreCosine {
		norm = ", pairs scored by the cosine (adapt_score=cosine)"
	} else if e.cohort != nil {
		size := e.cohort.meanSetSize()
		if sets := adaptCohortSets(texts, e.opts.Cohort, size, min(e.opts.Cohort, minAdaptCohort)); sets != nil {
			e.adaptCohort, e.adaptG = newAdaptCohort(sets), e.sameCorpusG()
			norm = fmt.Sprintf(", pairs scored by s-norm against %d chunks of %d of them + %g × %.3f", len(sets), size, e.opts.CohortGroupWeight, e.adaptG)
		} else {
			norm = fmt.Sprintf(", pairs scored by the cosine (too few texts for an s-norm cohort of chunks of %d)", size)
		}
	}
	centre := "every set centred on their mean"
	if e.adaptDoc() {
		centre = fmt.Sprintf("every set pooled as documents of %d texts and centred on the mean document of them", e.docChunkSize())
	}
	e.logf("%s: adapted to %d texts: vocabularies refitted, %d of %d features keep a trained weight, %s, group channel off%s", NameNgramMetric, len(texts), kept, total, centre, norm)
	return nil
}

// adaptWeights sets channel ci's weights on its refitted features and
// returns how many keep a trained weight: with descriptor weights every
// feature takes its class's (the classes recomputed on the refitted
// features); otherwise an n-gram the training saw keeps the share
// adapt_keep of its weight's offset from 1 and a new one gets 1.
func (e *ngramMetric) adaptWeights(ci int) int {
	c := e.chans[ci]
	if e.opts.descriptorWeights() {
		c.class = channelClasses(c, e.opts)
		c.w = make([]float32, len(c.class))
		for i, k := range c.class {
			c.w[i] = c.theta[k]
		}
		return len(c.w)
	}
	vocab := c.tf.Vocabulary()
	c.w = make([]float32, len(vocab))
	kept := 0
	for i, g := range vocab {
		w, ok := e.trainedW[ci][g]
		if !ok {
			w = 1
		} else {
			w = float32(1 + e.opts.AdaptKeep*(float64(w)-1))
			kept++
		}
		c.w[i] = w
	}
	return kept
}

// adaptedSets returns channel ci's vectors of sets centred on the
// adaptation mean, times the channel's weights (pooled as documents
// with adapt_pool=doc).
func (e *ngramMetric) adaptedSets(ctx context.Context, ci int, sets [][]string) ([][]float32, error) {
	return centredSets(ctx, e.chans[ci], sets, e.poolSize(), func(int) []float64 { return e.target[ci] })
}
