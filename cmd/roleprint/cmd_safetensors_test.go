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

// embedVectors parses embed's output (one vector a line) and returns its
// largest difference from want.
func embedVectors(t *testing.T, stdout string, want [][]float64) float64 {
	t.Helper()
	rows := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(rows) != len(want) {
		t.Fatalf("embed printed %d vectors, want %d:\n%s", len(rows), len(want), stdout)
	}
	var worst float64
	for i, row := range rows {
		f := strings.Fields(row)
		if len(f) != len(want[i]) {
			t.Fatalf("vector %d has %d values, want %d", i, len(f), len(want[i]))
		}
		for j, s := range f {
			x, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatal(err)
			}
			worst = math.Max(worst, math.Abs(x-want[i][j]))
		}
	}
	return worst
}

// TestSafetensorsModelEndToEnd publishes the tiny RoBERTa (safetensors
// only, RobertaForMaskedLM names, F16) and a repository whose only
// weights are a model.pt pickle on a stand-in Hub: setup fetches the
// safetensors weights and refuses the pickle with a conversion route; with the server stopped, embed through
// the hf: row gives PyTorch's vectors, and reproduce runs it untuned and
// fine-tuned, the fine-tuned row saved in the verifier bundle and read
// back by verify.
func TestSafetensorsModelEndToEnd(t *testing.T) {
	fixture := filepath.Join("..", "..", "sv", "neural", "testdata", "safetensors", "roberta")
	files, err := hubtest.ReadDir(fixture, map[string]string{"reference.json": ""})
	if err != nil {
		t.Fatal(err)
	}
	h := hubtest.New(t)
	commit := h.Add("test/st-roberta", "main", files)
	h.Add("test/pickle-only", "main", map[string][]byte{"config.json": files["config.json"], "tokenizer.json": files["tokenizer.json"], "model.pt": []byte("a pickle")})
	h.Use(t)

	code, stdout, stderr := neuralRun("setup", "--model", "test/st-roberta", "--json")
	var set struct {
		Models []struct {
			Commit, Encoder string
			Files           []string
		} `json:"models"`
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &set) != nil || len(set.Models) != 1 || set.Models[0].Commit != commit ||
		!strings.Contains(strings.Join(set.Models[0].Files, ","), "model.safetensors") {
		t.Fatalf("setup --model: exit %d: %s\n%s", code, stderr, stdout)
	}
	code, _, stderr = neuralRun("setup", "--model", "test/pickle-only")
	if code == 0 || !strings.Contains(stderr, "model.pt") || !strings.Contains(stderr, "optimum-cli export onnx --model test/pickle-only") {
		t.Fatalf("setup of a pickle-only repository: exit %d: %s", code, stderr)
	}
	h.Close() // from here on, the cache alone

	lines, refEmbeddings := fixtureReference(t, fixture)
	txt := writeLines(t, lines)
	const row = "hf:test/st-roberta"
	code, stdout, stderr = neuralRun("embed", "--encoder", row, "--backend", "go", txt)
	if code != 0 {
		t.Fatalf("embed: exit %d: %s", code, stderr)
	}
	if d := embedVectors(t, stdout, refEmbeddings); d > 1e-5 {
		t.Fatalf("embed differs from PyTorch by %g", d)
	}

	in := reproFixture(t)
	out := t.TempDir()
	code, stdout, stderr = reproRun("reproduce", "--rounds", "1", "--encoders", row+","+row+"_ft", "--mixed", "none", "--backend", "go", "--json",
		"--set", row+"_ft.max_steps=3;"+row+"_ft.batch_pairs=4;"+row+"_ft.max_utterances=2",
		"--pair-set", "unseen_per_dataset=3;dev_per_dataset=2;unseen_divisor=2;allow_empty_splits=true", "--out", out, in)
	if code != 0 {
		t.Fatalf("reproduce: exit %d: %s", code, stderr)
	}
	if m, err := os.ReadFile(filepath.Join(out, "manifest.json")); err != nil || !strings.Contains(string(m), "test/st-roberta@"+commit) ||
		!strings.Contains(string(m), "safetensors") {
		t.Fatalf("manifest does not record the safetensors model test/st-roberta@%s (%v)", commit, err)
	}
	bundle := filepath.Join(out, "verifier")
	a := filepath.Join(t.TempDir(), "a.txt")
	os.WriteFile(a, []byte("oh the theory of pizza\nhello, hello again\n"), 0o644)
	code, stdout, stderr = neuralRun("verify", "--verifier", bundle, "--backend", "go", "--json", a, a)
	var v struct{ Cosine float64 }
	if code != 0 || json.Unmarshal([]byte(stdout), &v) != nil || math.Abs(v.Cosine-1) > 1e-5 {
		t.Fatalf("verify --verifier: exit %d: %s\n%s", code, stderr, stdout)
	}
	_, tuned, _ := neuralRun("embed", "--verifier", bundle, "--backend", "go", a)
	_, untuned, _ := neuralRun("embed", "--encoder", row, "--backend", "go", a)
	if tuned == "" || tuned == untuned {
		t.Fatalf("bundle embeds like the untuned model:\n%s", tuned)
	}
}

// TestLUARPresetEndToEnd publishes the tiny LUAR (the published parameter
// names, config.json and tokenizer) as the paper's checkpoint: `setup
// --model luar` fetches it, and with the server stopped `embed --encoder
// luar` gives PyTorch's LUAR vectors of one-utterance episodes and `score`
// runs the row.
func TestLUARPresetEndToEnd(t *testing.T) {
	fixture := filepath.Join("..", "..", "sv", "neural", "testdata", "safetensors", "luar")
	files, err := hubtest.ReadDir(fixture, map[string]string{"reference.json": ""})
	if err != nil {
		t.Fatal(err)
	}
	h := hubtest.New(t)
	commit := h.Add("rrivera1849/LUAR-CRUD", "main", files)
	h.Use(t)
	t.Setenv("ROLEPRINT_CACHE", t.TempDir()) // no export placed by hand
	code, stdout, stderr := neuralRun("setup", "--model", "luar", "--json")
	if code != 0 || !strings.Contains(stdout, commit) || !strings.Contains(stdout, `"encoder": "luar"`) {
		t.Fatalf("setup --model luar: exit %d: %s\n%s", code, stderr, stdout)
	}
	h.Close()

	var ref struct {
		Episodes   [][]string  `json:"episodes"`
		Embeddings [][]float64 `json:"episode_embeddings"`
	}
	b, err := os.ReadFile(filepath.Join(fixture, "reference.json"))
	if err != nil || json.Unmarshal(b, &ref) != nil {
		t.Fatal(err)
	}
	// Episodes 2 and 4 hold one utterance each (the second longer than
	// LUAR's 32-token truncation).
	txt := filepath.Join(t.TempDir(), "lines.txt")
	os.WriteFile(txt, []byte(ref.Episodes[2][0]+"\n"+ref.Episodes[4][0]+"\n"), 0o644)
	code, stdout, stderr = neuralRun("embed", "--encoder", "luar", "--backend", "go", txt)
	if code != 0 {
		t.Fatalf("embed --encoder luar: exit %d: %s", code, stderr)
	}
	if d := embedVectors(t, stdout, [][]float64{ref.Embeddings[2], ref.Embeddings[4]}); d > 1e-5 {
		t.Fatalf("embed --encoder luar differs from PyTorch's LUAR by %g", d)
	}
	// luar and luar_ft as Table 2 rows; the fine-tuned LUAR (its head
	// included) saved in the verifier bundle and read back.
	out := t.TempDir()
	code, stdout, stderr = reproRun("reproduce", "--rounds", "1", "--encoders", "luar,luar_ft", "--mixed", "none", "--backend", "go", "--json",
		"--set", "luar_ft.max_steps=3;luar_ft.batch_pairs=4;luar_ft.max_utterances=2",
		"--pair-set", "unseen_per_dataset=3;dev_per_dataset=2;unseen_divisor=2;allow_empty_splits=true", "--out", out, reproFixture(t))
	if code != 0 || !strings.Contains(stdout, `"luar_ft"`) || !strings.Contains(stdout, `"LUARft"`) {
		t.Fatalf("reproduce --encoders luar,luar_ft: exit %d: %s\n%s", code, stderr, stdout)
	}
	_, tuned, _ := neuralRun("embed", "--verifier", filepath.Join(out, "verifier"), "--backend", "go", txt)
	if d := embedVectors(t, tuned, [][]float64{ref.Embeddings[2], ref.Embeddings[4]}); d == 0 || len(strings.Fields(strings.Split(tuned, "\n")[0])) != 16 {
		t.Fatalf("the bundle's luar_ft vectors are the untuned ones or not LUAR's 16 wide:\n%s", tuned)
	}
	realPath, genPath := writeScoreFixtures(t)
	code, stdout, stderr = scoreCLI("score", "--real", realPath, "--generated", genPath, "--encoder", "luar", "--backend", "go", "--bootstrap", "0", "--json")
	if code != 0 || !strings.Contains(stdout, "luar") {
		t.Fatalf("score --encoder luar: exit %d: %s\n%s", code, stderr, stdout)
	}
}

// TestRobertaPresetFetchesSafetensors publishes the tiny safetensors
// RoBERTa as FacebookAI/roberta-large with the real repository's layout: a
// top-level model.onnx (here bytes no ONNX reader accepts, standing in for
// the community fill-mask export) beside model.safetensors and a pickle.
// `setup --model roberta` fetches the safetensors only, and with the server
// stopped `embed --encoder roberta` gives PyTorch's vectors, also once
// `setup --model FacebookAI/roberta-large` has put the export beside them.
func TestRobertaPresetFetchesSafetensors(t *testing.T) {
	fixture := filepath.Join("..", "..", "sv", "neural", "testdata", "safetensors", "roberta")
	files, err := hubtest.ReadDir(fixture, map[string]string{"reference.json": ""})
	if err != nil {
		t.Fatal(err)
	}
	files["model.onnx"] = []byte("not the export RolePrint wants")
	files["pytorch_model.bin"] = []byte("a pickle")
	h := hubtest.New(t)
	h.Add("FacebookAI/roberta-large", "main", files)
	h.Use(t)
	t.Setenv("ROLEPRINT_CACHE", t.TempDir()) // no export placed by hand
	code, stdout, stderr := neuralRun("setup", "--model", "roberta", "--json")
	var set struct {
		Models []struct{ Files []string } `json:"models"`
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &set) != nil || len(set.Models) != 1 {
		t.Fatalf("setup --model roberta: exit %d: %s\n%s", code, stderr, stdout)
	}
	if got := strings.Join(set.Models[0].Files, ","); !strings.Contains(got, "model.safetensors") || strings.Contains(got, ".onnx") || strings.Contains(got, ".bin") {
		t.Fatalf("setup --model roberta fetched %s", got)
	}
	// Fetched as hf:FacebookAI/roberta-large too, the snapshot also holds
	// the export; the roberta row still runs the safetensors.
	if code, _, stderr := neuralRun("setup", "--model", "FacebookAI/roberta-large"); code != 0 {
		t.Fatalf("setup --model FacebookAI/roberta-large: exit %d: %s", code, stderr)
	}
	h.Close()

	lines, refEmbeddings := fixtureReference(t, fixture)
	txt := writeLines(t, lines)
	code, stdout, stderr = neuralRun("embed", "--encoder", "roberta", "--backend", "go", txt)
	if code != 0 {
		t.Fatalf("embed --encoder roberta: exit %d: %s", code, stderr)
	}
	if d := embedVectors(t, stdout, refEmbeddings); d > 1e-5 {
		t.Fatalf("roberta from the cache differs from PyTorch by %g", d)
	}
}

// pytorchFixtureFiles returns the files of the safetensors fixture with
// its weights replaced by the same state dict written by torch.save
// (sv/neural/testdata/pytorch/NAME.bin), and PyTorch's sentence vectors.
func pytorchFixtureFiles(t *testing.T, fixture string) (map[string][]byte, []string, [][]float64) {
	t.Helper()
	dir := filepath.Join("..", "..", "sv", "neural", "testdata", "safetensors", fixture)
	files, err := hubtest.ReadDir(dir, map[string]string{"reference.json": "", "model.safetensors": ""})
	if err != nil {
		t.Fatal(err)
	}
	if files["pytorch_model.bin"], err = os.ReadFile(filepath.Join("..", "..", "sv", "neural", "testdata", "pytorch", fixture+".bin")); err != nil {
		t.Fatal(err)
	}
	lines, refEmbeddings := fixtureReference(t, dir)
	return files, lines, refEmbeddings
}

// TestPyTorchModelEndToEnd publishes the tiny BERT with only
// pytorch_model.bin (and a training_args.bin pickle beside it) on a
// stand-in Hub: `setup --model` fetches pytorch_model.bin and not the
// other pickle, and with the server stopped `embed --encoder hf:…` gives
// PyTorch's vectors.
func TestPyTorchModelEndToEnd(t *testing.T) {
	files, lines, want := pytorchFixtureFiles(t, "bert")
	files["training_args.bin"] = []byte("a pickle of training arguments, never fetched")
	h := hubtest.New(t)
	h.Add("test/pt-bert", "main", files)
	h.Use(t)
	code, stdout, stderr := neuralRun("setup", "--model", "test/pt-bert", "--json")
	var set struct {
		Models []struct{ Files []string } `json:"models"`
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &set) != nil || len(set.Models) != 1 {
		t.Fatalf("setup --model test/pt-bert: exit %d: %s\n%s", code, stderr, stdout)
	}
	if got := strings.Join(set.Models[0].Files, ","); !strings.Contains(got, "pytorch_model.bin") || strings.Contains(got, "training_args") {
		t.Fatalf("setup fetched %s", got)
	}
	h.Close() // from here on, the cache alone
	txt := writeLines(t, lines)
	code, stdout, stderr = neuralRun("embed", "--encoder", "hf:test/pt-bert", "--backend", "go", txt)
	if code != 0 {
		t.Fatalf("embed: exit %d: %s", code, stderr)
	}
	if d := embedVectors(t, stdout, want); d > 1e-5 {
		t.Fatalf("embed from pytorch_model.bin differs from PyTorch by %g", d)
	}
}

// TestStelPresetFromPyTorch publishes the tiny RoBERTa as
// AnnaWegmann/Style-Embedding with that repository's layout as stored
// copies of its Hub page show it: a sentence-transformers RoBERTa whose
// only weights are pytorch_model.bin (no safetensors, no ONNX export).
// `setup --model stel` fetches it, and with the server stopped `embed
// --encoder stel` gives PyTorch's vectors; `reproduce --encoders
// stel,stel_ft` runs both rows and saves the fine-tuned one.
func TestStelPresetFromPyTorch(t *testing.T) {
	files, lines, want := pytorchFixtureFiles(t, "roberta")
	files["README.md"] = []byte("---\npipeline_tag: sentence-similarity\ntags:\n- sentence-transformers\n---\n# Style Embedding\n")
	files["config_sentence_transformers.json"] = []byte(`{"__version__": {"sentence_transformers": "2.1.0", "transformers": "4.12.5", "pytorch": "1.10.0"}}`)
	files[".gitattributes"] = []byte("*.bin filter=lfs diff=lfs merge=lfs -text\n")
	h := hubtest.New(t)
	commit := h.Add("AnnaWegmann/Style-Embedding", "main", files)
	h.Use(t)
	t.Setenv("ROLEPRINT_CACHE", t.TempDir()) // no export placed by hand
	code, stdout, stderr := neuralRun("setup", "--model", "stel", "--json")
	if code != 0 || !strings.Contains(stdout, commit) || !strings.Contains(stdout, "pytorch_model.bin") {
		t.Fatalf("setup --model stel: exit %d: %s\n%s", code, stderr, stdout)
	}
	h.Close()
	txt := writeLines(t, lines)
	code, stdout, stderr = neuralRun("embed", "--encoder", "stel", "--backend", "go", txt)
	if code != 0 {
		t.Fatalf("embed --encoder stel: exit %d: %s", code, stderr)
	}
	if d := embedVectors(t, stdout, want); d > 1e-5 {
		t.Fatalf("embed --encoder stel differs from PyTorch by %g", d)
	}
	// The paper's rows stel and stel_ft from the cache, the fine-tuned
	// weights saved in the verifier bundle and read back.
	out := t.TempDir()
	code, stdout, stderr = reproRun("reproduce", "--rounds", "1", "--encoders", "stel,stel_ft", "--mixed", "none", "--backend", "go", "--json",
		"--set", "stel_ft.max_steps=3;stel_ft.batch_pairs=4;stel_ft.max_utterances=2",
		"--pair-set", "unseen_per_dataset=3;dev_per_dataset=2;unseen_divisor=2;allow_empty_splits=true", "--out", out, reproFixture(t))
	if code != 0 || !strings.Contains(stdout, `"stel_ft"`) {
		t.Fatalf("reproduce --encoders stel,stel_ft: exit %d: %s\n%s", code, stderr, stdout)
	}
	if m, err := os.ReadFile(filepath.Join(out, "manifest.json")); err != nil || !strings.Contains(string(m), "AnnaWegmann/Style-Embedding@"+commit) ||
		!strings.Contains(string(m), "PyTorch pickle") {
		t.Fatalf("manifest does not record the PyTorch weights of AnnaWegmann/Style-Embedding@%s (%v)", commit, err)
	}
	_, tuned, _ := neuralRun("embed", "--verifier", filepath.Join(out, "verifier"), "--backend", "go", txt)
	if tuned == "" || tuned == stdoutOf(neuralRun("embed", "--encoder", "stel", "--backend", "go", txt)) {
		t.Fatalf("the bundle's stel_ft vectors are missing or the untuned ones:\n%s", tuned)
	}
}

// stdoutOf returns the standard output of a neuralRun.
func stdoutOf(_ int, stdout, _ string) string { return stdout }

// fixtureReference reads a model fixture's reference.json (written by the
// fixture scripts from PyTorch): the sentences it embedded and PyTorch's
// sentence vectors for them.
func fixtureReference(t *testing.T, dir string) ([]string, [][]float64) {
	t.Helper()
	var ref struct {
		Tokenization []struct{ Text string } `json:"tokenization"`
		Embeddings   [][]float64             `json:"sentence_embeddings"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "reference.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatalf("%s: %v", filepath.Join(dir, "reference.json"), err)
	}
	lines := make([]string, len(ref.Tokenization))
	for i, x := range ref.Tokenization {
		lines[i] = x.Text
	}
	return lines, ref.Embeddings
}

// writeLines writes lines, one per line, to a file in a test folder and
// returns its path.
func writeLines(t *testing.T, lines []string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sentences.txt")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
