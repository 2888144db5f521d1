package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// neuralRun runs one roleprint command line in-process.
func neuralRun(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(context.Background(), args, &o, &e)
	return code, o.String(), e.String()
}

// tinyNeural selects a tiny model (1 layer, 16 wide, test vocabulary).
const tinyNeural = "vocab=../../sv/neural/testdata/vocab.txt;layers=1;dim=16;heads=2;ffn_dim=32;max_len=12"

func TestTrainCommandResumeAndEmbed(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	args := []string{"train", "--out", out, "--backend", "go", "--max-steps", "3", "--checkpoint-every", "2",
		"--batch-pairs", "4", "--max-utterances", "2", "--set", tinyNeural, "--json"}
	code, stdout, stderr := neuralRun(args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res struct {
		Encoder     string             `json:"encoder"`
		Steps       int                `json:"steps"`
		TotalSteps  int                `json:"total_steps"`
		ResumedFrom int                `json:"resumed_from"`
		Checkpoint  string             `json:"checkpoint"`
		TestAUC     map[string]float64 `json:"test_auc"`
		TrainPairs  int                `json:"train_pairs"`
		Backend     struct {
			Name string `json:"name"`
		} `json:"backend"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	if res.Encoder != "transformer_ft" || res.Steps != 3 || res.TotalSteps != 3 || res.ResumedFrom != 0 ||
		res.Backend.Name != "go" || res.TrainPairs == 0 || !strings.HasSuffix(res.Checkpoint, "ckpt-000000003.rpck") {
		t.Fatalf("output %+v", res)
	}
	if auc, ok := res.TestAUC["unseen-unseen-base"]; !ok || auc <= 0 || auc >= 1 {
		t.Fatalf("test AUC %v", res.TestAUC)
	}
	if _, err := os.Stat(filepath.Join(out, "train.json")); err != nil {
		t.Fatal(err)
	}
	// The same command again finds the finished run and resumes from it.
	code, stdout, stderr = neuralRun(args...)
	if code != 0 || json.Unmarshal([]byte(stdout), &res) != nil || res.ResumedFrom != 3 {
		t.Fatalf("re-run: exit %d, %+v, %s", code, res, stderr)
	}
	// A different plan in the same folder is refused.
	code, _, stderr = neuralRun("train", "--out", out, "--backend", "go", "--max-steps", "4", "--batch-pairs", "4",
		"--max-utterances", "2", "--set", tinyNeural)
	if code != 1 || !strings.Contains(stderr, "different plan") {
		t.Fatalf("other plan: exit %d, %s", code, stderr)
	}
	// The trained weights embed through `roleprint embed`.
	lines := filepath.Join(t.TempDir(), "lines.txt")
	os.WriteFile(lines, []byte("What say you, my lord?\nThee and thou.\n"), 0o644)
	embed := func(settings string) [][]float64 {
		code, stdout, stderr := neuralRun("embed", "--encoder", "transformer", "--backend", "go", "--set", settings, "--json", lines)
		var e struct {
			Dim     int         `json:"dim"`
			Vectors [][]float64 `json:"vectors"`
		}
		if code != 0 || json.Unmarshal([]byte(stdout), &e) != nil || e.Dim != 16 || len(e.Vectors) != 2 {
			t.Fatalf("embed: exit %d, %s %s", code, stdout, stderr)
		}
		return e.Vectors
	}
	untrained := embed(tinyNeural)
	trained := embed(tinyNeural + ";weights=" + out)
	if untrained[0][0] == trained[0][0] && untrained[0][1] == trained[0][1] {
		t.Fatal("weights=DIR did not change the vectors")
	}
}

func TestTrainCommandErrors(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"train"}, 2, "--out DIR is required"},
		{[]string{"train", "--out", t.TempDir(), "--eval", "seen-nothing"}, 2, "unknown test set"},
		{[]string{"train", "--out", t.TempDir(), "--encoder", "tfidf", "--backend", "go", "--max-steps", "1"}, 1, "cannot be fine-tuned"},
		{[]string{"train", "--out", t.TempDir(), "--encoder", "ngram-metric", "--backend", "go", "--max-steps", "1"}, 1, "GoMLX encoders"},
		{[]string{"train", "--out", t.TempDir(), "--backend", "tpu"}, 1, "unknown backend"},
	}
	for _, c := range cases {
		code, _, stderr := neuralRun(c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d (want %d), stderr %q lacks %q", c.args, code, c.code, stderr, c.want)
		}
	}
}

func TestBenchTrainJSON(t *testing.T) {
	code, stdout, stderr := neuralRun("bench", "train", "--backend", "go", "--steps", "2", "--warmup", "1", "--embed", "16",
		"--batch-pairs", "4", "--max-utterances", "2", "--max-tokens", "12", "--set", tinyNeural, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out struct {
		Preset string `json:"preset"`
		Result struct {
			Backend        string    `json:"backend"`
			BatchPairs     int       `json:"batch_pairs"`
			StepsPerSecond float64   `json:"steps_per_second"`
			PairsPerSecond float64   `json:"pairs_per_second"`
			EmbedPerSecond float64   `json:"embed_utterances_per_second"`
			PeakRSSMiB     float64   `json:"peak_rss_mib"`
			Losses         []float64 `json:"losses"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	r := out.Result
	if out.Preset != "cpu" || r.Backend != "go" || r.BatchPairs != 4 || r.StepsPerSecond <= 0 ||
		r.PairsPerSecond != 4*r.StepsPerSecond || r.EmbedPerSecond <= 0 || r.PeakRSSMiB <= 0 || len(r.Losses) != 3 {
		t.Fatalf("output %+v", out)
	}
	if code, _, stderr := neuralRun("bench", "fly"); code != 2 || !strings.Contains(stderr, "train, embed or backends") {
		t.Fatalf("bench fly: %d %s", code, stderr)
	}
}
