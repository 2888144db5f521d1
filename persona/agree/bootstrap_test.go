package agree

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// TestCompareGroupsByHand: three systems whose item scores disagree with
// the humans item by item, but whose means are ordered alike.
//
//	system  human   judge   means (human, judge)
//	A       4, 2    3, 3    3, 3
//	B       5, 5    4, 5    5, 4.5
//	C       1, 2    2, 1    1.5, 1.5
//
// Over systems ρ = τ = agreement = 1; over the six items they are lower.
func TestCompareGroupsByHand(t *testing.T) {
	h := []float64{4, 2, 5, 5, 1, 2}
	j := []float64{3, 3, 4, 5, 2, 1}
	g := []string{"A", "A", "B", "B", "C", "C"}
	b := DefaultBootstrap()
	sys, err := CompareGroups(h, j, g, b)
	if err != nil {
		t.Fatal(err)
	}
	if sys.Groups != 3 || sys.N != 6 || sys.Spearman != 1 || sys.Kendall != 1 || sys.Pairwise != 1 ||
		strings.Join(sys.GroupNames, ",") != "A,B,C" || sys.GroupJudge[1] != 4.5 || sys.GroupHuman[2] != 1.5 {
		t.Errorf("per system: %+v", sys)
	}
	items, err := CompareGroups(h, j, nil, b)
	if err != nil {
		t.Fatal(err)
	}
	if items.Groups != 0 || !(items.Spearman < 1) || !(items.Kendall < 1) {
		t.Errorf("per item: %+v", items.Report)
	}
	for name, r := range map[string]GroupReport{"system": sys, "item": items} {
		for stat, c := range map[string][3]float64{
			"spearman": {float64(r.SpearmanCI[0]), r.Spearman, float64(r.SpearmanCI[1])},
			"kendall":  {float64(r.KendallCI[0]), r.Kendall, float64(r.KendallCI[1])},
			"pairwise": {float64(r.PairwiseCI[0]), r.Pairwise, float64(r.PairwiseCI[1])},
		} {
			if math.IsNaN(c[0]) || c[0] > c[2] || c[2] > 1 || c[0] < -1 {
				t.Errorf("%s %s interval [%v, %v] around %v", name, stat, c[0], c[2], c[1])
			}
		}
	}
	// Item-level intervals are wide enough to hold the point estimate.
	if !(float64(items.SpearmanCI[0]) <= items.Spearman && items.Spearman <= float64(items.SpearmanCI[1])) {
		t.Errorf("item ρ %v outside %v", items.Spearman, items.SpearmanCI)
	}
	// Seeded: the same seed gives the same intervals, JSON writes them.
	again, _ := CompareGroups(h, j, nil, b)
	if again.SpearmanCI != items.SpearmanCI || items.Bootstrap.Replicates != 1000 {
		t.Errorf("not reproducible: %v vs %v", again.SpearmanCI, items.SpearmanCI)
	}
	if out, err := json.Marshal(sys); err != nil || !strings.Contains(string(out), `"spearman_ci":[`) {
		t.Errorf("json %s %v", out, err)
	}
	if _, err := CompareGroups(h, j, []string{"A", "A", "A", "A", "A", "A"}, b); err == nil {
		t.Error("one group accepted")
	}
	if _, err := CompareGroups(h, j, g[:3], b); err == nil {
		t.Error("short group list accepted")
	}
	none, _ := CompareGroups(h, j, g, Bootstrap{Replicates: 0})
	if none.SpearmanCI.Defined() {
		t.Error("interval without replicates")
	}
}
