package baseline

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/stats"
)

// sourceFixture is two corpora with disjoint vocabularies: the sets made of
// one corpus's training texts have that corpus's mean as raw vector.
var (
	srcTextsA = []string{"the cat sat on the mat", "a cat and a hat", "that cat is fat"}
	srcTextsB = []string{"quick brown foxes jump", "brown dogs run quick", "foxes and dogs jump"}
)

func fitSourceTFIDF(t *testing.T, centerBy string, globalWeight float64) *tfidfEncoder {
	t.Helper()
	enc, err := NewTFIDF(tfidfOpts(func(o *TFIDFOptions) {
		o.MinDF, o.CenterBy, o.GlobalWeight = 1, centerBy, globalWeight
	}))
	if err != nil {
		t.Fatal(err)
	}
	e := enc.(*tfidfEncoder)
	texts := append(append([]string{}, srcTextsA...), srcTextsB...)
	sources := []string{"pets/one", "pets/two", "pets/one", "wild", "wild", "wild"}
	if err := e.FitSources(context.Background(), texts, sources); err != nil {
		t.Fatal(err)
	}
	return e
}

func norm32(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

func TestTFIDFCenterByCorpusCancelsTheShow(t *testing.T) {
	ctx := context.Background()
	sets := [][]string{srcTextsA, srcTextsB}
	global := fitSourceTFIDF(t, centerGlobal, 0)
	gv, err := global.EncodeSets(ctx, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	corpus := fitSourceTFIDF(t, centerCorpus, 0)
	cv, err := corpus.EncodeSets(ctx, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range sets {
		// Globally centred, a corpus's own texts are far from the mean;
		// centred on its corpus ("pets/one" and "pets/two" are one
		// corpus), nothing is left.
		if n := norm32(gv[i]); n < 0.1 {
			t.Errorf("set %d: globally centred norm %v, want clearly > 0", i, n)
		}
		if n := norm32(cv[i]); n > 1e-6 {
			t.Errorf("set %d: corpus-centred norm %v, want 0", i, n)
		}
	}
	// By source, "pets" splits in two: its set is no longer one group's
	// mean, "wild"'s still is.
	source := fitSourceTFIDF(t, centerSource, 0)
	sv, _ := source.EncodeSets(ctx, sets, nil)
	if n := norm32(sv[0]); n < 1e-3 {
		t.Errorf("pets set centred by source: norm %v, want > 0", n)
	}
	if n := norm32(sv[1]); n > 1e-6 {
		t.Errorf("wild set centred by source: norm %v, want 0", n)
	}
	// Plain Fit (no sources) is refused: TestTFIDFCenterBySourceRefusesPlainFit.
}

func TestTFIDFGlobalWeightMixesTheCosines(t *testing.T) {
	ctx := context.Background()
	a := []string{"the cat sat", "a fat hat", "quick dogs"}
	b := []string{"that cat is", "brown foxes jump", "the mat"}
	global := fitSourceTFIDF(t, centerGlobal, 0)
	own := fitSourceTFIDF(t, centerCorpus, 0)
	both := fitSourceTFIDF(t, centerCorpus, 3)
	if both.Dim() != 2*global.Dim() {
		t.Fatalf("dim %d, want 2×%d", both.Dim(), global.Dim())
	}
	cos := func(e *tfidfEncoder) float64 {
		v, err := e.EncodeSets(ctx, [][]string{a, b}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return stats.Cosine(v[0], v[1])
	}
	want := (3*cos(global) + cos(own)) / 4
	if got := cos(both); math.Abs(got-want) > 1e-5 {
		t.Errorf("cosine with global_weight 3 = %v, want (3·%v + %v)/4 = %v", got, cos(global), cos(own), want)
	}
	// Encode (one text as a set) gives the same vector as EncodeSets.
	ev, _ := both.Encode(ctx, []string{a[0]}, nil)
	sv, _ := both.EncodeSets(ctx, [][]string{{a[0]}}, nil)
	if len(ev[0]) != both.Dim() || math.Abs(stats.Cosine(ev[0], sv[0])-1) > 1e-6 {
		t.Errorf("Encode and EncodeSets differ (len %d, dim %d)", len(ev[0]), both.Dim())
	}
}

func TestTFIDFCenterByValidation(t *testing.T) {
	for _, c := range []struct {
		edit func(o *TFIDFOptions)
		want string
	}{
		{func(o *TFIDFOptions) { o.CenterBy = "speaker" }, "center_by \"speaker\""},
		{func(o *TFIDFOptions) { o.CenterBy, o.Pool = centerCorpus, "doc" }, "needs center=true and pool=mean"},
		{func(o *TFIDFOptions) { o.CenterBy, o.Center = centerSource, false }, "needs center=true"},
		{func(o *TFIDFOptions) { o.GlobalWeight = -1 }, "global_weight"},
	} {
		o := DefaultTFIDFOptions()
		c.edit(&o)
		if err := o.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Validate: err %v, want %q", err, c.want)
		}
	}
}

// TestTFIDFCenterBySourceRefusesPlainFit checks that a per-source centred
// TF-IDF cannot be fitted without sources (a verifier bundle refitting it
// would otherwise centre globally and score otherwise than the run).
func TestTFIDFCenterBySourceRefusesPlainFit(t *testing.T) {
	o := DefaultTFIDFOptions()
	o.MinDF, o.CenterBy = 1, centerSource
	enc, err := NewTFIDF(o)
	if err != nil {
		t.Fatal(err)
	}
	err = enc.(interface {
		Fit(context.Context, []string) error
	}).Fit(context.Background(), []string{"a text", "another text"})
	if err == nil || !strings.Contains(err.Error(), "needs the training texts' sources") {
		t.Fatalf("plain Fit with center_by=source: err %v", err)
	}
}
