package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestScoreAdaptVerifier checks `score --adapt` with an ngram-metric_ft
// bundle from reproduce: the part is adapted to the scored texts (a
// line on stderr says so), the scores change, the JSON config records it,
// and --adapt without --verifier is a usage error. Without the flag a
// bundle with an n-gram part is adapted (the default); --adapt=false
// scores with it as saved.
func TestScoreAdaptVerifier(t *testing.T) {
	in := reproFixture(t)
	out := t.TempDir()
	code, _, stderr := reproRun("reproduce", "--rounds", "1", "--encoders", "ngram-metric_ft", "--mixed", "none", "--backend", "go",
		"--set", "ngram-metric_ft.min_df=1;ngram-metric_ft.center_by=corpus;ngram-metric_ft.group_weight=1;ngram-metric_ft.epochs=2",
		"--pair-set", "unseen_per_dataset=3;dev_per_dataset=2;unseen_divisor=2;allow_empty_splits=true", "--out", out, in)
	if code != 0 {
		t.Fatalf("reproduce: exit %d: %s", code, stderr)
	}
	dir := filepath.Join(out, "verifier")
	realPath, genPath := writeScoreFixtures(t)
	score := func(extra ...string) (map[string]any, string) {
		t.Helper()
		args := append([]string{"score", "--real", realPath, "--generated", genPath, "--verifier", dir, "--bootstrap", "0", "--json"}, extra...)
		code, stdout, stderr := scoreCLI(args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		var rep map[string]any
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, stdout)
		}
		return rep, stderr
	}
	plain, plainErr := score("--adapt=false")
	adapted, adaptErr := score("--adapt")
	if strings.Contains(plainErr, "adapted to") || !strings.Contains(adaptErr, "adapted to") {
		t.Errorf("stderr with --adapt=false:\n%s\nwith --adapt:\n%s", plainErr, adaptErr)
	}
	byDefault, defaultErr := score()
	if !strings.Contains(defaultErr, "adapted to") || !strings.Contains(defaultErr, "the default for a bundle") {
		t.Errorf("stderr without --adapt: %s; want the bundle adapted by default, and said so", defaultErr)
	}
	sim0 := func(rep map[string]any) any { return rep["models"].([]any)[0].(map[string]any)["simulation"] }
	if c, _ := byDefault["config"].(map[string]any); c["adapt"] != true || sim0(byDefault) != sim0(adapted) {
		t.Errorf("default: config.adapt %v, Simulation %v; want those of --adapt (%v)", c["adapt"], sim0(byDefault), sim0(adapted))
	}
	cfgOf := func(rep map[string]any) map[string]any { c, _ := rep["config"].(map[string]any); return c }
	if cfgOf(adapted)["adapt"] != true || cfgOf(plain)["adapt"] != false {
		t.Errorf("config.adapt: plain %v, adapted %v", cfgOf(plain)["adapt"], cfgOf(adapted)["adapt"])
	}
	// The similarity is P(same) under the calibration of scores computed
	// as scored: as saved, or adapted (this dev-pair bundle has one
	// calibration, fitted on as-saved scores, and says so).
	calOf := func(rep map[string]any) map[string]any { c, _ := rep["calibration"].(map[string]any); return c }
	if c := calOf(plain); c == nil || c["scoring"] != "as_saved" || c["calibration_scoring"] != "as_saved" || c["calibration_source"] != "dev_pairs" {
		t.Errorf("--adapt=false: calibration %v", rep2s(plain["calibration"]))
	}
	if c := calOf(adapted); c == nil || c["scoring"] != "adapted" || c["calibration_scoring"] != "as_saved" ||
		!strings.Contains(fmt.Sprint(c["calibration_note"]), "no calibration of adapted scores") || !strings.Contains(adaptErr, "no calibration of adapted scores") {
		t.Errorf("--adapt: calibration %v; stderr %s", rep2s(adapted["calibration"]), adaptErr)
	}
	sim := func(rep map[string]any) any { return rep["models"].([]any)[0].(map[string]any)["simulation"] }
	if sim(plain) == sim(adapted) {
		t.Errorf("Simulation %v with and without --adapt", sim(plain))
	}
	if code, _, stderr := scoreCLI("score", "--real", realPath, "--generated", genPath, "--encoder", "tfidf", "--adapt"); code != 2 || !strings.Contains(stderr, "--adapt") {
		t.Errorf("--adapt with --encoder: exit %d: %s", code, stderr)
	}
}

// rep2s is v as JSON, for messages.
func rep2s(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
