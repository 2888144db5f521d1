package roleplay

import (
	"bytes"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/stats"
)

func TestWriteTables(t *testing.T) {
	rep := &Report{
		Encoder: "x",
		Config:  DefaultConfig(),
		Models: []ModelScore{
			{Model: "Real", Simulation: 0.8, SimulationCI: stats.Interval{0.7, 0.9}, Distinction: 0.5, DistinctionCI: stats.NoInterval(), AvgRank: 1, AvgRankCI: stats.NoInterval(), ModelRank: 1, Roles: 2, RolesWithReal: 2},
			{Model: "ChatHaruhi", Simulation: 0.4, SimulationCI: stats.NoInterval(), Distinction: stats.NaN(), DistinctionCI: stats.NoInterval(), AvgRank: 2, AvgRankCI: stats.NoInterval(), ModelRank: 1.75, Roles: 2, RolesWithReal: 2,
				PerRole: []RoleScore{{Role: "Sheldon", RealRole: "Sheldon", Rank: 2, RankOf: 2, RankCI: stats.Interval{1, 2}, Simulation: 0.1, Distinction: 0.2,
					Top: []RankedRole{{"Penny", 0.3}, {"Sheldon", 0.1}}}}},
		},
	}
	var b bytes.Buffer
	if err := WriteModels(&b, rep, true); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"80.00", "[70.00, 90.00]", "85.96", "47.72", "49.78", "4.54", "1.75", "Model rank ↓", "–"} {
		if !strings.Contains(out, want) {
			t.Errorf("models table lacks %q:\n%s", want, out)
		}
	}
	b.Reset()
	if err := WriteRanks(&b, rep, "Sheldon Cooper", nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "Penny (30.00)") || !strings.Contains(b.String(), "2/2 [1.00, 2.00]") {
		t.Errorf("rank table:\n%s", b.String())
	}
	if err := WriteRanks(&b, rep, "Gandalf", nil); err == nil {
		t.Error("rank table of an unknown role")
	}
}

// TestPaperScoresOf checks the loose lookup of the paper's Table 3 and
// Table 7 that the text table and report's tables share.
func TestPaperScoresOf(t *testing.T) {
	var want PaperScore
	for _, p := range PaperTable3() {
		if p.Model == "RoleGPT" {
			want = p
		}
	}
	t3, rank, ok3, ok7 := PaperScoresOf("role-gpt")
	if !ok3 || !ok7 || t3 != want || rank != PaperTable7()["RoleGPT"] || want.Model == "" {
		t.Errorf("role-gpt: %+v rank %g (%v, %v); want %+v rank %g", t3, rank, ok3, ok7, want, PaperTable7()["RoleGPT"])
	}
	if _, _, ok3, ok7 := PaperScoresOf("nobody"); ok3 || ok7 {
		t.Errorf("an unknown model matched the paper's tables")
	}
}
