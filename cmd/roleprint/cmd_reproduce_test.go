package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/sv"
	"github.com/roleprint/roleprint/sv/table2"
)

// reproRun runs the CLI in-process.
func reproRun(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(context.Background(), args, &o, &e)
	return code, o.String(), e.String()
}

// reproFixture writes a small utterance file: 12 named speakers, each
// with word habits of its own, in 36 two-speaker conversations of 10
// turns each.
func reproFixture(t *testing.T) string {
	t.Helper()
	var utts []data.Utterance
	names := []string{"Ada", "Ben", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jade", "Kit", "Lena"}
	habits := []string{"indeed", "whatever", "honestly", "basically", "certainly", "literally", "obviously", "frankly", "really", "totally", "surely", "clearly"}
	for conv := 0; conv < 36; conv++ {
		a, b := conv%12, (conv*5+1)%12
		if a == b {
			b = (b + 1) % 12
		}
		for turn := 0; turn < 10; turn++ {
			s := a
			if turn%2 == 1 {
				s = b
			}
			text := fmt.Sprintf("%s I think we should go to the place number %d now, %s and %s again.", habits[s], turn, habits[s], habits[(s+turn)%12])
			utts = append(utts, data.Utterance{Source: "fixture", ConversationID: fmt.Sprintf("c%d", conv), Turn: int32(turn), Speaker: names[s], Text: text})
		}
	}
	p := filepath.Join(t.TempDir(), "fixture.parquet")
	if err := data.WriteUtterances(p, utts); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReproduceQuickJSONEmbedded(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the embedded corpus")
	}
	out := t.TempDir()
	code, stdout, stderr := reproRun("reproduce", "--quick", "--json", "--encoders", "liwc,lsm", "--mixed", "liwc,lsm", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res struct {
		Corpus string           `json:"corpus"`
		Rounds int              `json:"rounds"`
		Rows   []map[string]any `json:"rows"`
		Files  []string         `json:"files"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, stdout)
	}
	if res.Rounds != 1 || len(res.Rows) != 3*9 || !strings.Contains(res.Corpus, "shakespeare") {
		t.Fatalf("rounds %d, %d rows, corpus %q", res.Rounds, len(res.Rows), res.Corpus)
	}
	for _, k := range []string{"encoder", "exposure", "level", "auc_mean", "auc_std", "acc_mean", "acc_std", "f1_mean", "f1_std", "rounds"} {
		if _, ok := res.Rows[0][k]; !ok {
			t.Errorf("row lacks key %q", k)
		}
	}
	for _, r := range res.Rows {
		if auc, ok := r["auc_mean"].(float64); !ok || auc < 0 || auc > 1 {
			t.Errorf("row %v: auc_mean %v", r["encoder"], r["auc_mean"])
		}
	}
	for _, f := range append(res.Files, "checkpoints/round-1/liwc.json") {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	// A rerun resumes from the checkpoints.
	code, _, stderr = reproRun("reproduce", "--quick", "--json", "--encoders", "liwc,lsm", "--mixed", "liwc,lsm", "--out", out)
	if code != 0 || !strings.Contains(stderr, "liwc resumed from checkpoint") {
		t.Errorf("rerun: exit %d, stderr lacks the resume note:\n%s", code, stderr)
	}
}

func TestReproduceFilesTable(t *testing.T) {
	in := reproFixture(t)
	out := t.TempDir()
	code, stdout, stderr := reproRun("reproduce", "--rounds", "2", "--encoders", "liwc,tfidf", "--mixed", "none",
		"--set", "tfidf.min_df=1", "--pair-set", "unseen_per_dataset=3;dev_per_dataset=2;unseen_divisor=2;allow_empty_splits=true", "--out", out, in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"## Table 2", "**Harder level**", "| tfidf |", "seeds 1, 2"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("table lacks %q:\n%s", want, stdout)
		}
	}
	var m struct {
		GoVersion string           `json:"go_version"`
		Seeds     []int64          `json:"seeds"`
		Inputs    []map[string]any `json:"inputs"`
		Pairs     map[string]any   `json:"pairs"`
	}
	b := readManifest(t, out, &m)
	if m.GoVersion == "" || len(m.Seeds) != 2 || len(m.Inputs) != 1 || m.Inputs[0]["sha256"] == "" || m.Pairs["unseen_per_dataset"] != 3.0 {
		t.Errorf("manifest: %s", b)
	}
}

func TestReproduceErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.parquet")
	os.WriteFile(bad, []byte("not parquet"), 0o644)
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"reproduce", "--encoders", "nope", bad}, 2, `unknown encoder "nope"`},
		{[]string{"reproduce", "--rounds", "0", bad}, 2, "rounds"},
		{[]string{"reproduce", "--pair-set", "no_such=1", bad}, 2, `pair settings: unknown setting "no_such"`},
		{[]string{"reproduce", "--criterion", "auc", bad}, 2, "criterion"},
		{[]string{"reproduce", "--out", t.TempDir(), bad}, 1, bad},
		{[]string{"reproduce", bad, "--json"}, 2, "after the input files"},
	}
	for _, c := range cases {
		code, _, stderr := reproRun(c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d (want %d), stderr %q lacks %q", c.args, code, c.code, stderr, c.want)
		}
	}
}

// reproFakeEnv replaces the machine description of the default-row
// selection for the rest of the test: GoMLX backend, installed `roleprint
// setup` steps.
func reproFakeEnv(t *testing.T, backend string, installed ...string) {
	t.Helper()
	old := reproMachine
	reproMachine = table2.Machine{
		Detect: func(name string) (table2.RowEnvironment, error) {
			b := sv.BackendInfo{Name: backend, Reason: "test machine"}
			if name != "" {
				b = sv.BackendInfo{Name: name, Reason: "requested"}
			}
			if !slices.Contains(installed, "onnxruntime") {
				b.Setups = map[string]string{"onnx": "roleprint setup onnxruntime"}
			}
			return table2.RowEnvironment{Backend: b, Installed: func(step string) bool { return slices.Contains(installed, step) }}, nil
		},
		Calibrate: func(context.Context, []sv.Row, table2.RowEnvironment, *pairs.PairCorpus, table2.CalibrationOptions) map[string]sv.RowCost {
			return nil // the committed costs: no network is built in tests
		},
	}
	t.Cleanup(func() { reproMachine = old })
}

// reproPlanOf runs `reproduce --dry-run --json ARGS` and decodes it.
func reproPlanOf(t *testing.T, args ...string) table2.Estimate {
	t.Helper()
	code, stdout, stderr := reproRun(append([]string{"reproduce", "--dry-run", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, stderr)
	}
	var p table2.Estimate
	if err := json.Unmarshal([]byte(stdout), &p); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, stdout)
	}
	return p
}

func reproSkippedNames(ss []table2.SkippedEncoder) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Encoder)
	}
	return out
}

func TestReproduceDefaultRowsFollowTheMachine(t *testing.T) {
	// A fresh machine: pure Go, nothing installed.
	reproFakeEnv(t, "go")
	p := reproPlanOf(t)
	if want := []string{"liwc", "lsm", "pos", "tfidf", "ngram-metric", "ngram-metric_ft"}; !slices.Equal(p.Encoders, want) {
		t.Errorf("fresh machine: rows %v, want %v", p.Encoders, want)
	}
	if want := []string{"glove", "glove-sif", "transformer", "transformer_ft", "use-lite", "use-lite_ft"}; !slices.Equal(reproSkippedNames(p.Skipped), want) {
		t.Errorf("fresh machine: skipped %v, want %v", reproSkippedNames(p.Skipped), want)
	}
	// (ONNX Runtime is not named: on the embedded corpus the GoMLX rows do
	// not fit its budget on onnx either.)
	if p.Setup != "roleprint setup glove use-lite" || !slices.Equal(p.Mixed, []string{"liwc", "tfidf"}) {
		t.Errorf("fresh machine: setup %q, mixed %v", p.Setup, p.Mixed)
	}
	// ONNX Runtime installed: on the embedded corpus the GoMLX rows'
	// committed estimates (about 3 minutes each for 3 rounds) do not fit
	// the 3-minute budget; they are skipped with the estimate and the way
	// to run them anyway.
	reproFakeEnv(t, "onnx", "glove", "onnxruntime", "use-lite")
	p = reproPlanOf(t)
	if want := []string{"liwc", "lsm", "pos", "glove", "glove-sif", "tfidf", "ngram-metric", "ngram-metric_ft"}; !slices.Equal(p.Encoders, want) {
		t.Errorf("onnx: rows %v, want %v", p.Encoders, want)
	}
	for _, s := range p.Skipped {
		if !strings.Contains(s.Reason, "over its 3.0 min budget") || !strings.Contains(s.Reason, "--encoders") || !strings.Contains(s.Reason, "eval utterances") {
			t.Errorf("onnx: %s skipped: %q", s.Encoder, s.Reason)
		}
	}
	if p.Workload.EvalTexts == 0 || p.Workload.TrainPairs == 0 || !p.Workload.Embedded || len(p.Estimates) != len(p.Encoders) || p.EstimatedSeconds <= 0 || p.EstimatedSeconds > table2.EmbeddedBudgetSeconds {
		t.Errorf("onnx: workload %+v estimates %d total %v", p.Workload, len(p.Estimates), p.EstimatedSeconds)
	}
	// A GPU: the fine-tuned transformer (and its untrained companion) and
	// use-lite join with their training budget; use-lite_ft does not fit.
	reproFakeEnv(t, "xla:cuda", "glove", "use-lite")
	p = reproPlanOf(t)
	if !slices.Contains(p.Encoders, "transformer_ft") || !slices.Contains(p.Encoders, "use-lite") || slices.Contains(p.Encoders, "use-lite_ft") {
		t.Errorf("xla:cuda: rows %v skipped %v", p.Encoders, reproSkippedNames(p.Skipped))
	}
	if p.RowSettings["transformer_ft"]["max_steps"] == "" || p.Selection == nil || p.Selection.EstimatedSeconds > table2.EmbeddedBudgetSeconds {
		t.Errorf("xla:cuda: row settings %v, selection %+v", p.RowSettings, p.Selection)
	}
	var steps int
	for _, e := range p.Estimates {
		if e.Row == "transformer_ft" {
			steps = e.Steps
		}
	}
	if want := (p.Workload.TrainPairs + 31) / 32; steps != min(want, 150) {
		t.Errorf("transformer_ft: %d steps estimated, want %d (one epoch of 32-pair batches)", steps, min(want, 150))
	}
	// --backend go on the same machine: no GoMLX row.
	p = reproPlanOf(t, "--backend", "go")
	if slices.Contains(p.Encoders, "transformer_ft") || p.Backend.Name != "go" {
		t.Errorf("--backend go: rows %v backend %+v", p.Encoders, p.Backend)
	}
}

func TestReproduceQuickExcludesFineTunedUnlessNamed(t *testing.T) {
	reproFakeEnv(t, "onnx", "glove", "onnxruntime", "use-lite")
	p := reproPlanOf(t, "--quick")
	for _, n := range append(p.Encoders, p.Mixed...) {
		if strings.HasSuffix(n, "_ft") || n == "transformer" || n == "use-lite" {
			t.Errorf("--quick runs %s", n)
		}
	}
	if p.Rounds != 1 || !slices.Contains(reproSkippedNames(p.Skipped), "transformer_ft") {
		t.Errorf("--quick: rounds %d skipped %v", p.Rounds, reproSkippedNames(p.Skipped))
	}
	p = reproPlanOf(t, "--quick", "--encoders", "tfidf,transformer_ft")
	if !slices.Equal(p.Encoders, []string{"tfidf", "transformer_ft"}) || p.Selection != nil || p.RowSettings["transformer_ft"] == nil {
		t.Errorf("--quick --encoders tfidf,transformer_ft: %+v", p)
	}
}

// TestReproduceEncodersAreTheRows checks that --encoders names exactly the
// rows run: the default mixed parts are not added as rows, and the mixed
// row joins only when all its parts are named (or with --mixed).
func TestReproduceEncodersAreTheRows(t *testing.T) {
	reproFakeEnv(t, "onnx", "glove", "onnxruntime", "use-lite")
	p := reproPlanOf(t, "--encoders", "tfidf,use-lite")
	if !slices.Equal(p.Encoders, []string{"tfidf", "use-lite"}) || len(p.Mixed) != 0 {
		t.Errorf("--encoders tfidf,use-lite: rows %v mixed %v", p.Encoders, p.Mixed)
	}
	var rows []string
	for _, e := range p.Estimates {
		rows = append(rows, e.Row)
	}
	if !slices.Equal(rows, []string{"tfidf", "use-lite"}) || p.EstimatedSeconds <= 0 {
		t.Errorf("estimates for %v, total %v", rows, p.EstimatedSeconds)
	}
	p = reproPlanOf(t, "--encoders", "liwc,glove-sif,tfidf,pos")
	if !slices.Equal(p.Mixed, []string{"liwc", "glove-sif", "tfidf"}) {
		t.Errorf("all default parts named: mixed %v", p.Mixed)
	}
	p = reproPlanOf(t, "--encoders", "tfidf", "--mixed", "liwc,tfidf")
	if !slices.Equal(p.Mixed, []string{"liwc", "tfidf"}) {
		t.Errorf("--mixed given: mixed %v", p.Mixed)
	}
}

func TestReproduceReportsSkippedRows(t *testing.T) {
	// A backend without cost models: the GoMLX rows are skipped and
	// the note names ONNX Runtime, on which they would fit these inputs.
	reproFakeEnv(t, "xla:cpu")
	in := reproFixture(t)
	out := t.TempDir()
	code, stdout, stderr := reproRun("reproduce", "--rounds", "1", "--set", "tfidf.min_df=1",
		"--pair-set", "unseen_per_dataset=3;dev_per_dataset=2;unseen_divisor=2;allow_empty_splits=true", "--out", out, in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"| tfidf |", "Skipped transformer_ft:", "Skipped glove:", "run `roleprint setup glove onnxruntime use-lite`"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	for _, want := range []string{"GoMLX backend xla:cpu: test machine", "default rows for this machine: liwc, lsm, pos, tfidf", "not running transformer_ft"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	var m struct {
		Backend string `json:"backend"`
		Config  struct {
			Selection struct {
				Rows    []string                `json:"rows"`
				Skipped []table2.SkippedEncoder `json:"skipped"`
			} `json:"selection"`
		} `json:"config"`
		Skipped []table2.SkippedEncoder `json:"skipped"`
	}
	readManifest(t, out, &m)
	if m.Backend != "xla:cpu" || len(m.Config.Selection.Rows) != 6 || len(m.Skipped) != 6 || m.Skipped[0].Setup != "roleprint setup glove" {
		t.Errorf("manifest: backend %q selection %+v skipped %+v", m.Backend, m.Config.Selection, m.Skipped)
	}
}

// TestReproduceRerunLeavesOnlyManifestOutputs: every file a reproduce run
// leaves in --out, checkpoints included, is one its manifest lists (a file,
// or under a listed "DIR/" folder), after the first run and after a rerun
// into the same --out; the rerun keeps the checkpoints and resumes from them.
func TestReproduceRerunLeavesOnlyManifestOutputs(t *testing.T) {
	in := reproFixture(t)
	out := t.TempDir()
	args := []string{"reproduce", "--rounds", "1", "--encoders", "liwc", "--mixed", "none", "--figures", "none",
		"--pair-set", "unseen_per_dataset=3;dev_per_dataset=2;unseen_divisor=2;allow_empty_splits=true", "--out", out, in}
	check := func(run string) {
		t.Helper()
		var m struct {
			Outputs []string `json:"outputs"`
		}
		readManifest(t, out, &m)
		if !slices.Contains(m.Outputs, "checkpoints/") {
			t.Errorf("%s: manifest outputs %v lack checkpoints/", run, m.Outputs)
		}
		err := filepath.WalkDir(out, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(out, path)
			rel = filepath.ToSlash(rel)
			for _, o := range m.Outputs {
				if rel == o || strings.HasSuffix(o, "/") && strings.HasPrefix(rel, o) {
					return nil
				}
			}
			t.Errorf("%s: %s is in --out but not among the manifest's outputs %v", run, rel, m.Outputs)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(out, "checkpoints", "round-1", "liwc.json")); err != nil {
			t.Errorf("%s: %v", run, err)
		}
	}
	if code, _, stderr := reproRun(args...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	check("first run")
	code, _, stderr := reproRun(args...)
	if code != 0 || !strings.Contains(stderr, "liwc resumed from checkpoint") {
		t.Fatalf("rerun: exit %d, stderr lacks the resume note:\n%s", code, stderr)
	}
	check("rerun")
}
