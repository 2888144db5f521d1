package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/sv/verifier"
)

// transferFixture writes a corpus named source: 12 speakers with word
// habits of their own and words of the corpus's register, in 36
// two-speaker conversations of 10 turns.
func transferFixture(t *testing.T, source string, register []string) string {
	t.Helper()
	var utts []data.Utterance
	habits := []string{"indeed", "whatever", "honestly", "basically", "certainly", "literally", "obviously", "frankly", "really", "totally", "surely", "clearly"}
	for conv := range 36 {
		a, b := conv%12, (conv*5+1)%12
		if a == b {
			b = (b + 1) % 12
		}
		for turn := range 10 {
			s := a
			if turn%2 == 1 {
				s = b
			}
			text := fmt.Sprintf("%s I think we %s go to the %s number %d now, %s and %s again.", habits[s], register[turn%len(register)],
				register[(s+turn)%len(register)], turn, habits[s], habits[(s+turn)%12])
			utts = append(utts, data.Utterance{Source: source, ConversationID: fmt.Sprintf("c%d", conv), Turn: int32(turn),
				Speaker: fmt.Sprintf("%s-%d", source, s), Text: text})
		}
	}
	p := filepath.Join(t.TempDir(), source+".parquet")
	if err := data.WriteUtterances(p, utts); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestReproduceTransfer runs `reproduce --transfer` on two corpora: the
// transfer table printed after Table 2, its files (transfer.md, .csv,
// .json, .tex), the `transfer` key of --json with its snake_case rows,
// the folds in --dry-run, and the bundle calibrated on the held-out
// corpora; one corpus is refused.
func TestReproduceTransfer(t *testing.T) {
	a := transferFixture(t, "alpha", strings.Fields("shall castle sword lord"))
	b := transferFixture(t, "beta", strings.Fields("phone laptop pizza dude"))
	flags := []string{"--transfer", "--encoders", "ngram-metric_ft,tfidf", "--mixed", "none", "--rounds", "1", "--set", "ngram-metric_ft.epochs=1",
		"--pair-set", "unseen_per_dataset=3;dev_per_dataset=2;unseen_divisor=2;allow_empty_splits=true", "--figures", "none"}

	code, _, stderr := reproRun(append(append([]string{"reproduce"}, flags...), "--out", t.TempDir(), a)...)
	if code == 0 || !strings.Contains(stderr, "at least 2 corpora") {
		t.Fatalf("one corpus: exit %d, %s", code, stderr)
	}
	code, stdout, stderr := reproRun(append(append([]string{"reproduce", "--dry-run"}, flags...), a, b)...)
	if code != 0 || !strings.Contains(stdout, "transfer fold alpha held out: train on beta") || !strings.Contains(stdout, "transfer fold beta held out: train on alpha") {
		t.Fatalf("dry run: exit %d\n%s\n%s", code, stdout, stderr)
	}

	out := t.TempDir()
	code, stdout, stderr = reproRun(append(append([]string{"reproduce", "--json"}, flags...), "--out", out, a, b)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res struct {
		Transfer struct {
			Rows   []map[string]any `json:"rows"`
			Bundle string           `json:"bundle"`
		} `json:"transfer"`
		Files []string `json:"files"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, stdout)
	}
	if len(res.Transfer.Rows) == 0 || res.Transfer.Bundle != "ngram-metric_ft" {
		t.Fatalf("transfer: %+v", res.Transfer)
	}
	helds := map[any]bool{}
	for _, r := range res.Transfer.Rows {
		helds[r["held_out"]] = true
		for _, k := range []string{"row", "held_out", "trained_on", "level", "auc_mean", "auc_std", "acc_mean", "f1_mean", "eer_mean", "ece", "ece_cross_fit",
			"auc_mean_as_saved", "ece_cross_fit_as_saved", "pairs", "vs", "vs_auc_mean", "auc_diff", "auc_diff_ci"} {
			if _, ok := r[k]; !ok {
				t.Fatalf("transfer row lacks %q: %v", k, r)
			}
		}
	}
	if !helds["alpha"] || !helds["beta"] {
		t.Fatalf("held-out corpora %v", helds)
	}
	for _, f := range []string{"transfer.md", "transfer.csv", "transfer.json", "transfer.tex", "checkpoints/transfer/heldout-alpha/ngram-metric_ft.eval.json",
		"checkpoints/transfer/heldout-alpha/ngram-metric_ft.eval-as-saved.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	if page, err := os.ReadFile(filepath.Join(out, "report.html")); err != nil || !strings.Contains(string(page), "Transfer to unseen corpora") {
		t.Errorf("report.html lacks the transfer table (%v)", err)
	}
	spec, err := verifier.ReadSpec(filepath.Join(out, "verifier"))
	if err != nil || spec.CalibrationSource != verifier.CalibrationHeldOut || spec.CalibrationScoring != verifier.ScoringAsSaved ||
		spec.CalibrationAdapted == nil || spec.CalibrationAdaptedSource != verifier.CalibrationHeldOut {
		t.Fatalf("bundle: %v, calibration source %q (%s), adapted %v from %q", err, spec.CalibrationSource, spec.CalibrationScoring,
			spec.CalibrationAdapted, spec.CalibrationAdaptedSource)
	}

	// The table follows Table 2 in the printed output.
	code, stdout, stderr = reproRun(append(append([]string{"reproduce"}, flags...), "--out", out, a, b)...)
	if code != 0 || !strings.Contains(stderr, "evaluation (--adapt auto) resumed from checkpoint") ||
		!strings.Contains(stderr, "evaluation (--adapt none) resumed from checkpoint") {
		t.Fatalf("rerun: exit %d, %s", code, stderr)
	}
	t2, tr := strings.Index(stdout, "## Table 2"), strings.Index(stdout, "## Transfer to unseen corpora")
	if t2 < 0 || tr < t2 || !strings.Contains(stdout[tr:], "| ngram-metric_ft | alpha | beta | hard |") {
		t.Fatalf("printed output:\n%s", stdout)
	}

	// A rerun into the same --out without --transfer leaves no transfer
	// file of the previous run (its manifest listed them; this one does
	// not).
	var plain []string
	for _, f := range flags {
		if f != "--transfer" {
			plain = append(plain, f)
		}
	}
	if code, _, stderr = reproRun(append(append([]string{"reproduce"}, plain...), "--out", out, a, b)...); code != 0 {
		t.Fatalf("rerun without --transfer: exit %d, %s", code, stderr)
	}
	listed := strings.Join(manifestOutputs(t, out), ",")
	for _, f := range []string{"transfer.md", "transfer.csv", "transfer.json", "transfer.tex"} {
		if _, err := os.Stat(filepath.Join(out, f)); err == nil || strings.Contains(listed, f) {
			t.Errorf("%s left by the run with --transfer (manifest outputs %s)", f, listed)
		}
	}
}
