package roleplay

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
)

// fitRecorder is a bag-of-words encoder that records what it was fitted on.
type fitRecorder struct {
	bowEncoder
	fitted []string
}

func (f *fitRecorder) Fit(_ context.Context, texts []string) error {
	f.fitted = append([]string(nil), texts...)
	return nil
}

func TestFitTexts(t *testing.T) {
	real, gen := synthetic(9)
	for _, realOnly := range []bool{false, true} {
		enc := &fitRecorder{}
		cfg := DefaultConfig()
		cfg.Bootstrap = 0
		cfg.FitRealOnly = realOnly
		if _, err := Score(context.Background(), enc, real, gen, cfg, nil); err != nil {
			t.Fatal(err)
		}
		hasGen := slices.Contains(enc.fitted, gen[0].Text)
		hasReal := slices.Contains(enc.fitted, real[0].Text)
		if !hasReal || hasGen == realOnly {
			t.Errorf("FitRealOnly=%v: fitted on real %v, generated %v", realOnly, hasReal, hasGen)
		}
	}
}

func TestFitTextsGiven(t *testing.T) {
	real, gen := synthetic(9)
	enc := &fitRecorder{}
	cfg := DefaultConfig()
	cfg.Bootstrap = 0
	cfg.FitTexts = []string{"only this text", "and this one"}
	cfg.FitOn = "test"
	rep, err := Score(context.Background(), enc, real, gen, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(enc.fitted, cfg.FitTexts) {
		t.Errorf("fitted on %d texts (first %q), want exactly the given %q", len(enc.fitted), enc.fitted[:min(3, len(enc.fitted))], cfg.FitTexts)
	}
	if rep.Config.FitOn != "test" {
		t.Errorf("report config fit_on %q, want test", rep.Config.FitOn)
	}
	for _, bad := range []func(*Config){func(c *Config) { c.FitRealOnly = true }, func(c *Config) { c.Adapt = true }} {
		c := cfg
		bad(&c)
		if _, err := Score(context.Background(), &fitRecorder{}, real, gen, c, nil); err == nil || !strings.Contains(err.Error(), "cannot be combined") {
			t.Errorf("fit texts with fit-real-only %v, adapt %v: %v", c.FitRealOnly, c.Adapt, err)
		}
	}
}

func TestDedupLines(t *testing.T) {
	rows := []data.Utterance{
		{Text: "I am not crazy, my mother had me tested."},
		{Text: "Yeah."},
		{Text: "I'm not crazy — my mother had me tested"}, // not the same words: kept
		{Text: "I am not crazy, my mother had me tested!"},
		{Text: "Yeah."},
	}
	out, dropped := dedupLines(rows)
	if dropped != 1 || len(out) != 4 || out[2].Text != "I'm not crazy — my mother had me tested" {
		t.Errorf("dedup: dropped %d, kept %v", dropped, out)
	}
}
