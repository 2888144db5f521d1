package report

import (
	"fmt"
	"math"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/persona/llmverify"
	"github.com/roleprint/roleprint/plots/paperfig"
)

// paperTable1 is the seed paper's Table 1 (ACC, F1 ×100 for the
// conversation view, then the utterances view; NaN where it has none), by
// level and verifier.
var paperTable1 = map[pairs.Level][]struct {
	who string
	v   [4]float64
}{
	pairs.Base: {{"Human", [4]float64{67.48, 67.68, 56.50, 58.77}}, {"zero-shot", [4]float64{59.59, 62.85, 55.37, 57.29}},
		{"cot", [4]float64{70.58, 70.59, 56.41, 59.20}}, {"2-shot", [4]float64{71.43, 72.69, 56.62, 59.95}},
		{"4-shot", [4]float64{72.97, 73.03, 56.59, 59.64}}, {"6-shot", [4]float64{73.61, 73.12, 56.97, 60.07}}},
	pairs.Hard: {{"Human", [4]float64{63.34, 64.02, 54.92, 58.32}}, {"zero-shot", [4]float64{57.33, 62.14, 54.69, 57.85}},
		{"cot", [4]float64{68.28, 68.57, 55.26, 58.85}}, {"2-shot", [4]float64{70.85, 70.92, 55.38, 58.73}},
		{"4-shot", [4]float64{72.37, 72.40, 55.54, 58.80}}, {"6-shot", [4]float64{72.56, 72.51, 55.81, 58.82}}},
	pairs.Harder: {{"Human", [4]float64{math.NaN(), math.NaN(), 73.28, 74.12}}, {"zero-shot", [4]float64{math.NaN(), math.NaN(), 41.05, 42.93}},
		{"cot", [4]float64{math.NaN(), math.NaN(), 47.26, 42.00}}, {"2-shot", [4]float64{math.NaN(), math.NaN(), 49.38, 43.14}},
		{"4-shot", [4]float64{math.NaN(), math.NaN(), 46.54, 45.50}}, {"6-shot", [4]float64{math.NaN(), math.NaN(), 49.06, 40.60}}},
}

// Table1 returns an LLM verifier's results like the seed paper's Table 1:
// a row per prompting, accuracy and F1 ×100 for the conversation and the
// utterances view, the best of each column in bold, and with paper true
// the paper's rows for the level the pairs come from (level "" for none)
// in italics (its ChatGPT and human verifiers).
func Table1(model string, results []*llmverify.Result, level pairs.Level, paper bool) *Table {
	t := &Table{Name: "table1", Scale: 100,
		Title:   fmt.Sprintf("Table 1 (RolePrint): %s as verifier.", model),
		Columns: []string{"Prompting", "Conversation ACC", "Conversation F1", "Utterances ACC", "Utterances F1"},
		Best:    []Best{BestNone, BestMax, BestMax, BestMax, BestMax}}
	var order []string
	byKey := map[string]*llmverify.Result{}
	for _, r := range results {
		if _, ok := byKey[r.Prompting+"|"]; !ok {
			byKey[r.Prompting+"|"] = r
			order = append(order, r.Prompting)
		}
		byKey[r.Prompting+"|"+string(r.View)] = r
	}
	for _, p := range order {
		row := Row{Cells: []Cell{Text(p)}}
		for _, v := range []llmverify.View{llmverify.Conversation, llmverify.Utterances} {
			if r, ok := byKey[p+"|"+string(v)]; ok {
				row.Cells = append(row.Cells, Num(value(r.Accuracy)), Num(value(r.F1)))
			} else {
				row.Cells = append(row.Cells, NaNCell(), NaNCell())
			}
		}
		t.Rows = append(t.Rows, row)
	}
	if rows, ok := paperTable1[level]; ok && paper {
		for i, p := range rows {
			r := Row{Paper: true, Cells: []Cell{Text("paper: " + map[bool]string{true: p.who, false: "ChatGPT " + p.who}[p.who == "Human"])}}
			if i == 0 {
				r.Group = "The paper, " + paperfig.LevelName(string(level)) + " level"
			}
			for _, v := range p.v {
				r.Cells = append(r.Cells, Num(v/100))
			}
			t.Rows = append(t.Rows, r)
		}
	}
	return t
}
