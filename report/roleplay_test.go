package report

import (
	"strings"
	"testing"

	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv/roleplay"
)

func TestRoleplayTables(t *testing.T) {
	r := roleplayReport()
	t3 := Table3(r, true)
	md := t3.Markdown()
	// The Real row is the reference: shown, never bold; the best agent is.
	for _, want := range []string{"| Real | 30.00 [10.00, 35.00] | 90.00 [80.00, 95.00] | 2/2 | 10 |",
		"| ChatHaruhi | **20.00 [10.00, 35.00]** | **85.00 [80.00, 95.00]** |", "| *paper: ChatHaruhi* | *47.72* | *49.78* |", "| *paper: Real* | *85.96* |"} {
		if !strings.Contains(md, want) {
			t.Errorf("Table 3 lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "paper: RoleGPT* | *58.91") != true {
		t.Errorf("Table 3: no paper row for RoleGPT:\n%s", md)
	}
	if Table3(r, false).Rows[len(r.Models)-1].Paper || len(Table3(r, false).Rows) != len(r.Models) {
		t.Error("paper rows without paper")
	}
	t7 := Table7(r, true)
	if t7.Plain(0, 0) != "Real" || t7.Plain(2, 0) != "RoleGPT" || t7.Plain(1, 3) != "4.54" {
		t.Errorf("Table 7 order/paper: %q %q %q", t7.Plain(0, 0), t7.Plain(2, 0), t7.Plain(1, 3))
	}
	// Table 7 ranks models per role (roleplay.RankModels), not the roles'
	// own ranks: three rows whose average role ranks say B, A, Real.
	//   role  Real    A       B
	//   X     .9 (1)  .5 (3)  .7 (2)
	//   Y     .8 (1)  .6 (2)  .5 (3)
	//   Z     .4 (2)  .7 (1)  .2 (3)
	// Real 4/3, A 2, B 8/3.
	r3 := &roleplay.Report{Config: roleplay.DefaultConfig()}
	for i, m := range []struct {
		name string
		sims []float64
	}{{"Real", []float64{.9, .8, .4}}, {"A", []float64{.5, .6, .7}}, {"B", []float64{.7, .5, .2}}} {
		ms := roleplay.ModelScore{Model: m.name, AvgRank: stats.Float(3 - i), AvgRankCI: stats.Interval{stats.NaN(), stats.NaN()}}
		for k, s := range m.sims {
			role := string(rune('X' + k))
			ms.PerRole = append(ms.PerRole, roleplay.RoleScore{Role: role, RealRole: role, Simulation: stats.Float(s)})
		}
		r3.Models = append(r3.Models, ms)
	}
	roleplay.RankModels(r3.Models)
	t7 = Table7(r3, false)
	for i, w := range [][2]string{{"Real", "1.33"}, {"A", "2.00"}, {"B", "2.67"}} {
		if t7.Plain(i, 0) != w[0] || t7.Plain(i, 1) != w[1] || t7.Plain(i, 2) != "3" {
			t.Errorf("table 7 row %d: %q %q %q, want %v over 3 roles", i, t7.Plain(i, 0), t7.Plain(i, 1), t7.Plain(i, 2), w)
		}
	}
	if t7.Plain(0, 4) != "3.00" {
		t.Errorf("table 7 keeps the average role rank apart: %q", t7.Plain(0, 4))
	}
	t6, err := Table6(r, "Sheldon Cooper")
	if err != nil {
		t.Fatal(err)
	}
	if t6.Name != "table6-sheldon-cooper" || t6.Plain(0, 1) != "Sheldon (0.30)" || t6.Plain(0, len(t6.Columns)-2) != "1" {
		t.Errorf("Table 6: %s %q %q", t6.Name, t6.Plain(0, 1), t6.Plain(0, len(t6.Columns)-2))
	}
	if _, err := Table6(r, "Gandalf"); err == nil {
		t.Error("a role nobody plays accepted")
	}
}

func TestTable1(t *testing.T) {
	md := table1().Markdown()
	for _, want := range []string{"| zero-shot | **60.00** | **58.00** | 55.00 | 50.00 |", "| 2-shot | – | – | **60.00** | **61.00** |",
		"*The paper, Harder level*", "| *paper: Human* | – | – | *73.28* | *74.12* |", "*paper: ChatGPT 6-shot*"} {
		if !strings.Contains(md, want) {
			t.Errorf("Table 1 lacks %q:\n%s", want, md)
		}
	}
}

// TestRealRowSetApartAlike checks the one rule of Tables 3 and 7: the Real
// row comes first under a "Reference" heading, is never bold even where it
// is best (Simulation 30 and average rank 1 here), the best agent is bold,
// and both captions state the rule.
func TestRealRowSetApartAlike(t *testing.T) {
	r := roleplayReport()
	for _, tab := range []*Table{Table3(r, true), Table7(r, true)} {
		if tab.Plain(0, 0) != "Real" || !tab.Rows[0].Reference || tab.Rows[0].Group != "Reference" || tab.Rows[1].Group != "Agents" {
			t.Errorf("%s: first row %q (reference %v, group %q), second group %q", tab.Name, tab.Plain(0, 0), tab.Rows[0].Reference, tab.Rows[0].Group, tab.Rows[1].Group)
		}
		if !strings.Contains(tab.Caption, referenceRule) {
			t.Errorf("%s: caption does not state the bold rule: %s", tab.Name, tab.Caption)
		}
		best := tab.bestRows()
		for c := range tab.Columns {
			if best[c][0] {
				t.Errorf("%s: the Real row is bold in column %q", tab.Name, tab.Columns[c])
			}
		}
		if !best[1][1] {
			t.Errorf("%s: the best agent (%s) is not bold in %q", tab.Name, tab.Plain(1, 0), tab.Columns[1])
		}
		for _, s := range []string{tab.LaTeX(), tab.HTML(), tab.Markdown()} {
			if !strings.Contains(s, "Reference") || !strings.Contains(s, "Agents") {
				t.Errorf("%s: a format lacks the Reference/Agents headings:\n%s", tab.Name, s)
			}
		}
	}
}
