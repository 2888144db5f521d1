package baseline

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/roleprint/roleprint/stats"
)

// TestNgramMetricCohortTop checks cohort_top=N (AS-norm): a set's μ and σ
// are the mean and deviation of its N highest cosines to the cohort sets
// of its predicted corpus, computed here from the cohort's own vectors.
func TestNgramMetricCohortTop(t *testing.T) {
	ctx := context.Background()
	c := styleCorpus(5)
	o := cohortMetricOptions()
	o.CohortTop = 3
	f, err := NewNgramMetric(o, 3, "", func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	m := metricOf(f)
	fitSources(t, m, c)
	if err := m.Train(ctx, c, nil); err != nil {
		t.Fatal(err)
	}
	sets := [][]string{c.Sets["s1-c0"].Texts, c.Sets["s2-c2"].Texts, c.Sets["s4-c1"].Texts}
	vec, _, cos := cohortCosines(t, m, sets)
	for i := range sets {
		xs := slices.Clone(cos[i])
		if len(xs) <= o.CohortTop {
			t.Fatalf("set %d: %d cohort sets in its corpus, want more than cohort_top %d", i, len(xs), o.CohortTop)
		}
		slices.Sort(xs)
		mu, sd := meanSD(xs[len(xs)-o.CohortTop:])
		muAll, _ := meanSD(xs)
		n := len(vec[i])
		gotMu, gotSd := float64(vec[i][n-2])/cohortTail, float64(vec[i][n-1])/cohortTail
		if math.Abs(gotMu-mu) > 1e-4 || math.Abs(gotSd-sd) > 1e-4 {
			t.Errorf("set %d: μ %.5f σ %.5f, want the top %d's %.5f and %.5f", i, gotMu, gotSd, o.CohortTop, mu, sd)
		}
		if math.Abs(mu-muAll) < 1e-4 {
			t.Errorf("set %d: the top %d's mean equals the whole cohort's (%.5f): the test checks nothing", i, o.CohortTop, mu)
		}
	}
}

// TestNgramMetricAdaptScoreCosine checks adapt_score=cosine: an adapted
// encoder with a cohort draws no adaptation cohort and scores by the style
// cosine (no s-norm tail), while the default keeps the s-norm.
func TestNgramMetricAdaptScoreCosine(t *testing.T) {
	ctx := context.Background()
	c := styleCorpus(6)
	domain := trainTextsOf(c)
	for _, score := range []string{adaptScoreSNorm, adaptScoreCosine} {
		o := cohortMetricOptions()
		o.AdaptScore = score
		f, err := NewNgramMetric(o, 3, "", func(string, ...any) {})
		if err != nil {
			t.Fatal(err)
		}
		cm := f.(cohortMetric)
		fitSources(t, cm.ngramMetric, c)
		if err := cm.Train(ctx, c, nil); err != nil {
			t.Fatal(err)
		}
		if err := cm.Adapt(ctx, domain); err != nil {
			t.Fatal(err)
		}
		if got, want := cm.ScoresBySNorm(), score == adaptScoreSNorm; got != want {
			t.Errorf("adapt_score=%s: ScoresBySNorm %v, want %v", score, got, want)
		}
		vec, err := cm.EncodeSets(ctx, [][]string{c.Sets["s1-c0"].Texts, c.Sets["s2-c2"].Texts}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if score == adaptScoreCosine {
			if got, want := cm.Score(vec[0], vec[1]), stats.Cosine(vec[0], vec[1]); math.Abs(got-want) > 1e-6 {
				t.Errorf("adapt_score=cosine: Score %v, want the cosine %v", got, want)
			}
		}
	}
}
