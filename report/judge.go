package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/roleprint/roleprint/plots"
	"gonum.org/v1/plot/plotter"
)

// JudgeSystem is one system's mean judge scores, for JudgeTable.
type JudgeSystem struct {
	System  string
	N       int
	Scores  map[string]float64
	Overall float64
}

// paperSpeechRoleEN is SpeechRole's Table 2, English block (IA CC SF SN PC
// EA PeC KC Overall; ratios, 1.0 = as good as the references).
var paperSpeechRoleEN = []struct {
	model string
	v     []float64
}{
	{"Alibaba Cloud API", []float64{0.904, 0.959, 0.895, 0.815, 0.823, 0.797, 0.826, 0.909, 0.866}},
	{"GPT-4o Audio", []float64{0.813, 1.023, 1.098, 1.021, 0.900, 0.816, 0.774, 0.922, 0.921}},
	{"Qwen3-8B", []float64{0.935, 0.893, 0.920, 0.895, 0.924, 0.943, 0.927, 0.906, 0.918}},
	{"Llama-3.1-8B", []float64{0.949, 0.958, 0.975, 0.970, 0.966, 0.964, 0.951, 0.920, 0.957}},
	{"Mistral-7B", []float64{0.827, 0.903, 0.959, 0.865, 0.859, 0.810, 0.786, 0.867, 0.859}},
	{"LLaMA-Omni", []float64{0.609, 0.766, 0.690, 0.538, 0.560, 0.502, 0.512, 0.708, 0.611}},
	{"Qwen2.5-Omni", []float64{0.471, 0.666, 0.743, 0.656, 0.550, 0.452, 0.388, 0.613, 0.568}},
	{"SpeechRole-Agent", []float64{0.721, 0.939, 1.001, 0.861, 0.753, 0.660, 0.591, 0.882, 0.801}},
}

var speechRoleCodes = []string{"IA", "CC", "SF", "SN", "PC", "EA", "PeC", "KC"}

// paperVoxRoleTable3 is VoxRole's Table 3 (likeness personality linguistic
// relation coherence acoustic overall; 1–5).
var paperVoxRoleTable3 = []struct {
	model string
	v     []float64
}{
	{"Qwen2.5-Omni", []float64{3.54, 3.67, 3.97, 3.79, 4.33, 3.00, 3.72}},
	{"GLM-4-Voice", []float64{3.46, 3.49, 3.70, 3.62, 3.98, 3.03, 3.55}},
	{"Baichuan-Audio", []float64{2.96, 3.17, 3.47, 3.23, 3.68, 3.11, 3.27}},
	{"MiniCPM", []float64{2.78, 2.94, 3.00, 3.01, 3.33, 2.90, 2.99}},
	{"Step-Audio", []float64{3.33, 3.54, 3.74, 3.57, 3.98, 3.43, 3.60}},
	{"GPT-4o", []float64{4.22, 4.37, 4.45, 4.36, 4.48, 3.82, 4.28}},
	{"Gemini-2.5-flash", []float64{3.62, 3.78, 4.01, 3.81, 4.16, 3.28, 3.78}},
}

var voxRoleCodes = []string{"likeness", "personality", "linguistic", "relation", "coherence", "acoustic"}

// JudgeTable returns judge scores per system and dimension like
// SpeechRole's Table 2 (protocol "speechrole": ratios to the references,
// three decimals) or VoxRole's Table 3 ("voxrole": 1–5, two decimals),
// the best of each column in bold and, with paper true, the paper's rows
// in italics when our dimensions are the paper's.
func JudgeTable(protocol, judgeName string, dims []string, systems []JudgeSystem, paper bool) *Table {
	t := &Table{Name: protocol + "-judge", Digits: 2,
		Title: fmt.Sprintf("%s judge scores (judge %s).", map[string]string{"speechrole": "SpeechRole Table 2 style:", "voxrole": "VoxRole Table 3 style:"}[protocol], judgeName)}
	if protocol == "speechrole" {
		t.Digits = 3
	}
	t.Columns = append(append([]string{"System"}, dims...), "Overall", "N")
	t.Best = []Best{BestNone}
	for range dims {
		t.Best = append(t.Best, BestMax)
	}
	t.Best = append(t.Best, BestMax, BestNone)
	for _, s := range systems {
		r := Row{Cells: []Cell{Text(s.System)}}
		for _, d := range dims {
			v, ok := s.Scores[d]
			if !ok {
				v = math.NaN()
			}
			r.Cells = append(r.Cells, Num(v))
		}
		r.Cells = append(r.Cells, Num(s.Overall), Text(fmt.Sprint(s.N)))
		t.Rows = append(t.Rows, r)
	}
	t.Wide = len(t.Columns) > 7
	if !paper {
		return t
	}
	codes, rows := speechRoleCodes, paperSpeechRoleEN
	if protocol == "voxrole" {
		codes, rows = voxRoleCodes, paperVoxRoleTable3
	} else if protocol != "speechrole" {
		return t
	}
	if strings.Join(dims, ",") != strings.Join(codes, ",") {
		return t
	}
	for _, p := range rows {
		r := Row{Paper: true, Cells: []Cell{Text("paper: " + p.model)}}
		for _, v := range p.v {
			r.Cells = append(r.Cells, Num(v))
		}
		t.Rows = append(t.Rows, r)
	}
	t.Caption = "Italics: the paper's published scores (its systems, its data and its LLM judge)."
	return t
}

// JudgeBars draws judge scores as grouped bars: dimensions (and Overall)
// along x, one bar per system.
func JudgeBars(dims []string, systems []JudgeSystem) (*plots.Bars, error) {
	if len(systems) == 0 {
		return nil, fmt.Errorf("report: no systems judged")
	}
	bt := plots.BarTable{Groups: append(append([]string(nil), dims...), "Overall")}
	for _, s := range systems {
		var ys []float64
		for _, d := range dims {
			v, ok := s.Scores[d]
			if !ok {
				v = math.NaN()
			}
			ys = append(ys, v)
		}
		bt.Series = append(bt.Series, s.System)
		bt.Y = append(bt.Y, append(ys, s.Overall))
	}
	b, err := plots.NewBars(bt)
	if err != nil {
		return nil, err
	}
	b.YLabel = "Judge score"
	return b, nil
}

// AblationTable returns VoxRole's Table 4 shape: the mean judge score of
// one agent at each context length, best in bold.
func AblationTable(agent string, ks []int, overall []float64) *Table {
	t := &Table{Name: "context-ablation", Title: "Context-length ablation (VoxRole Table 4 style): mean judge score.", Columns: []string{"Context length"}}
	r := Row{Cells: []Cell{Text(agent)}}
	t.Best = []Best{BestNone}
	for i, k := range ks {
		t.Columns = append(t.Columns, fmt.Sprint(k))
		t.Best = append(t.Best, BestNone)
		v := math.NaN()
		if i < len(overall) {
			v = overall[i]
		}
		r.Cells = append(r.Cells, Num(v))
	}
	t.Rows = []Row{r}
	return t
}

// AblationLines draws the mean judge score against the context length.
func AblationLines(agent string, ks []int, overall []float64) (*plots.Lines, error) {
	var xy plotter.XYs
	for i, k := range ks {
		if i < len(overall) {
			xy = append(xy, plotter.XY{X: float64(k), Y: overall[i]})
		}
	}
	l, err := plots.NewLines(plots.LineSeries{Name: agent, XY: xy})
	if err != nil {
		return nil, err
	}
	l.XLabel, l.YLabel = "Context length (turns)", "Mean judge score"
	return l, nil
}
