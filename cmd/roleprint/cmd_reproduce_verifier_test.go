package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
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
		Speakers      string `json:"speakers"`
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
	if spec.Speakers != "speakers.json" {
		t.Fatalf("bundle without training speakers: %s", b)
	}
	t.Logf("%s", b)
	txt := filepath.Join(t.TempDir(), "a.txt")
	os.WriteFile(txt, []byte("indeed I think we should go\nindeed, indeed again\n"), 0o644)
	code, stdout, stderr := reproRun("verify", "--verifier", dir, "--backend", "go", "--json", txt, txt)
	if code != 0 || !strings.Contains(stdout, `"name": "mixed_ft"`) {
		t.Fatalf("verify: exit %d: %s\n%s", code, stderr, stdout)
	}
	checkBundleSpeakers(t, in, dir, stdout)

	// The same bundle as saved before bundles kept speakers: it loads,
	// verify says once that it names none, and nearest_a/nearest_b are null.
	old := filepath.Join(t.TempDir(), "old")
	if err := os.CopyFS(old, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	json.Unmarshal(b, &raw)
	delete(raw, "speakers")
	nb, _ := json.Marshal(raw)
	os.Chmod(filepath.Join(old, "verifier.json"), 0o644)
	if err := os.WriteFile(filepath.Join(old, "verifier.json"), nb, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(old, "speakers.json"))
	os.Remove(filepath.Join(old, "speakers.f32"))
	code, stdout, stderr = reproRun("verify", "--verifier", old, "--backend", "go", "--json", txt, txt)
	var got struct {
		NearestA json.RawMessage `json:"nearest_a"`
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &got) != nil || string(got.NearestA) != "null" ||
		!strings.Contains(stdout, `"nearest_b": null`) || strings.Count(stderr, "no nearest training speakers") != 1 {
		t.Fatalf("verify with an old bundle: exit %d: %s\n%s", code, stderr, stdout)
	}
	code, stdout, stderr = reproRun("verify", "--verifier", old, "--backend", "go", txt, txt)
	if code != 0 || strings.Contains(stdout, "nearest training speakers of") || strings.Count(stderr, "no nearest training speakers") != 1 {
		t.Fatalf("verify (text) with an old bundle: exit %d: %s\n%s", code, stderr, stdout)
	}
}

// checkBundleSpeakers checks that the bundle in dir lists the training
// speakers of the run's input (each a speaker of the input corpus file
// in) and that verifyJSON (verify --json with it) names three of them per
// side, most similar first.
func checkBundleSpeakers(t *testing.T, in, dir, verifyJSON string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "speakers.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sp struct {
		TrainingSpeakers int `json:"training_speakers"`
		Speakers         []struct {
			Speaker    string `json:"speaker"`
			Corpus     string `json:"corpus"`
			Utterances int    `json:"utterances"`
		} `json:"speakers"`
	}
	if err := json.Unmarshal(b, &sp); err != nil {
		t.Fatal(err)
	}
	speakers := reproFixtureSpeakers(t, in)
	if len(sp.Speakers) == 0 || len(sp.Speakers) != sp.TrainingSpeakers {
		t.Fatalf("speakers.json lists %d of %d training speakers", len(sp.Speakers), sp.TrainingSpeakers)
	}
	for i, s := range sp.Speakers {
		if !speakers[s.Speaker] || s.Corpus == "" || s.Utterances <= 0 || i > 0 && s.Utterances > sp.Speakers[i-1].Utterances {
			t.Errorf("speaker %d %+v: not an input speaker, or out of order", i, s)
		}
	}
	var v struct {
		NearestA []struct {
			Speaker    string  `json:"speaker"`
			Corpus     string  `json:"corpus"`
			Similarity float64 `json:"similarity"`
		} `json:"nearest_a"`
		NearestB []json.RawMessage `json:"nearest_b"`
		Space    string            `json:"nearest_space"`
	}
	if err := json.Unmarshal([]byte(verifyJSON), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.NearestA) != min(3, len(sp.Speakers)) || len(v.NearestB) != len(v.NearestA) || !strings.Contains(v.Space, "before s-norm") {
		t.Fatalf("verify: nearest_a %+v, nearest_b %d, space %q", v.NearestA, len(v.NearestB), v.Space)
	}
	for i, n := range v.NearestA {
		if !speakers[n.Speaker] || i > 0 && n.Similarity > v.NearestA[i-1].Similarity {
			t.Errorf("nearest_a[%d] %+v: not an input speaker, or out of order", i, n)
		}
	}
}

// reproFixtureSpeakers are the speakers of the utterance file in.
func reproFixtureSpeakers(t *testing.T, in string) map[string]bool {
	t.Helper()
	utts, err := data.ReadUtterances(in)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, u := range utts {
		out[u.Speaker] = true
	}
	return out
}
