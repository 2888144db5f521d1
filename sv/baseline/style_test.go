package baseline

import (
	"context"
	"math"
	"strings"
	"testing"
)

func feature(t *testing.T, f []float64, name string) float64 {
	t.Helper()
	for i, n := range StyleFeatureNames {
		if n == name {
			return f[i]
		}
	}
	t.Fatalf("no style feature %q", name)
	return 0
}

// TestStyleFeaturesHandWorked checks one text counted by hand:
// "I do not like the dog, and you?" has tokens i do not like the dog , and
// you ? — 8 words: i (ppron, i), do (auxverb), not (negate), like (prep,
// filler), the (article), dog, and (conj), you (ppron, you).
func TestStyleFeaturesHandWorked(t *testing.T) {
	f := StyleFeatures("I do not like the dog, and you?")
	want := map[string]float64{
		"ppron": 2.0 / 8, "i": 1.0 / 8, "you": 1.0 / 8, "auxverb": 1.0 / 8, "negate": 1.0 / 8,
		"prep": 1.0 / 8, "filler": 1.0 / 8, "article": 1.0 / 8, "conj": 1.0 / 8, "ipron": 0,
		"comma": 1.0 / 8, "question": 1.0 / 8, "period": 0, "log_words": math.Log(9),
		"letters_per_word": 22.0 / 8, "type_token": 1, "capitalised": 1.0 / 8, "long_words": 0,
	}
	for name, w := range want {
		if got := feature(t, f, name); math.Abs(got-w) > 1e-12 {
			t.Errorf("%s = %v, want %v", name, got, w)
		}
	}
	if len(f) != len(StyleFeatureNames) {
		t.Errorf("len %d, want %d", len(f), len(StyleFeatureNames))
	}
	for i, x := range StyleFeatures("...!?") {
		if x != 0 {
			t.Errorf("text without words: feature %s = %v, want 0", StyleFeatureNames[i], x)
		}
	}
}

func TestStyleStandardised(t *testing.T) {
	ctx := context.Background()
	enc := NewStyle()
	train := []string{"I think I will go.", "You and I, we go!", "The cat sat on the mat.", "Nay, thou art not a knave."}
	raw, err := enc.Encode(ctx, train[:1], nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := enc.Fit(ctx, train); err != nil {
		t.Fatal(err)
	}
	vecs, err := enc.Encode(ctx, train, nil)
	if err != nil {
		t.Fatal(err)
	}
	// After fitting, each feature has mean 0 over the training texts.
	for d := 0; d < enc.Dim(); d++ {
		var s float64
		for _, v := range vecs {
			s += float64(v[d])
		}
		if math.Abs(s/4) > 1e-5 {
			t.Errorf("feature %s: mean %v after standardising", StyleFeatureNames[d], s/4)
		}
	}
	if raw[0][0] == vecs[0][0] {
		t.Error("Fit did not change the vectors")
	}
	if err := enc.Fit(ctx, nil); err == nil {
		t.Error("Fit on no texts: want an error")
	}
}

func TestCategoriesWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range append(append([]Category(nil), LSMCategories...), ExtraCategories...) {
		if seen[c.Name] || len(c.Words) == 0 {
			t.Errorf("category %q duplicated or empty", c.Name)
		}
		seen[c.Name] = true
		for _, w := range c.Words {
			toks := Tokenize(w)
			if strings.HasPrefix(w, "'") && (len(toks) != 1 || toks[0] != w) {
				// A clitic: it appears split off a word ("I'm" → i, 'm).
				toks = Tokenize("x" + w)[1:]
			}
			if len(toks) != 1 || toks[0] != w {
				t.Errorf("category %s: word %q tokenises to %q, so it can never match", c.Name, w, toks)
			}
		}
	}
	if len(LSMCategories) != 9 {
		t.Errorf("%d LSM categories, want 9", len(LSMCategories))
	}
}

// TestStyleFunctionWordsOnly checks words whose common use is not the
// function-word one: "cause" as a noun or verb is no conjunction, while
// the spoken "'cause" is.
func TestStyleFunctionWordsOnly(t *testing.T) {
	if got := feature(t, StyleFeatures("It is the cause, my soul."), "conj"); got != 0 {
		t.Errorf("\"the cause\": conj rate %v, want 0", got)
	}
	if got := feature(t, StyleFeatures("I left 'cause I was tired."), "conj"); math.Abs(got-1.0/6) > 1e-12 {
		t.Errorf("\"'cause\": conj rate %v, want 1/6", got)
	}
}
