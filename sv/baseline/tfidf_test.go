package baseline

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/sv"
	"github.com/roleprint/roleprint/sv/table2"
)

func TestTFIDFVocabularyAndIDF(t *testing.T) {
	ctx := context.Background()
	enc, err := NewTFIDF(tfidfOpts(func(o *TFIDFOptions) { o.MinN, o.MaxN, o.MinDF, o.MaxFeatures, o.Center = 2, 2, 1, 100, false }))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := enc.Encode(ctx, []string{"ab"}, nil); err == nil || !strings.Contains(err.Error(), "before Fit") {
		t.Errorf("Encode before Fit: err %v", err)
	}
	// Padded texts " ab " and " ab  " → " ab" "ab " twice... : bigrams of
	// " ab " are " a", "ab", "b "; of " ac " are " a", "ac", "c ".
	if err := enc.Fit(ctx, []string{"ab", "ac"}); err != nil {
		t.Fatal(err)
	}
	voc := enc.(*tfidfEncoder).Vocabulary()
	if strings.Join(voc, "|") != " a|ab|ac|b |c " {
		t.Fatalf("vocabulary %q", voc)
	}
	v, _ := enc.Encode(ctx, []string{"ab"}, nil)
	// idf(" a") = ln(3/3)+1 = 1; idf(ab) = idf(b ) = ln(3/2)+1.
	i1, i2 := 1.0, math.Log(1.5)+1
	n := math.Sqrt(i1*i1 + 2*i2*i2)
	want := []float64{i1 / n, i2 / n, 0, i2 / n, 0}
	for d := range want {
		if math.Abs(float64(v[0][d])-want[d]) > 1e-6 {
			t.Errorf("dim %d (%q) = %v, want %v", d, voc[d], v[0][d], want[d])
		}
	}
}

func TestTFIDFMaxFeaturesMinDFAndCentring(t *testing.T) {
	ctx := context.Background()
	train := []string{"hello there", "hello you", "well hello", "bye now"}
	enc, _ := NewTFIDF(tfidfOpts(func(o *TFIDFOptions) { o.MinN, o.MaxN, o.MinDF, o.MaxFeatures = 3, 3, 2, 3 }))
	if err := enc.Fit(ctx, train); err != nil {
		t.Fatal(err)
	}
	voc := enc.(*tfidfEncoder).Vocabulary()
	// Trigrams in ≥ 2 texts: those of "hello" with its padding (" he",
	// "hel", "ell", "llo") and "lo " — the 3 most frequent kept, ties
	// alphabetical.
	if len(voc) != 3 || enc.Dim() != 3 {
		t.Fatalf("vocabulary %q, dim %d", voc, enc.Dim())
	}
	for _, g := range voc {
		if !strings.Contains(" hello ", g) {
			t.Errorf("unexpected n-gram %q", g)
		}
	}
	vs, _ := enc.Encode(ctx, train, nil)
	for d := 0; d < enc.Dim(); d++ {
		var s float64
		for _, v := range vs {
			s += float64(v[d])
		}
		if math.Abs(s) > 1e-5 {
			t.Errorf("centred training vectors sum to %v at %q", s, voc[d])
		}
	}
	if _, err := NewTFIDF(tfidfOpts(func(o *TFIDFOptions) { o.MinN, o.MaxN = 4, 2 })); err == nil {
		t.Error("ngram_max < ngram_min: want an error")
	}
}

func TestRegisteredBaselines(t *testing.T) {
	names := strings.Join(sv.EncoderNames(), ",")
	for _, n := range []string{NameStyle, NameLSM, NamePOS, NameGloVe, NameGloVeSIF, NameTFIDF, table2.MixedName} {
		if !strings.Contains(","+names+",", ","+n+",") {
			t.Errorf("%s not registered (have %s)", n, names)
		}
	}
	if _, err := sv.NewEncoder("tfidf", sv.EncoderOptions{Settings: map[string]string{"max_features": "many"}}); err == nil || !strings.Contains(err.Error(), "max_features") {
		t.Errorf("bad setting: err %v", err)
	}
	if _, err := sv.NewEncoder("tfidf", sv.EncoderOptions{Settings: map[string]string{"pool": "max"}}); err == nil {
		t.Error("pool=max: want an error")
	}
}

// TestTFIDFSetsEqualMeanPooling checks the sparse set pooling against
// sv.EmbedSets' mean pooling of Encode.
func TestTFIDFSetsEqualMeanPooling(t *testing.T) {
	ctx := context.Background()
	enc, _ := NewTFIDF(tfidfOpts(func(o *TFIDFOptions) { o.MinDF = 1 }))
	train := []string{"Hello there, friend.", "Where are you going?", "Nay, my lord.", "I will go."}
	if err := enc.Fit(ctx, train); err != nil {
		t.Fatal(err)
	}
	sets := [][]string{{"Hello there.", "I will go, friend."}, {"Nay, nay, my lord!"}, {"Where are you going?", "Where?", "Where?"}}
	got, err := enc.(sv.SetEncoder).EncodeSets(ctx, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, texts := range sets {
		vs, _ := enc.Encode(ctx, texts, nil)
		want := sv.MeanPool(vs)
		for d := range want {
			if math.Abs(float64(got[i][d]-want[d])) > 1e-6 {
				t.Fatalf("set %d dim %d: %v, mean pooling gives %v", i, d, got[i][d], want[d])
			}
		}
	}
}

// tfidfOpts returns DefaultTFIDFOptions changed by edit.
func tfidfOpts(edit func(*TFIDFOptions)) TFIDFOptions {
	o := DefaultTFIDFOptions()
	edit(&o)
	return o
}
