package baseline

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"testing"
)

func TestReadNgramMetricWeightsCurveAndTopWeights(t *testing.T) {
	ctx := context.Background()
	c := styleCorpus(3)
	work := t.TempDir()
	o := testMetricOptions()
	o.Patience = 100 // every epoch runs: the curve has Epochs+1 points
	m := newTestMetric(t, o, 1, work)
	if err := m.Fit(ctx, trainTextsOf(c)); err != nil {
		t.Fatal(err)
	}
	if err := m.Train(ctx, c, nil); err != nil {
		t.Fatal(err)
	}
	w, err := ReadNgramMetricWeights(filepath.Join(work, "checkpoints"))
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Curve) != o.Epochs+1 {
		t.Fatalf("curve has %d points, want the untrained weights and %d epochs: %+v", len(w.Curve), o.Epochs, w.Curve)
	}
	best := 0
	for i, p := range w.Curve {
		if p.Epoch != i {
			t.Errorf("curve point %d is epoch %d", i, p.Epoch)
		}
		if (i == 0) != (p.TrainLoss == 0) {
			t.Errorf("epoch %d: train loss %g (only epoch 0 has none)", i, p.TrainLoss)
		}
		if p.DevAUC > w.Curve[best].DevAUC {
			best = i
		}
	}
	if best != w.BestEpoch || w.Curve[best].DevAUC != w.DevAUC {
		t.Errorf("kept epoch %d (dev AUC %g); the curve's best is epoch %d (%g)", w.BestEpoch, w.DevAUC, best, w.Curve[best].DevAUC)
	}
	if w.Trained == "" || w.Trained != m.trained {
		t.Errorf("training summary %q, the encoder's %q", w.Trained, m.trained)
	}

	const n = 5
	most, least, err := w.TopWeights(n)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Channels) != len(m.chans) || len(most) != n*len(m.chans) || len(least) != n*len(m.chans) {
		t.Fatalf("%d channels, %d most and %d least weights; want %d channels × %d", len(w.Channels), len(most), len(least), len(m.chans), n)
	}
	for ci, ch := range m.chans {
		hi, lo := math.Abs(float64(ch.w[0])), math.Abs(float64(ch.w[0]))
		for _, x := range ch.w {
			hi, lo = max(hi, math.Abs(float64(x))), min(lo, math.Abs(float64(x)))
		}
		top, bottom := most[ci*n:(ci+1)*n], least[ci*n:(ci+1)*n]
		if top[0].Channel != ch.name || bottom[0].Channel != ch.name {
			t.Errorf("channel %d: got %s / %s, want %s", ci, top[0].Channel, bottom[0].Channel, ch.name)
		}
		if top[0].Weight != hi || bottom[0].Weight != lo {
			t.Errorf("channel %s: top weight %g, lowest %g; the encoder's range is [%g, %g]", ch.name, top[0].Weight, bottom[0].Weight, lo, hi)
		}
		if hi == lo {
			t.Fatalf("channel %s: training left every weight at %g", ch.name, hi)
		}
		vocab := ch.tf.Vocabulary()
		for i := 1; i < n; i++ {
			if top[i].Weight > top[i-1].Weight || bottom[i].Weight < bottom[i-1].Weight {
				t.Errorf("channel %s: not ordered: most %+v, least %+v", ch.name, top, bottom)
			}
		}
		for _, f := range slices.Concat(top, bottom) {
			j := -1
			for k, v := range vocab {
				if v == f.Feature {
					j = k
				}
			}
			if j < 0 || math.Abs(float64(ch.w[j])) != f.Weight {
				t.Errorf("channel %s: %q weight %g is not the encoder's", ch.name, f.Feature, f.Weight)
			}
		}
	}
	if _, _, err := w.TopWeights(0); err == nil {
		t.Error("TopWeights(0): want an error")
	}
}

func TestReadNgramMetricWeightsMissing(t *testing.T) {
	if _, err := ReadNgramMetricWeights(filepath.Join(t.TempDir(), "none.json")); err == nil {
		t.Error("a missing file: want an error")
	}
}
