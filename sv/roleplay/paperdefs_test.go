package roleplay

import (
	"context"
	"math"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/stats"
)

// TestRankModelsByHand works the paper's Table 7 out for three rows and
// three roles. Simulation per role, and each row's place among the rows:
//
//	role  Real     A         B
//	X     .9 (1)   .5 (3)    .7 (2)
//	Y     .8 (1)   .6 (2.5)  .6 (2.5)   A and B tie for places 2 and 3
//	Z     .4 (2)   .7 (1)    .2 (3)
//
// so Real = (1+1+2)/3 = 1.3333, A = (3+2.5+1)/3 = 2.1667 and
// B = (2+2.5+3)/3 = 2.5. The rows' average role ranks (AvgRank, Table 6's
// ranks averaged) order them otherwise and are left as they are.
func TestRankModelsByHand(t *testing.T) {
	row := func(model string, avgRank float64, sims ...float64) ModelScore {
		m := ModelScore{Model: model, AvgRank: stats.Float(avgRank)}
		for i, s := range sims {
			r := string(rune('X' + i))
			m.PerRole = append(m.PerRole, RoleScore{Role: r, RealRole: r, Simulation: stats.Float(s)})
		}
		// A Distinction-only role takes no part.
		m.PerRole = append(m.PerRole, RoleScore{Role: "Extra", Simulation: 0.99})
		return m
	}
	models := []ModelScore{row("Real", 3, .9, .8, .4), row("A", 1, .5, .6, .7), row("B", 2, .7, .6, .2)}
	RankModels(models)
	want := map[string]float64{"Real": 4.0 / 3, "A": 6.5 / 3, "B": 7.5 / 3}
	for _, m := range models {
		if !near(float64(m.ModelRank), want[m.Model]) || m.ModelRankRoles != 3 {
			t.Errorf("%s: model rank %v over %d roles, want %.4f over 3", m.Model, m.ModelRank, m.ModelRankRoles, want[m.Model])
		}
	}
	if models[1].AvgRank != 1 {
		t.Errorf("RankModels changed the average role rank: %v", models[1].AvgRank)
	}
	if order := modelRankOrder(models); models[order[0]].Model != "Real" || models[order[2]].Model != "B" {
		t.Errorf("order %v", order)
	}
	// A row without any real role has no model rank.
	none := []ModelScore{{Model: "Solo", PerRole: []RoleScore{{Role: "Q", Simulation: stats.NaN()}}}}
	RankModels(none)
	if none[0].ModelRank.Defined() || none[0].ModelRankRoles != 0 {
		t.Errorf("no real role: rank %v over %d", none[0].ModelRank, none[0].ModelRankRoles)
	}
}

// TestPaperGroupingByHand checks the default grouping against Eq. 2 and
// Eq. 3 computed by hand. Real lines: Anna a1 = (1,0) in conversation r1
// and a2 = (0,1) in r2; Ben b1 = (−1,0) in r3. Model M: in self-play
// conversation g1 Anna says (1,0) and Ben (0,−1); in g2 Anna says (0,1);
// in g4 Ben says (−1,0) twice; in g3 Cid (no real lines) says (1,−1).
//
// U_Anna = mean{(1,0),(0,1)} ∝ (1,1); G_1 = a1, G_2 = a2:
// Sim_Anna = mean{cos(U,a1), cos(U,a2)} = 1/√2 = 0.70710678.
// U_Ben = mean{(0,−1),(−1,0),(−1,0)} ∝ (−2,−1); Sim_Ben = 2/√5 = 0.89442719.
// Simulation = mean over Anna and Ben = 0.80076699.
//
// Distinction: Anna and Ben share g1 (each is the other's counterpart),
// so that pair is left out. 1 − cos(U_Anna, U_Cid) = 1; 1 − cos(U_Ben,
// U_Cid) = 1 + 1/√10 = 1.31622777. Dist_Anna = 1, Dist_Ben = 1.31622777,
// Dist_Cid = 1.15811388; Distinction = 1.15811388.
//
// The chunked sets (the old default) pool Anna's two real conversations
// into one reference set, so Sim_Anna would be cos((1,1),(1,1)) = 1.
func TestPaperGroupingByHand(t *testing.T) {
	enc := lookupEncoder{map[string][]float32{
		"a1": {1, 0}, "a2": {0, 1}, "b1": {-1, 0},
		"ga1": {1, 0}, "gb1": {0, -1}, "ga2": {0, 1}, "gb2": {-1, 0}, "gb3": {-1, 0}, "gc": {1, -1},
	}}
	rows := []data.Utterance{
		utt("show", "r1", 0, "Anna", "a1", "", ""),
		utt("show", "r2", 0, "Anna", "a2", "", ""),
		utt("show", "r3", 0, "Ben", "b1", "", ""),
		utt("gen", "g1", 0, "Anna", "ga1", "M", "Anna"),
		utt("gen", "g1", 1, "Ben", "gb1", "M", "Ben"),
		utt("gen", "g2", 0, "Anna", "ga2", "M", "Anna"),
		utt("gen", "g4", 0, "Ben", "gb2", "M", "Ben"),
		utt("gen", "g4", 1, "Ben", "gb3", "M", "Ben"),
		utt("gen", "g3", 0, "Cid", "gc", "M", "Cid"),
	}
	cfg := DefaultConfig()
	if cfg.Grouping != GroupPaper {
		t.Fatalf("default grouping %q, want %q", cfg.Grouping, GroupPaper)
	}
	cfg.HeldOut, cfg.Bootstrap = 0, 0
	rep, err := Score(context.Background(), enc, rows, rows, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := rep.Model("M")
	if m == nil {
		t.Fatalf("no row M: %v", modelNames(rep))
	}
	checks := []struct {
		name      string
		got, want float64
	}{
		{"Sim_Anna", float64(m.Role("Anna").Simulation), 1 / math.Sqrt2},
		{"Sim_Ben", float64(m.Role("Ben").Simulation), 2 / math.Sqrt(5)},
		{"Simulation", float64(m.Simulation), 0.80076699},
		{"Dist_Anna", float64(m.Role("Anna").Distinction), 1},
		{"Dist_Ben", float64(m.Role("Ben").Distinction), 1 + 1/math.Sqrt(10)},
		{"Dist_Cid", float64(m.Role("Cid").Distinction), 1.15811388},
		{"Distinction", float64(m.Distinction), 1.15811388},
	}
	for _, c := range checks {
		if !near(c.got, c.want) {
			t.Errorf("%s = %.8f, want %.8f", c.name, c.got, c.want)
		}
	}
	if r := m.Role("Anna"); r.Sets != 1 || r.RealSets != 2 {
		t.Errorf("Anna: %d model sets and %d reference sets, want 1 (U) and 2 (one per real conversation)", r.Sets, r.RealSets)
	}
}
