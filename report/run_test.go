package report

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/roleprint/roleprint/plots"
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
