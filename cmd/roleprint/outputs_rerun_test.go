package main

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/roleprint/roleprint/sv"
)

// countingEncoder embeds a text as its letter counts and counts how often
// each text is embedded.
type countingEncoder struct{}

var (
	embedMu     sync.Mutex
	embedCounts = map[string]int{}
)

func (countingEncoder) Name() string { return "count-test" }
func (countingEncoder) Dim() int     { return 26 }
func (countingEncoder) Encode(_ context.Context, texts []string, _ sv.Progress) ([][]float32, error) {
	embedMu.Lock()
	defer embedMu.Unlock()
	out := make([][]float32, len(texts))
	for i, t := range texts {
		embedCounts[t]++
		v := make([]float32, 26)
		for _, r := range strings.ToLower(t) {
			if r >= 'a' && r <= 'z' {
				v[r-'a']++
			}
		}
		out[i] = v
	}
	return out, nil
}

func init() {
	sv.RegisterEncoder("count-test", func(sv.EncoderOptions) (sv.Encoder, error) { return countingEncoder{}, nil })
}

// embedded returns the texts embedded since the last call, and how often.
func embedded() map[string]int {
	embedMu.Lock()
	defer embedMu.Unlock()
	out := embedCounts
	embedCounts = map[string]int{}
	return out
}

// TestScoreOutEmbedsOnceAndDrawsTheScoredSets: score --out embeds each
// text once, as score without --out does, and its Figures 1–2 come from
// the sets Table 3 scores (the distributions are those of the run without
// --out, not of chunked sets); --figure-sets chunks scores chunked sets a
// second time and says so in the captions.
func TestScoreOutEmbedsOnceAndDrawsTheScoredSets(t *testing.T) {
	realPath, genPath := writeScoreFixtures(t)
	base := []string{"score", "--real", realPath, "--generated", genPath, "--encoder", "count-test", "--bootstrap", "20", "--json"}
	embedded()
	code, plain, stderr := scoreCLI(base...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	without := embedded()
	out := t.TempDir()
	code, withOut, stderr := scoreCLI(append(base, "--out", out)...)
	if code != 0 {
		t.Fatalf("--out: exit %d: %s", code, stderr)
	}
	with := embedded()
	if len(with) == 0 || len(with) != len(without) {
		t.Errorf("--out embedded %d distinct texts, without %d", len(with), len(without))
	}
	for text, n := range with {
		if n != 1 {
			t.Errorf("--out embedded %q %d times", text, n)
			break
		}
	}
	var a, b scoreJSON
	if err := json.Unmarshal([]byte(plain), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(withOut), &b); err != nil {
		t.Fatal(err)
	}
	if len(a.Distributions) == 0 || len(a.Distributions) != len(b.Distributions) {
		t.Fatalf("distributions: %d without --out, %d with", len(a.Distributions), len(b.Distributions))
	}
	for i := range a.Distributions {
		x, y := deref(a.Distributions[i].AUC), deref(b.Distributions[i].AUC)
		if a.Distributions[i].Model != b.Distributions[i].Model || x != y && !(math.IsNaN(x) && math.IsNaN(y)) {
			t.Errorf("distribution %d: %s AUC %v without --out, %s %v with: not the scored sets", i, a.Distributions[i].Model,
				deref(a.Distributions[i].AUC), b.Distributions[i].Model, deref(b.Distributions[i].AUC))
		}
	}
	for _, f := range []string{"figures/figure1.png", "figures/figure2.png"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	page, _ := os.ReadFile(filepath.Join(out, "report.html"))
	if !strings.Contains(string(page), "the sets Table 3 scores") {
		t.Error("report.html does not say which sets Figures 1–2 show")
	}
	// Chunked sets on request, labelled.
	out2 := t.TempDir()
	if code, _, stderr := scoreCLI(append(base, "--out", out2, "--figure-sets", "chunks")...); code != 0 {
		t.Fatalf("chunks: exit %d: %s", code, stderr)
	}
	embedded()
	page, _ = os.ReadFile(filepath.Join(out2, "report.html"))
	if !strings.Contains(string(page), "chunked sets of 8 utterances") {
		t.Error("--figure-sets chunks: the captions do not say the figures show chunked sets")
	}
	if code, _, stderr := scoreCLI(append(base, "--figure-sets", "halves")...); code != 2 || !strings.Contains(stderr, "halves") {
		t.Errorf("--figure-sets halves: exit %d %s", code, stderr)
	}
}

// TestRerunRemovesStaleOutputs: a rerun into the same --out deletes what
// the previous run's manifest listed and this run does not write, and
// nothing else.
func TestRerunRemovesStaleOutputs(t *testing.T) {
	realPath, genPath := writeScoreFixtures(t)
	out := t.TempDir()
	mine := filepath.Join(out, "notes.txt")
	if err := os.WriteFile(mine, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"score", "--real", realPath, "--generated", genPath, "--encoder", "tfidf", "--bootstrap", "20", "--out", out}
	if code, _, stderr := scoreCLI(append(base, "--rank-role", "Sheldon", "--figures", "png,svg")...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, f := range []string{"table6-sheldon.tex", "figures/figure1.svg", "manifest.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Fatalf("first run: %s: %v", f, err)
		}
	}
	if code, _, stderr := scoreCLI(append(base, "--figures", "png")...); code != 0 {
		t.Fatalf("rerun: exit %d: %s", code, stderr)
	}
	for _, f := range []string{"table6-sheldon.tex", "table6-sheldon.md", "figures/figure1.svg"} {
		if _, err := os.Stat(filepath.Join(out, f)); !os.IsNotExist(err) {
			t.Errorf("rerun left the stale %s (%v)", f, err)
		}
	}
	for _, f := range []string{"notes.txt", "figures/figure1.png", "table3.tex", "report.html"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("rerun: %s: %v", f, err)
		}
	}
	outputs := manifestOutputs(t, out)
	entries, _ := os.ReadDir(filepath.Join(out, "figures"))
	for _, e := range entries {
		if !strings.Contains(strings.Join(outputs, ","), "figures/"+e.Name()) {
			t.Errorf("figures/%s is not in the manifest's outputs %v", e.Name(), outputs)
		}
	}
}

// TestReproduceRerunRemovesStaleFigures: reproduce into the same --out with
// fewer figure formats leaves only the files its manifest lists (and the
// user's own).
func TestReproduceRerunRemovesStaleFigures(t *testing.T) {
	out := t.TempDir()
	args := []string{"reproduce", "--quick", "--encoders", "liwc", "--mixed", "none", "--out", out}
	if code, _, stderr := reproRun(append(args, "--figures", "png,svg")...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if err := os.WriteFile(filepath.Join(out, "figures", "mine.svg"), []byte("<svg/>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := reproRun(append(args, "--figures", "png")...); code != 0 {
		t.Fatalf("rerun: exit %d: %s", code, stderr)
	}
	listed := strings.Join(manifestOutputs(t, out), ",")
	entries, _ := os.ReadDir(filepath.Join(out, "figures"))
	var pngs int
	for _, e := range entries {
		switch {
		case e.Name() == "mine.svg":
		case !strings.Contains(listed, "figures/"+e.Name()):
			t.Errorf("figures/%s left beside the rerun's figures (not in its manifest)", e.Name())
		case strings.HasSuffix(e.Name(), ".png"):
			pngs++
		}
	}
	if pngs == 0 {
		t.Error("the rerun wrote no PNG")
	}
	if _, err := os.Stat(filepath.Join(out, "figures", "mine.svg")); err != nil {
		t.Errorf("a file no manifest listed was deleted: %v", err)
	}
}
