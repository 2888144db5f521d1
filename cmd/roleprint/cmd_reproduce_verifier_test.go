package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReproduceWritesVerifier runs a one-round reproduce with a tiny
// fine-tuned row and checks that OUT/verifier holds the mixed_ft bundle
// and that `roleprint verify` loads it. tfidf centres by corpus, so a
// bundle holding it must carry the fit texts' sources to load.
func TestReproduceWritesVerifier(t *testing.T) {
	in := reproFixture(t)
	out := t.TempDir()
	tiny := strings.ReplaceAll(tinyNeural, ";", ";transformer_ft.")
	tiny = strings.Replace(tiny, "vocab=", "transformer_ft.vocab=", 1)
	code, _, stderr := reproRun("reproduce", "--rounds", "1", "--encoders", "liwc,tfidf,transformer_ft", "--mixed", "none", "--backend", "go",
		"--set", "tfidf.min_df=1;tfidf.center_by=corpus;transformer_ft.max_steps=2;transformer_ft.batch_pairs=4;transformer_ft.max_utterances=2;"+tiny,
		"--pair-set", "unseen_per_dataset=3;dev_per_dataset=2;unseen_divisor=2;allow_empty_splits=true", "--out", out, in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	table, err := os.ReadFile(filepath.Join(out, "table2.md"))
	if err != nil || !strings.Contains(string(table), "mixed_ft") {
		t.Fatalf("table2.md has no mixed_ft row (%v):\n%s", err, table)
	}
	dir := filepath.Join(out, "verifier")
	b, err := os.ReadFile(filepath.Join(dir, "verifier.json"))
	if err != nil {
		t.Fatalf("no bundle: %v\n%s", err, stderr)
	}
	var spec struct {
		Name  string `json:"name"`
		Parts []struct {
			Row   string            `json:"row"`
			Files map[string]string `json:"files"`
			Fit   bool              `json:"fit"`
		} `json:"parts"`
		FitTexts      string `json:"fit_texts"`
		FitSources    string `json:"fit_sources"`
		Domain        string `json:"domain"`
		Demonstration string `json:"demonstration"`
		Dev           struct {
			Pairs int `json:"pairs"`
		} `json:"dev"`
	}
	if err := json.Unmarshal(b, &spec); err != nil {
		t.Fatal(err)
	}
	if spec.Name != "mixed_ft" || len(spec.Parts) == 0 || spec.Parts[0].Row != "transformer_ft" || spec.Parts[0].Files["weights"] == "" || spec.Dev.Pairs == 0 {
		t.Fatalf("bundle spec: %s", b)
	}
	if spec.Domain != "domain.json" || spec.Demonstration != "" {
		t.Fatalf("a bundle of a corpus file: want its domain and no demonstration label: %s", b)
	}
	if spec.FitTexts != "" && spec.FitSources != "fit-sources.txt" {
		t.Fatalf("bundle with fit texts but no fit sources: %s", b)
	}
	t.Logf("%s", b)
	txt := filepath.Join(t.TempDir(), "a.txt")
	os.WriteFile(txt, []byte("indeed I think we should go\nindeed, indeed again\n"), 0o644)
	code, stdout, stderr := reproRun("verify", "--verifier", dir, "--backend", "go", "--json", txt, txt)
	if code != 0 || !strings.Contains(stdout, `"name": "mixed_ft"`) {
		t.Fatalf("verify: exit %d: %s\n%s", code, stderr, stdout)
	}
}
