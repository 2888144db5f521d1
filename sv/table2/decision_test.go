package table2

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/stats"
)

// levelRound builds one round's corpus and scores where Base pairs score
// low (same 0.4, different 0.1) and Hard and Harder pairs high (same 0.8,
// different 0.5), with nBase Base dev couples and nHard Hard and Harder
// dev couples each: rounds that differ only in their dev mix of levels.
func levelRound(nBase, nHard int) (*pairs.PairCorpus, *pairScores) {
	c := &pairs.PairCorpus{Sets: map[string]*pairs.UtteranceSet{}, Tests: map[pairs.TestKey][]pairs.Pair{}}
	s := &pairScores{Tests: map[string][]float64{}}
	score := func(l pairs.Level, label int8) float64 {
		hi := map[bool]float64{true: 0.4, false: 0.1}
		if l != pairs.Base {
			hi = map[bool]float64{true: 0.8, false: 0.5}
		}
		return hi[label == 1]
	}
	couples := func(l pairs.Level, n int, ps *[]pairs.Pair, sc *[]float64) {
		for i := 0; i < n; i++ {
			for _, y := range []int8{1, 0} {
				*ps = append(*ps, pairs.Pair{ID: fmt.Sprint(len(*ps)), A: "a", B: "b", Label: y, Level: l})
				*sc = append(*sc, score(l, y))
			}
		}
	}
	couples(pairs.Base, nBase, &c.Dev, &s.Dev)
	couples(pairs.Hard, nHard, &c.Dev, &s.Dev)
	couples(pairs.Harder, nHard, &c.Dev, &s.Dev)
	for _, k := range allTestKeys() {
		var ps []pairs.Pair
		var sc []float64
		couples(k.Level, 10, &ps, &sc)
		c.Tests[k], s.Tests[k.String()] = ps, sc
	}
	return c, s
}

// TestDecisionRulePerLevelHoldsAcrossRounds fixes the decision rule: each
// test set's ACC is at the threshold chosen on the dev pairs of its level.
// Round 1's dev pairs are mostly Hard/Harder, round 2's mostly Base: one
// threshold on all dev pairs would land among the Hard scores in round 1
// (every Base positive rejected, Base ACC 0.5) and among the Base scores in
// round 2 (every Hard negative accepted), so Base and Hard ACC would swing
// between 0.5 and 1 across rounds at an AUC of 1. Per level both are 1 in
// both rounds.
func TestDecisionRulePerLevelHoldsAcrossRounds(t *testing.T) {
	var rounds []EncoderRound
	for r, mix := range [][2]int{{2, 20}, {20, 2}} {
		c, s := levelRound(mix[0], mix[1])
		rr := &roundRunner{cfg: &Config{}, crit: stats.MaxAccuracy, corpus: c, round: r + 1}
		er := &EncoderRound{Round: r + 1, Encoder: "x", scores: s}
		rr.evaluate(er)
		pooled, _ := stats.BestThreshold(s.Dev, devLabels(c), stats.MaxAccuracy)
		if float64(er.Threshold) != pooled {
			t.Errorf("round %d: threshold %v, all dev pairs give %v", r+1, er.Threshold, pooled)
		}
		for _, k := range allTestKeys() {
			cell := er.Cells[k.String()]
			if cell.AUC != 1 || cell.ACC != 1 || cell.F1 != 1 {
				t.Errorf("round %d %s: AUC %v ACC %v F1 %v at threshold %v, want 1 1 1 (the level's dev threshold separates it)",
					r+1, k, cell.AUC, cell.ACC, cell.F1, cell.Threshold)
			}
			if cell.Threshold != er.Thresholds[string(k.Level)] {
				t.Errorf("round %d %s: cell threshold %v, level threshold %v", r+1, k, cell.Threshold, er.Thresholds[string(k.Level)])
			}
		}
		if len(er.ThresholdFallback) != 0 {
			t.Errorf("round %d: fallback %v, every level has dev pairs of both labels", r+1, er.ThresholdFallback)
		}
		rounds = append(rounds, *er)
	}
	rows := aggregateRows(rounds, []string{"x"}, stats.MaxAccuracy)
	for _, row := range rows {
		if row.ACCMean != 1 || row.ACCStd != 0 {
			t.Errorf("%s %s: ACC %v ± %v over rounds, want 1 ± 0", row.Exposure, row.Level, row.ACCMean, row.ACCStd)
		}
		if !strings.Contains(row.DecisionRule, pairs.Level(row.Level).Title()+" dev pairs") || strings.Contains(row.DecisionRule, "all") {
			t.Errorf("%s %s: decision_rule %q, want the level's dev pairs", row.Exposure, row.Level, row.DecisionRule)
		}
	}
}

// TestDecisionRuleFallsBackToAllDevPairs checks the rule's fallback: a
// level whose dev pairs lack a class (here: no Harder dev pairs, as for
// AnnoMI, and dev pairs without a level, as in pair folders written
// without the column) uses the threshold on all dev pairs, and the row
// says so.
func TestDecisionRuleFallsBackToAllDevPairs(t *testing.T) {
	c, s := levelRound(10, 10)
	var dev []pairs.Pair
	var ds []float64
	for i, p := range c.Dev {
		if p.Level != pairs.Harder {
			dev, ds = append(dev, p), append(ds, s.Dev[i])
		}
	}
	c.Dev, s.Dev = dev, ds
	rr := &roundRunner{cfg: &Config{}, crit: stats.MaxAccuracy, corpus: c, round: 1}
	er := &EncoderRound{Round: 1, Encoder: "x", scores: s}
	rr.evaluate(er)
	if len(er.ThresholdFallback) != 1 || er.ThresholdFallback[0] != string(pairs.Harder) {
		t.Fatalf("fallback %v, want [harder]", er.ThresholdFallback)
	}
	if er.Thresholds["harder"] != er.Threshold || er.Thresholds["base"] == er.Threshold && er.Thresholds["hard"] == er.Threshold {
		t.Errorf("thresholds %v, all dev pairs %v", er.Thresholds, er.Threshold)
	}
	rows := aggregateRows([]EncoderRound{*er}, []string{"x"}, stats.MaxAccuracy)
	for _, row := range rows {
		all := strings.Contains(row.DecisionRule, "on all the round's dev pairs")
		if all != (row.Level == "harder") {
			t.Errorf("%s: decision_rule %q", row.Level, row.DecisionRule)
		}
	}
	// Without levels every level falls back.
	for i := range c.Dev {
		c.Dev[i].Level = ""
	}
	rr.evaluate(er)
	if len(er.ThresholdFallback) != 3 {
		t.Errorf("dev pairs without levels: fallback %v, want every level", er.ThresholdFallback)
	}
}

// TestDecisionRuleKeys checks that the rule and the best-threshold
// accuracy are in the JSON rows and the Result, and in the CSV header.
func TestDecisionRuleKeys(t *testing.T) {
	c, s := levelRound(5, 5)
	rr := &roundRunner{cfg: &Config{}, crit: stats.MaxMacroF1, corpus: c, round: 1}
	er := &EncoderRound{Round: 1, Encoder: "x", scores: s}
	rr.evaluate(er)
	res := &Result{Rows: aggregateRows([]EncoderRound{*er}, []string{"x"}, stats.MaxMacroF1), PerRound: []EncoderRound{*er},
		DecisionRule: DecisionRule(stats.MaxMacroF1)}
	js, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		DecisionRule string           `json:"decision_rule"`
		Rows         []map[string]any `json:"rows"`
		PerRound     []map[string]any `json:"per_round"`
	}
	if err := json.Unmarshal(js, &got); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got.DecisionRule, string(stats.MaxMacroF1)) || !strings.Contains(got.DecisionRule, "level") {
		t.Errorf("decision_rule %q", got.DecisionRule)
	}
	for _, k := range []string{"decision_rule", "acc_best_mean", "acc_best_std", "best_acc_mean", "acc_mean"} {
		if _, ok := got.Rows[0][k]; !ok {
			t.Errorf("row lacks %q: %v", k, got.Rows[0])
		}
	}
	if got.Rows[0]["acc_best_mean"] != got.Rows[0]["best_acc_mean"] {
		t.Errorf("acc_best_mean %v, best_acc_mean %v", got.Rows[0]["acc_best_mean"], got.Rows[0]["best_acc_mean"])
	}
	if _, ok := got.PerRound[0]["thresholds"]; !ok {
		t.Errorf("per_round lacks thresholds: %v", got.PerRound[0])
	}
	var csv, md strings.Builder
	if err := res.WriteCSV(&csv); err != nil {
		t.Fatal(err)
	}
	if head, _, _ := strings.Cut(csv.String(), "\n"); !strings.HasSuffix(head, ",decision_rule") {
		t.Errorf("CSV header %q lacks decision_rule", head)
	}
	if err := res.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "Decision rule: "+res.DecisionRule) || !strings.Contains(md.String(), "Unseen-Unseen best ACC") {
		t.Errorf("table2.md lacks the rule or best ACC:\n%s", md.String())
	}
}

func devLabels(c *pairs.PairCorpus) []bool {
	out := make([]bool, len(c.Dev))
	for i, p := range c.Dev {
		out[i] = p.Label == 1
	}
	return out
}
