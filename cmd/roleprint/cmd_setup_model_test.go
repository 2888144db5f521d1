package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data/hub/hubtest"
)

// TestHubModelEndToEnd publishes the tiny BERT-style fixture on a stand-in
// Hub, fetches it with `setup --model`, stops the server, and runs it from
// the cache alone as Table 2 rows (untuned and fine-tuned, the fine-tuned
// one saved in the verifier bundle), with embed (equal to PyTorch's
// sentence vectors), verify (with the bundle) and score.
func TestHubModelEndToEnd(t *testing.T) {
	fixture := filepath.Join("..", "..", "sv", "neural", "testdata", "onnx", "bert")
	files, err := hubtest.ReadDir(fixture, map[string]string{"model.onnx": "onnx/model.onnx", "reference.json": ""})
	if err != nil {
		t.Fatal(err)
	}
	h := hubtest.New(t)
	commit := h.Add("test/tiny-bert", "main", files)
	h.Use(t)

	code, stdout, stderr := neuralRun("setup", "--model", "test/tiny-bert", "--json")
	if code != 0 {
		t.Fatalf("setup --model: exit %d: %s", code, stderr)
	}
	var set struct {
		Models []struct {
			Commit, Encoder string
			Files           []string
		} `json:"models"`
	}
	if err := json.Unmarshal([]byte(stdout), &set); err != nil || len(set.Models) != 1 || set.Models[0].Commit != commit ||
		set.Models[0].Encoder != "hf:test/tiny-bert" || !strings.Contains(strings.Join(set.Models[0].Files, ","), "onnx/model.onnx") {
		t.Fatalf("setup --model output %s (%v)", stdout, err)
	}
	h.Close() // from here on, the cache alone

	// embed: PyTorch's sentence vectors.
	lines, refEmbeddings := fixtureReference(t, fixture)
	txt := writeLines(t, lines)
	code, stdout, stderr = neuralRun("embed", "--encoder", "hf:test/tiny-bert", "--backend", "go", txt)
	if code != 0 {
		t.Fatalf("embed: exit %d: %s", code, stderr)
	}
	var worst float64
	rows := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(rows) != len(refEmbeddings) {
		t.Fatalf("embed printed %d vectors, want %d", len(rows), len(refEmbeddings))
	}
	for i, row := range rows {
		for j, f := range strings.Fields(row) {
			x, _ := strconv.ParseFloat(f, 64)
			worst = math.Max(worst, math.Abs(x-refEmbeddings[i][j]))
		}
	}
	if worst > 1e-5 {
		t.Fatalf("embed differs from PyTorch by %g", worst)
	}

	// reproduce: the model as an untuned and a fine-tuned row.
	in := reproFixture(t)
	out := t.TempDir()
	const row = "hf:test/tiny-bert"
	code, stdout, stderr = reproRun("reproduce", "--rounds", "1", "--encoders", row+","+row+"_ft", "--mixed", "none", "--backend", "go", "--json",
		"--set", row+"_ft.max_steps=3;"+row+"_ft.batch_pairs=4;"+row+"_ft.max_utterances=2;"+row+".max_len=16",
		"--pair-set", "unseen_per_dataset=3;dev_per_dataset=2;unseen_divisor=2;allow_empty_splits=true", "--out", out, in)
	if code != 0 {
		t.Fatalf("reproduce: exit %d: %s", code, stderr)
	}
	var rep struct {
		Rows []map[string]any `json:"rows"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range rep.Rows {
		name, _ := r["encoder"].(string)
		seen[name] = true
	}
	if !seen[row] || !seen[row+"_ft"] {
		t.Fatalf("reproduce rows %v: %s", seen, stdout)
	}
	// The manifest records the commit the rows ran.
	if m, err := os.ReadFile(filepath.Join(out, "manifest.json")); err != nil || !strings.Contains(string(m), "test/tiny-bert@"+commit) {
		t.Fatalf("manifest does not record test/tiny-bert@%s (%v)", commit, err)
	}
	bundle := filepath.Join(out, "verifier")
	spec, err := os.ReadFile(filepath.Join(bundle, "verifier.json"))
	if err != nil || !strings.Contains(string(spec), row+"_ft") {
		t.Fatalf("bundle: %v\n%s", err, spec)
	}

	// verify from the bundle (the fine-tuned weights saved and loaded).
	a := filepath.Join(t.TempDir(), "a.txt")
	os.WriteFile(a, []byte("indeed I think we should go\nindeed, indeed again\n"), 0o644)
	code, stdout, stderr = neuralRun("verify", "--verifier", bundle, "--backend", "go", "--json", a, a)
	var v struct{ Cosine float64 }
	if code != 0 || json.Unmarshal([]byte(stdout), &v) != nil || math.Abs(v.Cosine-1) > 1e-5 {
		t.Fatalf("verify --verifier: exit %d: %s\n%s", code, stderr, stdout)
	}
	// The bundle's vectors are the fine-tuned ones, not the untuned model's.
	_, tuned, _ := neuralRun("embed", "--verifier", bundle, "--backend", "go", a)
	_, untuned, _ := neuralRun("embed", "--encoder", row, "--backend", "go", a)
	if tuned == "" || tuned == untuned {
		t.Fatalf("bundle embeds like the untuned model:\n%s", tuned)
	}
	// score with the Hub row by name.
	realPath, genPath := writeScoreFixtures(t)
	code, stdout, stderr = scoreCLI("score", "--real", realPath, "--generated", genPath, "--encoder", row, "--backend", "go", "--bootstrap", "0", "--json")
	if code != 0 || !strings.Contains(stdout, row) {
		t.Fatalf("score --encoder: exit %d: %s\n%s", code, stderr, stdout)
	}
}

func TestSetupModelErrors(t *testing.T) {
	h := hubtest.New(t)
	// The paper's LUAR at a revision with an ONNX export and pickles other
	// than pytorch_model.bin only: the export would lack LUAR's episode
	// head, so setup names LUAR's own conversion route rather than
	// fetching it.
	h.Add("rrivera1849/LUAR-CRUD", "main", map[string][]byte{"config.json": []byte(`{"model_type":"LUAR"}`), "tokenizer.json": []byte("{}"),
		"model.pt": []byte("a pickle"), "onnx/model.onnx": []byte("an export")})
	h.Use(t)
	t.Setenv("ROLEPRINT_CACHE", t.TempDir()) // no export placed by hand
	for _, c := range []struct{ model, want string }{
		{"test/absent", "no such repository or revision"},
		{"lisa", "not published"},
		{"bad name!", "expected ORG/NAME"},
		{"luar", "trust_remote_code=True"},
		{"rrivera1849/LUAR-CRUD", "trust_remote_code=True"},
	} {
		code, _, stderr := neuralRun("setup", "--model", c.model)
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("setup --model %s: exit %d: %s", c.model, code, stderr)
		}
	}
	code, _, stderr := neuralRun("embed", "--encoder", "hf:test/absent", filepath.Join("..", "..", "README.md"))
	if code == 0 || !strings.Contains(stderr, "roleprint setup --model test/absent") {
		t.Errorf("embed with a model not fetched: exit %d: %s", code, stderr)
	}
	// The paper's rows, offline with nothing fetched, name their setup command.
	for _, row := range []string{"luar", "stel", "roberta", "sbert"} {
		code, _, stderr := neuralRun("embed", "--encoder", row, filepath.Join("..", "..", "README.md"))
		want := "roleprint setup --model " + row
		if code == 0 || !strings.Contains(stderr, want) {
			t.Errorf("embed --encoder %s with nothing fetched: exit %d: %s", row, code, stderr)
		}
	}
}

// TestHubRevisionAndTokenFromCLI runs a gated repository whose main moves on:
// setup without HF_TOKEN fails naming it; with HF_TOKEN, setup of a pinned
// commit (ORG/NAME@COMMIT) and of main fetch different models, and with the
// server stopped hf:ORG/NAME@COMMIT and hf:ORG/NAME each give their own
// commit's PyTorch vectors.
func TestHubRevisionAndTokenFromCLI(t *testing.T) {
	read := func(fixture string) (map[string][]byte, [][]float64, string) {
		dir := filepath.Join("..", "..", "sv", "neural", "testdata", "onnx", fixture)
		files, err := hubtest.ReadDir(dir, map[string]string{"model.onnx": "onnx/model.onnx", "reference.json": ""})
		if err != nil {
			t.Fatal(err)
		}
		lines, refEmbeddings := fixtureReference(t, dir)
		return files, refEmbeddings, strings.Join(lines, "\n") + "\n"
	}
	bert, bertRef, text := read("bert")
	roberta, robertaRef, text2 := read("roberta")
	if text != text2 {
		t.Fatal("the fixtures embed different sentences")
	}
	h := hubtest.New(t)
	h.Token = "hf_gated"
	old := h.Add("test/moving", "main", bert)
	h.Add("test/moving", "main", roberta) // main moves on
	h.Use(t)
	if code, _, stderr := neuralRun("setup", "--model", "test/moving"); code == 0 || !strings.Contains(stderr, "HF_TOKEN") {
		t.Fatalf("setup of a gated model without a token: exit %d: %s", code, stderr)
	}
	t.Setenv("HF_TOKEN", "hf_gated")
	for _, m := range []string{"test/moving@" + old, "test/moving"} {
		if code, _, stderr := neuralRun("setup", "--model", m); code != 0 {
			t.Fatalf("setup --model %s: exit %d: %s", m, code, stderr)
		}
	}
	h.Close()
	txt := filepath.Join(t.TempDir(), "sentences.txt")
	os.WriteFile(txt, []byte(text), 0o644)
	for _, c := range []struct {
		row  string
		want [][]float64
	}{{"hf:test/moving@" + old, bertRef}, {"hf:test/moving", robertaRef}} {
		code, stdout, stderr := neuralRun("embed", "--encoder", c.row, "--backend", "go", txt)
		if code != 0 {
			t.Fatalf("embed --encoder %s: exit %d: %s", c.row, code, stderr)
		}
		if d := embedVectors(t, stdout, c.want); d > 1e-5 {
			t.Errorf("%s differs from its commit's PyTorch vectors by %g", c.row, d)
		}
	}
}
