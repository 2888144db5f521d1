package kernel

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/report"
)

func paperTable() *report.Table {
	return &report.Table{Name: "t2", Title: "Table 2", Columns: []string{"Model", "AUC"}, Best: []report.Best{report.BestNone, report.BestMax},
		Scale: 100, Rows: []report.Row{{Cells: []report.Cell{report.Text("tfidf"), report.NumStd(0.81234, 0.01)}},
			{Cells: []report.Cell{report.Text("liwc"), report.NumStd(0.6, 0.02)}},
			{Paper: true, Cells: []report.Cell{report.Text("paper: LIWC"), report.NumStd(0.5256, 0.0143)}}}}
}

// TestPaperTable checks that a paper table shows as HTML in a notebook with
// the rounding and marks of its LaTeX, prints as Markdown elsewhere, and is
// saved as .tex and .md.
func TestPaperTable(t *testing.T) {
	nb, fd, _, _ := testNotebook(t, true)
	if err := nb.PaperTable("t2", paperTable()); err != nil {
		t.Fatal(err)
	}
	if len(fd.html) != 1 || !strings.Contains(fd.html[0], "<strong>81.23 ± 1.00</strong>") || !strings.Contains(fd.html[0], "<em>52.56 ± 1.43</em>") {
		t.Fatalf("shown %v", fd.html)
	}
	tex, err := os.ReadFile(filepath.Join(nb.Dir, "tables", "t2.tex"))
	if err != nil || !strings.Contains(string(tex), `\textbf{81.23\,{\scriptsize$\pm$1.00}}`) || !strings.Contains(string(tex), `\textit{52.56\,{\scriptsize$\pm$1.43}}`) {
		t.Errorf("t2.tex (%v):\n%s", err, tex)
	}
	if _, err := os.Stat(filepath.Join(nb.Dir, "tables", "t2.md")); err != nil {
		t.Error(err)
	}
	nb2, _, stdout, _ := testNotebook(t, false)
	if err := nb2.Show(paperTable()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "| tfidf | **81.23 ± 1.00** |") {
		t.Errorf("outside a notebook:\n%s", stdout.String())
	}
	if err := nb.PaperTable("../x", paperTable()); err == nil {
		t.Error("bad name accepted")
	}
}
