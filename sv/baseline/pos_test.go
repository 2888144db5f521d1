package baseline

import (
	"context"
	"math"
	"testing"

	"github.com/roleprint/roleprint/data/corpus"
)

func TestPOSFeatures(t *testing.T) {
	// prose tags "I am very happy ." as PRP VBP RB JJ . — 4 words.
	f, err := POSFeatures("I am very happy.")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"PRP": 0.25, "VBP": 0.25, "RB": 0.25, "JJ": 0.25, "NN": 0}
	for tag, w := range want {
		if got := f[posIndex[tag]]; math.Abs(got-w) > 1e-12 {
			t.Errorf("%s rate %v, want %v", tag, got, w)
		}
	}
	if got := f[len(POSTags)]; got != 0.25 {
		t.Errorf("punctuation per word %v, want 0.25", got)
	}
}

func TestPOSEncoderCachedAndStandardised(t *testing.T) {
	ctx := context.Background()
	enc := NewPOS()
	texts := []string{"The dog barks loudly.", "Where are you going?", "I will run home now.", "Nice!"}
	a, err := enc.Encode(ctx, texts, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := enc.Encode(ctx, texts, nil) // from the cache
	if err != nil {
		t.Fatal(err)
	}
	for i := range a {
		for d := range a[i] {
			if a[i][d] != b[i][d] {
				t.Fatalf("cached features differ at %d/%d", i, d)
			}
		}
	}
	if err := enc.Fit(ctx, texts); err != nil {
		t.Fatal(err)
	}
	c, _ := enc.Encode(ctx, texts, nil)
	nn := posIndex["NN"]
	var s float64
	for _, v := range c {
		s += float64(v[nn])
	}
	if math.Abs(s) > 1e-5 {
		t.Errorf("NN after standardising sums to %v over the training texts, want 0", s)
	}
}

// BenchmarkPOSFeatures tags 2,000 utterances of the embedded Shakespeare
// corpus without the cache, as the first round of a run does, and reports
// tokens (Tokenize's count: words and punctuation) per second.
func BenchmarkPOSFeatures(b *testing.B) {
	utts, err := corpus.Default()
	if err != nil {
		b.Fatal(err)
	}
	var texts []string
	tokens := 0
	for i := 0; i < len(utts) && len(texts) < 2000; i += len(utts) / 2000 {
		texts = append(texts, utts[i].Text)
		tokens += len(Tokenize(utts[i].Text))
	}
	if _, err := taggerModel(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, t := range texts {
			if _, err := POSFeatures(t); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(tokens*b.N)/b.Elapsed().Seconds(), "tokens/s")
}
