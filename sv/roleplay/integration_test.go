package roleplay_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/genimport"
	"github.com/roleprint/roleprint/sv"
	_ "github.com/roleprint/roleprint/sv/baseline"
	"github.com/roleprint/roleprint/sv/roleplay"
)

// chatHaruhiSubset reads the real lines and synthesized dialogues of a few
// ChatHaruhi roles from the shared corpora, or skips.
func chatHaruhiSubset(t *testing.T, roles ...string) []data.Utterance {
	t.Helper()
	dir, ok := data.SharedCorpus("chatharuhi")
	if !ok {
		t.Skip("shared corpus chatharuhi not found (../shared/corpora/chatharuhi)")
	}
	var paths []string
	for _, r := range roles {
		paths = append(paths, filepath.Join(dir, "characters", r, "texts"),
			filepath.Join(dir, "kyon_generator", "organized_data", r+"_test_output_dialogue.jsonl"))
	}
	utts, _, err := genimport.ReadChatHaruhi(paths, genimport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return utts
}

func newEncoder(t *testing.T, name string) sv.Encoder {
	t.Helper()
	enc, err := sv.NewEncoder(name, sv.EncoderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return enc
}

// TestChatHaruhiRealRowLeads scores ChatHaruhi's synthesized dialogues
// for its 11 English roles against their real lines with the style
// encoder (fast, no asset): the Real row (held-out real sets) must
// simulate its roles better and keep them apart better than the agent,
// and rank its own roles first more often (docs/roleplay.md has the
// numbers for every encoder).
func TestChatHaruhiRealRowLeads(t *testing.T) {
	dir, ok := data.SharedCorpus("chatharuhi")
	if !ok {
		t.Skip("shared corpus chatharuhi not found (../shared/corpora/chatharuhi)")
	}
	utts, _, err := genimport.ReadChatHaruhi([]string{filepath.Join(dir, "characters"), filepath.Join(dir, "kyon_generator", "organized_data")}, genimport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := roleplay.DefaultConfig()
	cfg.Bootstrap = 100
	rep, err := roleplay.Score(context.Background(), newEncoder(t, "liwc"), utts, utts, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	real, agent := rep.Model("Real"), rep.Model(genimport.ChatHaruhiModel)
	if real == nil || agent == nil {
		t.Fatalf("rows %+v", rep.Models)
	}
	t.Logf("Real: sim %.4f dist %.4f rank %.2f; ChatHaruhi: sim %.4f dist %.4f rank %.2f",
		real.Simulation, real.Distinction, real.AvgRank, agent.Simulation, agent.Distinction, agent.AvgRank)
	if !(real.Simulation > agent.Simulation) || !(real.Distinction > agent.Distinction) || !(real.AvgRank <= agent.AvgRank) {
		t.Errorf("the Real row should lead: real %v/%v/%v, agent %v/%v/%v", real.Simulation, real.Distinction, real.AvgRank,
			agent.Simulation, agent.Distinction, agent.AvgRank)
	}
	if real.RolesWithReal != 11 || agent.RolesWithReal != 11 || len(rep.DistinctionOnly) != 0 {
		t.Errorf("roles: real %d agent %d distinction-only %v", real.RolesWithReal, agent.RolesWithReal, rep.DistinctionOnly)
	}
}

// TestRoleBenchSheldonRank ranks RoleGPT's Sheldon Cooper as the paper's
// Table 6 does, both ways: among every real role of ChatHaruhi (the
// default candidates, with AllRealSpeakers since RoleGPT plays no other
// ChatHaruhi role) and among RoleGPT's 95 roles (RankAmongAgent).
func TestRoleBenchSheldonRank(t *testing.T) {
	rb, ok := data.SharedCorpus("rolebench")
	if !ok {
		t.Skip("shared corpus rolebench not found")
	}
	gen, _, err := genimport.ReadRoleBench([]string{filepath.Join(rb, "rolebench-eng", "instruction-generalization", "role_specific", "rolegpt_baseline.jsonl")}, genimport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	real := chatHaruhiSubset(t, "Sheldon", "Penny", "Raj", "Harry", "Snape")
	cfg := roleplay.DefaultConfig()
	cfg.Bootstrap = 0
	cfg.HeldOut = 0
	cfg.AllRealSpeakers = true
	enc := newEncoder(t, "liwc")
	rep, err := roleplay.Score(context.Background(), enc, real, gen, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := rep.Model(genimport.RoleGPTModel)
	if m == nil || m.Roles != 95 || m.RolesWithReal != 1 || len(rep.DistinctionOnly) != 94 {
		t.Fatalf("RoleGPT row %+v, distinction-only %d", m, len(rep.DistinctionOnly))
	}
	s := m.Role("Sheldon Cooper")
	if s == nil || s.RealRole != "Sheldon" || s.RankOf != 5 || !s.Rank.Defined() || len(s.Top) != 5 {
		t.Fatalf("Sheldon row among real roles %+v", s)
	}
	t.Logf("Sheldon Cooper among real roles: rank %v/%d, top %v", s.Rank, s.RankOf, s.Top)

	cfg.RankAmong = roleplay.RankAmongAgent
	rep, err = roleplay.Score(context.Background(), enc, real, gen, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	s = rep.Model(genimport.RoleGPTModel).Role("Sheldon Cooper")
	if s == nil || s.RankOf != 95 || !s.Rank.Defined() || len(s.Top) != 5 {
		t.Fatalf("Sheldon row among RoleGPT's roles %+v", s)
	}
	t.Logf("Sheldon Cooper among RoleGPT's roles: rank %v/%d, top %v", s.Rank, s.RankOf, s.Top)
}
