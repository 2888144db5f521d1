package neural

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/sv/backend"
)

// Speakers of the synthetic corpus: each mixes common words with its own
// signature words, so same-speaker sets are learnably closer.
var testStyles = [][]string{
	strings.Fields("science physics math theory quantum string experiment paper"),
	strings.Fields("love heart feel feelings cry hug kiss date"),
	strings.Fields("money work job boss office meeting project deadline"),
	strings.Fields("shall thee thou thy art hath doth wherefore"),
	strings.Fields("dude man buddy pal mate game comic party"),
	strings.Fields("coffee tea beer wine pizza sandwich cake cookie"),
}

var testCommon = strings.Fields("the a and i you is was it that so well oh yeah okay what why")

// synthCorpus builds a PairCorpus of nSets sets per speaker and nPairs
// balanced training pairs (and nPairs/4 dev pairs), deterministic in seed.
func synthCorpus(seed uint64, nSets, nPairs int) *pairs.PairCorpus {
	rng := rand.New(rand.NewPCG(seed, 7))
	c := &pairs.PairCorpus{Sets: map[string]*pairs.UtteranceSet{}, Tests: map[pairs.TestKey][]pairs.Pair{}}
	bySpeaker := make([][]string, len(testStyles))
	for s, style := range testStyles {
		for k := 0; k < nSets; k++ {
			id := fmt.Sprintf("s%d-%d", s, k)
			n := 3 + rng.IntN(8) // 3..10 utterances: some sets exceed MaxUtterances
			texts := make([]string, n)
			for u := range texts {
				w := make([]string, 3+rng.IntN(6))
				for j := range w {
					if rng.IntN(2) == 0 {
						w[j] = style[rng.IntN(len(style))]
					} else {
						w[j] = testCommon[rng.IntN(len(testCommon))]
					}
				}
				texts[u] = strings.Join(w, " ")
			}
			c.Sets[id] = &pairs.UtteranceSet{ID: id, Speaker: fmt.Sprint(s), Texts: texts}
			bySpeaker[s] = append(bySpeaker[s], id)
		}
	}
	mk := func(n int, prefix string) []pairs.Pair {
		out := make([]pairs.Pair, n)
		for i := range out {
			s := rng.IntN(len(testStyles))
			a := bySpeaker[s][rng.IntN(nSets)]
			if i%2 == 0 {
				b := bySpeaker[s][rng.IntN(nSets)]
				for b == a {
					b = bySpeaker[s][rng.IntN(nSets)]
				}
				out[i] = pairs.Pair{ID: fmt.Sprintf("%s%d", prefix, i), A: a, B: b, Label: 1}
			} else {
				o := (s + 1 + rng.IntN(len(testStyles)-1)) % len(testStyles)
				out[i] = pairs.Pair{ID: fmt.Sprintf("%s%d", prefix, i), A: a, B: bySpeaker[o][rng.IntN(nSets)], Label: 0}
			}
		}
		return out
	}
	c.Train = mk(nPairs, "t")
	c.Dev = mk(max(nPairs/4, 8), "d")
	return c
}

// tinyTransformer is a 1-layer, 32-wide model over testdata/vocab.txt:
// fast enough for many training steps in a unit test.
func tinyTransformer(t testing.TB, seed int64) *Transformer {
	t.Helper()
	m, err := NewTransformer("transformer", TransformerConfig{Pooling: "mean", Layers: 1, Dim: 32, Heads: 2, FFNDim: 64, MaxLen: 12,
		Vocab: "testdata/vocab.txt", Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// tinyTrainConfig trains with small batches and a high learning rate.
func tinyTrainConfig(seed int64) TrainConfig {
	c := DefaultTrainConfig()
	c.Epochs, c.BatchPairs, c.MaxUtterances, c.LearningRate, c.Seed, c.SkipDev = 2, 8, 4, 3e-3, seed, true
	return c
}

// requireONNX skips the test when ONNX Runtime is not installed.
func requireONNX(t testing.TB) {
	t.Helper()
	if _, err := backend.ONNXRuntimeLibrary(); err != nil {
		t.Skipf("onnx backend not tested: %v", err)
	}
}

// onnxAvailable reports whether ONNX Runtime is installed.
func onnxAvailable() bool {
	_, err := backend.ONNXRuntimeLibrary()
	return err == nil
}

// weightsOf copies the model and head variables of net, by path.
func weightsOf(t testing.TB, net *Network) map[string][]float32 {
	t.Helper()
	out := map[string][]float32{}
	for v := range net.Store.IterVariables() {
		p := v.Path()
		if !strings.HasPrefix(p, ModelScope+"/") && !strings.HasPrefix(p, HeadScope+"/") {
			continue
		}
		if !v.DType().IsFloat() {
			continue
		}
		val, err := v.Value()
		if err != nil {
			t.Fatal(err)
		}
		d, err := flatFloat32(val)
		if err != nil {
			t.Fatal(err)
		}
		out[p] = d
	}
	return out
}

// maxDiff returns the largest absolute difference between two weight maps
// (which must hold the same variables).
func maxDiff(t testing.TB, a, b map[string][]float32) float64 {
	t.Helper()
	if len(a) != len(b) || len(a) == 0 {
		t.Fatalf("weight maps differ in size: %d vs %d", len(a), len(b))
	}
	var m float64
	for k, va := range a {
		vb, ok := b[k]
		if !ok || len(vb) != len(va) {
			t.Fatalf("variable %s missing or resized", k)
		}
		for i := range va {
			d := float64(va[i] - vb[i])
			if d < 0 {
				d = -d
			}
			m = max(m, d)
		}
	}
	return m
}
