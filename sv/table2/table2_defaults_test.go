package table2

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/roleprint/roleprint/sv"
)

// testCandidates are default-row candidates shaped like the real ones:
// three baselines (one needing the "glove" asset), a fine-tuned GoMLX row
// with its untrained companion, and a pretrained GoMLX model ("pre",
// asset "pre-model") with an expensive fine-tuned row.
func testCandidates() []sv.Row {
	cpu := func(s float64) map[string]sv.RowCost { return map[string]sv.RowCost{"": {Fixed: s}} }
	gomlx := func(g, o, c float64) map[string]sv.RowCost {
		return map[string]sv.RowCost{"go": {Fixed: g}, "onnx": {Fixed: o}, "xla:cuda": {Fixed: c}}
	}
	return []sv.Row{
		{Name: "liwc", Quick: true, Costs: cpu(0.5)},
		{Name: "glove-sif", Quick: true, Assets: []string{"glove"}, Costs: cpu(0.5)},
		{Name: "tfidf", Quick: true, Costs: cpu(1)},
		{Name: "net", GoMLX: true, With: "net_ft", Costs: gomlx(15, 3, 1)},
		{Name: "net_ft", GoMLX: true, Costs: gomlx(180, 20, 4)},
		{Name: "pre", GoMLX: true, Assets: []string{"pre-model"}, Costs: gomlx(450, 25, 4)},
		{Name: "pre_ft", GoMLX: true, Assets: []string{"pre-model"}, Costs: gomlx(1100, 120, 8)},
	}
}

// testEnv is a machine with the given backend and installed assets; every
// candidate counts as built in.
func testEnv(backend string, installed ...string) RowEnvironment {
	env := RowEnvironment{
		Backend:    sv.BackendInfo{Name: backend, Reason: "test"},
		Installed:  func(step string) bool { return slices.Contains(installed, step) },
		Registered: func(string) bool { return true },
	}
	if !slices.Contains(installed, "onnxruntime") {
		env.Backend.Setups = map[string]string{"onnx": "roleprint setup onnxruntime"}
	}
	return env
}

func skippedNames(sel *RowSelection) []string {
	var out []string
	for _, s := range sel.Skipped {
		out = append(out, s.Encoder)
	}
	return out
}

func findSkipped(sel *RowSelection, name string) SkippedEncoder {
	for _, s := range sel.Skipped {
		if s.Encoder == name {
			return s
		}
	}
	return SkippedEncoder{}
}

func TestSelectRowsFreshMachine(t *testing.T) {
	// Pure-Go backend, nothing installed: only the asset-free baselines;
	// every other row is listed with the command that enables it.
	sel := selectRows(testCandidates(), testEnv("go"), false)
	if want := []string{"liwc", "tfidf"}; !slices.Equal(sel.Rows, want) {
		t.Errorf("rows %v, want %v", sel.Rows, want)
	}
	if want := []string{"glove-sif", "net", "net_ft", "pre", "pre_ft"}; !slices.Equal(skippedNames(sel), want) {
		t.Errorf("skipped %v, want %v (candidate order)", skippedNames(sel), want)
	}
	if s := findSkipped(sel, "glove-sif"); s.Setup != "roleprint setup glove" || !strings.Contains(s.Reason, "roleprint setup glove") {
		t.Errorf("glove-sif: %+v", s)
	}
	// net_ft would take 3 × (15+180) s on go, over the budget; it fits on
	// onnx, whose setup is named.
	ft := findSkipped(sel, "net_ft")
	if ft.Setup != "roleprint setup onnxruntime" || !strings.Contains(ft.Reason, "budget") || !strings.Contains(ft.Reason, "go") {
		t.Errorf("net_ft: %+v", ft)
	}
	if s := findSkipped(sel, "net"); !strings.Contains(s.Reason, "beside net_ft") {
		t.Errorf("net (companion): %+v", s)
	}
	if s := findSkipped(sel, "pre"); s.Setup != "roleprint setup pre-model" {
		t.Errorf("pre: %+v", s)
	}
	if sel.Setup != "roleprint setup glove onnxruntime pre-model" {
		t.Errorf("setup %q", sel.Setup)
	}
	// glove-sif is a default mixed part that is not available.
	if want := []string{"liwc", "tfidf"}; !slices.Equal(sel.Mixed, want) {
		t.Errorf("mixed %v, want %v", sel.Mixed, want)
	}
	if sel.EstimatedSeconds != 3*1.5 || sel.BudgetSeconds != defaultRowBudgetSeconds {
		t.Errorf("estimate %v budget %v", sel.EstimatedSeconds, sel.BudgetSeconds)
	}
}

func TestSelectRowsDependsOnBackend(t *testing.T) {
	all := []string{"glove", "onnxruntime", "pre-model"}
	cases := []struct {
		backend string
		rows    []string
		skipped []string
	}{
		// ONNX Runtime: the fine-tuned transformer and the pretrained
		// model fit 3 minutes; the fine-tuned pretrained model does not.
		{"onnx", []string{"liwc", "glove-sif", "tfidf", "net", "net_ft", "pre"}, []string{"pre_ft"}},
		// A GPU affords everything.
		{"xla:cuda", []string{"liwc", "glove-sif", "tfidf", "net", "net_ft", "pre", "pre_ft"}, nil},
		// Pure Go with every asset: still no GoMLX row (10× slower).
		{"go", []string{"liwc", "glove-sif", "tfidf"}, []string{"net", "net_ft", "pre", "pre_ft"}},
		// Options after a comma do not change the estimate.
		{"onnx,threads=2", []string{"liwc", "glove-sif", "tfidf", "net", "net_ft", "pre"}, []string{"pre_ft"}},
		// A backend without estimates gets no GoMLX row.
		{"xla:cpu", []string{"liwc", "glove-sif", "tfidf"}, []string{"net", "net_ft", "pre", "pre_ft"}},
	}
	for _, c := range cases {
		sel := selectRows(testCandidates(), testEnv(c.backend, all...), false)
		if !slices.Equal(sel.Rows, c.rows) || !slices.Equal(skippedNames(sel), c.skipped) {
			t.Errorf("%s: rows %v skipped %v, want %v and %v", c.backend, sel.Rows, skippedNames(sel), c.rows, c.skipped)
		}
		if sel.EstimatedSeconds > defaultRowBudgetSeconds {
			t.Errorf("%s: estimate %v over the budget", c.backend, sel.EstimatedSeconds)
		}
		if sel.Setup != "" {
			t.Errorf("%s: everything installed, yet setup %q", c.backend, sel.Setup)
		}
	}
	onnx := selectRows(testCandidates(), testEnv("onnx", all...), false)
	if s := findSkipped(onnx, "pre_ft"); s.Setup != "" || !strings.Contains(s.Reason, "--encoders") {
		t.Errorf("pre_ft on onnx: %+v", s)
	}
	if want := 3.0 * (0.5 + 0.5 + 1 + 3 + 20 + 25); onnx.EstimatedSeconds != want || onnx.Seconds["pre_ft"] != 120 {
		t.Errorf("estimate %v (want %v), per-round %v", onnx.EstimatedSeconds, want, onnx.Seconds)
	}
	// The pretrained model's asset missing: its rows wait for it, the
	// rest is unchanged.
	sel := selectRows(testCandidates(), testEnv("onnx", "glove", "onnxruntime"), false)
	if want := []string{"liwc", "glove-sif", "tfidf", "net", "net_ft"}; !slices.Equal(sel.Rows, want) || sel.Setup != "roleprint setup pre-model" {
		t.Errorf("without pre-model: rows %v setup %q", sel.Rows, sel.Setup)
	}
	// A row this program does not link is left out without a note.
	env := testEnv("onnx", all...)
	env.Registered = func(n string) bool { return !strings.HasPrefix(n, "pre") }
	sel = selectRows(testCandidates(), env, false)
	if slices.Contains(sel.Rows, "pre") || slices.Contains(skippedNames(sel), "pre") {
		t.Errorf("unlinked row: rows %v skipped %v", sel.Rows, skippedNames(sel))
	}
}

func TestSelectRowsQuickExcludesGoMLX(t *testing.T) {
	for _, backend := range []string{"go", "onnx", "xla:cuda"} {
		sel := selectRows(testCandidates(), testEnv(backend, "glove", "onnxruntime", "pre-model"), true)
		if want := []string{"liwc", "glove-sif", "tfidf"}; !slices.Equal(sel.Rows, want) {
			t.Errorf("%s --quick: rows %v, want %v", backend, sel.Rows, want)
		}
		for _, n := range []string{"net", "net_ft", "pre", "pre_ft"} {
			if s := findSkipped(sel, n); !strings.Contains(s.Reason, "--quick") {
				t.Errorf("%s --quick: %s: %+v", backend, n, s)
			}
		}
		if !sel.Quick || sel.BudgetSeconds != 0 {
			t.Errorf("%s: quick %v budget %v", backend, sel.Quick, sel.BudgetSeconds)
		}
	}
}

// testRowsOnce registers default rows for the encoders of fixture_test.go.
var testRowsOnce sync.Once

func registerTestRows() {
	testRowsOnce.Do(func() {
		sv.RegisterRow(sv.Row{Name: "test-trainable", GoMLX: true, Costs: map[string]sv.RowCost{"onnx": {Fixed: 1}}})
		sv.RegisterRow(sv.Row{Name: "test-trainable_ft", GoMLX: true, Costs: map[string]sv.RowCost{"onnx": {Fixed: 1}}})
	})
}

func TestQuickRowsDropsFineTunedAndGoMLX(t *testing.T) {
	registerTestRows()
	got := quickRows([]string{"liwc", "test-trainable", "test-bow", "test-bow_ft", "test-trainable_ft", "tfidf"})
	if want := []string{"liwc", "test-bow", "tfidf"}; !slices.Equal(got, want) {
		t.Errorf("quickRows = %v, want %v", got, want)
	}
	q := quickConfig()
	for _, n := range append(q.Encoders, q.Mixed...) {
		if _, ft := sv.SplitFineTuned(n); ft {
			t.Errorf("quickConfig has %s", n)
		}
	}
	if q.Rounds != 1 || q.FitMaxTexts != 20000 {
		t.Errorf("quick: rounds %d fit %d", q.Rounds, q.FitMaxTexts)
	}
	// The registered baseline rows are all quick, so the preset keeps them.
	if !slices.Equal(q.Encoders, DefaultEncoders) {
		t.Errorf("quick encoders %v, want %v", q.Encoders, DefaultEncoders)
	}
}

func TestTable2ConfigForSelection(t *testing.T) {
	sel := selectRows(testCandidates(), testEnv("onnx", "glove", "onnxruntime", "pre-model"), false)
	c := configFor(sel)
	if !slices.Equal(c.Encoders, sel.Rows) || !slices.Equal(c.Mixed, sel.Mixed) || c.Backend != "onnx" || c.Selection != sel || c.Rounds != 3 {
		t.Errorf("config %+v", c)
	}
	sel = selectRows(testCandidates(), testEnv("onnx"), true)
	if c := configFor(sel); c.Rounds != 1 || c.FitMaxTexts != 20000 || !slices.Equal(c.Encoders, []string{"liwc", "tfidf"}) {
		t.Errorf("quick config %+v", c)
	}
}

func TestRowSettingsPrecedence(t *testing.T) {
	c := DefaultConfig()
	c.RowSettings = map[string]map[string]string{"test-trainable_ft": {"max_steps": "150", "lr": "0.5", "batch_pairs": "32"}}
	c.Settings = map[string]string{"lr": "0.1", "test-trainable_ft.batch_pairs": "8", "test-trainable.max_steps": "9"}
	o := c.EncoderOptions("test-trainable_ft", 1)
	// Row settings < global < "x.key" < "x_ft.key".
	if o.Settings["lr"] != "0.1" || o.Settings["batch_pairs"] != "8" || o.Settings["max_steps"] != "9" {
		t.Errorf("settings %v", o.Settings)
	}
	if o := c.EncoderOptions("test-trainable", 1); o.Settings["batch_pairs"] != "" || o.Settings["max_steps"] != "9" {
		t.Errorf("untrained row got the fine-tuned row's settings: %v", o.Settings)
	}
}

func TestRunTable2RecordsSelectionAndRowSettings(t *testing.T) {
	registerTestRows()
	cfg := testConfig()
	cfg.Encoders = []string{"test-bow", "test-trainable_ft"}
	cfg.Mixed = nil
	cfg.Rounds = 1
	cfg.RowSettings = map[string]map[string]string{"test-trainable_ft": {"max_steps": "150", "lr": "0.5"}}
	cfg.Selection = &RowSelection{Backend: sv.BackendInfo{Name: "go", Reason: "test"}, Rows: cfg.Encoders,
		Skipped: []SkippedEncoder{{Encoder: "pre", Reason: "needs pre-model", Setup: "roleprint setup pre-model"}},
		Setup:   "roleprint setup pre-model", BudgetSeconds: defaultRowBudgetSeconds}
	res, err := RunConfig(context.Background(), cfg, fixtureSource(0.3))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Skipped) != 1 || res.Skipped[0].Setup != "roleprint setup pre-model" {
		t.Errorf("skipped %+v", res.Skipped)
	}
	if got := res.Config.RowSettings["test-trainable_ft"]; got["max_steps"] != "150" || len(res.Config.RowSettings) != 1 {
		t.Errorf("row settings %v", res.Config.RowSettings)
	}
	notes := strings.Join(res.Notes, "\n")
	for _, want := range []string{"backend go", "roleprint setup pre-model", "test-trainable_ft runs with its Table 2 settings lr=0.5, max_steps=150"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	// An empty map turns the row settings off.
	cfg.RowSettings = map[string]map[string]string{}
	cfg.Selection = nil
	res, err = RunConfig(context.Background(), cfg, fixtureSource(0.3))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Config.RowSettings) != 0 || strings.Contains(strings.Join(res.Notes, "\n"), "Table 2 settings") {
		t.Errorf("row settings not turned off: %v %v", res.Config.RowSettings, res.Notes)
	}
}

func TestRunTable2ExplicitRowsMustRun(t *testing.T) {
	cfg := testConfig()
	cfg.Encoders = []string{"test-bow", "test-missing"}
	cfg.Mixed = nil
	cfg.Rounds = 1
	cfg.Explicit = []string{"test-missing"}
	if _, err := RunConfig(context.Background(), cfg, fixtureSource(0.3)); err == nil || !strings.Contains(err.Error(), "roleprint setup test") {
		t.Errorf("a named row with a missing asset: err %v", err)
	}
	cfg.Explicit = []string{"test-bow"}
	res, err := RunConfig(context.Background(), cfg, fixtureSource(0.3))
	if err != nil || len(res.Skipped) != 1 || res.Skipped[0].Setup != "roleprint setup test" {
		t.Errorf("an unnamed row with a missing asset: err %v skipped %+v", err, res.Skipped)
	}
}

// TestRowSettingsNote checks that the note of a row's registered settings
// shows the values a run will use: the registered ones, and --set values
// (global, base-scoped or row-scoped) beside the ones they override.
func TestRowSettingsNote(t *testing.T) {
	c := DefaultConfig()
	c.RowSettings = map[string]map[string]string{"notetest_ft": {"epochs": "1", "max_steps": "150"}}
	if got, want := c.RowSettingsNote("notetest_ft"), "epochs=1, max_steps=150"; got != want {
		t.Errorf("no --set: note %q, want %q", got, want)
	}
	c.Settings = map[string]string{"epochs": "2", "notetest_ft.max_steps": "0"}
	if got, want := c.RowSettingsNote("notetest_ft"), "epochs=1 (--set: 2), max_steps=150 (--set: 0)"; got != want {
		t.Errorf("with --set: note %q, want %q", got, want)
	}
	c.Settings = map[string]string{"max_steps": "150"}
	if got, want := c.RowSettingsNote("notetest_ft"), "epochs=1, max_steps=150"; got != want {
		t.Errorf("--set equal to the registered value: note %q, want %q", got, want)
	}
	if got := c.RowSettingsNote("no-such-row"); got != "" {
		t.Errorf("unregistered row: note %q, want empty", got)
	}
}

// TestDefaultRowSettingsComeFromTheDefaultPreset checks that the rows'
// Table 2 settings are DefaultPreset's (the CPU training budgets), that
// "x.key" of a preset reaches x_ft, and that RunConfig's nil RowSettings
// means them.
func TestDefaultRowSettingsComeFromTheDefaultPreset(t *testing.T) {
	if got := DefaultRowSettings("transformer_ft"); got["max_steps"] != "150" || got["batch_pairs"] != "32" {
		t.Errorf("transformer_ft: %v", got)
	}
	if got := DefaultRowSettings("use-lite_ft"); got["lr"] != "1e-4" || got["max_steps"] != "200" {
		t.Errorf("use-lite_ft: %v", got)
	}
	if got := DefaultRowSettings("tfidf"); got != nil {
		t.Errorf("tfidf: %v, want none", got)
	}
	var c Config
	p := Preset{Name: "t", Settings: "x.a=1;x_ft.b=2;x_ft.a=3"}
	if _, err := p.Apply(&c, nil); err != nil {
		t.Fatal(err)
	}
	if got := c.RowSettingsFor("x_ft"); got["a"] != "3" || got["b"] != "2" {
		t.Errorf("x_ft: %v", got)
	}
	if got := c.RowSettingsFor("x"); got["a"] != "1" || len(got) != 1 {
		t.Errorf("x: %v", got)
	}
}

func TestSelectRowsDecidesFineTunedFirst(t *testing.T) {
	// "pre" (untuned, listed first) and net_ft with its companion each fit
	// the budget alone but not together: the fine-tuned row is decided
	// first and wins, whatever the candidate order; the rows and the
	// setup hint stay in candidate order.
	onnx := func(s float64) map[string]sv.RowCost { return map[string]sv.RowCost{"onnx": {Fixed: s}} }
	candidates := []sv.Row{
		{Name: "liwc", Quick: true, Costs: map[string]sv.RowCost{"": {Fixed: 0.5}}},
		{Name: "glove-sif", Quick: true, Assets: []string{"glove"}, Costs: map[string]sv.RowCost{"": {Fixed: 0.5}}},
		{Name: "pre", GoMLX: true, Costs: onnx(35)},
		{Name: "net", GoMLX: true, With: "net_ft", Costs: onnx(3)},
		{Name: "net_ft", GoMLX: true, Costs: onnx(30)},
		{Name: "big_ft", GoMLX: true, Assets: []string{"big-model"}, Costs: onnx(1)},
	}
	env := testEnv("onnx", "onnxruntime")
	sel := selectRows(candidates, env, false)
	if want := []string{"liwc", "net", "net_ft"}; !slices.Equal(sel.Rows, want) {
		t.Fatalf("rows %v, want %v", sel.Rows, want)
	}
	if s := findSkipped(sel, "pre"); !strings.Contains(s.Reason, "budget") {
		t.Errorf("pre: %+v, want a budget reason", s)
	}
	if want := []string{"glove-sif", "pre", "big_ft"}; !slices.Equal(skippedNames(sel), want) {
		t.Errorf("skipped %v, want %v (candidate order)", skippedNames(sel), want)
	}
	if sel.Setup != "roleprint setup glove big-model" {
		t.Errorf("setup %q, want candidate order", sel.Setup)
	}
	// Without the fine-tuned row, the untuned one fits.
	sel = selectRows(candidates[:3], env, false)
	if want := []string{"liwc", "pre"}; !slices.Equal(sel.Rows, want) {
		t.Errorf("rows %v, want %v", sel.Rows, want)
	}
	// The always-kept rows are counted first: a fine-tuned row that fits
	// only without them is skipped, and the estimate stays in the budget.
	heavy := slices.Clone(candidates)
	heavy[0].Costs = map[string]sv.RowCost{"": {Fixed: 15}}
	heavy[4].Costs = onnx(45) // net_ft: 3 × (3+45) fits alone, not beside liwc
	sel = selectRows(heavy, env, false)
	if want := []string{"liwc", "pre"}; !slices.Equal(sel.Rows, want) {
		t.Errorf("heavy: rows %v, want %v", sel.Rows, want)
	}
	if sel.EstimatedSeconds > sel.BudgetSeconds {
		t.Errorf("heavy: estimate %v over the budget %v", sel.EstimatedSeconds, sel.BudgetSeconds)
	}
}
