package neural

import (
	"context"
	"math"
	"testing"

	"github.com/roleprint/roleprint/sv"
)

// TestCenter checks the "center" setting: after Fit, Encode and EmbedSets
// return the raw vectors minus the mean raw vector of the fit texts (so
// the fit texts' own vectors average to zero), the mean is recomputed
// after Train, and without the setting Fit changes nothing.
func TestCenter(t *testing.T) {
	ctx := context.Background()
	fitTexts := []string{"the quantum theory of strings", "pizza and beer tonight", "i am not crazy my mother had me tested", "how you doin", "bazinga", "we were on a break"}
	probe := []string{"the quantum physics", "pizza tonight"}

	build := func(center bool) *Encoder {
		opts := tinyOptions("go")
		if center {
			opts = opts.With(SetCenter, "true").With(SetCenterTexts, "4")
		}
		enc, err := sv.NewEncoder(TransformerName+sv.FineTunedSuffix, opts)
		if err != nil {
			t.Fatal(err)
		}
		return enc.(*Encoder)
	}
	plain, centred := build(false), build(true)
	defer plain.Close()
	defer centred.Close()
	if !centred.EncoderConfig().Center || centred.EncoderConfig().CenterTexts != 4 || plain.EncoderConfig().Center {
		t.Fatalf("settings not read: %+v / %+v", centred.EncoderConfig(), plain.EncoderConfig())
	}
	for _, e := range []*Encoder{plain, centred} {
		if err := e.Fit(ctx, fitTexts); err != nil {
			t.Fatal(err)
		}
	}
	// The sample: 4 evenly spaced texts of 6.
	sample := []string{fitTexts[0], fitTexts[1], fitTexts[3], fitTexts[4]}
	rawProbe, err := plain.Encode(ctx, probe, nil)
	if err != nil {
		t.Fatal(err)
	}
	rawSample, err := plain.Encode(ctx, sample, nil)
	if err != nil {
		t.Fatal(err)
	}
	mean := meanOf(rawSample)
	got, err := centred.Encode(ctx, probe, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range probe {
		for j := range mean {
			if d := math.Abs(float64(got[i][j] - (rawProbe[i][j] - mean[j]))); d > 1e-5 {
				t.Fatalf("probe %d dim %d: centred %g, raw−mean %g", i, j, got[i][j], rawProbe[i][j]-mean[j])
			}
		}
	}
	cs, err := centred.Encode(ctx, sample, nil)
	if err != nil {
		t.Fatal(err)
	}
	for j, m := range meanOf(cs) {
		if math.Abs(float64(m)) > 1e-5 {
			t.Fatalf("fit sample not centred: mean dim %d = %g", j, m)
		}
	}
	sets, err := centred.EmbedSets(ctx, [][]string{probe}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := meanOf(got)
	for j := range want {
		if d := math.Abs(float64(sets[0][j] - want[j])); d > 1e-5 {
			t.Fatalf("EmbedSets dim %d: %g, want the mean of the centred utterance vectors %g", j, sets[0][j], want[j])
		}
	}

	// Training changes the weights: the mean must follow them.
	if err := centred.Train(ctx, synthCorpus(1, 8, 40), nil); err != nil {
		t.Fatal(err)
	}
	cs, err = centred.Encode(ctx, sample, nil)
	if err != nil {
		t.Fatal(err)
	}
	for j, m := range meanOf(cs) {
		if math.Abs(float64(m)) > 1e-5 {
			t.Fatalf("after Train the fit sample is not centred: mean dim %d = %g", j, m)
		}
	}
}

func meanOf(vecs [][]float32) []float32 {
	m := make([]float32, len(vecs[0]))
	for _, v := range vecs {
		for j, x := range v {
			m[j] += x / float32(len(vecs))
		}
	}
	return m
}
