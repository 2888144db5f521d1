package report

import (
	"fmt"
	"strings"

	"github.com/roleprint/roleprint/data/corpusstats"
	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/plots"
	"github.com/roleprint/roleprint/plots/paperfig"
)

// paperTable4 is the seed paper's Table 4 (speakers, utterances,
// conversations, average turns per conversation).
var paperTable4 = []struct {
	name                        string
	speakers, utterances, convs int
	avgTurn                     float64
}{
	{"Cornell Movie Dialogs", 274, 23496, 1984, 20.61},
	{"Friends Conversation", 37, 38505, 2077, 32.50},
	{"Harry Potter Conversation", 20, 13534, 755, 29.80},
	{"the Big Bang Theory Conversation", 23, 29762, 1727, 25.86},
	{"Multiple Sessions Conversation", 1767, 54846, 4655, 12.41},
	{"AnnoMI", 34, 2401, 310, 15.50},
	{"Total", 2155, 162544, 11508, 20.77},
}

// paperTable5 is the seed paper's Table 5 (speakers and pairs per split).
var paperTable5 = map[string][2]int{
	"train": {2120, 184372}, "dev": {515, 1278},
	"seen-seen-base": {1874, 3528}, "seen-unseen-base": {1924, 4312}, "unseen-unseen-base": {30, 554},
	"seen-seen-hard": {1683, 3326}, "seen-unseen-hard": {1794, 3987}, "unseen-unseen-hard": {30, 554},
	"seen-seen-harder": {1107, 2160}, "seen-unseen-harder": {1082, 4138}, "unseen-unseen-harder": {25, 488},
}

func count(n int) Cell { return Text(thousands(n)) }

// thousands writes n with comma separators, like the paper.
func thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Table4 returns the corpus statistics like the seed paper's Table 4: a
// row per dataset and the total (speakers, utterances, conversations,
// utterances per conversation), with the paper's rows in italics when
// paper is true.
func Table4(st *corpusstats.Stats, paper bool) *Table {
	t := &Table{Name: "table4", Title: "Table 4 (RolePrint): data statistics.",
		Columns: []string{"Dataset", "Speakers", "Utterances", "Conversations", "Avg. turn"}, Digits: 2}
	add := func(s corpusstats.Summary) {
		t.Rows = append(t.Rows, Row{Cells: []Cell{Text(s.Name), count(s.Speakers), count(s.Utterances), count(s.Conversations), Num(s.UtterancesPerConversation)}})
	}
	for _, d := range st.Datasets {
		add(d)
	}
	total := st.Summary
	total.Name = "Total"
	add(total)
	if paper {
		for i, p := range paperTable4 {
			r := Row{Paper: true, Cells: []Cell{Text("paper: " + p.name), count(p.speakers), count(p.utterances), count(p.convs), Num(p.avgTurn)}}
			if i == 0 {
				r.Group = "The paper"
			}
			t.Rows = append(t.Rows, r)
		}
		t.Rows[0].Group = "RolePrint"
	}
	return t
}

// Table5 returns the pair statistics like the seed paper's Table 5: per
// split the speakers and pairs (balanced 1:1), with the paper's numbers
// beside ours when paper is true.
func Table5(st pairs.PairStatistics, paper bool) *Table {
	t := &Table{Name: "table5", Title: "Table 5 (RolePrint): pairs per split (1:1 positive:negative).",
		Columns: []string{"Split", "Speakers", "Pairs"}}
	if paper {
		t.Columns = append(t.Columns, "Paper speakers", "Paper pairs")
	}
	for _, s := range st.Splits {
		name := s.Name
		if s.Level != "" {
			name = paperfig.LevelName(string(s.Level)) + " " + paperfig.ExposureName(string(s.Exposure))
		} else if name != "" {
			name = strings.ToUpper(name[:1]) + name[1:]
		}
		r := Row{Cells: []Cell{Text(name), count(s.Speakers), count(s.Pairs)}}
		if paper {
			if p, ok := paperTable5[s.Name]; ok {
				r.Cells = append(r.Cells, count(p[0]), count(p[1]))
			} else {
				r.Cells = append(r.Cells, NaNCell(), NaNCell())
			}
		}
		t.Rows = append(t.Rows, r)
	}
	if paper {
		t.Caption = "The paper's columns: its own corpora (Cornell, Friends, Harry Potter, TBBT, MSC, AnnoMI)."
	}
	return t
}

// WritePairs writes the pairs job's Table 5 figure (test pairs per
// exposure and level) and table5.tex/.md.
func WritePairs(w *Writer, st pairs.PairStatistics, paper bool) error {
	w.TryFigure("table5-pairs", "Table 5: test pairs per exposure and level (each split balanced 1:1).",
		func() (plots.Figure, error) { return paperfig.PairBars(st) }, OneColumn, 0.75)
	return w.Table(Table5(st, paper))
}

// StatsBars draws Table 4 as two panels: utterances and average turns per
// conversation for each dataset.
func StatsBars(st *corpusstats.Stats) (*plots.Grid, error) {
	if len(st.Datasets) == 0 {
		return nil, fmt.Errorf("report: the statistics have no datasets")
	}
	var panels []plots.Figure
	for _, m := range []struct {
		label string
		v     func(corpusstats.Summary) float64
	}{
		{"Utterances", func(s corpusstats.Summary) float64 { return float64(s.Utterances) }},
		{"Utterances per conversation", func(s corpusstats.Summary) float64 { return s.UtterancesPerConversation }},
	} {
		bt := plots.BarTable{Series: []string{m.label}, Y: [][]float64{nil}}
		for _, d := range st.Datasets {
			bt.Groups = append(bt.Groups, d.Name)
			bt.Y[0] = append(bt.Y[0], m.v(d))
		}
		b, err := plots.NewBars(bt)
		if err != nil {
			return nil, err
		}
		b.YLabel = m.label
		b.YMin = 0
		b.Legend = plots.LegendHidden
		panels = append(panels, b)
	}
	return plots.NewGrid(2, panels...)
}

// WriteStats writes the stats job's Table 4 figure and table4.tex/.md.
func WriteStats(w *Writer, st *corpusstats.Stats, paper bool) error {
	w.TryFigure("table4-datasets", "Table 4: utterances and utterances per conversation for each dataset.",
		func() (plots.Figure, error) { return StatsBars(st) }, TwoColumn, 0.4)
	return w.Table(Table4(st, paper))
}
