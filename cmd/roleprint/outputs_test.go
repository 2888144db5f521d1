package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestReproduceWritesFiguresTablesAndPage checks the acceptance run:
// reproduce --quick writes the ROC and Table 2 figures (PNG + SVG by
// default), table2.tex, the --latex file and report.html, and lists them
// in the manifest.
func TestReproduceWritesFiguresTablesAndPage(t *testing.T) {
	out := t.TempDir()
	tex := filepath.Join(t.TempDir(), "all.tex")
	code, _, stderr := reproRun("reproduce", "--quick", "--encoders", "liwc,lsm", "--mixed", "none", "--figures", "png,svg,pdf", "--latex", tex, "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, f := range []string{"figures/roc-base.png", "figures/roc-harder.svg", "figures/table2-bars-hard.pdf", "figures/level-drop.png",
		"table2.tex", "table2.md", "report.html"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	outputs := manifestOutputs(t, out)
	for _, f := range []string{"figures/roc-base.svg", "table2.tex", "report.html", "table2.md"} {
		if !slices.Contains(outputs, f) {
			t.Errorf("manifest outputs %v lack %s", outputs, f)
		}
	}
	if n := strings.Count(strings.Join(outputs, ","), "table2.md"); n != 1 {
		t.Errorf("table2.md listed %d times", n)
	}
	all, err := os.ReadFile(tex)
	if err != nil || !strings.Contains(string(all), `\label{tab:table2}`) {
		t.Errorf("--latex file: %v", err)
	}
	page, _ := os.ReadFile(filepath.Join(out, "report.html"))
	for _, want := range []string{"roleprint reproduce --quick", "&#34;seeds&#34;", `src="figures/roc-base.svg"`, "paper: LIWC"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	// --figures none writes no figure; a bad format is a usage error.
	out2 := t.TempDir()
	if code, _, stderr := reproRun("reproduce", "--quick", "--encoders", "liwc", "--mixed", "none", "--figures", "none", "--no-html", "--out", out2); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out2, "figures")); !os.IsNotExist(err) {
		t.Errorf("--figures none wrote figures (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(out2, "report.html")); !os.IsNotExist(err) {
		t.Errorf("--no-html wrote report.html (%v)", err)
	}
	if code, _, stderr := reproRun("reproduce", "--quick", "--encoders", "liwc", "--figures", "gif", "--out", t.TempDir()); code != 2 || !strings.Contains(stderr, "gif") {
		t.Errorf("--figures gif: exit %d, %s", code, stderr)
	}
}

// TestScoreWritesFigures checks that score --out writes Figures 1 and 2,
// the Table 3 bars, the Simulation Rank heatmap, the tables and
// report.html, also with --json (stdout stays one JSON object).
func TestScoreWritesFigures(t *testing.T) {
	realPath, genPath := writeScoreFixtures(t)
	out := t.TempDir()
	code, stdout, stderr := scoreCLI("score", "--real", realPath, "--generated", genPath, "--encoder", "tfidf",
		"--bootstrap", "50", "--rank-role", "Sheldon", "--out", out, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(stdout), &v); err != nil {
		t.Fatalf("stdout: %v", err)
	}
	for _, f := range []string{"figures/figure1.png", "figures/figure1.svg", "figures/figure2.png", "figures/table3-bars.svg",
		"figures/simulation-rank.png", "table3.tex", "table3.md", "table7.tex", "table6-sheldon.tex", "report.html"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	tex, _ := os.ReadFile(filepath.Join(out, "table3.tex"))
	if !strings.Contains(string(tex), `\textit{paper: Real}`) || !strings.Contains(string(tex), `\textbf{`) {
		t.Errorf("table3.tex:\n%s", tex)
	}
	if code, _, stderr := scoreCLI("score", "--real", realPath, "--generated", genPath, "--encoder", "tfidf", "--latex", "x.tex"); code != 2 || !strings.Contains(stderr, "--out") {
		t.Errorf("--latex without --out: exit %d %s", code, stderr)
	}
}

// TestMetricsAgreementFigure checks metrics --paper-out: the scatter with
// ρ and τ and agreement.tex for --kind agreement.
func TestMetricsAgreementFigure(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "judge.csv")
	body := "dimension,human,judge\n"
	for i := 0; i < 30; i++ {
		d := []string{"IA", "CC"}[i%2]
		body += d + "," + strconv.Itoa(1+i%5) + "," + strconv.Itoa(1+(i/2)%5) + "\n"
	}
	if err := os.WriteFile(csv, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "paper")
	code, _, stderr := runPersonaCLI(t, "metrics", "--kind", "agreement", "--paper-out", out, "--figures", "png,pdf", csv)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, f := range []string{"figures/agreement.png", "figures/agreement.pdf", "agreement.tex", "agreement.md"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	md, _ := os.ReadFile(filepath.Join(out, "agreement.md"))
	if !strings.Contains(string(md), "| judge | CC | 15 |") || !strings.Contains(string(md), "| judge | IA | 15 |") {
		t.Errorf("agreement.md:\n%s", md)
	}
}

// TestJudgeWritesTable checks judge --paper-out: the SpeechRole-style
// table with the paper's rows (our dimensions are the paper's) and the
// figure.
func TestJudgeWritesTable(t *testing.T) {
	dir := t.TempDir()
	sr := filepath.Join(dir, "agent.jsonl")
	os.WriteFile(sr, []byte(`{"id": "1", "role": "Bob", "profile": "Bob loves pizza.", "context": [{"speaker": "Ada", "text": "Dinner?"}], "candidate": "Pizza, obviously!", "references": ["Can we order pizza?", "Pizza, please."]}
{"id": "2", "role": "Bob", "candidate": "I surrender.", "references": ["Okay, okay, I surrender."]}
`), 0o644)
	out := filepath.Join(dir, "paper")
	code, _, stderr := runPersonaCLI(t, "judge", "--protocol", "speechrole", "--paper-out", out, sr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	tex, err := os.ReadFile(filepath.Join(out, "speechrole-judge.tex"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"agent", `\textit{paper: GPT-4o Audio}`, "PeC"} {
		if !strings.Contains(string(tex), want) {
			t.Errorf("speechrole-judge.tex lacks %q", want)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "figures", "speechrole-judge.png")); err != nil {
		t.Error(err)
	}
}

// readManifest decodes dir/manifest.json into v and returns its bytes (for
// failure messages); a missing or malformed manifest fails t.
func readManifest(t *testing.T, dir string, v any) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", filepath.Join(dir, "manifest.json"), err)
	}
	return b
}

// manifestOutputs returns the outputs dir/manifest.json lists.
func manifestOutputs(t *testing.T, dir string) []string {
	t.Helper()
	var m struct {
		Outputs []string `json:"outputs"`
	}
	readManifest(t, dir, &m)
	return m.Outputs
}
