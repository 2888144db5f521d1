package baseline

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data/assets"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
)

// tinyGloVe converts the wink-format fixture into a compact file.
func tinyGloVe(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "tiny.bin")
	if err := ConvertWinkJSON("testdata/tiny-wink.json", out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestConvertWinkJSONRoundTrip(t *testing.T) {
	wv, err := ReadWordVectors(tinyGloVe(t))
	if err != nil {
		t.Fatal(err)
	}
	// Words come back in the fixture's index (frequency) order, whatever
	// the JSON object's order.
	want := []string{"the", ",", "i", "cat", "dog", "n't", "thou"}
	if strings.Join(wv.Words, " ") != strings.Join(want, " ") || wv.Dim != 4 {
		t.Fatalf("words %q dim %d", wv.Words, wv.Dim)
	}
	v, ok := wv.Vector("dog")
	if !ok || v[0] != 0.9 || v[3] != 0.2 {
		t.Errorf("dog = %v", v)
	}
	if _, ok := wv.Vector("zebra"); ok {
		t.Error("zebra found")
	}
}

func TestReadWordVectorsRejectsBadFiles(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.bin")
	os.WriteFile(bad, []byte("not a vector file"), 0o644)
	if _, err := ReadWordVectors(bad); err == nil || !strings.Contains(err.Error(), "not a RolePrint word-vector file") {
		t.Errorf("err = %v", err)
	}
	good, _ := os.ReadFile(tinyGloVe(t))
	trunc := filepath.Join(dir, "trunc.bin")
	os.WriteFile(trunc, good[:len(good)-10], 0o644)
	if _, err := ReadWordVectors(trunc); err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("err = %v", err)
	}
	badJSON := filepath.Join(dir, "bad.json")
	os.WriteFile(badJSON, []byte(`{"dimensions":4,"vectors":{"a":[1,2]}}`), 0o644)
	if err := ConvertWinkJSON(badJSON, filepath.Join(dir, "x.bin")); err == nil || !strings.Contains(err.Error(), `vector of "a" has 2 values`) {
		t.Errorf("err = %v", err)
	}
}

func TestGloVeMissing(t *testing.T) {
	_, err := sv.NewEncoder("glove", sv.EncoderOptions{CacheDir: t.TempDir()})
	var miss *assets.MissingError
	if !errors.As(err, &miss) || !strings.Contains(err.Error(), "roleprint setup glove") {
		t.Errorf("err = %v, want a MissingError naming `roleprint setup glove`", err)
	}
}

func TestGloVeMean(t *testing.T) {
	ctx := context.Background()
	path := tinyGloVe(t)
	enc, err := sv.NewEncoder("glove", sv.EncoderOptions{Settings: map[string]string{GloVeSettingPath: path}})
	if err != nil {
		t.Fatal(err)
	}
	// "The cat, zebra": the, cat and "," are known; zebra is skipped.
	vecs, err := enc.Encode(ctx, []string{"The cat, zebra", "zebra"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{(0 + 1 + 0) / 3.0, (0 + 0.1 + 0) / 3, (1 + 0 + 0.5) / 3, (0 + 0.1 + 0.5) / 3}
	for d := range want {
		if math.Abs(float64(vecs[0][d])-want[d]) > 1e-6 {
			t.Errorf("dim %d = %v, want %v", d, vecs[0][d], want[d])
		}
	}
	for _, x := range vecs[1] {
		if x != 0 {
			t.Errorf("no known word: %v, want zeros", vecs[1])
		}
	}
	// Fit centres on the training mean.
	f := enc.(sv.Fitter)
	if err := f.Fit(ctx, []string{"the cat", "the dog"}); err != nil {
		t.Fatal(err)
	}
	c, _ := enc.Encode(ctx, []string{"the cat", "the dog"}, nil)
	for d := range c[0] {
		if math.Abs(float64(c[0][d]+c[1][d])) > 1e-6 {
			t.Errorf("centred training vectors do not sum to 0 at %d: %v %v", d, c[0], c[1])
		}
	}
}

func TestGloVeSIF(t *testing.T) {
	ctx := context.Background()
	path := tinyGloVe(t)
	opts := sv.EncoderOptions{Settings: map[string]string{GloVeSettingPath: path, "center": "false", "pc": "0", "sif_a": "0.1"}}
	enc, err := sv.NewEncoder("glove-sif", opts)
	if err != nil {
		t.Fatal(err)
	}
	// Training text: "the the the cat" → p(the) = 3/4, p(cat) = 1/4.
	if err := enc.(sv.Fitter).Fit(ctx, []string{"the the the cat"}); err != nil {
		t.Fatal(err)
	}
	v, _ := enc.Encode(ctx, []string{"the cat dog"}, nil)
	wThe, wCat, wDog := 0.1/(0.1+0.75), 0.1/(0.1+0.25), 1.0 // dog unseen: p = 0
	want := []float64{(wCat*1 + wDog*0.9) / 3, (wCat*0.1 + wDog*0.1) / 3, wThe / 3, (wCat*0.1 + wDog*0.2) / 3}
	for d := range want {
		if math.Abs(float64(v[0][d])-want[d]) > 1e-6 {
			t.Errorf("dim %d = %v, want %v", d, v[0][d], want[d])
		}
	}
	// With one component removed, training vectors are orthogonal to it.
	opts.Settings["pc"] = "1"
	enc, _ = sv.NewEncoder("glove-sif", opts)
	train := []string{"the cat", "the dog", "i thou", "the , cat", "n't dog"}
	if err := enc.(sv.Fitter).Fit(ctx, train); err != nil {
		t.Fatal(err)
	}
	g := enc.(*gloveEncoder)
	if len(g.pcs) != 1 {
		t.Fatalf("%d components", len(g.pcs))
	}
	vs, _ := enc.Encode(ctx, train, nil)
	for _, v := range vs {
		var dot float64
		for d := range v {
			dot += float64(v[d]) * g.pcs[0][d]
		}
		if math.Abs(dot) > 1e-6 {
			t.Errorf("vector %v has %v along the removed component", v, dot)
		}
	}
}

// TestGloVeInstalled checks the real vectors when `roleprint setup glove`
// has run (CI installs them); it skips otherwise.
func TestGloVeInstalled(t *testing.T) {
	enc, err := sv.NewEncoder("glove", sv.EncoderOptions{Settings: map[string]string{"center": "false"}})
	var miss *assets.MissingError
	if errors.As(err, &miss) {
		t.Skipf("GloVe not installed: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if enc.Dim() != 100 {
		t.Fatalf("dim %d", enc.Dim())
	}
	v, _ := enc.Encode(context.Background(), []string{"cat", "dog", "economy"}, nil)
	if !(stats.Cosine(v[0], v[1]) > stats.Cosine(v[0], v[2])+0.3) {
		t.Errorf("cos(cat, dog) = %v, cos(cat, economy) = %v", stats.Cosine(v[0], v[1]), stats.Cosine(v[0], v[2]))
	}
}
