package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data/hub/hubtest"
)

// textFixture is a tiny random-weight model of sv/neural's testdata with
// PyTorch's outputs in its reference.json (scripts/make-text-metric-fixtures.py).
func textFixture(name string) string {
	return filepath.Join("..", "..", "sv", "neural", "testdata", "onnx", name)
}

// publishText serves fixtures on a stand-in Hub (fixture → repository id),
// fetches each with `roleprint setup --model` into a fresh Hugging Face
// cache and stops the server: what follows runs from the cache alone.
func publishText(t *testing.T, repos map[string]string) {
	t.Helper()
	h := hubtest.New(t)
	t.Setenv("HF_ENDPOINT", h.URL)
	t.Setenv("HF_HUB_CACHE", t.TempDir())
	t.Setenv("HF_TOKEN", "")
	t.Setenv("HF_HUB_OFFLINE", "")
	for id, fixture := range repos {
		files, err := hubtest.ReadDir(textFixture(fixture), map[string]string{"model.onnx": "onnx/model.onnx", "reference.json": ""})
		if err != nil {
			t.Fatal(err)
		}
		h.Add(id, "main", files)
		if code, _, stderr := neuralRun("setup", "--model", id, "--json"); code != 0 {
			t.Fatalf("setup --model %s: exit %d: %s", id, code, stderr)
		}
	}
	h.Close()
}

// bertScoreOut is the part of `metrics --kind text --json` these tests read.
type bertScoreOut struct {
	BERTScore struct {
		Model           string `json:"model"`
		Contextual      bool   `json:"contextual"`
		OfflineFallback bool   `json:"offline_fallback"`
		Layer           *int   `json:"layer"`
		Layers          int    `json:"layers"`
		LayerSource     string `json:"layer_source"`
		Rescaled        bool   `json:"rescaled"`
		Note            string `json:"note"`
		Baseline        *struct {
			Source string `json:"source"`
		} `json:"baseline"`
	} `json:"bertscore"`
	Raw []map[string]any `json:"systems"`
}

func TestMetricsBERTScoreHubModel(t *testing.T) {
	publishText(t, map[string]string{"test/tiny-roberta-layers": "roberta-layers", "FacebookAI/roberta-large": "roberta-layers"})
	var ref struct {
		Pairs []struct {
			Candidate string `json:"candidate"`
			Reference string `json:"reference"`
		} `json:"pairs"`
		BERTScore []struct {
			Layer  int                  `json:"layer"`
			IDF    bool                 `json:"idf"`
			Scores []map[string]float64 `json:"scores"`
		} `json:"bertscore"`
	}
	b, err := os.ReadFile(filepath.Join(textFixture("roberta-layers"), "reference.json"))
	if err != nil || json.Unmarshal(b, &ref) != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	sys := filepath.Join(dir, "sys.jsonl")
	var lines []string
	for _, p := range ref.Pairs {
		l, _ := json.Marshal(map[string]string{"candidate": p.Candidate, "reference": p.Reference})
		lines = append(lines, string(l))
	}
	os.WriteFile(sys, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	mean := func(layer int, idf bool, key string) float64 {
		for _, s := range ref.BERTScore {
			if s.Layer == layer && s.IDF == idf {
				var m float64
				for _, x := range s.Scores {
					m += x[key] / float64(len(s.Scores))
				}
				return m
			}
		}
		t.Fatalf("no reference for layer %d idf %v", layer, idf)
		return 0
	}
	run := func(args ...string) bertScoreOut {
		t.Helper()
		code, stdout, stderr := neuralRun(append([]string{"metrics", "--kind", "text", "--no-synonyms", "--backend", "go", "--json"}, append(args, sys)...)...)
		if code != 0 {
			t.Fatalf("metrics %v: exit %d: %s", args, code, stderr)
		}
		var out bertScoreOut
		if err := json.Unmarshal([]byte(stdout), &out); err != nil || len(out.Raw) != 1 {
			t.Fatalf("output %s: %v", stdout, err)
		}
		return out
	}
	baseline := filepath.Join(textFixture("roberta-layers"), "baseline.tsv")
	for _, idf := range []bool{false, true} {
		args := []string{"--bertscore-model", "hf:test/tiny-roberta-layers", "--bertscore-layer", "1", "--bertscore-baseline", baseline}
		if idf {
			args = append(args, "--idf")
		}
		out := run(args...)
		if !out.BERTScore.Contextual || out.BERTScore.OfflineFallback || *out.BERTScore.Layer != 1 || out.BERTScore.Layers != 2 || !out.BERTScore.Rescaled {
			t.Fatalf("bertscore %+v", out.BERTScore)
		}
		var worst float64
		for key, want := range map[string]string{"bertscore_p": "p", "bertscore_r": "r", "bertscore_f1": "f",
			"bertscore_p_rescaled": "p_rescaled", "bertscore_r_rescaled": "r_rescaled", "bertscore_f1_rescaled": "f_rescaled"} {
			got, ok := out.Raw[0][key].(float64)
			if !ok {
				t.Fatalf("no %s in %v", key, out.Raw[0])
			}
			worst = math.Max(worst, math.Abs(got-mean(1, idf, want)))
		}
		t.Logf("layer 1, idf %v: max |RolePrint − PyTorch| of the mean P, R, F (raw and rescaled) = %.2g", idf, worst)
		if worst > 1e-5 {
			t.Fatalf("idf %v: BERTScore differs from PyTorch's by %g", idf, worst)
		}
	}

	// No published default layer for the model: the last layer, said so;
	// no published baseline: raw scores only, said so.
	out := run("--bertscore-model", "hf:test/tiny-roberta-layers")
	if *out.BERTScore.Layer != 2 || !strings.Contains(out.BERTScore.LayerSource, "no default layer") || out.BERTScore.Rescaled ||
		!strings.Contains(out.BERTScore.Note, "no en baseline") || out.Raw[0]["bertscore_f1_rescaled"] != nil {
		t.Fatalf("defaults: %+v", out.BERTScore)
	}
	if got := out.Raw[0]["bertscore_f1"].(float64); math.Abs(got-mean(2, false, "f")) > 1e-5 {
		t.Fatalf("last layer: F1 %g, PyTorch %g", got, mean(2, false, "f"))
	}
	// roberta-large takes bert_score's layer 17 (which the two-layer
	// stand-in does not have).
	code, _, stderr := neuralRun("metrics", "--kind", "text", "--no-synonyms", "--backend", "go", "--bertscore-model", "hf:FacebookAI/roberta-large", sys)
	if code == 0 || !strings.Contains(stderr, "layer 17") {
		t.Fatalf("roberta-large's default layer: exit %d: %s", code, stderr)
	}
	// The offline fallback is labelled.
	out = run()
	if out.BERTScore.Contextual || !out.BERTScore.OfflineFallback || !strings.Contains(out.BERTScore.Note, "offline fallback") {
		t.Fatalf("fallback: %+v", out.BERTScore)
	}
	code, stdout, _ := neuralRun("metrics", "--kind", "text", "--no-synonyms", "--backend", "go", "--bertscore-model", "hf:test/tiny-roberta-layers",
		"--bertscore-layer", "1", "--bertscore-baseline", baseline, sys)
	if code != 0 || !strings.Contains(stdout, "layer 1 of 2") || !strings.Contains(stdout, "F1 rescaled") {
		t.Fatalf("table: %s", stdout)
	}
	if code, _, stderr := neuralRun("metrics", "--kind", "text", "--bertscore-model", "hf:test/not-fetched", sys); code == 0 ||
		!strings.Contains(stderr, "roleprint setup --model test/not-fetched") {
		t.Fatalf("missing model: %s", stderr)
	}
}
