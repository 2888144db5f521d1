package roleplay

import (
	"context"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/sv"
)

// adaptEncoder is bowEncoder with sv.Adapter: Adapt records its texts and
// centres every later vector on their mean bag of words.
type adaptEncoder struct {
	bowEncoder
	calls [][]string
	mean  []float32
}

func (a *adaptEncoder) Adapt(ctx context.Context, texts []string) error {
	a.calls = append(a.calls, texts)
	vecs, _ := a.bowEncoder.Encode(ctx, texts, nil)
	a.mean = make([]float32, a.Dim())
	for _, v := range vecs {
		for d, x := range v {
			a.mean[d] += x / float32(len(vecs))
		}
	}
	return nil
}

func (a *adaptEncoder) Encode(ctx context.Context, texts []string, p sv.Progress) ([][]float32, error) {
	out, err := a.bowEncoder.Encode(ctx, texts, p)
	for _, v := range out {
		for d := range v {
			if a.mean != nil {
				v[d] -= a.mean[d]
			}
		}
	}
	return out, err
}

// TestScoreAdapt checks Config.Adapt: off, an sv.Adapter is left alone;
// on, it is adapted once, before embedding, to the distinct texts a
// Fitter would be fitted on (every scored text, or with FitRealOnly the
// real ones), and the scores are those of the adapted encoder.
func TestScoreAdapt(t *testing.T) {
	ctx := context.Background()
	real, gen := synthetic(5)
	cfg := DefaultConfig()
	cfg.Bootstrap = 0
	plain := &adaptEncoder{}
	off, err := Score(ctx, plain, real, gen, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(plain.calls) != 0 {
		t.Fatalf("Adapt off: %d calls", len(plain.calls))
	}
	realTexts, all := map[string]bool{}, map[string]bool{}
	for _, u := range real {
		realTexts[u.Text], all[u.Text] = true, true
	}
	for _, u := range gen {
		all[u.Text] = true
	}
	for _, realOnly := range []bool{false, true} {
		c := cfg
		c.Adapt, c.FitRealOnly = true, realOnly
		enc := &adaptEncoder{}
		on, err := Score(ctx, enc, real, gen, c, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(enc.calls) != 1 {
			t.Fatalf("real only %v: %d Adapt calls, want 1", realOnly, len(enc.calls))
		}
		for _, x := range enc.calls[0] {
			if realOnly && !realTexts[x] || !all[x] {
				t.Fatalf("real only %v: adapted to %q, not a text it should see", realOnly, x)
			}
		}
		if realOnly && len(enc.calls[0]) >= len(all) || !realOnly && len(enc.calls[0]) <= len(realTexts) {
			t.Errorf("real only %v: adapted to %d texts (%d real, %d in all)", realOnly, len(enc.calls[0]), len(realTexts), len(all))
		}
		if on.Models[0].Simulation == off.Models[0].Simulation {
			t.Errorf("real only %v: Simulation %v with and without adaptation: the adapted encoder was not used", realOnly, on.Models[0].Simulation)
		}
	}
}

// TestScoreAdaptNeedsAnAdapter checks that Config.Adapt with an encoder
// that cannot adapt is an error naming it, not a silent no-op.
func TestScoreAdaptNeedsAnAdapter(t *testing.T) {
	real, gen := synthetic(5)
	cfg := DefaultConfig()
	cfg.Bootstrap, cfg.Adapt = 0, true
	_, err := Score(context.Background(), bowEncoder{}, real, gen, cfg, nil)
	if err == nil || !strings.Contains(err.Error(), "bow cannot be adapted") {
		t.Errorf("Adapt with bowEncoder: %v, want an error naming it", err)
	}
}
