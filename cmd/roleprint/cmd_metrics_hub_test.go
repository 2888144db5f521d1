package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/hub/hubtest"
	"github.com/roleprint/roleprint/persona/textmetrics"
	"github.com/roleprint/roleprint/sv"
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
	h.Use(t)
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
	for _, c := range []struct {
		idf   bool
		chunk int
	}{{false, 256}, {true, 256}, {true, 2}} { // chunks of 2 pairs: the idf stays over every reference
		idf := c.idf
		bertScoreChunk = c.chunk
		t.Cleanup(func() { bertScoreChunk = 256 })
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
		t.Logf("layer 1, idf %v, chunks of %d: max |RolePrint − PyTorch| of the mean P, R, F (raw and rescaled) = %.2g", idf, c.chunk, worst)
		if worst > 1e-5 {
			t.Fatalf("idf %v: BERTScore differs from PyTorch's by %g", idf, worst)
		}
	}

	// Several references: the best of each score (the candidate itself
	// among them scores 1).
	multi := filepath.Join(dir, "multi.jsonl")
	var ml []string
	for _, p := range ref.Pairs {
		l, _ := json.Marshal(map[string]any{"candidate": p.Candidate, "references": []string{p.Reference, p.Candidate}})
		ml = append(ml, string(l))
	}
	os.WriteFile(multi, []byte(strings.Join(ml, "\n")+"\n"), 0o644)
	code, stdout, stderr := neuralRun("metrics", "--kind", "text", "--no-synonyms", "--backend", "go", "--json", "--bertscore-model", "hf:test/tiny-roberta-layers", multi)
	var mo bertScoreOut
	if code != 0 || json.Unmarshal([]byte(stdout), &mo) != nil || math.Abs(mo.Raw[0]["bertscore_f1"].(float64)-1) > 1e-6 {
		t.Fatalf("several references: exit %d %s %s", code, stdout, stderr)
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
	code, _, stderr = neuralRun("metrics", "--kind", "text", "--no-synonyms", "--backend", "go", "--bertscore-model", "hf:FacebookAI/roberta-large", sys)
	if code == 0 || !strings.Contains(stderr, "layer 17") {
		t.Fatalf("roberta-large's default layer: exit %d: %s", code, stderr)
	}
	// The offline fallback is labelled.
	out = run()
	if out.BERTScore.Contextual || !out.BERTScore.OfflineFallback || !strings.Contains(out.BERTScore.Note, "offline fallback") {
		t.Fatalf("fallback: %+v", out.BERTScore)
	}
	code, stdout, _ = neuralRun("metrics", "--kind", "text", "--no-synonyms", "--backend", "go", "--bertscore-model", "hf:test/tiny-roberta-layers",
		"--bertscore-layer", "1", "--bertscore-baseline", baseline, sys)
	if code != 0 || !strings.Contains(stdout, "layer 1 of 2") || !strings.Contains(stdout, "F1 rescaled") {
		t.Fatalf("table: %s", stdout)
	}
	// A local export (the folder the export in docs/models.md writes): the
	// same scores; config.json's _name_or_path picks bert_score's layer.
	local := filepath.Join(dir, "roberta-large-hidden")
	os.MkdirAll(local, 0o755)
	for _, f := range []string{"model.onnx", "tokenizer.json", "config.json"} {
		b, err := os.ReadFile(filepath.Join(textFixture("roberta-layers"), f))
		if err != nil {
			t.Fatal(err)
		}
		if f == "config.json" {
			b = []byte(strings.Replace(string(b), "{", `{"_name_or_path": "FacebookAI/roberta-large",`, 1))
		}
		os.WriteFile(filepath.Join(local, f), b, 0o644)
	}
	out = run("--bertscore-model", local, "--bertscore-layer", "1", "--bertscore-baseline", baseline)
	if got := out.Raw[0]["bertscore_f1_rescaled"].(float64); math.Abs(got-mean(1, false, "f_rescaled")) > 1e-5 || *out.BERTScore.Layer != 1 {
		t.Fatalf("local export: rescaled F1 %g, PyTorch %g (%+v)", got, mean(1, false, "f_rescaled"), out.BERTScore)
	}
	code, _, stderr = neuralRun("metrics", "--kind", "text", "--no-synonyms", "--backend", "go", "--bertscore-model", local, sys)
	if code == 0 || !strings.Contains(stderr, "layer 17") {
		t.Fatalf("local roberta-large export's default layer: exit %d: %s", code, stderr)
	}
	if code, _, stderr := neuralRun("metrics", "--kind", "text", "--bertscore-model", "hf:test/not-fetched", sys); code == 0 ||
		!strings.Contains(stderr, "roleprint setup --model test/not-fetched") {
		t.Fatalf("missing model: %s", stderr)
	}
}

// sentenceFixture is the part of st-en/ and st-zh/reference.json with
// PyTorch's vectors of the dedup dialogues and the alignment pairs.
type sentenceFixture struct {
	Dialogues [][]struct {
		Speaker string `json:"speaker"`
		Text    string `json:"text"`
	} `json:"dialogues"`
	DialogueTexts      []string      `json:"dialogue_texts"`
	DialogueEmbeddings [][]float64   `json:"dialogue_embeddings"`
	AlignPairs         [][]string    `json:"align_pairs"`
	AlignEmbeddings    [][][]float64 `json:"align_embeddings"`
}

func readSentenceFixture(t *testing.T, name string) sentenceFixture {
	t.Helper()
	var f sentenceFixture
	b, err := os.ReadFile(filepath.Join(textFixture(name), "reference.json"))
	if err != nil || json.Unmarshal(b, &f) != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return f
}

func cosine64(a, b []float64) float64 {
	var ab, aa, bb float64
	for i := range a {
		ab, aa, bb = ab+a[i]*b[i], aa+a[i]*a[i], bb+b[i]*b[i]
	}
	return ab / math.Sqrt(aa*bb)
}

func TestMetricsDedupSpeechRoleModels(t *testing.T) {
	publishText(t, map[string]string{"sentence-transformers/all-MiniLM-L6-v2": "st-en", "BAAI/bge-small-zh-v1.5": "st-zh"})
	en, zh := readSentenceFixture(t, "st-en"), readSentenceFixture(t, "st-zh")
	// The Hub models embed the dialogues as PyTorch does.
	for _, c := range []struct {
		id  string
		ref sentenceFixture
	}{{"sentence-transformers/all-MiniLM-L6-v2", en}, {"BAAI/bge-small-zh-v1.5", zh}} {
		enc, err := sv.NewEncoder("hf:"+c.id, sv.EncoderOptions{Backend: "go"})
		if err != nil {
			t.Fatal(err)
		}
		got, err := enc.Encode(context.Background(), c.ref.DialogueTexts, nil)
		enc.(sv.Closer).Close()
		if err != nil {
			t.Fatal(err)
		}
		var worst float64
		for i := range got {
			for j := range got[i] {
				worst = math.Max(worst, math.Abs(float64(got[i][j])-c.ref.DialogueEmbeddings[i][j]))
			}
		}
		if worst > 1e-5 {
			t.Fatalf("%s: dialogue vectors differ from PyTorch's by %g", c.id, worst)
		}
	}
	dir := t.TempDir()
	pq := filepath.Join(dir, "dialogues.parquet")
	var utts []data.Utterance
	for i, d := range en.Dialogues {
		for _, l := range d {
			utts = append(utts, data.Utterance{Source: "t", ConversationID: fmt.Sprintf("c%d", i), Speaker: l.Speaker, Text: l.Text})
		}
	}
	if err := data.WriteUtterances(pq, utts); err != nil {
		t.Fatal(err)
	}
	// expected applies SpeechRole's rule to PyTorch's vectors: per language
	// (by script), greedily in order, drop a dialogue whose cosine with a kept
	// one of its language reaches the threshold.
	type dup struct {
		Conversation, Of string
		Cosine           float64
	}
	expected := func(thrEN, thrZH float64) []dup {
		var out []dup
		for _, lang := range []string{"en", "zh"} {
			ref, thr := en, thrEN
			if lang == "zh" {
				ref, thr = zh, thrZH
			}
			var kept []int
			for i, text := range ref.DialogueTexts {
				if textmetrics.ScriptLanguage(text) != lang {
					continue
				}
				isDup := false
				for _, k := range kept {
					if c := cosine64(ref.DialogueEmbeddings[i], ref.DialogueEmbeddings[k]); c >= thr {
						out, isDup = append(out, dup{fmt.Sprintf("t/c%d", i), fmt.Sprintf("t/c%d", k), c}), true
						break
					}
				}
				if !isDup {
					kept = append(kept, i)
				}
			}
		}
		return out
	}
	run := func(args ...string) (dedupJSON, string) {
		t.Helper()
		code, stdout, stderr := neuralRun(append([]string{"metrics", "--kind", "dedup", "--backend", "go", "--json"}, append(args, pq)...)...)
		if code != 0 {
			t.Fatalf("dedup %v: exit %d: %s", args, code, stderr)
		}
		var out struct {
			Dedup dedupJSON `json:"dedup"`
		}
		if err := json.Unmarshal([]byte(stdout), &out); err != nil {
			t.Fatal(err)
		}
		return out.Dedup, stderr
	}
	check := func(d dedupJSON, want []dup) {
		t.Helper()
		if len(d.Duplicates) != len(want) || d.Dropped != len(want) || d.Kept != len(en.Dialogues)-len(want) {
			t.Fatalf("dropped %+v, PyTorch's vectors drop %+v", d.Duplicates, want)
		}
		for i, w := range want {
			g := d.Duplicates[i]
			if g.Conversation != w.Conversation || g.Of != w.Of || math.Abs(g.Cosine-w.Cosine) > 1e-5 {
				t.Fatalf("duplicate %d: %+v, PyTorch's vectors: %+v", i, g, w)
			}
		}
	}
	for _, model := range []string{"auto", "speechrole"} {
		d, _ := run("--dedup-model", model)
		if d.Models != "speechrole" || d.OfflineFallback || len(d.Groups) != 2 || d.Threshold != nil ||
			d.Groups[0].Language != "en" || d.Groups[0].Threshold != 0.9 || d.Groups[0].Encoder != "hf:sentence-transformers/all-MiniLM-L6-v2" || d.Groups[0].Dialogues != 5 ||
			d.Groups[1].Language != "zh" || d.Groups[1].Threshold != 0.85 || d.Groups[1].Encoder != "hf:BAAI/bge-small-zh-v1.5" || d.Groups[1].Dialogues != 4 {
			t.Fatalf("%s: %+v", model, d)
		}
		check(d, expected(0.9, 0.85))
	}
	d, _ := run("--threshold", "0.995")
	if *d.Threshold != 0.995 {
		t.Fatalf("--threshold: %+v", d)
	}
	check(d, expected(0.995, 0.995))
	t.Logf("dedup at 0.995: %+v", d.Duplicates)

	// Without the models: auto falls back to the lexical dedup and says
	// so; speechrole refuses, naming the setup commands.
	t.Setenv("HF_HUB_CACHE", t.TempDir())
	d, stderr := run()
	if d.Models != "lexical" || !d.OfflineFallback || len(d.Groups) != 1 || !d.Groups[0].OfflineFallback ||
		!strings.Contains(d.Note, "offline fallback") || !strings.Contains(stderr, "roleprint setup --model BAAI/bge-small-zh-v1.5") {
		t.Fatalf("fallback: %+v (%s)", d, stderr)
	}
	code, _, stderr := neuralRun("metrics", "--kind", "dedup", "--dedup-model", "speechrole", pq)
	if code == 0 || !strings.Contains(stderr, "roleprint setup --model sentence-transformers/all-MiniLM-L6-v2") {
		t.Fatalf("speechrole without models: exit %d: %s", code, stderr)
	}
	if code, _, stderr := neuralRun("metrics", "--kind", "text", "--dedup-model", "speechrole", pq); code != 2 || !strings.Contains(stderr, "for --kind dedup") {
		t.Fatalf("a dedup flag with --kind text: exit %d: %s", code, stderr)
	}
}

func TestAlignMPNetCheck(t *testing.T) {
	publishText(t, map[string]string{"sentence-transformers/all-mpnet-base-v2": "st-en"})
	ref := readSentenceFixture(t, "st-en")
	dir := t.TempDir()
	var script, words []string
	at := 0.0
	for i, p := range ref.AlignPairs {
		script = append(script, fmt.Sprintf("%s: %s", []string{"Sheldon", "Leonard"}[i%2], p[0]))
		for _, w := range strings.Fields(p[1]) {
			words = append(words, fmt.Sprintf("%.2f\t%.2f\t%s", at, at+0.4, w))
			at += 0.5
		}
	}
	sp, tp := filepath.Join(dir, "script.txt"), filepath.Join(dir, "words.tsv")
	os.WriteFile(sp, []byte(strings.Join(script, "\n")+"\n"), 0o644)
	os.WriteFile(tp, []byte(strings.Join(words, "\n")+"\n"), 0o644)
	type out struct {
		Encoder string         `json:"encoder"`
		Check   alignCheckJSON `json:"check"`
		Flagged []alignFlagJSON
		Stats   struct {
			Lines      int `json:"lines"`
			ValidLines int `json:"valid_lines"`
		} `json:"stats"`
	}
	run := func(args ...string) out {
		t.Helper()
		code, stdout, stderr := neuralRun(append([]string{"align", "--backend", "go", "--json"}, append(args, sp, tp)...)...)
		if code != 0 {
			t.Fatalf("align %v: exit %d: %s", args, code, stderr)
		}
		var o out
		if err := json.Unmarshal([]byte(stdout), &o); err != nil {
			t.Fatal(err)
		}
		return o
	}
	full := filepath.Join(dir, "alignment.json")
	o := run("--threshold", "0.9", "--out", full)
	if o.Check.Model != "mpnet" || o.Check.OfflineFallback || o.Encoder != "hf:sentence-transformers/all-mpnet-base-v2" {
		t.Fatalf("check %+v", o.Check)
	}
	var a struct {
		Lines []struct {
			Transcript string  `json:"transcript"`
			Similarity float64 `json:"similarity"`
			Valid      bool    `json:"valid"`
		} `json:"lines"`
	}
	b, _ := os.ReadFile(full)
	if err := json.Unmarshal(b, &a); err != nil || len(a.Lines) != len(ref.AlignPairs) {
		t.Fatalf("alignment %s: %v", b, err)
	}
	// Each line's similarity is PyTorch's cosine of its text and its
	// transcript span; the ones below 0.9 are flagged.
	var flagged []int
	for i, p := range ref.AlignPairs {
		if a.Lines[i].Transcript != p[1] {
			t.Fatalf("line %d aligned to %q, want %q", i, a.Lines[i].Transcript, p[1])
		}
		want := cosine64(ref.AlignEmbeddings[i][0], ref.AlignEmbeddings[i][1])
		if math.Abs(a.Lines[i].Similarity-want) > 1e-5 {
			t.Fatalf("line %d: similarity %g, PyTorch %g", i, a.Lines[i].Similarity, want)
		}
		if want < 0.9 {
			flagged = append(flagged, i)
		}
	}
	if len(flagged) == 0 || len(o.Flagged) != len(flagged) || o.Flagged[0].Index != flagged[0] || o.Stats.ValidLines != len(ref.AlignPairs)-len(flagged) {
		t.Fatalf("flagged %+v, PyTorch's cosines flag lines %v", o.Flagged, flagged)
	}
	if o := run("--check", "lexical"); !o.Check.OfflineFallback || o.Encoder != "hash-ngram" {
		t.Fatalf("lexical: %+v", o.Check)
	}
	t.Setenv("HF_HUB_CACHE", t.TempDir())
	if o := run(); o.Check.Model != "lexical" || !o.Check.OfflineFallback || !strings.Contains(o.Check.Note, "roleprint setup --model sentence-transformers/all-mpnet-base-v2") {
		t.Fatalf("auto without the model: %+v", o.Check)
	}
	if code, _, stderr := neuralRun("align", "--check", "mpnet", sp, tp); code == 0 || !strings.Contains(stderr, "roleprint setup --model sentence-transformers/all-mpnet-base-v2") {
		t.Fatalf("mpnet without the model: %s", stderr)
	}
}
