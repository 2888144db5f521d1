package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerifierBundleEndToEnd trains a tiny model on the embedded corpus,
// then uses OUT/verifier with verify, embed and score.
func TestVerifierBundleEndToEnd(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	code, stdout, stderr := neuralRun("train", "--out", out, "--backend", "go", "--max-steps", "2", "--batch-pairs", "4",
		"--max-utterances", "2", "--eval", "none", "--set", tinyNeural, "--json")
	if code != 0 {
		t.Fatalf("train: exit %d: %s", code, stderr)
	}
	var tr struct {
		Verifier string `json:"verifier"`
	}
	if err := json.Unmarshal([]byte(stdout), &tr); err != nil || tr.Verifier != filepath.Join(out, "verifier") {
		t.Fatalf("train output verifier %q (%v)", tr.Verifier, err)
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	os.WriteFile(a, []byte("Bazinga! I am a physicist.\nThe theory is quite elegant.\n"), 0o644)
	os.WriteFile(b, []byte("Oh my God, could this BE any worse?\n"), 0o644)

	code, stdout, stderr = neuralRun("verify", "--verifier", tr.Verifier, "--backend", "go", "--json", a, b)
	if code != 0 {
		t.Fatalf("verify: exit %d: %s", code, stderr)
	}
	var v struct {
		Name        string  `json:"name"`
		Cosine      float64 `json:"cosine"`
		Probability float64 `json:"probability"`
		Threshold   float64 `json:"threshold"`
		Same        *bool   `json:"same"`
		UtterancesA int     `json:"utterances_a"`
		UtterancesB int     `json:"utterances_b"`
	}
	if err := json.Unmarshal([]byte(stdout), &v); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	if v.Name != "transformer_ft" || v.Same == nil || *v.Same != (v.Cosine >= v.Threshold) || !(v.Probability > 0 && v.Probability < 1) ||
		v.UtterancesA != 2 || v.UtterancesB != 1 || math.Abs(v.Cosine) > 1+1e-6 {
		t.Fatalf("verify output %+v", v)
	}
	// The same set against itself: cosine 1, so at least as likely as a and b.
	code, stdout, _ = neuralRun("verify", "--verifier", tr.Verifier, "--backend", "go", "--json", a, a)
	var self struct {
		Cosine, Probability float64
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &self) != nil || math.Abs(self.Cosine-1) > 1e-5 || self.Probability < v.Probability {
		t.Fatalf("verify a a: exit %d, %s", code, stdout)
	}

	// embed --verifier gives the vectors of the trained checkpoint, bit for bit.
	code, viaBundle, stderr := neuralRun("embed", "--verifier", tr.Verifier, "--backend", "go", a)
	if code != 0 {
		t.Fatalf("embed --verifier: exit %d: %s", code, stderr)
	}
	code, viaCkpt, stderr := neuralRun("embed", "--encoder", "transformer", "--backend", "go", "--set", tinyNeural+";weights="+out, a)
	if code != 0 {
		t.Fatalf("embed --set weights: exit %d: %s", code, stderr)
	}
	if viaBundle != viaCkpt || len(strings.Fields(viaBundle)) != 2*16 {
		t.Fatalf("bundle vectors differ from the checkpoint's:\n%s\nvs\n%s", viaBundle, viaCkpt)
	}

	// score --verifier runs role-play scoring with it.
	realPath, genPath := writeScoreFixtures(t)
	code, stdout, stderr = scoreCLI("score", "--real", realPath, "--generated", genPath, "--verifier", tr.Verifier, "--backend", "go",
		"--bootstrap", "0", "--json")
	if code != 0 || !strings.Contains(stdout, "transformer_ft") {
		t.Fatalf("score --verifier: exit %d: %s\n%s", code, stderr, stdout)
	}

	// Without --encoder, score uses reproduce-out/verifier when it exists.
	work := t.TempDir()
	if err := os.CopyFS(filepath.Join(work, "reproduce-out", "verifier"), os.DirFS(tr.Verifier)); err != nil {
		t.Fatal(err)
	}
	t.Chdir(work)
	code, stdout, stderr = scoreCLI("score", "--real", realPath, "--generated", genPath, "--backend", "go", "--bootstrap", "0", "--json")
	if code != 0 || !strings.Contains(stdout, "transformer_ft") || !strings.Contains(stderr, "reproduce-out/verifier") {
		t.Fatalf("score with the default bundle: exit %d: %s\n%s", code, stderr, stdout)
	}

	// A missing weights file is an error naming it.
	files, _ := filepath.Glob(filepath.Join(tr.Verifier, "*.rpck"))
	if len(files) != 1 {
		t.Fatalf("bundle weights files: %v", files)
	}
	os.Remove(files[0])
	code, _, stderr = neuralRun("verify", "--verifier", tr.Verifier, a, b)
	if code != 1 || !strings.Contains(stderr, filepath.Base(files[0])+" is missing") {
		t.Fatalf("missing weights: exit %d: %s", code, stderr)
	}
	if code, _, stderr = neuralRun("verify", a, b); code != 2 || !strings.Contains(stderr, "--verifier DIR is required") {
		t.Fatalf("no --verifier: exit %d: %s", code, stderr)
	}
}
