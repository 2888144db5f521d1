package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
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
	b, err := os.ReadFile(filepath.Join(out, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
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
		{[]string{"reproduce", "--pair-set", "no_such=1", bad}, 2, `unknown pair setting "no_such"`},
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
