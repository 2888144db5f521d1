package neural

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/roleprint/roleprint/internal/options"

	"github.com/roleprint/roleprint/sv"
	"github.com/roleprint/roleprint/sv/baseline"
)

func TestGloVeInitialisation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tiny.bin")
	words := []string{"coffee", "theory", "notinvocab"}
	vecs := []float32{1, 2, 3, 4 /* coffee */, -1, 0, 1, 0 /* theory */, 9, 9, 9, 9}
	if err := baseline.WriteWordVectors(path, 4, words, vecs); err != nil {
		t.Fatal(err)
	}
	o := DefaultTransformerOptions(TransformerName)
	if err := options.Apply(&o, map[string]string{
		"vocab": "testdata/vocab.txt", "layers": "1", "dim": "8", "heads": "2", "glove": path}); err != nil {
		t.Fatal(err)
	}
	m, err := TransformerFromOptions("transformer", o, sv.EncoderOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if m.cfg.EmbedDim != 4 {
		t.Fatalf("embed_dim %d, want the GloVe width 4", m.cfg.EmbedDim)
	}
	net, err := NewNetwork(m, MeanHead{}, "go", 1)
	if err != nil {
		t.Fatal(err)
	}
	defer net.Close()
	emb := weightsOf(t, net)["/model/embeddings/tokens"]
	if _, ok := weightsOf(t, net)["/model/embeddings/proj_w"]; !ok {
		t.Fatal("no 4→8 projection")
	}
	wp := m.tok.(*WordPiece)
	row := func(word string) []float32 {
		for id, w := range wp.Vocab() {
			if w == word {
				return emb[id*4 : id*4+4]
			}
		}
		t.Fatalf("%s not in vocabulary", word)
		return nil
	}
	// GloVe rows are scaled to unit RMS over the rows found: scale = 1/sqrt(mean of squares).
	var sum2 float64
	for _, x := range vecs[:8] {
		sum2 += float64(x) * float64(x)
	}
	scale := float32(1 / math.Sqrt(sum2/8))
	for j, x := range vecs[:4] {
		if d := row("coffee")[j] - x*scale; d > 1e-6 || d < -1e-6 {
			t.Fatalf("coffee row %v, want %v×%v", row("coffee"), vecs[:4], scale)
		}
	}
	// A word without a GloVe vector keeps its random N(0,1) row.
	if r := row("pizza"); r[0] == 0 && r[1] == 0 {
		t.Fatal("pizza row is zero")
	}
}

func TestTransformerConfigErrors(t *testing.T) {
	for _, edit := range []func(*TransformerConfig){
		func(c *TransformerConfig) { c.Dim, c.Heads = 30, 4 },
		func(c *TransformerConfig) { c.Pooling = "max" },
		func(c *TransformerConfig) { c.Pooling = "" },
		func(c *TransformerConfig) { c.MaxLen = 1 },
		func(c *TransformerConfig) { c.Layers = 0 },
		func(c *TransformerConfig) { c.NGramBuckets, c.NGramMin = 64, 0 },
	} {
		c := DefaultTransformerConfig()
		edit(&c)
		c.Vocab = "testdata/vocab.txt"
		if _, err := NewTransformer("t", c); err == nil {
			t.Errorf("%+v: want an error", c)
		}
	}
}

func TestPoolingsOnBackends(t *testing.T) {
	requireONNX(t)
	for _, pooling := range []string{"cls", "attention"} {
		m, err := NewTransformer("transformer", TransformerConfig{Layers: 1, Dim: 16, Heads: 2, MaxLen: 12, Pooling: pooling,
			Vocab: "testdata/vocab.txt", Seed: 2})
		if err != nil {
			t.Fatal(err)
		}
		cmp, err := CompareBackends(m, []string{"the theory of love", "pizza", "oh well well well"}, "onnx")
		if err != nil {
			t.Fatal(err)
		}
		if cmp[0].MaxOutputDiff > 1e-4 || cmp[0].MaxGradDiff > 1e-3 {
			t.Fatalf("%s pooling differs on onnx: %+v", pooling, cmp[0])
		}
	}
}
