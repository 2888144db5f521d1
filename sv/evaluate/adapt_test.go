package evaluate

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/sv"
	"github.com/roleprint/roleprint/sv/verifier"
)

// saveNgramMetricBundle fits an ngram-metric on a training corpus's texts
// and saves it as a one-part bundle with the corpus's Domain.
func saveNgramMetricBundle(t *testing.T, dir string, train []string, d *verifier.Domain, ep *pairs.EvalPairs) {
	t.Helper()
	ctx := context.Background()
	settings := map[string]string{"min_df": "1", "max_features": "2000", "topic_mask": "4"}
	enc, err := sv.NewEncoder("ngram-metric", sv.EncoderOptions{Seed: 1, Settings: settings})
	if err != nil {
		t.Fatal(err)
	}
	if err := enc.(sv.Fitter).Fit(ctx, train); err != nil {
		t.Fatal(err)
	}
	c := &pairs.PairCorpus{Sets: ep.Sets, Dev: ep.Rounds[0].Splits[1].Pairs}
	cos, labels, err := verifier.DevCosines(ctx, enc, c)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := verifier.Save(dir, verifier.SaveOptions{Name: "bundle", FitTexts: train, DevCosines: cos, DevLabels: labels, Domain: d,
		Manifest: map[string]any{},
		Parts:    []verifier.SavePart{{Row: "ngram-metric", Encoder: enc, Settings: settings, Seed: 1, Weight: 1}}}); err != nil {
		t.Fatal(err)
	}
}

// TestEvaluateAdapts: a bundle whose vocabulary is its training show's
// cannot tell the speakers of a show with other words apart as saved; the
// default adaptation (auto) refits it on each corpus it was not trained
// on, without labels, and then it can. A corpus of its training show is
// left as saved under auto and adapted under all; none is the bundle as
// saved; an unknown mode is an error.
func TestEvaluateAdapts(t *testing.T) {
	ctx := context.Background()
	train := evalCorpus(1, "old", 2, 4, 12, oldRegister)
	d, ep := trainDomain(t, train)
	var texts []string
	for _, u := range train {
		texts = append(texts, u.Text)
	}
	dir := filepath.Join(t.TempDir(), "verifier")
	saveNgramMetricBundle(t, dir, texts, d, ep)
	load := func() *verifier.Verifier {
		v, err := verifier.Load(ctx, dir, verifier.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { v.Close() })
		return v
	}
	// The new show's speakers' own words are written in another alphabet
	// (Greek), whose characters the training texts never had.
	utts := evalCorpus(2, "new", 1, 5, 10, newRegister)
	greek := func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return 'α' + (r - 'a')
		case r >= '0' && r <= '9':
			return 'Α' + (r - '0')
		}
		return r
	}
	for i, u := range utts {
		w := strings.Fields(u.Text)
		for j, x := range w {
			if strings.HasPrefix(x, "ne") {
				w[j] = strings.Map(greek, x)
			}
		}
		utts[i].Text = strings.Join(w, " ")
	}
	auc := func(rep *EvalReport, corpus, level string) float64 {
		for _, r := range rep.Rows {
			if r.Encoder == "bundle" && r.Corpus == corpus && r.Level == level {
				return float64(r.AUCMean)
			}
		}
		t.Fatalf("no bundle row %s-%s in %+v", corpus, level, rep.Rows)
		return 0
	}
	frozen, err := Evaluate(ctx, load(), utts, EvalOptions{Seeds: []int64{1}, Replicates: 100, Adapt: EvalAdaptNone}.Resolve())
	if err != nil {
		t.Fatal(err)
	}
	adapted, err := Evaluate(ctx, load(), utts, EvalOptions{Seeds: []int64{1}, Replicates: 100}.Resolve())
	if err != nil {
		t.Fatal(err)
	}
	if len(frozen.Adapted) != 0 || adapted.Adapt != EvalAdaptAuto || !slices.Equal(adapted.Adapted, []string{"new"}) {
		t.Fatalf("adapted corpora: none %v, auto %q %v; want none and [new]", frozen.Adapted, adapted.Adapt, adapted.Adapted)
	}
	if f, a := auc(frozen, "new", "hard"), auc(adapted, "new", "hard"); a < f+20 || a < 80 {
		t.Fatalf("new-hard AUC: as saved %.2f, adapted %.2f; want the adapted bundle to know the new speakers' words", f, a)
	}

	// A corpus of the training show (new texts) under auto and all.
	same := append(evalCorpus(5, "old", 1, 4, 8, oldRegister), utts...)
	rep, err := Evaluate(ctx, load(), same, EvalOptions{Seeds: []int64{1}, Replicates: 100}.Resolve())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rep.Adapted, []string{"new"}) {
		t.Fatalf("auto adapted to %v; want only the corpus it was not trained on", rep.Adapted)
	}
	hasBase := false
	for _, r := range rep.Rows {
		hasBase = hasBase || r.Level == string(pairs.Base)
	}
	if !hasBase {
		t.Fatalf("rows %+v: want a Base level across the two corpora", rep.Rows)
	}
	rep, err = Evaluate(ctx, load(), same, EvalOptions{Seeds: []int64{1}, Replicates: 100, Adapt: EvalAdaptAll}.Resolve())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rep.Adapted, []string{"new", "old"}) && !slices.Equal(rep.Adapted, []string{"old", "new"}) {
		t.Fatalf("all adapted to %v; want both corpora", rep.Adapted)
	}
	if _, err := Evaluate(ctx, load(), utts, EvalOptions{Seeds: []int64{1}, Adapt: "sometimes"}.Resolve()); err == nil || !strings.Contains(err.Error(), "sometimes") {
		t.Fatalf("unknown mode: %v", err)
	}
}
