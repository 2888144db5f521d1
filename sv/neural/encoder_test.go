package neural

import (
	"context"
	"testing"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
)

// tinyOptions selects the tiny model and quick training through settings,
// as the runner and the CLI would.
func tinyOptions(backendName string) sv.EncoderOptions {
	return sv.EncoderOptions{Backend: backendName, Seed: 5, Settings: map[string]string{
		"vocab": "testdata/vocab.txt", "layers": "1", "dim": "32", "heads": "2", "ffn_dim": "64", "max_len": "12",
		SetEpochs: "3", SetBatchPairs: "8", SetLearningRate: "3e-3", SetMaxUtterances: "4",
	}}
}

// pairAUC scores pairs by the cosine of sv.EmbedSets' set vectors.
func pairAUC(t *testing.T, enc sv.Encoder, c *pairs.PairCorpus, pairList []pairs.Pair) float64 {
	t.Helper()
	var sets []*pairs.UtteranceSet
	for _, p := range pairList {
		sets = append(sets, c.Set(p.A), c.Set(p.B))
	}
	vecs, err := sv.EmbedSets(context.Background(), enc, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	scores := make([]float64, len(pairList))
	labels := make([]bool, len(pairList))
	for i, p := range pairList {
		scores[i] = sv.ScorePair(enc, vecs[p.A], vecs[p.B])
		labels[i] = p.Label == 1
	}
	return stats.AUC(scores, labels)
}

// trainAUC trains enc on train and returns its pair AUC on test's
// training pairs (other sets, same speakers' styles) before and after.
func trainAUC(t *testing.T, enc sv.Encoder, train, test *pairs.PairCorpus) (before, after float64) {
	t.Helper()
	before = pairAUC(t, enc, test, test.Train)
	if err := enc.(sv.Trainable).Train(context.Background(), train, nil); err != nil {
		t.Fatal(err)
	}
	return before, pairAUC(t, enc, test, test.Train)
}

func testFineTuning(t *testing.T, name, backendName string) []float64 {
	enc, err := sv.NewEncoder(name+sv.FineTunedSuffix, tinyOptions(backendName))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.(sv.Closer).Close()
	if _, isSet := enc.(sv.SetEncoder); isSet != (name == LUARScratchName) {
		t.Fatalf("%s: SetEncoder = %v", name, isSet)
	}
	train := synthCorpus(1, 8, 160)
	test := synthCorpus(2, 8, 160) // other sets, same speakers' styles
	vecs, err := enc.Encode(context.Background(), []string{"the quantum theory", "pizza and beer"}, nil)
	if err != nil || len(vecs) != 2 || len(vecs[0]) != enc.Dim() {
		t.Fatalf("Encode: %v, %d vectors", err, len(vecs))
	}
	before, after := trainAUC(t, enc, train, test)
	t.Logf("%s on %s: held-out AUC %.3f untrained → %.3f fine-tuned", name, backendName, before, after)
	if !(after > before+0.05) {
		t.Fatalf("fine-tuning did not help: AUC %.3f → %.3f", before, after)
	}
	var ne *Encoder
	switch v := enc.(type) {
	case *Encoder:
		ne = v
	case headEncoder:
		ne = v.Encoder
	}
	return ne.LastTrainResult().Losses
}

func TestTransformerFineTuningGo(t *testing.T) { testFineTuning(t, TransformerName, "go") }

func TestLUARFineTuning(t *testing.T) {
	ref := testFineTuning(t, LUARScratchName, "go")
	requireONNX(t)
	onnx := testFineTuning(t, LUARScratchName, "onnx")
	for i := range ref {
		if d := ref[i] - onnx[i]; d > 1e-3 || d < -1e-3 {
			t.Fatalf("step %d: loss %.6f on go, %.6f on onnx", i+1, ref[i], onnx[i])
		}
	}
}

func TestEncoderSettingsErrors(t *testing.T) {
	opts := tinyOptions("go")
	opts.Settings[SetEpochs] = "many"
	if _, err := sv.NewEncoder(TransformerName, opts); err == nil {
		t.Fatal("epochs=many: want an error")
	}
	opts = tinyOptions("go")
	opts.Settings["heads"] = "5"
	if _, err := sv.NewEncoder(TransformerName, opts); err == nil {
		t.Fatal("dim 32 with 5 heads: want an error")
	}
	opts = tinyOptions("go")
	opts.Settings[SetHeadKey] = "max"
	if _, err := sv.NewEncoder(TransformerName, opts); err == nil {
		t.Fatal("head=max: want an error")
	}
}
