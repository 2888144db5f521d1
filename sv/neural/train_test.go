package neural

import (
	"context"
	"testing"

	"github.com/roleprint/roleprint/stats"
)

func trainTiny(t *testing.T, backendName string, cfg TrainConfig) (*Network, *TrainResult) {
	t.Helper()
	net, err := NewNetwork(tinyTransformer(t, 3), MeanHead{}, backendName, 3)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(net.Close)
	res, err := Train(context.Background(), net, synthCorpus(1, 6, 96), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	return net, res
}

func TestTrainLossFalls(t *testing.T) {
	cfg := tinyTrainConfig(3)
	cfg.Epochs = 3
	_, res := trainTiny(t, "go", cfg)
	if res.Steps != 36 || len(res.Losses) != 36 {
		t.Fatalf("steps %d, losses %d; want 36 (96 pairs / 8 × 3 epochs)", res.Steps, len(res.Losses))
	}
	first, last := stats.Mean(res.Losses[:6]), stats.Mean(res.Losses[len(res.Losses)-6:])
	t.Logf("loss: first steps %.4f, last steps %.4f", first, last)
	if !(last < 0.8*first) {
		t.Fatalf("loss did not fall: first %.4f, last %.4f", first, last)
	}
}

func TestTrainDeterministic(t *testing.T) {
	cfg := tinyTrainConfig(5)
	cfg.Epochs = 1
	a, ra := trainTiny(t, "go", cfg)
	b, rb := trainTiny(t, "go", cfg)
	if d := maxDiff(t, weightsOf(t, a), weightsOf(t, b)); d != 0 {
		t.Fatalf("two runs with one seed differ by %g", d)
	}
	for i := range ra.Losses {
		if ra.Losses[i] != rb.Losses[i] {
			t.Fatalf("loss %d differs: %v vs %v", i, ra.Losses[i], rb.Losses[i])
		}
	}
	cfg.Seed = 6
	c, _ := trainTiny(t, "go", cfg)
	if d := maxDiff(t, weightsOf(t, a), weightsOf(t, c)); d == 0 {
		t.Fatal("another seed gave identical weights")
	}
}

func TestGradientAccumulationMatchesBigBatch(t *testing.T) {
	cfg := tinyTrainConfig(4)
	cfg.Epochs, cfg.MaxSteps = 1, 4
	big, rb := trainTiny(t, "go", cfg)
	cfg.MicroBatchPairs = 3 // 8 = 3 + 3 + 2 (the last micro-batch padded)
	acc, ra := trainTiny(t, "go", cfg)
	if d := maxDiff(t, weightsOf(t, big), weightsOf(t, acc)); d > 2e-5 {
		t.Fatalf("accumulated micro-batches differ from one batch by %g", d)
	}
	for i := range rb.Losses {
		if diff := rb.Losses[i] - ra.Losses[i]; diff > 1e-5 || diff < -1e-5 {
			t.Fatalf("step %d loss %v vs %v", i+1, rb.Losses[i], ra.Losses[i])
		}
	}
}

func TestLearningRateSchedule(t *testing.T) {
	// 10 steps, 1 warm-up step... peak at the end of warm-up, 0 after the last.
	if got := learningRate(1, 1, 2, 10); got != 0.5 {
		t.Errorf("step 1 of 2 warm-up: %v", got)
	}
	if got := learningRate(1, 2, 2, 10); got != 1 {
		t.Errorf("end of warm-up: %v", got)
	}
	if got := learningRate(1, 3, 2, 10); got != 1 {
		t.Errorf("first decay step: %v", got)
	}
	if got := learningRate(1, 10, 2, 10); got != 0.125 {
		t.Errorf("last step: %v", got)
	}
	if got := warmupSteps(0.1, 36); got != 4 {
		t.Errorf("warm-up steps of 36: %d", got)
	}
}

func TestONNXBackendMatchesGo(t *testing.T) {
	requireONNX(t)
	texts := []string{"oh well the theory of quantum strings", "thee thou art", "", "pizza and beer, dude!"}
	cmp, err := CompareBackends(tinyTransformer(t, 9), texts, "onnx")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", cmp[0])
	if cmp[0].MaxOutputDiff > 1e-4 || cmp[0].MaxGradDiff > 1e-3 {
		t.Fatalf("onnx differs from go: %+v", cmp[0])
	}
	// The trainer: same seed, same losses within tolerance, and falling.
	cfg := tinyTrainConfig(3)
	cfg.Epochs = 1
	gnet, gres := trainTiny(t, "go", cfg)
	onet, ores := trainTiny(t, "onnx", cfg)
	for i := range gres.Losses {
		if d := gres.Losses[i] - ores.Losses[i]; d > 1e-3 || d < -1e-3 {
			t.Fatalf("step %d: go loss %.6f, onnx %.6f", i+1, gres.Losses[i], ores.Losses[i])
		}
	}
	if d := maxDiff(t, weightsOf(t, gnet), weightsOf(t, onet)); d > 1e-2 {
		t.Fatalf("weights after training differ by %g", d)
	}
	if !(stats.Mean(ores.Losses[len(ores.Losses)-4:]) < stats.Mean(ores.Losses[:4])) {
		t.Fatalf("onnx loss did not fall: %v", ores.Losses)
	}
}

func TestONNXTrainingDeterministic(t *testing.T) {
	requireONNX(t)
	cfg := tinyTrainConfig(8)
	cfg.Epochs, cfg.MaxSteps = 1, 6
	a, _ := trainTiny(t, "onnx", cfg)
	b, _ := trainTiny(t, "onnx", cfg)
	if d := maxDiff(t, weightsOf(t, a), weightsOf(t, b)); d != 0 {
		t.Fatalf("two onnx runs with one seed differ by %g", d)
	}
}
