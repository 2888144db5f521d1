package baseline

import (
	"math"
	"slices"
)

// The s-norm of an adapted encoder. Adapt re-centres every set on the new
// domain's mean; the training cohort (sets of the training shows) would
// then normalise a set against texts it is no longer comparable with, so
// an encoder with a cohort draws a new one from the adaptation texts and
// keeps scoring pairs by the s-norm. The group channel is off while
// adapted: the new domain is one corpus, every set and cohort set is in
// one group, and every pair gets the corpus term of a same-corpus pair in
// training (adaptG), so the fused score a verifier bundle calibrated keeps
// its offset. The texts are those scored: a set is not normalised against
// a chunk it shares a text with (metricCohort.byText), which would inflate
// its μ.

// Values of NgramMetricOptions.AdaptScore.
const (
	adaptScoreSNorm  = "snorm"
	adaptScoreCosine = "cosine"
)

// minAdaptCohort is the fewest chunks an adapted s-norm is computed
// against (fewer: Cohort when smaller); below it the deviation is noise
// and the adapted encoder scores by the cosine.
const minAdaptCohort = 10

// adaptCohortSets cuts the s-norm cohort of an adapted encoder from texts:
// up to n sets of size consecutive texts each, their starts evenly spaced
// over texts. Texts come in the order of the sets they were drawn from
// (roleplay fits on the scored sets' texts in set order), so a chunk is
// mostly one speaker's lines, as a training cohort set is. Fewer than
// minN whole chunks (at least 2): nil.
func adaptCohortSets(texts []string, n, size, minN int) [][]string {
	size = max(1, size)
	n = min(n, len(texts)/size)
	if n < max(2, minN) {
		return nil
	}
	out := make([][]string, n)
	span := len(texts) - size
	for i := range n {
		start := int(math.Round(float64(i) * float64(span) / float64(n-1)))
		out[i] = slices.Clone(texts[start : start+size]) // never aliasing texts
	}
	return out
}

// newAdaptCohort is the cohort of adaptCohortSets with its text index.
func newAdaptCohort(sets [][]string) *metricCohort {
	k := &metricCohort{sets: sets, byText: map[string][]int{}}
	for j, s := range sets {
		for _, t := range s {
			if ids := k.byText[t]; len(ids) == 0 || ids[len(ids)-1] != j {
				k.byText[t] = append(ids, j)
			}
		}
	}
	return k
}

// meanSetSize is the mean number of texts of the cohort's sets, rounded
// (at least 1).
func (k *metricCohort) meanSetSize() int {
	if len(k.sets) == 0 {
		return 1
	}
	total := 0
	for _, s := range k.sets {
		total += len(s)
	}
	return max(1, int(math.Round(float64(total)/float64(len(k.sets)))))
}

// sameCorpusG is the mean group-profile dot product of two training
// cohort sets of one predicted corpus: the corpus term's g of a
// same-corpus pair, which an adapted encoder gives every pair. 0 without
// a group channel (the term was 0 in training too).
func (e *ngramMetric) sameCorpusG() float64 {
	if e.groups == nil || e.groupBeta() <= 0 || e.cohort == nil {
		return 0
	}
	group, prof := e.groups.place(e.cohort.sets, e.opts.GroupTemperature, true)
	var sum float64
	n := 0
	for i := range prof {
		for j := i + 1; j < len(prof); j++ {
			if group[i] != group[j] {
				continue
			}
			var g float64
			for q := range prof[i] {
				g += prof[i][q] * prof[j][q]
			}
			sum += g
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}
