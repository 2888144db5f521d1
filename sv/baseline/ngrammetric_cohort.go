package baseline

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
)

// Score normalisation of ngram-metric (setting cohort=N, with
// center_by=corpus): symmetric s-norm, the score normalisation of speaker
// verification (Kenny 2010; Cumani et al. 2011), against a cohort of
// training sets of the set's own predicted corpus. A set's style vector
// (its n-gram channels, without the group channel) is compared with the
// cohort's: μ and σ are the mean and deviation of those cosines, so a set
// that resembles every set of its show (a hub) or none is put on one
// scale with the others. The pair score is
//
//	½·((s − μ_a)/σ_a + (s − μ_b)/σ_b) + cohort_group_weight·g
//
// with s the cosine of the two style vectors and g the dot product of the
// two group-channel vectors (1 for two sets surely of one corpus). Within
// one corpus (the Hard level) g is nearly constant and the order is the
// s-norm's; across corpora g keeps what the Base level rewards.
//
// The cohort is what the runner's Train chose (N training sets per
// predicted corpus, drawn with the encoder's seed) and travels with the
// weights file, so a loaded encoder scores as the trained one.

// cohortTail scales μ and σ where EncodeSets appends them to a set vector
// (its last two entries). Score reads them back; the cosine of two such
// vectors, which mixed_ft, the verifier bundle and every plain consumer
// use, moves by less than float32's precision (μ, σ < 1, so the tail's
// share of a unit vector's norm is below 1e-12).
const cohortTail = 1e-6

// metricCohort is the cohort of cohort=N: the sets' texts (saved with the
// weights) and, computed on first use with the final weights, each set's
// predicted corpus and unit-length style vector.
type metricCohort struct {
	sets  [][]string
	mu    sync.Mutex
	group []int
	vecs  [][]float32
	// byText maps a text to the cohort sets holding it, for a cohort cut
	// from the texts being scored (Adapt's): a set is not normalised
	// against a chunk it shares a text with. nil for the training cohort.
	byText map[string][]int
}

// cohortMetric is ngram-metric with cohort > 0: the encoder plus its own
// pair score (an sv.PairScorer, so Table 2 scores its row with s-norm);
// without cohort the encoder is not a PairScorer and keeps the cosine
// fast paths.
type cohortMetric struct{ *ngramMetric }

var _ sv.PairScorer = cohortMetric{}

// metricOf returns the ngram-metric under f (either form).
func metricOf(f sv.Fitter) *ngramMetric {
	switch m := f.(type) {
	case *ngramMetric:
		return m
	case cohortMetric:
		return m.ngramMetric
	}
	return nil
}

// cohortActive reports whether set vectors carry the s-norm tail: a cohort
// chosen and the corpus centring in place, and, when adapted, a cohort
// drawn from the adaptation texts (the training cohort means nothing for
// other texts).
func (e *ngramMetric) cohortActive() bool {
	return e.cohort != nil && e.groups != nil && (e.target == nil || e.adaptCohort != nil)
}

// ScoresBySNorm reports whether Score is the s-norm now (a cohort is
// active), not the cosine: what a verifier bundle's calibration, fitted
// on s-norm scores, needs to stay valid after Adapt.
func (m cohortMetric) ScoresBySNorm() bool { return m.cohortActive() }

// activeCohort is the cohort sets are normalised against: the adaptation
// cohort while adapted, else the training one.
func (e *ngramMetric) activeCohort() *metricCohort {
	if e.target != nil {
		return e.adaptCohort
	}
	return e.cohort
}

// chooseCohort draws the cohort from c's training sets: each set is placed
// by the source model, and per predicted corpus at most opts.Cohort sets
// are drawn with the encoder's seed (sets in ID order first, so the draw
// does not depend on map order).
func (e *ngramMetric) chooseCohort(c *pairs.PairCorpus) error {
	if e.groups == nil {
		return fmt.Errorf("%s: cohort=%d needs center_by=corpus (the cohort is drawn per predicted corpus)", NameNgramMetric, e.opts.Cohort)
	}
	ids := map[string]bool{}
	for _, p := range c.Train {
		ids[p.A], ids[p.B] = true, true
	}
	sets := sv.SetsByID(c, ids)
	texts := make([][]string, len(sets))
	for i, s := range sets {
		texts[i] = s.Texts
	}
	group, _ := e.groups.place(texts, 0, false)
	byGroup := make([][]int, len(e.groups.nb.names))
	for i, g := range group {
		byGroup[g] = append(byGroup[g], i)
	}
	rng := rand.New(rand.NewPCG(uint64(e.seed), 0x636f686f7274)) // "cohort"
	var chosen [][]string
	for _, members := range byGroup {
		rng.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
		for _, i := range members[:min(len(members), e.opts.Cohort)] {
			chosen = append(chosen, texts[i])
		}
	}
	if len(chosen) < 2 {
		return fmt.Errorf("%s: cohort: %d training sets; want at least 2", NameNgramMetric, len(chosen))
	}
	e.cohort = &metricCohort{sets: chosen}
	return nil
}

// styleDim is the length of a set vector's n-gram channels (what the
// s-norm compares), the group channel and tail following it.
func (e *ngramMetric) styleDim() int {
	n := 0
	for _, c := range e.chans {
		n += c.tf.Dim()
	}
	return n
}

// cohortReady embeds the cohort with the current weights once (on the
// first EncodeSets after Train or load; a cancelled attempt is not kept,
// so the next call tries again).
func (e *ngramMetric) cohortReady(ctx context.Context, k *metricCohort) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.vecs != nil {
		return nil
	}
	v, err := e.encodeSets(ctx, k.sets, nil)
	if err != nil {
		return fmt.Errorf("%s: cohort: %w", NameNgramMetric, err)
	}
	if e.target == nil {
		k.group, _ = e.groups.place(k.sets, 0, false)
	} else {
		k.group = make([]int, len(k.sets)) // one domain
	}
	d := e.styleDim()
	vecs := make([][]float32, len(v))
	for i, x := range v {
		vecs[i] = stats.Normalize(append([]float32(nil), x[:d]...))
	}
	k.vecs = vecs
	return nil
}

// appendCohortStats appends ε·μ and ε·σ of each set's style cosines to the
// cohort sets of its predicted corpus (group[i]), leaving out cohort sets
// that share a text with it (an adaptation cohort: metricCohort.byText).
// Sets are independent, so they are split over the encoder's threads
// (results do not depend on it).
func (e *ngramMetric) appendCohortStats(ctx context.Context, out [][]float32, sets [][]string, group []int) error {
	k := e.activeCohort()
	if err := e.cohortReady(ctx, k); err != nil {
		return err
	}
	d := e.styleDim()
	threads := e.opts.Threads
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	stat := make([][2]float32, len(out))
	var wg sync.WaitGroup
	for w := range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			u := make([]float32, d)
			skip := make([]bool, len(k.vecs))
			scores := make([]float64, 0, len(k.vecs))
			for i := w; i < len(out); i += threads {
				if ctx.Err() != nil {
					return
				}
				copy(u, out[i][:d])
				stats.Normalize(u)
				if k.byText != nil {
					for _, t := range sets[i] {
						for _, j := range k.byText[t] {
							skip[j] = true
						}
					}
				}
				var m, m2, n float64
				for pass := 0; pass < 2 && n < 2; pass++ {
					// A corpus with fewer than 2 cohort sets (left) is
					// normalised against the whole cohort, so every set
					// gets a z-score.
					scores = scores[:0]
					for j, c := range k.vecs {
						if pass == 0 && (k.group[j] != group[i] || skip[j]) {
							continue
						}
						scores = append(scores, dot32(u, c))
					}
					if top := e.opts.CohortTop; top > 0 && len(scores) > top {
						slices.Sort(scores)
						scores = scores[len(scores)-top:]
					}
					m, m2, n = 0, 0, float64(len(scores))
					for _, s := range scores {
						m += s
						m2 += s * s
					}
				}
				mu, sd := 0.0, 0.0
				if n > 0 {
					mu = m / n
					sd = math.Sqrt(math.Max(0, m2/n-mu*mu))
				}
				stat[i] = [2]float32{float32(mu * cohortTail), float32(sd * cohortTail)}
				if k.byText != nil {
					clear(skip)
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	for i, v := range out {
		out[i] = append(v, stat[i][0], stat[i][1])
	}
	return nil
}

// dot32 is the dot product of two equal-length vectors, accumulated in
// float64 over four lanes (the cohort statistics' inner loop: 60,000
// entries per cohort set; Go does not vectorise it, the lanes let the CPU
// overlap the additions).
func dot32(a, b []float32) float64 {
	var s0, s1, s2, s3 float64
	n := len(a) &^ 3
	b = b[:len(a)]
	for i := 0; i < n; i += 4 {
		s0 += float64(a[i]) * float64(b[i])
		s1 += float64(a[i+1]) * float64(b[i+1])
		s2 += float64(a[i+2]) * float64(b[i+2])
		s3 += float64(a[i+3]) * float64(b[i+3])
	}
	for i := n; i < len(a); i++ {
		s0 += float64(a[i]) * float64(b[i])
	}
	return (s0 + s1) + (s2 + s3)
}

// Score implements sv.PairScorer: the s-norm of the two sets' style
// cosine plus cohort_group_weight times their group channels' dot
// product (see cohortTail), adaptG in place of the latter once adapted;
// vectors without the tail (an encoder adapted to too few texts for a
// cohort) get the cosine.
func (m cohortMetric) Score(a, b []float32) float64 {
	e := m.ngramMetric
	d := e.styleDim()
	if len(a) != len(b) || len(a) != e.Dim() || !e.cohortActive() || len(a) < d+2 {
		return stats.Cosine(a, b)
	}
	n := len(a)
	s := stats.Cosine(a[:d], b[:d])
	var g float64
	for q := d; q < n-2; q++ {
		g += float64(a[q]) * float64(b[q])
	}
	if gb := e.groupBeta(); gb > 0 {
		// The group channel is scaled by √(β_g/Σβ) in the vector; undo it so
		// that g is the profiles' own dot product.
		g *= e.betaSum(gb) / gb
	}
	if e.target != nil {
		g = e.adaptG // adapted: no group channel, every pair of one corpus
	}
	z := func(v []float32) float64 {
		mu, sd := float64(v[n-2])/cohortTail, float64(v[n-1])/cohortTail
		if sd <= 1e-12 {
			return s - mu
		}
		return (s - mu) / sd
	}
	return (z(a)+z(b))/2 + e.opts.CohortGroupWeight*g
}

// betaSum is Σβ over the channels, the projection and a group channel of
// weight gb: what each channel's share of a set vector is scaled against.
func (e *ngramMetric) betaSum(gb float64) float64 {
	s := gb
	for ci := range e.chans {
		s += e.chanBeta(ci)
	}
	if e.proj != nil {
		s += e.proj.beta
	}
	return s
}
