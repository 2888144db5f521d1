package verifier

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
)

// corpusSettings is a tfidf that centres each set on its corpus's training
// mean: it needs the fit texts' sources (sv.SourceFitter).
var corpusSettings = map[string]string{"center_by": "corpus", "min_df": "1"}

// sourcedCorpus is tinyCorpus with speakers 0–2 from one corpus and 3–5
// from another.
func sourcedCorpus() *pairs.PairCorpus {
	c := tinyCorpus(3)
	for _, s := range c.Sets {
		s.Source = "alpha/one"
		if s.Speaker >= "3" {
			s.Source = "beta/two"
		}
	}
	return c
}

// saveSourced fits a center_by=corpus tfidf on the training texts and
// their sources and saves it as a one-part bundle in dir, with the sources
// when withSources. It returns the fitted encoder and the corpus.
func saveSourced(t *testing.T, dir string, withSources bool) (sv.Encoder, *pairs.PairCorpus) {
	t.Helper()
	ctx := context.Background()
	c := sourcedCorpus()
	texts, sources := sv.TrainTextSources(c, 0)
	tf, err := sv.NewEncoder("tfidf", sv.EncoderOptions{Settings: corpusSettings})
	if err != nil {
		t.Fatal(err)
	}
	if err := tf.(sv.SourceFitter).FitSources(ctx, texts, sources); err != nil {
		t.Fatal(err)
	}
	cos, labels, err := DevCosines(ctx, tf, c)
	if err != nil {
		t.Fatal(err)
	}
	o := SaveOptions{Name: "tfidf", FitTexts: texts, DevCosines: cos, DevLabels: labels,
		Parts: []SavePart{{Row: "tfidf", Encoder: tf, Settings: corpusSettings}}}
	if withSources {
		o.FitSources = sources
	}
	if _, err := Save(dir, o); err != nil {
		t.Fatal(err)
	}
	return tf, c
}

// setVectors embeds every set of c with enc, in ID order.
func setVectors(t *testing.T, enc sv.Encoder, c *pairs.PairCorpus) (ids []string, vecs map[string][]float32) {
	t.Helper()
	all := map[string]bool{}
	for id := range c.Sets {
		all[id] = true
	}
	sets := sv.SetsByID(c, all)
	vecs, err := sv.EmbedSets(context.Background(), enc, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sets {
		ids = append(ids, s.ID)
	}
	return ids, vecs
}

// TestLoadFitsWithSources checks that a bundle saved with its fit texts'
// sources refits a center_by=corpus tfidf with them: the loaded verifier's
// set vectors and cosines are those of the encoder the run fitted.
func TestLoadFitsWithSources(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "verifier")
	fitted, c := saveSourced(t, dir, true)
	spec := readSpec(t, filepath.Join(dir, SpecFile))
	if spec.FitSourcesFile != FitSourcesFile || !spec.Parts[0].Fit {
		t.Fatalf("spec fit_sources %q, part fit %v", spec.FitSourcesFile, spec.Parts[0].Fit)
	}
	lines, err := readLines(filepath.Join(dir, FitSourcesFile))
	if err != nil {
		t.Fatal(err)
	}
	if lines[0] != "alpha/one" || lines[len(lines)-1] != "beta/two" {
		t.Fatalf("%s: first %q, last %q", FitSourcesFile, lines[0], lines[len(lines)-1])
	}
	v, err := Load(context.Background(), dir, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	ids, want := setVectors(t, fitted, c)
	_, got := setVectors(t, v.Encoder(), c)
	for _, id := range ids {
		if len(want[id]) != len(got[id]) {
			t.Fatalf("set %s: dim %d fitted, %d loaded", id, len(want[id]), len(got[id]))
		}
		for j := range want[id] {
			if math.Abs(float64(want[id][j]-got[id][j])) > 1e-6 {
				t.Fatalf("set %s dim %d: fitted %v, loaded %v", id, j, want[id][j], got[id][j])
			}
		}
	}
	for _, p := range c.Dev {
		w, g := stats.Cosine(want[p.A], want[p.B]), stats.Cosine(got[p.A], got[p.B])
		if math.Abs(w-g) > 1e-6 {
			t.Fatalf("pair %s: fitted cosine %v, loaded %v", p.ID, w, g)
		}
	}
	// The sources matter: centring globally gives other set vectors.
	global, err := sv.NewEncoder("tfidf", sv.EncoderOptions{Settings: map[string]string{"min_df": "1"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := global.(sv.Fitter).Fit(context.Background(), sv.TrainTexts(c, 0)); err != nil {
		t.Fatal(err)
	}
	_, g := setVectors(t, global, c)
	if maxDiff(g, got) < 1e-3 {
		t.Fatal("corpus-centred and globally centred set vectors agree: the test does not exercise the sources")
	}
}

// maxDiff is the largest absolute difference between a's and b's vectors.
func maxDiff(a, b map[string][]float32) float64 {
	m := 0.0
	for id, v := range a {
		for j := range v {
			m = max(m, math.Abs(float64(v[j]-b[id][j])))
		}
	}
	return m
}

// TestLoadSourcesErrors checks the errors of bundles whose part needs
// sources: saved without them (the encoder's own error, with the part),
// with fit-sources.txt deleted, and with a line count other than fit.txt's.
func TestLoadSourcesErrors(t *testing.T) {
	ctx := context.Background()
	noSrc := filepath.Join(t.TempDir(), "verifier")
	saveSourced(t, noSrc, false)
	if _, err := os.Stat(filepath.Join(noSrc, FitSourcesFile)); err == nil {
		t.Fatalf("a bundle saved without sources holds %s", FitSourcesFile)
	}
	if _, err := Load(ctx, noSrc, LoadOptions{}); err == nil || !strings.Contains(err.Error(), "center_by") || !strings.Contains(err.Error(), "part tfidf") {
		t.Fatalf("without sources: %v", err)
	}

	dir := filepath.Join(t.TempDir(), "verifier")
	saveSourced(t, dir, true)
	src := filepath.Join(dir, FitSourcesFile)
	orig, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(src, append(orig, "gamma/three\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Load(ctx, dir, LoadOptions{})
	if err == nil || !strings.Contains(err.Error(), FitSourcesFile) || !strings.Contains(err.Error(), FitFile) {
		t.Fatalf("one source too many: %v", err)
	}
	if err := os.Remove(src); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(ctx, dir, LoadOptions{}); err == nil || !strings.Contains(err.Error(), FitSourcesFile+" is missing") {
		t.Fatalf("missing sources: %v", err)
	}
}

// TestSaveSourcesMismatch checks that Save refuses sources that are not one
// per fit text.
func TestSaveSourcesMismatch(t *testing.T) {
	tf, err := sv.NewEncoder("tfidf", sv.EncoderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Save(filepath.Join(t.TempDir(), "verifier"), SaveOptions{Name: "tfidf", Parts: []SavePart{{Row: "tfidf", Encoder: tf}},
		FitTexts: []string{"a b", "c d"}, FitSources: []string{"x"}, DevCosines: []float64{0.1, 0.9}, DevLabels: []bool{false, true}})
	if err == nil || !strings.Contains(err.Error(), "1 fit sources for 2 fit texts") {
		t.Fatalf("want a mismatch error, got %v", err)
	}
}
