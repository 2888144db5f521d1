package table2

import (
	"context"
	"reflect"
	"testing"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/sv"
)

// testMachine is a pure-Go machine with every asset installed and no
// calibration (the committed costs apply).
var testMachine = Machine{
	Detect: func(name string) (RowEnvironment, error) {
		return RowEnvironment{Backend: sv.BackendInfo{Name: "go", Reason: "test machine"}}, nil
	},
	Calibrate: func(context.Context, []sv.Row, RowEnvironment, *pairs.PairCorpus, CalibrationOptions) map[string]sv.RowCost {
		return nil
	},
}

// embeddedInputs loads the embedded corpus once per test binary.
func embeddedInputs(t *testing.T) Inputs {
	t.Helper()
	in, err := LoadInputs(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !in.Embedded || len(in.Utterances) == 0 || len(in.Files) != 1 || in.Files[0].SHA256 == "" {
		t.Fatalf("embedded inputs: %+v", in.Files)
	}
	return in
}

// TestResolvePrecedence checks defaults < preset < request, each on a key
// that the next level leaves alone and one it overrides: rounds (preset
// quick: 1; request: 2), the seed (default 1), fit_max_texts (preset
// 20000), the pair caps (preset max_test_pairs 1000, request 500;
// preset max_dev_pairs 600) and the embedded corpus's pair settings.
func TestResolvePrecedence(t *testing.T) {
	in := embeddedInputs(t)
	req := Request{Preset: "quick", Encoders: []string{"test-bow"}, Rounds: 2, Machine: testMachine,
		Settings: map[string]string{"pairs.max_test_pairs": "500"}}
	p, err := Resolve(context.Background(), req, in)
	if err != nil {
		t.Fatal(err)
	}
	c := p.Config
	if c.Rounds != 2 || c.Seed != 1 || c.FitMaxTexts != 20000 || c.Preset != "quick" || !reflect.DeepEqual(c.Encoders, []string{"test-bow"}) || c.Mixed != nil {
		t.Errorf("config: rounds %d seed %d fit max %d preset %q encoders %v mixed %v", c.Rounds, c.Seed, c.FitMaxTexts, c.Preset, c.Encoders, c.Mixed)
	}
	emb := EmbeddedPairConfig(pairs.DefaultPairConfig())
	if p.Pairs.MaxTestPairs != 500 || p.Pairs.MaxDevPairs != 600 || p.Pairs.UnseenPerDataset != emb.UnseenPerDataset {
		t.Errorf("pairs: %+v", p.Pairs)
	}
	if c.Backend != "go" || !c.SkipMissing || c.Selection != nil || !reflect.DeepEqual(c.Explicit, []string{"test-bow"}) {
		t.Errorf("backend %q skip missing %v selection %v explicit %v", c.Backend, c.SkipMissing, c.Selection, c.Explicit)
	}
	if p.Estimate.Workload.EvalTexts == 0 || !p.Estimate.Workload.Embedded || p.Estimate.Rounds != 2 {
		t.Errorf("estimate: %+v", p.Estimate)
	}
	seed := int64(9)
	req.Seed, req.Rounds = &seed, 0
	if p, err = Resolve(context.Background(), req, in); err != nil || p.Config.Seed != 9 || p.Config.Rounds != 1 {
		t.Errorf("seed 9, rounds left to the preset: %v", err)
	}
	for _, bad := range []Request{
		{Preset: "nope"},
		{Rounds: -1},
		{Criterion: "auc"},
		{Encoders: []string{"no-such-encoder"}},
		{PairSettings: map[string]string{"no_such": "1"}},
	} {
		bad.Machine = testMachine
		if err := bad.Validate(); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

// TestReuseFirstIsARebuild checks that handing the runner round 1's
// corpus, built to measure the workload, changes nothing: the pair
// builder gives a deep-equal corpus for the same seed (so every AUC stays
// bit for bit), round 1 gets that corpus once, and every other call builds
// its own.
func TestReuseFirstIsARebuild(t *testing.T) {
	in := embeddedInputs(t)
	cfg := QuickPairConfig(EmbeddedPairConfig(pairs.DefaultPairConfig()))
	ctx := context.Background()
	source := PairsFrom(in.Utterances, cfg)
	first, err := source(ctx, 1, 7)
	if err != nil {
		t.Fatal(err)
	}
	again, err := source(ctx, 1, 7)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(first, again) {
		t.Fatal("two builds of round 1 with one seed differ: reusing the first would change the run")
	}
	src := reuseFirst(source, first, 7)
	got, err := src(ctx, 1, 7)
	if err != nil || got != first {
		t.Fatalf("round 1: got %p (err %v), want the measured corpus %p", got, err, first)
	}
	if got, _ = src(ctx, 1, 7); got == first || !reflect.DeepEqual(got, first) {
		t.Errorf("a second round-1 call must build a fresh, equal corpus")
	}
	r2, err := src(ctx, 2, 8)
	want, _ := source(ctx, 2, 8)
	if err != nil || !reflect.DeepEqual(r2, want) {
		t.Errorf("round 2 is not built by the source (err %v)", err)
	}
}
