package verifier

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
	_ "github.com/roleprint/roleprint/sv/baseline" // tfidf
	_ "github.com/roleprint/roleprint/sv/neural"   // transformer
)

// tinyCorpus has six speakers with their own words, train and dev pairs.
func tinyCorpus(seed uint64) *pairs.PairCorpus {
	styles := [][]string{
		strings.Fields("science physics math theory quantum"), strings.Fields("love heart feel cry hug"),
		strings.Fields("money work job boss office"), strings.Fields("shall thee thou art hath"),
		strings.Fields("dude man buddy pal game"), strings.Fields("coffee tea beer pizza cake"),
	}
	common := strings.Fields("the a and i you is was it so well oh")
	rng := rand.New(rand.NewPCG(seed, 1))
	c := &pairs.PairCorpus{Sets: map[string]*pairs.UtteranceSet{}, Tests: map[pairs.TestKey][]pairs.Pair{}}
	for s, st := range styles {
		for k := 0; k < 4; k++ {
			id := fmt.Sprintf("s%d-%d", s, k)
			texts := make([]string, 4)
			for u := range texts {
				w := make([]string, 5)
				for j := range w {
					if rng.IntN(2) == 0 {
						w[j] = st[rng.IntN(len(st))]
					} else {
						w[j] = common[rng.IntN(len(common))]
					}
				}
				texts[u] = strings.Join(w, " ")
			}
			c.Sets[id] = &pairs.UtteranceSet{ID: id, Speaker: fmt.Sprint(s), Texts: texts}
		}
	}
	pairList := func(n int, prefix string) []pairs.Pair {
		out := make([]pairs.Pair, n)
		for i := range out {
			s, o := rng.IntN(6), 0
			a := fmt.Sprintf("s%d-%d", s, rng.IntN(2))
			label := int8(1 - i%2)
			if label == 1 {
				o = s
			} else {
				o = (s + 1 + rng.IntN(5)) % 6
			}
			out[i] = pairs.Pair{ID: fmt.Sprintf("%s%d", prefix, i), A: a, B: fmt.Sprintf("s%d-%d", o, 2+rng.IntN(2)), Label: label}
		}
		return out
	}
	c.Train, c.Dev = pairList(32, "t"), pairList(24, "d")
	return c
}

var tinySettings = map[string]string{
	"layers": "1", "dim": "16", "heads": "2", "ffn_dim": "32", "max_len": "12", "vocab": "../neural/testdata/vocab.txt",
	"max_steps": "3", "batch_pairs": "8", "max_utterances": "4", "ngram_buckets": "512", "ngram_slots": "16",
}

// saveTiny trains a tiny transformer_ft, fits tfidf, and saves a two-part
// bundle (transformer_ft ×1, tfidf ×0.5) to dir.
func saveTiny(t *testing.T, dir string) (trained sv.Encoder, texts []string) {
	t.Helper()
	ctx := context.Background()
	c := tinyCorpus(1)
	opts := sv.EncoderOptions{Backend: "go", Seed: 7, Settings: tinySettings}
	enc, err := sv.NewEncoder("transformer_ft", opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { enc.(sv.Closer).Close() })
	if err := enc.(sv.Trainable).Train(ctx, c, nil); err != nil {
		t.Fatal(err)
	}
	fit := sv.TrainTexts(c, 0)
	tf, err := sv.NewEncoder("tfidf", sv.EncoderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := tf.(sv.Fitter).Fit(ctx, fit); err != nil {
		t.Fatal(err)
	}
	m := &mixture{name: "mixed_ft", parts: []sv.Encoder{enc, tf}, weights: []float64{1, 0.5}}
	cos, labels, err := DevCosines(ctx, m, c)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Save(dir, SaveOptions{Name: "mixed_ft", FitTexts: fit, DevCosines: cos, DevLabels: labels,
		Manifest: map[string]any{"inputs": []string{"tiny"}},
		Parts: []SavePart{{Row: "transformer_ft", Encoder: enc, Settings: tinySettings, Seed: 7, Weight: 1},
			{Row: "tfidf", Encoder: tf, Weight: 0.5}}})
	if err != nil {
		t.Fatal(err)
	}
	return enc, fit[:10]
}

func TestSaveLoadSameEmbeddings(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "verifier")
	trained, texts := saveTiny(t, dir)
	v, err := Load(context.Background(), dir, LoadOptions{Backend: "go"})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	want, err := trained.Encode(context.Background(), texts, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := v.enc.parts[0].Encode(context.Background(), texts, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		for j := range want[i] {
			if math.Float32bits(want[i][j]) != math.Float32bits(got[i][j]) {
				t.Fatalf("text %d dim %d: trained %v, loaded %v", i, j, want[i][j], got[i][j])
			}
		}
	}
	if v.Similarity() != v.Encoder() {
		t.Error("a bundle of cosine parts: role-play must use its cosine (Similarity = Encoder)")
	}
	if _, fitter := v.Encoder().(sv.Fitter); fitter {
		t.Fatal("the loaded verifier must not be refitted by its callers")
	}
	s := v.Spec
	if s.Name != "mixed_ft" || len(s.Parts) != 2 || s.Parts[1].Weight != 0.5 || s.Dev.Pairs != 24 || s.Calibration.Method != "platt" {
		t.Fatalf("spec %+v", s)
	}
	if !(s.Calibration.A > 0) {
		t.Fatalf("calibration slope %v: a higher cosine must mean a likelier same speaker", s.Calibration.A)
	}
	// The mixture's cosine is the weighted mean of the parts' cosines.
	a, b := texts[:3], texts[3:6]
	r, err := v.Verify(context.Background(), a, b)
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for k, p := range v.enc.parts {
		e, err := sv.EmbedSets(context.Background(), p, []*pairs.UtteranceSet{{ID: "a", Texts: a}, {ID: "b", Texts: b}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		sum += v.enc.weights[k] * stats.Cosine(e["a"], e["b"])
	}
	if d := math.Abs(r.Score - sum/1.5); d > 1e-5 || r.Cosine == nil || *r.Cosine != r.Score {
		t.Fatalf("verify score %v (cosine %v), weighted part cosines %v", r.Score, r.Cosine, sum/1.5)
	}
	if r.Same != (r.Probability >= 0.5) || r.Probability <= 0 || r.Probability >= 1 || r.Threshold != 0.5 {
		t.Fatalf("result %+v: the verdict must be P(same) ≥ 0.5", r)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "verifier")
	saveTiny(t, dir)
	spec := filepath.Join(dir, SpecFile)
	orig, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(orig, &m); err != nil {
		t.Fatal(err)
	}
	m["format_version"] = FormatVersion + 1
	b, _ := json.Marshal(m)
	if err := os.WriteFile(spec, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(context.Background(), dir, LoadOptions{}); err == nil || !strings.Contains(err.Error(), "format version 2") || !strings.Contains(err.Error(), SpecFile) {
		t.Fatalf("version mismatch: %v", err)
	}
	if err := os.WriteFile(spec, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	var weights string
	for _, p := range readSpec(t, spec).Parts {
		if w := p.Files["weights"]; w != "" {
			weights = w
		}
	}
	if err := os.Remove(filepath.Join(dir, weights)); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(context.Background(), dir, LoadOptions{}); err == nil || !strings.Contains(err.Error(), weights+" is missing") {
		t.Fatalf("missing weights: %v", err)
	}
	if err := os.Remove(spec); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(context.Background(), dir, LoadOptions{}); err == nil || !strings.Contains(err.Error(), SpecFile+" is missing") {
		t.Fatalf("missing spec: %v", err)
	}
}

func TestSaveRefusesForeignFolder(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	tf, err := sv.NewEncoder("tfidf", sv.EncoderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Save(dir, SaveOptions{Name: "tfidf", Parts: []SavePart{{Row: "tfidf", Encoder: tf}},
		DevCosines: []float64{0.1, 0.9}, DevLabels: []bool{false, true}})
	if err == nil || !strings.Contains(err.Error(), "not replacing it") {
		t.Fatalf("want a refusal, got %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "notes.txt")); err != nil {
		t.Fatalf("the folder's file is gone: %v", err)
	}
}

func readSpec(t *testing.T, path string) Spec {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s Spec
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestFitPlatt(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var scores []float64
	var labels []bool
	// True model: P(same | s) = σ(8s − 2).
	for i := 0; i < 4000; i++ {
		s := rng.Float64()
		labels = append(labels, rng.Float64() < 1/(1+math.Exp(-(8*s-2))))
		scores = append(scores, s)
	}
	c, err := FitPlatt(scores, labels)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(c.A-8) > 1 || math.Abs(c.B+2) > 0.5 {
		t.Fatalf("fit a=%.3f b=%.3f, want about 8 and −2", c.A, c.B)
	}
	if _, err := FitPlatt([]float64{0.1, 0.2}, []bool{true, true}); err == nil {
		t.Fatal("one class: want an error")
	}
}

// A saved bundle is readable by others like any written folder: 0755 and
// 0644, not the temporary folder's 0700.
func TestSaveModes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "verifier")
	tf, err := sv.NewEncoder("tfidf", sv.EncoderOptions{Settings: map[string]string{"min_df": "1"}})
	if err != nil {
		t.Fatal(err)
	}
	fit := []string{"we should go now", "indeed we should", "go away now", "indeed not"}
	if err := tf.(sv.Fitter).Fit(context.Background(), fit); err != nil {
		t.Fatal(err)
	}
	if _, err := Save(dir, SaveOptions{Name: "tfidf", Parts: []SavePart{{Row: "tfidf", Encoder: tf}}, FitTexts: fit,
		DevCosines: []float64{0.1, 0.9}, DevLabels: []bool{false, true}}); err != nil {
		t.Fatal(err)
	}
	n := 0
	err = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		st, err := d.Info()
		if err != nil {
			return err
		}
		want := os.FileMode(0o644)
		if d.IsDir() {
			want = 0o755
		}
		if st.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", p, st.Mode().Perm(), want)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 3 { // the folder, verifier.json, the fit texts
		t.Fatalf("bundle holds %d entries", n)
	}
}
