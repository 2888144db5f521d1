package uselite

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/roleprint/roleprint/data/assets"
	"github.com/roleprint/roleprint/sv/backend"
	"github.com/roleprint/roleprint/sv/neural"
)

// reference is what scripts/uselite-reference.js writes.
type reference struct {
	Model, Tokenizer, TFJS string
	Sentences              []struct {
		Text   string    `json:"text"`
		IDs    []int     `json:"ids"`
		Vector []float64 `json:"vector"`
	} `json:"sentences"`
}

func loadReference(t testing.TB) *reference {
	t.Helper()
	f, err := os.Open("testdata/reference.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var ref reference
	if err := json.NewDecoder(zr).Decode(&ref); err != nil {
		t.Fatal(err)
	}
	if len(ref.Sentences) < 100 {
		t.Fatalf("reference has %d sentences, want ≥ 100", len(ref.Sentences))
	}
	return &ref
}

// installedModel returns the model installed by `roleprint setup
// use-lite`, skipping the test when it is absent.
func installedModel(t testing.TB) *Model {
	t.Helper()
	m, err := Default()
	var missing *assets.MissingError
	if errors.As(err, &missing) {
		t.Skipf("USE-Lite not installed (CI runs `roleprint setup use-lite`): %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func cosine(a []float32, b []float64) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * b[i]
		na += float64(a[i]) * float64(a[i])
		nb += b[i] * b[i]
	}
	return dot / math.Sqrt(na*nb)
}

// TestTokenizationMatchesJS checks the Go SentencePiece ids against the
// JavaScript tokenizer's for every reference sentence.
func TestTokenizationMatchesJS(t *testing.T) {
	ref := loadReference(t)
	m := installedModel(t)
	for _, s := range ref.Sentences {
		got := m.Tokenizer.Encode(s.Text)
		if !slices.Equal(got, s.IDs) {
			t.Errorf("%q:\n go %v\n js %v", s.Text, got, s.IDs)
		}
	}
}

// TestParityWithTFJS embeds every reference sentence through the
// registered sv/neural encoder (mixed lengths and unknown pieces in the
// same batches) and requires cosine ≥ 0.9999 with the TF.js vector, on the
// pure-Go backend and, when installed, on ONNX Runtime.
func TestParityWithTFJS(t *testing.T) {
	ref := loadReference(t)
	m := installedModel(t)
	for _, b := range []string{testGo, "onnx"} {
		t.Run(b, func(t *testing.T) {
			if b == "onnx" {
				if _, err := backend.ONNXRuntimeLibrary(); err != nil {
					t.Skipf("ONNX Runtime not installed: %v", err)
				}
			}
			worst, at := parity(t, m, ref, b)
			t.Logf("%s: %d sentences, lowest cosine %.9f (%q)", b, len(ref.Sentences), worst, ref.Sentences[at].Text)
		})
	}
}

// parity embeds the reference sentences on backend b and checks each
// cosine; it returns the lowest and its index.
func parity(t *testing.T, m *Model, ref *reference, b string) (float64, int) {
	enc, err := neural.NewEncoder(&Utterance{Model: m}, neural.EncoderConfig{Backend: b, Head: "mean"})
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	// Sentences over 64 pieces go in their own call, so the short ones are
	// not padded to 128 (the encoder sorts by length within a call).
	var short, long []int
	for i, s := range ref.Sentences {
		if len(s.IDs) > 64 {
			long = append(long, i)
		} else {
			short = append(short, i)
		}
	}
	vecs := make([][]float32, len(ref.Sentences))
	for _, group := range [][]int{short, long} {
		texts := make([]string, len(group))
		for j, i := range group {
			texts[j] = ref.Sentences[i].Text
		}
		out, err := enc.Encode(context.Background(), texts, nil)
		if err != nil {
			t.Fatal(err)
		}
		for j, i := range group {
			vecs[i] = out[j]
		}
	}
	worst, worstAt := 2.0, -1
	for i, s := range ref.Sentences {
		c := cosine(vecs[i], s.Vector)
		if c < worst {
			worst, worstAt = c, i
		}
		if c < 0.9999 {
			t.Errorf("%q: cosine %.6f with TF.js", s.Text, c)
		}
	}
	return worst, worstAt
}

// testGo is the pure-Go backend; sv/backend runs its ops sequentially
// (GoMLX's parallel scheduler can deadlock, see backend.GoConfig).
const testGo = backend.Go

// TestONNXRepeatedShortBatch embeds the 64 shortest reference sentences
// (one-piece "Hi" first, so in row 0 of the batch) several times with one
// compiled graph on ONNX Runtime: every run must match TF.js and repeat
// the first bit for bit. It guards against the ScatterND race that used to
// wipe the first piece of row 0 intermittently (see
// tfjs.TestPaddedScatterHasNoRace, which catches it reliably).
func TestONNXRepeatedShortBatch(t *testing.T) {
	if _, err := backend.ONNXRuntimeLibrary(); err != nil {
		t.Skipf("ONNX Runtime not installed: %v", err)
	}
	ref := loadReference(t)
	m := installedModel(t)
	order := make([]int, len(ref.Sentences))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return len(ref.Sentences[a].IDs) - len(ref.Sentences[b].IDs) })
	order = order[:64]
	texts := make([]string, len(order))
	for j, i := range order {
		texts[j] = ref.Sentences[i].Text
	}
	enc, err := neural.NewEncoder(&Utterance{Model: m}, neural.EncoderConfig{Backend: "onnx", Head: "mean"})
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	var first [][]float32
	for run := 0; run < 4; run++ {
		out, err := enc.Encode(context.Background(), texts, nil)
		if err != nil {
			t.Fatal(err)
		}
		for j, i := range order {
			if c := cosine(out[j], ref.Sentences[i].Vector); c < 0.9999 {
				t.Errorf("run %d: %q: cosine %.6f with TF.js", run, texts[j], c)
			}
			if first != nil && !slices.Equal(out[j], first[j]) {
				t.Errorf("run %d: %q: vector differs from run 0", run, texts[j])
			}
		}
		if first == nil {
			first = out
		}
	}
}
