package report

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
	"github.com/roleprint/roleprint/sv/table2"
)

func sample() *Table {
	return &Table{Name: "t", Title: "T_1 & co", Columns: []string{"Model", "AUC ↑", "EER ↓", "Note"},
		Best: []Best{BestNone, BestMax, BestMin}, Scale: 100,
		Rows: []Row{
			{Group: "Base level", Cells: []Cell{Text("a_1"), NumStd(0.81234, 0.0123), Num(0.2), Text("50%")}},
			{Cells: []Cell{Text("b"), NumStd(0.79, 0.01), Num(0.1), Text("")}},
			{Cells: []Cell{Text("c"), NumStd(0.812301, 0.02), NaNCell()}},
			{Paper: true, Cells: []Cell{Text("paper: X"), NumStd(0.99, 0.01), Num(0.05)}},
		}}
}

func TestTableRoundingAndBest(t *testing.T) {
	tb := sample()
	if got := tb.Plain(0, 1); got != "81.23 ± 1.23" {
		t.Errorf("plain %q", got)
	}
	best := tb.bestRows()
	// a and c tie at 81.23 after rounding; the paper row's 99 is never best.
	if !best[1][0] || !best[1][2] || best[1][1] || best[1][3] {
		t.Errorf("AUC best rows %v", best[1])
	}
	if !best[2][1] || len(best[2]) != 1 {
		t.Errorf("EER best rows %v (want row 1, the smallest)", best[2])
	}
	if best[0] != nil || best[3] != nil {
		t.Error("columns without Best marked")
	}
	tex := tb.LaTeX()
	for _, want := range []string{`\textbf{81.23\,{\scriptsize$\pm$1.23}}`, `79.00\,{\scriptsize$\pm$1.00} &`, `\textit{99.00\,{\scriptsize$\pm$1.00}}`,
		`\textbf{10.00}`, `a\_1`, `50\%`, `T\_1 \& co`, `AUC $\uparrow$`, `\toprule`, `\multicolumn{4}{l}{\textit{Base level}}`, `\label{tab:t}`, ` -- `} {
		if !strings.Contains(tex, want) {
			t.Errorf("LaTeX lacks %q:\n%s", want, tex)
		}
	}
	h := tb.HTML()
	for _, want := range []string{"<strong>81.23 ± 1.23</strong>", `<tr class="paper">`, "<em>99.00 ± 1.00</em>", "a_1", "T_1 &amp; co"} {
		if !strings.Contains(h, want) {
			t.Errorf("HTML lacks %q:\n%s", want, h)
		}
	}
	md := tb.Markdown()
	if !strings.Contains(md, "| a_1 | **81.23 ± 1.23** | 20.00 | 50% |") || !strings.Contains(md, "*99.00 ± 1.00*") {
		t.Errorf("Markdown:\n%s", md)
	}
	if err := (&Table{Name: "x y", Columns: []string{"a"}}).Check(); err == nil {
		t.Error("name with a space accepted")
	}
	if err := (&Table{Name: "x", Columns: []string{"a"}, Rows: []Row{{Cells: []Cell{Num(1), Num(2)}}}}).Check(); err == nil {
		t.Error("row longer than the columns accepted")
	}
	if got := TeX("汤师爷 ~^"); got != `??? \textasciitilde{}\textasciicircum{}` {
		t.Errorf("TeX %q", got)
	}
	if !math.IsNaN(NaNCell().Value) {
		t.Error("missing cell is numeric")
	}
}

func TestParseFormats(t *testing.T) {
	f, err := ParseFormats(" PNG,pdf,png ")
	if err != nil || len(f) != 2 || f[0] != "png" || f[1] != "pdf" {
		t.Errorf("%v %v", f, err)
	}
	if f, err := ParseFormats("none"); err != nil || f != nil {
		t.Errorf("none: %v %v", f, err)
	}
	if _, err := ParseFormats("png,jpeg"); err == nil || !strings.Contains(err.Error(), "jpeg") {
		t.Errorf("jpeg: %v", err)
	}
}

func TestSpans(t *testing.T) {
	tb := &Table{Name: "s", Columns: []string{"Model", "AUC", "F1"}, Spans: []Span{{N: 1}, {Name: "Seen-Seen", N: 2}},
		Rows: []Row{{Cells: []Cell{Text("a"), Num(0.5), Num(0.4)}}}}
	if err := tb.Check(); err != nil {
		t.Fatal(err)
	}
	if tex := tb.LaTeX(); !strings.Contains(tex, `& \multicolumn{2}{c}{Seen-Seen} \\`) || !strings.Contains(tex, `\cmidrule(lr){2-3}`) {
		t.Errorf("LaTeX spans:\n%s", tex)
	}
	if h := tb.HTML(); !strings.Contains(h, `<th colspan="2">Seen-Seen</th>`) {
		t.Errorf("HTML spans:\n%s", h)
	}
	if md := tb.Markdown(); !strings.Contains(md, "| Model | Seen-Seen AUC | Seen-Seen F1 |") {
		t.Errorf("Markdown spans:\n%s", md)
	}
	tb.Spans = []Span{{Name: "x", N: 2}}
	if err := tb.Check(); err == nil {
		t.Error("spans that do not cover the columns accepted")
	}
}

// A split without a name or level (a hand-edited or older manifest) gives
// a row with an empty name, not a panic.
func TestTable5UnnamedSplit(t *testing.T) {
	tb := Table5(pairs.PairStatistics{Splits: []pairs.SplitStats{{Name: "dev", Speakers: 3, Pairs: 10}, {Speakers: 2, Pairs: 4}}}, false)
	if len(tb.Rows) != 2 || tb.Plain(0, 0) != "Dev" || tb.Plain(1, 0) != "" || tb.Plain(1, 2) != "4" {
		t.Fatalf("rows %+v", tb.Rows)
	}
}

// TestTable2OnePaperRowPerCounterpart builds Table 2 of two encoders that
// the paper's Mixed Features row stands beside (mixed, mixed_ft): one paper
// row per level, an AP column per exposure (none for the paper), and the
// best of each level in bold, not of the whole table.
func TestTable2OnePaperRowPerCounterpart(t *testing.T) {
	res := &table2.Result{}
	for ei, enc := range []string{"mixed", "mixed_ft"} {
		for li, l := range pairs.Levels {
			for _, e := range pairs.Exposures {
				v := stats.Float(0.9 - 0.2*float64(li) + 0.01*float64(ei))
				res.Rows = append(res.Rows, table2.Row{Encoder: enc, Exposure: string(e), Level: string(l),
					AUCMean: v, AUCStd: 0.01, AveragePrecisionMean: v - 0.05, AveragePrecisionStd: 0.01, ACCMean: v, ACCStd: 0.01, F1Mean: v, F1Std: 0.01})
			}
		}
	}
	if sv.PaperCounterpart("mixed") == "" || sv.PaperCounterpart("mixed") != sv.PaperCounterpart("mixed_ft") {
		t.Fatalf("fixture: mixed and mixed_ft should share a counterpart: %q %q", sv.PaperCounterpart("mixed"), sv.PaperCounterpart("mixed_ft"))
	}
	tab := Table2Table(res, Table2Options{Paper: true})
	tex := tab.LaTeX()
	if n := strings.Count(tex, "paper: "+sv.PaperCounterpart("mixed")); n != len(pairs.Levels) {
		t.Errorf("%d paper rows of %s, want one per level:\n%s", n, sv.PaperCounterpart("mixed"), tex)
	}
	if n := strings.Count(strings.Join(tab.Columns, ","), "AP"); n != len(pairs.Exposures) {
		t.Errorf("columns %v: want an AP column per exposure", tab.Columns)
	}
	html := tab.HTML()
	if !strings.Contains(html, "<th>AP</th>") || !strings.Contains(tab.Markdown(), "Seen-Seen AP") {
		t.Error("HTML or Markdown lacks the AP column")
	}
	// mixed_ft is best in every level; Hard and Harder are below Base
	// but still bold within their own level.
	best := tab.bestRows()
	boldRows := map[int]bool{}
	for r := range best[1] {
		boldRows[r] = true
	}
	var levelsBold int
	for r := range tab.Rows {
		if boldRows[r] {
			if tab.Plain(r, 0) != "mixed_ft" {
				t.Errorf("row %d (%s) bold in AUC", r, tab.Plain(r, 0))
			}
			levelsBold++
		}
	}
	if levelsBold != len(pairs.Levels) {
		t.Errorf("%d rows bold in the first AUC column, want one per level", levelsBold)
	}
}

// TestRemoveStale deletes only listed regular files inside the folder that
// the current run did not write.
func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "outside.txt")
	for _, f := range []string{"a.png", "b.png", "sub/c.tex", outside} {
		p := f
		if !filepath.IsAbs(f) {
			p = filepath.Join(dir, f)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"bundle/x.json", "kept/y.json"} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o755)
		os.WriteFile(filepath.Join(dir, f), []byte("x"), 0o644)
	}
	removed, err := RemoveStale(dir, []string{"a.png", "b.png", "sub/c.tex", "sub", "../" + filepath.Base(outside), outside, "link.txt", "gone.png",
		"bundle/", "kept/", "a.png/"}, []string{"a.png", "kept/"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(removed, ",") != "b.png,sub/c.tex,bundle/" {
		t.Errorf("removed %v, want b.png, sub/c.tex and the bundle/ folder", removed)
	}
	for _, keep := range []string{filepath.Join(dir, "a.png"), outside, filepath.Join(dir, "link.txt"), filepath.Join(dir, "sub"), filepath.Join(dir, "kept/y.json")} {
		if _, err := os.Lstat(keep); err != nil {
			t.Errorf("%s: %v", keep, err)
		}
	}
	// A manifest of another command lists nothing to remove.
	mf := filepath.Join(dir, "manifest.json")
	os.WriteFile(mf, []byte(`{"command":["roleprint","reproduce"],"outputs":["a.png"]}`), 0o644)
	if got, err := ManifestOutputs(mf, "score"); err != nil || got != nil {
		t.Errorf("reproduce's manifest read for score: %v %v", got, err)
	}
	if got, err := ManifestOutputs(mf, "reproduce"); err != nil || len(got) != 1 {
		t.Errorf("reproduce's manifest: %v %v", got, err)
	}
}

// TestTable2CaptionStatesDecisionRule checks that Table 2's caption (HTML
// and LaTeX) states the result's decision rule.
func TestTable2CaptionStatesDecisionRule(t *testing.T) {
	res := &table2.Result{DecisionRule: table2.DecisionRule(stats.MaxMacroF1)}
	for _, l := range pairs.Levels {
		for _, e := range pairs.Exposures {
			res.Rows = append(res.Rows, table2.Row{Encoder: "tfidf", Exposure: string(e), Level: string(l), AUCMean: 0.8, ACCMean: 0.7, F1Mean: 0.7})
		}
	}
	tab := Table2Table(res, Table2Options{})
	if !strings.Contains(tab.Caption, res.DecisionRule) {
		t.Errorf("caption %q lacks the rule %q", tab.Caption, res.DecisionRule)
	}
	if tex := tab.LaTeX(); !strings.Contains(tex, "macro_f1") && !strings.Contains(tex, `macro\_f1`) {
		t.Errorf("LaTeX lacks the rule's criterion:\n%s", tex)
	}
}
