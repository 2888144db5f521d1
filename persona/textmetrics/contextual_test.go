package textmetrics

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// layersFixture is sv/neural's tiny RoBERTa with every layer's states:
// reference.json holds PyTorch's layer-1 token states of the pairs'
// sentences and BERTScore computed from them.
var layersFixture = filepath.Join("..", "..", "sv", "neural", "testdata", "onnx", "roberta-layers")

type layersReference struct {
	HiddenStates []struct {
		Text   string      `json:"text"`
		IDs    []int32     `json:"ids"`
		Layer  int         `json:"layer"`
		States [][]float32 `json:"states"`
	} `json:"hidden_states"`
	Pairs []struct {
		Candidate string `json:"candidate"`
		Reference string `json:"reference"`
	} `json:"pairs"`
	BERTScore []struct {
		Layer  int  `json:"layer"`
		IDF    bool `json:"idf"`
		Scores []struct {
			P         float64 `json:"p"`
			R         float64 `json:"r"`
			F         float64 `json:"f"`
			PRescaled float64 `json:"p_rescaled"`
			RRescaled float64 `json:"r_rescaled"`
			FRescaled float64 `json:"f_rescaled"`
		} `json:"scores"`
	} `json:"bertscore"`
}

func TestContextualBERTScoreMatchesPyTorch(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(layersFixture, "reference.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ref layersReference
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(layersFixture, "baseline.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	baselines, err := ReadBaselineTSV(f, "baseline.tsv")
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]TokenVectors{}
	for _, h := range ref.HiddenStates {
		special := make([]bool, len(h.IDs))
		special[0], special[len(special)-1] = true, true // <s> … </s>
		states[h.Text] = TokenVectors{IDs: h.IDs, Special: special, Vectors: h.States}
	}
	var cands, refs []TokenVectors
	for _, p := range ref.Pairs {
		cands, refs = append(cands, states[p.Candidate]), append(refs, states[p.Reference])
	}
	checked := 0
	for _, want := range ref.BERTScore {
		if want.Layer != ref.HiddenStates[0].Layer {
			continue // the reference holds layer 1's states
		}
		got, err := ContextualBERTScore(cands, refs, ContextualOptions{IDF: want.IDF})
		if err != nil {
			t.Fatal(err)
		}
		var worst float64
		for i, w := range want.Scores {
			r := baselines[want.Layer].Rescale(got[i])
			for _, d := range [][2]float64{{got[i].Precision, w.P}, {got[i].Recall, w.R}, {got[i].F, w.F},
				{r.Precision, w.PRescaled}, {r.Recall, w.RRescaled}, {r.F, w.FRescaled}} {
				worst = math.Max(worst, math.Abs(d[0]-d[1]))
			}
		}
		t.Logf("layer %d, idf %v: max |RolePrint − PyTorch| over P, R, F raw and rescaled = %.2g", want.Layer, want.IDF, worst)
		if worst > 1e-5 {
			t.Errorf("layer %d idf %v: differs from PyTorch by %g", want.Layer, want.IDF, worst)
		}
		checked++
	}
	if checked != 2 {
		t.Fatalf("checked %d settings, want 2", checked)
	}
}

func TestContextualBERTScoreByHand(t *testing.T) {
	// Candidate tokens x, y; reference tokens x, z; with [CLS]/[SEP]-like
	// specials around each (weight 0, matchable).
	e := func(v ...float32) []float32 { return v }
	cand := TokenVectors{IDs: []int32{0, 5, 6, 2}, Special: []bool{true, false, false, true},
		Vectors: [][]float32{e(1, 1, 0), e(1, 0, 0), e(0, 1, 0), e(0, 0, 1)}}
	ref := TokenVectors{IDs: []int32{0, 5, 7, 2}, Special: []bool{true, false, false, true},
		Vectors: [][]float32{e(0, 0, 1), e(2, 0, 0), e(0, 0, -1), e(0, 0, 1)}}
	got, err := ContextualBERTScore([]TokenVectors{cand}, []TokenVectors{ref}, ContextualOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// P: x→x 1, y→best of {x: 0, [CLS]: 0, z: 0, [SEP]: 0} = 0 → 0.5.
	// R: x→x 1, z→best of {[CLS]: 0, x: 0, y: 0, [SEP]: −1} = 0 → 0.5.
	if math.Abs(got[0].Precision-0.5) > 1e-9 || math.Abs(got[0].Recall-0.5) > 1e-9 || math.Abs(got[0].F-0.5) > 1e-9 {
		t.Fatalf("got %+v, want P = R = F = 0.5", got[0])
	}
	// idf over the one reference: ids 5 and 7 occur in it (df 1 → log(2/2) = 0),
	// id 6 not (log 2): precision weighs y only.
	got, _ = ContextualBERTScore([]TokenVectors{cand}, []TokenVectors{ref}, ContextualOptions{IDF: true})
	if math.Abs(got[0].Precision-0) > 1e-9 {
		t.Fatalf("idf precision %g, want 0 (only y, whose best cosine is 0, has weight)", got[0].Precision)
	}
	// A side with special tokens only scores 0.
	empty := TokenVectors{IDs: []int32{0, 2}, Special: []bool{true, true}, Vectors: [][]float32{e(1, 0, 0), e(0, 1, 0)}}
	got, _ = ContextualBERTScore([]TokenVectors{empty}, []TokenVectors{ref}, ContextualOptions{})
	if got[0] != (PRF{}) {
		t.Fatalf("empty candidate: %+v", got[0])
	}
	if _, err := ContextualBERTScore([]TokenVectors{{IDs: []int32{1}}}, []TokenVectors{ref}, ContextualOptions{}); err == nil {
		t.Fatal("ids without vectors accepted")
	}
}

func TestPublishedBaselines(t *testing.T) {
	// bert_score's en/roberta-large.tsv, layer 17 (its default layer).
	b, ok := PublishedBaseline("en", "FacebookAI/roberta-large", 17)
	if !ok || b.P != 0.83150584 || b.R != 0.8314941 || b.F != 0.83122575 || !strings.Contains(b.Source, "en/roberta-large.tsv") {
		t.Fatalf("roberta-large layer 17: %+v %v", b, ok)
	}
	if l, ok := DefaultLayer("FacebookAI/roberta-large"); !ok || l != 17 {
		t.Fatalf("default layer of roberta-large: %d %v", l, ok)
	}
	if l, ok := DefaultLayer("google-bert/bert-base-chinese@main"); !ok || l != 8 {
		t.Fatalf("default layer of bert-base-chinese: %d %v", l, ok)
	}
	if _, ok := DefaultLayer("someone/roberta-large"); ok {
		t.Fatal("a fine-tune under another organisation took roberta-large's layer")
	}
	if _, ok := PublishedBaseline("zh", "FacebookAI/roberta-large", 17); ok {
		t.Fatal("a Chinese baseline for roberta-large")
	}
	if n := len(PublishedBaselineModels("en")); n < 30 {
		t.Fatalf("%d English baselines embedded", n)
	}
	r := Baseline{P: 0.8, R: 0.6, F: 0.5}.Rescale(PRF{Precision: 0.9, Recall: 0.6, F: 0.75})
	if math.Abs(r.Precision-0.5) > 1e-12 || r.Recall != 0 || math.Abs(r.F-0.5) > 1e-12 {
		t.Fatalf("rescale: %+v", r)
	}
	for _, bad := range []string{"", "LAYER,P,R,F\n", "L,P\n0,1,2\n", "LAYER,P,R,F\n0,0.1,0.2\n", "LAYER,P,R,F\nx,0.1,0.2,0.3\n",
		"LAYER,P,R,F\n0,0.1,0.2,1.5\n", "LAYER,P,R,F\n0,0.1,0.2,0.3\n0,0.1,0.2,0.3\n"} {
		if _, err := ReadBaselineTSV(strings.NewReader(bad), "b.tsv"); err == nil || !strings.Contains(err.Error(), "b.tsv") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestScriptLanguage(t *testing.T) {
	for text, want := range map[string]string{
		"hello there": "en", "我们今天去学校吗？": "zh", "李雷: ok, 我们走吧": "zh", "Sheldon: 你好 everyone here": "en", "": "en", "123 !": "en",
	} {
		if got := ScriptLanguage(text); got != want {
			t.Errorf("ScriptLanguage(%q) = %s, want %s", text, got, want)
		}
	}
	if m, ok := DedupModelFor("zh"); !ok || m.Threshold != 0.85 || m.Model != "BAAI/bge-small-zh-v1.5" {
		t.Fatalf("zh: %+v", m)
	}
}
