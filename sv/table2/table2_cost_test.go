package table2

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/sv"
)

// TestMeasureWorkload counts the distinct dev/test texts, their words, the
// training texts and pairs of a fixture corpus.
func TestMeasureWorkload(t *testing.T) {
	c := fixtureCorpus(1, 6, 6, 40, 0.3)
	w := sv.MeasureWorkload(c)
	texts := map[string]bool{}
	words := 0
	for _, s := range sv.EvalSets(c) {
		for _, x := range s.Texts {
			if !texts[x] {
				texts[x] = true
				words += len(strings.Fields(x))
			}
		}
	}
	if w.EvalTexts != len(texts) || w.EvalWords != words || w.TrainPairs != len(c.Train) || w.TrainTexts != len(sv.TrainTexts(c, 0)) || w.Sets != len(c.Sets) {
		t.Errorf("workload %+v; want %d eval texts, %d words, %d pairs", w, len(texts), words, len(c.Train))
	}
	if w.EvalTexts == 0 || w.TrainPairs == 0 {
		t.Fatalf("empty fixture workload %+v", w)
	}
}

// TestSelectRowsScalesWithWorkload checks that a row's estimate follows
// the measured inputs: a trainer costed per step (Steps from the
// training pairs) and per token fits a small workload and is dropped,
// with the workload named, for a large one; calibrated costs take
// precedence over committed ones; file inputs get the larger budget.
func TestSelectRowsScalesWithWorkload(t *testing.T) {
	steps := func(w sv.Workload, s map[string]string) int { return min(150, (w.TrainPairs+31)/32) }
	cands := []sv.Row{
		{Name: "liwc", Quick: true, Costs: map[string]sv.RowCost{"": {PerEvalText: 1e-4}}},
		{Name: "net_ft", GoMLX: true, Steps: steps, Costs: map[string]sv.RowCost{"onnx": {Fixed: 5, PerEvalToken: 1e-5, TokenLimit: 32, PerStep: 0.5}}},
	}
	env := testEnv("onnx", "onnxruntime")
	small := sv.Workload{Embedded: true, EvalTexts: 5000, EvalWords: 50000, TrainPairs: 640}
	env.Workload = &small
	sel := selectRows(cands, env, false)
	// net_ft: 5 + 1e-5·5000·11 + 0.5·20 = 15.55 s/round.
	if !slices.Contains(sel.Rows, "net_ft") || math.Abs(sel.Seconds["net_ft"]-15.55) > 1e-9 {
		t.Fatalf("small workload: rows %v, seconds %v", sel.Rows, sel.Seconds)
	}
	if len(sel.Estimates) != 2 || sel.Estimates[1].Steps != 20 || sel.BudgetSeconds != EmbeddedBudgetSeconds {
		t.Errorf("estimates %+v budget %v", sel.Estimates, sel.BudgetSeconds)
	}
	big := sv.Workload{Embedded: true, EvalTexts: 20000, EvalWords: 400000, TrainPairs: 37000}
	env.Workload = &big
	sel = selectRows(cands, env, false)
	if slices.Contains(sel.Rows, "net_ft") {
		t.Fatalf("big workload on the embedded budget: net_ft selected (%v s/round)", sel.Seconds["net_ft"])
	}
	if s := findSkipped(sel, "net_ft"); !strings.Contains(s.Reason, "37,000 training pairs") || !strings.Contains(s.Reason, "3.0 min budget") {
		t.Errorf("net_ft skipped: %q", s.Reason)
	}
	// The same inputs as files: the 11-minute budget affords it.
	big.Embedded = false
	sel = selectRows(cands, env, false)
	if !slices.Contains(sel.Rows, "net_ft") || sel.BudgetSeconds != FilesBudgetSeconds {
		t.Errorf("files: rows %v budget %v", sel.Rows, sel.BudgetSeconds)
	}
	// A calibration that measured a slow step on this machine wins.
	env.Costs = map[string]sv.RowCost{"net_ft": {Fixed: 5, PerStep: 5}}
	sel = selectRows(cands, env, false)
	if slices.Contains(sel.Rows, "net_ft") || sel.Seconds["net_ft"] != 5+5*150 {
		t.Errorf("calibrated: rows %v seconds %v", sel.Rows, sel.Seconds)
	}
	// Pair building counts in the total.
	env.Costs = nil
	big.PairsSeconds = 10
	sel = selectRows(cands, env, false)
	var rows float64
	for _, e := range sel.Estimates {
		rows += e.Seconds
	}
	if math.Abs(sel.EstimatedSeconds-DefaultRounds*(10+rows)) > 1e-9 {
		t.Errorf("estimate %v, want 3 × (10 + %v)", sel.EstimatedSeconds, rows)
	}
}

// spinFor keeps one core busy until this process has spent d of CPU time
// (calibration measures CPU time, which other jobs' load does not stretch).
func spinFor(d time.Duration) {
	end := cpuSeconds() + d.Seconds()
	x := 0
	for cpuSeconds() < end {
		x++
	}
	_ = x
}

// stepEncoder is a trainable test encoder whose steps and tokens cost
// known busy time: Train reports max_steps steps of stepTime, Encode
// spends tokenTime per word+1 of each text.
type stepEncoder struct {
	steps int
	calls *atomic.Int32
}

const (
	stepTime  = 20 * time.Millisecond
	tokenTime = 20 * time.Microsecond
)

func (e *stepEncoder) Name() string { return "test-steps" }
func (e *stepEncoder) Dim() int     { return 2 }
func (e *stepEncoder) Encode(ctx context.Context, texts []string, p sv.Progress) ([][]float32, error) {
	e.calls.Add(1)
	out := make([][]float32, len(texts))
	for i, t := range texts {
		spinFor(time.Duration(len(strings.Fields(t))+1) * tokenTime)
		out[i] = []float32{1, float32(len(t))}
	}
	return out, nil
}
func (e *stepEncoder) Train(ctx context.Context, c *pairs.PairCorpus, p sv.Progress) error {
	for s := 1; s <= e.steps; s++ {
		spinFor(stepTime)
		p.Report(s, e.steps)
	}
	return nil
}

var stepCalls atomic.Int32

func init() {
	sv.RegisterEncoder("test-steps", func(o sv.EncoderOptions) (sv.Encoder, error) {
		n := 0
		fmt.Sscan(o.Settings["max_steps"], &n)
		return &stepEncoder{steps: n, calls: &stepCalls}, nil
	})
}

// TestCalibrateRowMeasuresStepsAndTokens checks that a calibration finds
// the busy time a test encoder spends per step and per token (as
// idle-equivalent seconds: between the CPU time over the cores and the
// wall time), and that CalibrateRows caches it by row, backend, version
// and settings: a second call measures nothing, another setting does.
func TestCalibrateRowMeasuresStepsAndTokens(t *testing.T) {
	row := sv.Row{Name: "test-steps_ft", GoMLX: true, Calibrate: true,
		CalibrationSettings: map[string]string{"max_steps": "4"},
		Costs:               map[string]sv.RowCost{"onnx": {TokenLimit: 32, PerStep: 0.5}},
		Steps:               func(w sv.Workload, s map[string]string) int { return 150 }}
	corpus := fixtureCorpus(1, 6, 6, 40, 0.3)
	env := testEnv("onnx", "onnxruntime")
	env.Registered = func(string) bool { return true }
	dir := t.TempDir()
	// The row's own settings come from the run's configuration (a preset's
	// row settings).
	cfg := DefaultConfig()
	cfg.RowSettings = map[string]map[string]string{row.Name: {"max_steps": "150"}}
	opts := CalibrationOptions{Dir: dir, Config: &cfg}
	stepCalls.Store(0)
	costs := CalibrateRows(context.Background(), []sv.Row{row}, env, corpus, opts)
	c, ok := costs[row.Name]
	if !ok {
		t.Fatalf("no calibration: %v", costs)
	}
	lo, hi := stepTime.Seconds()/float64(runtime.NumCPU())*0.5, stepTime.Seconds()*3
	if c.PerStep < lo || c.PerStep > hi {
		t.Errorf("PerStep %v, want within [%v, %v] (busy %v per step)", c.PerStep, lo, hi, stepTime)
	}
	lo, hi = tokenTime.Seconds()/float64(runtime.NumCPU())*0.5, tokenTime.Seconds()*3
	if c.PerEvalToken < lo || c.PerEvalToken > hi || c.TokenLimit != 32 {
		t.Errorf("PerEvalToken %v limit %d, want within [%v, %v]", c.PerEvalToken, c.TokenLimit, lo, hi)
	}
	if !strings.Contains(c.Source, "calibrated on onnx") || !strings.Contains(c.Source, "4 steps") {
		t.Errorf("source %q", c.Source)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "test-steps_ft-*.json"))
	if len(files) != 1 {
		t.Fatalf("cache files %v", files)
	}
	calls := stepCalls.Load()
	again := CalibrateRows(context.Background(), []sv.Row{row}, env, corpus, opts)
	if again[row.Name] != c || stepCalls.Load() != calls {
		t.Errorf("second calibration not from the cache: %+v (encoder calls %d → %d)", again[row.Name], calls, stepCalls.Load())
	}
	// Fresh measures again; another row setting is another key.
	CalibrateRows(context.Background(), []sv.Row{row}, env, corpus, CalibrationOptions{Dir: dir, Fresh: true, Config: &cfg})
	if stepCalls.Load() == calls {
		t.Errorf("Fresh did not measure")
	}
	cfg.RowSettings = map[string]map[string]string{row.Name: {"max_steps": "150", "lr": "1"}}
	CalibrateRows(context.Background(), []sv.Row{row}, env, corpus, opts)
	if files, _ = filepath.Glob(filepath.Join(dir, "test-steps_ft-*.json")); len(files) != 2 {
		t.Errorf("another setting: cache files %v, want 2", files)
	}
	// A trainer without Steps gets its training time per training pair.
	noSteps := row
	noSteps.Name, noSteps.Steps = "test-steps_ft", nil
	pc, err := calibrateRow(context.Background(), noSteps, "onnx", corpus, nil)
	if err != nil || pc.PerStep != 0 || pc.PerTrainPair*float64(len(corpus.Train)) < 4*stepTime.Seconds()/float64(runtime.NumCPU())*0.5 {
		t.Errorf("no Steps: %+v, %v", pc, err)
	}
	// A torn cache file is measured again, not trusted.
	for _, f := range files {
		if err := os.WriteFile(f, []byte("{"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	calls = stepCalls.Load()
	CalibrateRows(context.Background(), []sv.Row{row}, env, corpus, opts)
	if stepCalls.Load() == calls {
		t.Errorf("torn cache file trusted")
	}
}
