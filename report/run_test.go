package report

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/plots"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv/table2"
)

// writeTable2Run writes a small Table 2 run's figures, tables and page
// into a temporary folder.
func writeTable2Run(t *testing.T, formats []plots.Format) (*Writer, string) {
	t.Helper()
	res, err := table2Run()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	w, err := NewWriter(dir, formats)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteTable2(w, res, true); err != nil {
		t.Fatal(err)
	}
	if errs := w.Errors(); len(errs) > 0 {
		t.Fatalf("figures left out: %v", errs)
	}
	if _, err := w.WriteHTML(Page{Title: "test run", Command: []string{"roleprint", "reproduce"},
		Facts: [][2]string{{"Rounds", "2"}}, Manifest: map[string]any{"seeds": []int{1, 2}}}); err != nil {
		t.Fatal(err)
	}
	return w, dir
}

func TestWriteTable2(t *testing.T) {
	w, dir := writeTable2Run(t, []plots.Format{plots.PNG, plots.SVG, plots.PDF})
	var names []string
	for _, f := range w.Figures() {
		names = append(names, f.Name)
		if len(f.Files) != 3 {
			t.Errorf("%s: files %v", f.Name, f.Files)
		}
	}
	if got := strings.Join(names, ","); got != "table2-bars-base,table2-bars-hard,table2-bars-harder,roc-base,roc-hard,roc-harder,level-drop" {
		t.Errorf("figures %s", got)
	}
	// ROC panels are two columns wide at 300 DPI.
	b, err := os.ReadFile(filepath.Join(dir, "figures", "roc-base.png"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	if err != nil || cfg.Width != 2100 {
		t.Errorf("roc png %v, width %d (want 2100: 7 in at 300 DPI)", err, cfg.Width)
	}
	tex, err := os.ReadFile(filepath.Join(dir, "table2.tex"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(tex)
	for _, want := range []string{`\begin{table*}`, `\multicolumn{13}{l}{\textit{Base level}}`, `\textit{paper: LIWC}`, "mixed", `\textbf{`} {
		if !strings.Contains(s, want) {
			t.Errorf("table2.tex lacks %q", want)
		}
	}
	if n := strings.Count(s, `\textit{paper: LIWC}`); n != 3 {
		t.Errorf("%d paper LIWC rows, want one per level", n)
	}
	page, err := os.ReadFile(filepath.Join(dir, HTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<img src="figures/roc-base.svg"`, `<table class="rp-table" id="table2">`, "&#34;seeds&#34;", "<em>"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
}

// TestLaTeXCompiles compiles a minimal document that \inputs each table
// with pdflatex (Debian's texlive), when installed.
func TestLaTeXCompiles(t *testing.T) {
	pdflatex, err := exec.LookPath("pdflatex")
	if err != nil {
		t.Skip("pdflatex not installed (apt-get install texlive-latex-base texlive-latex-recommended)")
	}
	w, dir := writeTable2Run(t, nil)
	tables := append([]*Table{sample()}, everyTable()...)
	tables = append(tables, w.Tables()...)
	var inputs []string
	for _, tb := range tables {
		if err := w.Table(tb); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, tb.Name+".tex")
	}
	all := filepath.Join(dir, "tables.tex")
	if err := w.WriteLaTeX(all); err != nil {
		t.Fatal(err)
	}
	inputs = append(inputs, "tables.tex")
	doc := filepath.Join(dir, "doc.tex")
	if err := os.WriteFile(doc, []byte(LaTeXDocument(inputs...)), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, pdflatex, "-interaction=nonstopmode", "-halt-on-error", "doc.tex")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("pdflatex: %v\n%s", err, tail(out, 3000))
	}
	if st, err := os.Stat(filepath.Join(dir, "doc.pdf")); err != nil || st.Size() < 1000 {
		t.Fatalf("no PDF: %v", err)
	}
	if bytes.Contains(out, []byte("Missing character")) {
		t.Errorf("pdflatex dropped characters:\n%s", tail(out, 2000))
	}
}

func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}

// TestReportHTMLInBrowser renders report.html in headless Chromium (when
// installed) and checks, from the page's own script, that every figure
// loaded with a non-zero natural width.
func TestReportHTMLInBrowser(t *testing.T) {
	chromium := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			chromium = p
			break
		}
	}
	if chromium == "" {
		t.Skip("no headless browser installed (apt-get install chromium)")
	}
	w, dir := writeTable2Run(t, []plots.Format{plots.PNG, plots.SVG})
	figures := len(w.Figures())
	dom := dumpDOM(t, chromium, filepath.Join(dir, HTMLFile))
	m := regexp.MustCompile(`<body[^>]*data-figures="(\w+)"[^>]*>`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("the page's check did not run (no data-figures on <body>):\n%s", tail([]byte(dom), 1500))
	}
	if m[1] != "loaded" {
		t.Fatalf("figures %s: %s", m[1], m[0])
	}
	if want := `data-figures-ok="` + itoa(figures) + `"`; !strings.Contains(m[0], want) {
		t.Errorf("body %s, want %s", m[0], want)
	}
	// A broken figure is reported as such.
	if err := os.Remove(filepath.Join(dir, "figures", "level-drop.svg")); err != nil {
		t.Fatal(err)
	}
	dom = dumpDOM(t, chromium, filepath.Join(dir, HTMLFile))
	if !strings.Contains(dom, `data-figures="broken"`) {
		t.Errorf("a missing figure was not reported broken:\n%s", tail([]byte(dom), 600))
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// dumpDOM loads path in headless Chromium and returns the DOM after load.
func dumpDOM(t *testing.T, chromium, path string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	profile := t.TempDir()
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--user-data-dir="+profile, "--allow-file-access-from-files", "--virtual-time-budget=5000", "--dump-dom", "file://"+path)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, tail(stderr.Bytes(), 2000))
	}
	return stdout.String()
}

// TestTable2FigureRules checks every figure of a reproduce run against the
// rules a paper's figures follow: one legend per figure, the series of a
// panel distinct in colour and dashes, a row in the same look in every
// figure, one y range across the panels of a figure, a chance line on
// every AUC and ROC panel, and no paper marks unless asked for.
func TestTable2FigureRules(t *testing.T) {
	w, _ := writeTable2Run(t, []plots.Format{plots.PNG})
	looks := map[string]string{}
	for _, ff := range w.Figures() {
		lay, err := plots.Inspect(ff.Figure, w.FigureOptions.Size(ff.Width, 0.42))
		if err != nil {
			t.Fatalf("%s: %v", ff.Name, err)
		}
		if lay.Legends != 1 {
			t.Errorf("%s: %d legends, want one", ff.Name, lay.Legends)
		}
		for i, p := range lay.Panels {
			if !p.Chance {
				t.Errorf("%s panel %d: no chance line", ff.Name, i)
			}
			if p.YMin != lay.Panels[0].YMin || p.YMax != lay.Panels[0].YMax {
				t.Errorf("%s panel %d: y [%g, %g], panel 0 [%g, %g]", ff.Name, i, p.YMin, p.YMax, lay.Panels[0].YMin, lay.Panels[0].YMax)
			}
			inPanel := map[string]string{}
			for _, s := range p.Series {
				k := fmt.Sprint(s.Color, s.Dashes)
				if other, ok := inPanel[k]; ok {
					t.Errorf("%s panel %d: %s and %s look alike", ff.Name, i, other, s.Name)
				}
				inPanel[k] = s.Name
				if prev, ok := looks[s.Name]; ok && prev != fmt.Sprint(s.Color) {
					t.Errorf("%s: row %s changes colour between figures", ff.Name, s.Name)
				}
				looks[s.Name] = fmt.Sprint(s.Color)
			}
		}
		if b, ok := ff.Figure.(*plots.Bars); ok && b.Reference != nil {
			t.Errorf("%s: paper marks drawn on a corpus the paper did not use", ff.Name)
		}
	}
	if len(looks) < 2 {
		t.Errorf("rows drawn: %v", looks)
	}
}

// TestFigureRows: the default selection is the best untuned and the best
// fine-tuned row and one row per paper counterpart; a row identical to a
// selected one is drawn once; named rows are added; unknown names fail.
func TestFigureRows(t *testing.T) {
	res := &table2.Result{}
	auc := map[string]float64{"liwc": 0.55, "lsm": 0.56, "tfidf": 0.8, "mixed": 0.7, "tfidf_ft": 0.82, "mixed_ft": 0.85, "ngram-metric_ft": 0.85}
	for _, enc := range []string{"liwc", "lsm", "tfidf", "mixed", "tfidf_ft", "mixed_ft", "ngram-metric_ft"} {
		for _, l := range pairs.Levels {
			for _, e := range pairs.Exposures {
				res.Rows = append(res.Rows, table2.Row{Encoder: enc, Exposure: string(e), Level: string(l), AUCMean: stats.Float(auc[enc]),
					AUCStd: 0.01, ACCMean: stats.Float(auc[enc]), F1Mean: stats.Float(auc[enc])})
			}
		}
	}
	rows, same, err := FigureRows(res, nil)
	if err != nil {
		t.Fatal(err)
	}
	// tfidf: best untuned; mixed_ft: best fine-tuned and, of mixed and
	// mixed_ft, the better beside Mixed Features; lsm beside LIWC.
	if got := strings.Join(rows, ","); got != "lsm,tfidf,mixed_ft" || len(same) != 0 {
		t.Errorf("rows %s, same %v", got, same)
	}
	rows, same, err = FigureRows(res, []string{"ngram-metric_ft"})
	if err != nil || strings.Join(rows, ",") != "lsm,tfidf,mixed_ft" || strings.Join(same, ";") != "ngram-metric_ft = mixed_ft" {
		t.Errorf("with a row identical to mixed_ft: rows %v, same %v, %v", rows, same, err)
	}
	rows, _, err = FigureRows(res, []string{"liwc"})
	if err != nil || strings.Join(rows, ",") != "liwc,lsm,tfidf,mixed_ft" {
		t.Errorf("with liwc: %v %v", rows, err)
	}
	if _, _, err := FigureRows(res, []string{"nope"}); err == nil || !strings.Contains(err.Error(), "tfidf") {
		t.Errorf("unknown row: %v", err)
	}
	looks := RowLooks(res, []string{"lsm", "tfidf", "mixed_ft"})
	if looks["lsm"] != 0 || looks["tfidf"] != 1 || looks["mixed_ft"] != 2 || len(looks) != 7 {
		t.Errorf("looks %v", looks)
	}
}
