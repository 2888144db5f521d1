package baseline

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
)

// cohortMetricOptions are the corpus-centred test options with the word
// and group channels and an s-norm cohort of 5 sets per corpus.
func cohortMetricOptions() NgramMetricOptions {
	o := corpusMetricOptions()
	o.WordWeight, o.GroupWeight, o.GroupTemperature = 1, 1, 5
	o.Cohort = 5
	return o
}

// TestNgramMetricCohortScore checks cohort=N: Train draws N training sets
// per predicted corpus; a set vector carries its s-norm statistics in two
// tail entries that do not move its cosine; Score is the s-norm of the
// style cosine computed here from the cohort's own vectors, plus the
// group term; adapted (twice, to other texts), Score is the s-norm against
// chunks of the adaptation texts, none sharing a text with the set, plus
// a same-corpus pair's group term; adapted to too few texts, the cosine.
func TestNgramMetricCohortScore(t *testing.T) {
	ctx := context.Background()
	c := styleCorpus(5)
	o := cohortMetricOptions()
	f, err := NewNgramMetric(o, 3, "", func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	cm, ok := f.(cohortMetric)
	if !ok {
		t.Fatalf("cohort=5 gives %T, want the PairScorer cohortMetric", f)
	}
	m := cm.ngramMetric
	fitSources(t, m, c)
	plainDim := m.Dim()
	if err := m.Train(ctx, c, nil); err != nil {
		t.Fatal(err)
	}
	if m.cohort == nil || len(m.cohort.sets) != 10 {
		t.Fatalf("cohort after Train: %v, want 5 sets from each of 2 corpora", m.cohort)
	}
	if m.Dim() != plainDim+2 {
		t.Fatalf("Dim %d, want %d + 2 tail entries", m.Dim(), plainDim)
	}
	sets := [][]string{c.Sets["s1-c0"].Texts, c.Sets["s1-c3"].Texts, c.Sets["s2-c2"].Texts, c.Sets["s4-c1"].Texts}
	vec, raw, cos := cohortCosines(t, m, sets)
	d := m.styleDim()
	// μ and σ of set i, from the cohort's vectors, independently of the
	// encoder's cached ones.
	moments := func(i int) (float64, float64) { return meanSD(cos[i]) }
	for i := range sets {
		if len(vec[i]) != len(raw[i])+2 {
			t.Fatalf("set %d: %d entries, want %d + 2", i, len(vec[i]), len(raw[i]))
		}
		for j := range sets {
			if dc := stats.Cosine(vec[i], vec[j]) - stats.Cosine(raw[i], raw[j]); math.Abs(dc) > 1e-6 {
				t.Errorf("sets %d,%d: the tail moves the cosine by %g", i, j, dc)
			}
		}
	}
	form, ok := cm.DotForm()
	if !ok || len(form.Terms) != 2 {
		t.Fatalf("DotForm: ok %v, %d terms; want the style and group terms", ok, len(form.Terms))
	}
	var scores []float64
	for i := range sets {
		for j := i + 1; j < len(sets); j++ {
			s := stats.Cosine(raw[i][:d], raw[j][:d])
			mi, si := moments(i)
			mj, sj := moments(j)
			var g float64
			for q := d; q < len(raw[i]); q++ {
				g += float64(raw[i][q]) * float64(raw[j][q])
			}
			g *= m.betaSum(m.groupBeta()) / m.groupBeta()
			want := ((s-mi)/si+(s-mj)/sj)/2 + o.CohortGroupWeight*g
			got := cm.Score(vec[i], vec[j])
			if math.Abs(got-want) > 1e-4*math.Max(1, math.Abs(want)) {
				t.Errorf("Score(%d,%d) = %v, want the s-norm %v", i, j, got, want)
			}
			if ev := form.Eval(vec[i], vec[j]); math.Abs(ev-got) > 1e-4*math.Max(1, math.Abs(got)) {
				t.Errorf("DotForm(%d,%d) = %v, Score %v", i, j, ev, got)
			}
			scores = append(scores, got)
		}
	}
	distinct := map[float64]bool{}
	for _, s := range scores {
		distinct[math.Round(s*1e6)] = true
	}
	if len(distinct) < 3 {
		t.Errorf("scores %v: want distinct pair scores", scores)
	}
	// Adapted to other texts, the training cohort no longer applies: a
	// cohort of chunks of the adaptation texts does, in one group, and
	// every pair gets the corpus term of a same-corpus training pair.
	cgroup, cprof := m.groups.place(m.cohort.sets, o.GroupTemperature, true)
	var gsum float64
	gn := 0
	for i := range cprof {
		for j := i + 1; j < len(cprof); j++ {
			if cgroup[i] == cgroup[j] {
				for q := range cprof[i] {
					gsum += cprof[i][q] * cprof[j][q]
				}
				gn++
			}
		}
	}
	wantG := gsum / float64(gn)
	for round, adaptTexts := range [][]string{trainTextsOf(c), trainTextsOf(c)[len(trainTextsOf(c))/3:]} {
		if err := m.Adapt(ctx, adaptTexts); err != nil {
			t.Fatal(err)
		}
		size := m.cohort.meanSetSize()
		wantSets := adaptCohortSets(adaptTexts, o.Cohort, size, 2)
		if m.adaptCohort == nil || len(m.adaptCohort.sets) != len(wantSets) || len(wantSets) < 2 || !cm.ScoresBySNorm() {
			t.Fatalf("adapt %d: cohort %v (want %d chunks of %d), s-norm %v", round, m.adaptCohort != nil, len(wantSets), size, cm.ScoresBySNorm())
		}
		if math.Abs(m.adaptG-wantG) > 1e-9 || !(wantG > 0.5) {
			t.Errorf("adapt %d: corpus term's g %v, want a same-corpus pair's mean %v (> 0.5)", round, m.adaptG, wantG)
		}
		// The sets scored, and one that is a chunk of the cohort itself.
		scored := append(append([][]string(nil), sets...), wantSets[1])
		av, err := m.EncodeSets(ctx, scored, nil)
		if err != nil {
			t.Fatal(err)
		}
		araw, err := m.encodeSets(ctx, scored, nil)
		if err != nil {
			t.Fatal(err)
		}
		acoh, err := m.encodeSets(ctx, wantSets, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(av[0]) != m.Dim() || len(av[0]) != m.styleDim()+2 || len(araw[0]) != m.styleDim() {
			t.Fatalf("adapt %d: vector of %d entries, Dim %d, style %d; want the style channels and the tail only", round, len(av[0]), m.Dim(), m.styleDim())
		}
		amoments := func(i int) (float64, float64) {
			var mu, m2, n float64
			for j, cv := range acoh {
				shares := false
				for _, t := range scored[i] {
					shares = shares || slices.Contains(wantSets[j], t)
				}
				if shares {
					continue
				}
				x := stats.Cosine(araw[i], cv)
				mu += x
				m2 += x * x
				n++
			}
			mu /= n
			return mu, math.Sqrt(math.Max(0, m2/n-mu*mu))
		}
		af, ok := cm.DotForm()
		if !ok {
			t.Fatal("adapted DotForm: not ok")
		}
		last := len(scored) - 1
		for _, ij := range [][2]int{{0, 1}, {1, 2}, {2, last}} {
			i, j := ij[0], ij[1]
			s := stats.Cosine(araw[i], araw[j])
			mi, si := amoments(i)
			mj, sj := amoments(j)
			want := ((s-mi)/si+(s-mj)/sj)/2 + o.CohortGroupWeight*wantG
			got := cm.Score(av[i], av[j])
			if math.Abs(got-want) > 1e-4*math.Max(1, math.Abs(want)) {
				t.Errorf("adapt %d: Score(%d,%d) = %v, want the s-norm against the adaptation chunks (none sharing a text) + the corpus term %v", round, i, j, got, want)
			}
			if got == stats.Cosine(av[i], av[j]) {
				t.Errorf("adapt %d: Score(%d,%d) is the cosine", round, i, j)
			}
			if ev := af.Eval(av[i], av[j]); math.Abs(ev-want) > 1e-4*math.Max(1, math.Abs(want)) {
				t.Errorf("adapt %d: DotForm(%d,%d) = %v, want %v", round, i, j, ev, want)
			}
		}
	}
	// Too few texts for a cohort: the cosine.
	few := trainTextsOf(c)
	few = few[:len(few)/3]
	if n := len(few) / m.cohort.meanSetSize(); n >= min(o.Cohort, minAdaptCohort) {
		few = few[:m.cohort.meanSetSize()*min(o.Cohort, minAdaptCohort)-1]
	}
	if err := m.Adapt(ctx, few); err != nil {
		t.Fatal(err)
	}
	fv, err := m.EncodeSets(ctx, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cm.ScoresBySNorm() || len(fv[0]) != m.styleDim() || cm.Score(fv[0], fv[1]) != stats.Cosine(fv[0], fv[1]) {
		t.Errorf("adapted to %d texts: s-norm %v, %d entries; want the cosine of the style channels", len(few), cm.ScoresBySNorm(), len(fv[0]))
	}
}

// TestAdaptCohortSets cuts evenly spaced chunks and gives up below two.
func TestAdaptCohortSets(t *testing.T) {
	texts := make([]string, 23)
	for i := range texts {
		texts[i] = fmt.Sprint(i)
	}
	got := adaptCohortSets(texts, 4, 5, 2)
	if len(got) != 4 || got[0][0] != "0" || got[3][4] != "22" || got[1][0] != "6" || got[2][0] != "12" {
		t.Errorf("4 chunks of 5 of 23: %v", got)
	}
	for _, s := range got {
		if len(s) != 5 {
			t.Errorf("chunk %v: want 5 texts", s)
		}
	}
	if got := adaptCohortSets(texts, 100, 10, 2); len(got) != 2 {
		t.Errorf("at most as many chunks as fit: %d", len(got))
	}
	if got := adaptCohortSets(texts[:9], 4, 5, 2); got != nil {
		t.Errorf("fewer than two chunks: %v", got)
	}
	if got := adaptCohortSets(texts, 4, 5, 5); got != nil {
		t.Errorf("fewer than the minimum of 5 chunks: %v", got)
	}
	k := newAdaptCohort([][]string{{"a", "b", "a"}, {"b", "c"}})
	if !slices.Equal(k.byText["a"], []int{0}) || !slices.Equal(k.byText["b"], []int{0, 1}) || !slices.Equal(k.byText["c"], []int{1}) {
		t.Errorf("text index %v", k.byText)
	}
	sized := &metricCohort{sets: [][]string{{"a"}, {"a", "b"}, {"a", "b", "c", "d"}}}
	if n := sized.meanSetSize(); n != 2 {
		t.Errorf("mean set size %d, want round(7/3) = 2", n)
	}
}

// TestNgramMetricCohortRoundTrip checks that the cohort travels with the
// weights file (a loaded encoder gives the trained vectors and scores bit
// for bit), and that a file and an encoder that disagree on cohort, or a
// cohort without center_by=corpus, are errors.
func TestNgramMetricCohortRoundTrip(t *testing.T) {
	ctx := context.Background()
	c := styleCorpus(5)
	texts, sources := trainSourcesOf(c)
	work := filepath.Join(t.TempDir(), "work")
	f, err := NewNgramMetric(cohortMetricOptions(), 3, work, func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	m := metricOf(f)
	fitSources(t, m, c)
	if err := m.Train(ctx, c, nil); err != nil {
		t.Fatal(err)
	}
	sets := [][]string{c.Sets["s1-c0"].Texts, c.Sets["s4-c3"].Texts, c.Sets["s2-c2"].Texts}
	want, err := m.EncodeSets(ctx, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := map[string]string{"weights": filepath.Join(work, "checkpoints"), "min_df": "1", "max_features": "3000", "topic_mask": "20",
		"center_by": "corpus", "word_weight": "1", "group_weight": "1", "group_temperature": "5", "cohort": "5"}
	enc, err := sv.NewEncoder(NameNgramMetric, sv.EncoderOptions{Settings: st})
	if err != nil {
		t.Fatal(err)
	}
	if err := sv.FitWithSources(ctx, enc.(sv.Fitter), texts, sources); err != nil {
		t.Fatal(err)
	}
	got, err := enc.(sv.SetEncoder).EncodeSets(ctx, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	sameVectors(t, got, want)
	if a, b := sv.ScorePair(enc, got[0], got[1]), (cohortMetric{m}).Score(want[0], want[1]); a != b {
		t.Errorf("loaded Score %v, trained %v", a, b)
	}
	if d := enc.(sv.Describer).Describe(); !strings.Contains(d, "s-norm") {
		t.Errorf("Describe %q: want the s-norm", d)
	}
	st["cohort"] = "0"
	plain, err := sv.NewEncoder(NameNgramMetric, sv.EncoderOptions{Settings: st})
	if err != nil {
		t.Fatal(err)
	}
	if err := sv.FitWithSources(ctx, plain.(sv.Fitter), texts, sources); err == nil || !strings.Contains(err.Error(), "cohort") {
		t.Errorf("cohort weights into an encoder without cohort: %v, want an error naming cohort", err)
	}
	g := DefaultNgramMetricOptions()
	g.Cohort = 5
	if _, err := NewNgramMetric(g, 1, "", nil); err == nil || !strings.Contains(err.Error(), "center_by=corpus") {
		t.Errorf("cohort with global centring: %v, want an error naming center_by=corpus", err)
	}
}

// TestNgramMetricCohortThinCorpus checks that a corpus with fewer than 2
// cohort sets (cohort=1: one per corpus) is normalised against the whole
// cohort, so its sets still get a deviation and a z-score.
func TestNgramMetricCohortThinCorpus(t *testing.T) {
	ctx := context.Background()
	c := styleCorpus(5)
	o := cohortMetricOptions()
	o.Cohort = 1
	f, err := NewNgramMetric(o, 3, "", func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	m := metricOf(f)
	fitSources(t, m, c)
	if err := m.Train(ctx, c, nil); err != nil {
		t.Fatal(err)
	}
	if len(m.cohort.sets) != 2 {
		t.Fatalf("%d cohort sets, want one per corpus (2)", len(m.cohort.sets))
	}
	sets := [][]string{c.Sets["s1-c0"].Texts, c.Sets["s2-c2"].Texts}
	vec, err := m.EncodeSets(ctx, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := m.encodeSets(ctx, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	cohort, err := m.encodeSets(ctx, m.cohort.sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	d := m.styleDim()
	for i := range sets {
		x, y := stats.Cosine(raw[i][:d], cohort[0][:d]), stats.Cosine(raw[i][:d], cohort[1][:d])
		mu, sd := (x+y)/2, math.Abs(x-y)/2
		n := len(vec[i])
		gotMu, gotSd := float64(vec[i][n-2])/cohortTail, float64(vec[i][n-1])/cohortTail
		if math.Abs(gotMu-mu) > 1e-5 || math.Abs(gotSd-sd) > 1e-5 || sd == 0 {
			t.Errorf("set %d: μ, σ = %v, %v; want the whole cohort's %v, %v", i, gotMu, gotSd, mu, sd)
		}
	}
}

// cohortCosines encodes sets with m (EncodeSets, with the s-norm tail) and
// without the tail (encodeSets), and returns both and, per set, its style
// cosines to the cohort sets of its own predicted corpus, computed from the
// cohort's vectors independently of the encoder's cached statistics.
func cohortCosines(t *testing.T, m *ngramMetric, sets [][]string) (vec, raw [][]float32, cos [][]float64) {
	t.Helper()
	ctx := context.Background()
	vec, err := m.EncodeSets(ctx, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	if raw, err = m.encodeSets(ctx, sets, nil); err != nil {
		t.Fatal(err)
	}
	cohortRaw, err := m.encodeSets(ctx, m.cohort.sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	cohortGroup, _ := m.groups.place(m.cohort.sets, 0, false)
	group, _ := m.groups.place(sets, 0, false)
	d := m.styleDim()
	cos = make([][]float64, len(sets))
	for i := range sets {
		for j, cv := range cohortRaw {
			if cohortGroup[j] == group[i] {
				cos[i] = append(cos[i], stats.Cosine(raw[i][:d], cv[:d]))
			}
		}
	}
	return vec, raw, cos
}

// meanSD returns the mean and the population standard deviation of xs.
func meanSD(xs []float64) (mu, sd float64) {
	for _, x := range xs {
		mu += x
	}
	mu /= float64(len(xs))
	var v float64
	for _, x := range xs {
		v += (x - mu) * (x - mu)
	}
	return mu, math.Sqrt(v / float64(len(xs)))
}
