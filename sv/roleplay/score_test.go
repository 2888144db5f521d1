package roleplay

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
)

// lookupEncoder maps each text to a fixed vector.
type lookupEncoder struct{ vecs map[string][]float32 }

func (e lookupEncoder) Name() string { return "lookup" }
func (e lookupEncoder) Dim() int     { return 2 }
func (e lookupEncoder) Encode(_ context.Context, texts []string, _ sv.Progress) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v, ok := e.vecs[t]
		if !ok {
			return nil, fmt.Errorf("no vector for %q", t)
		}
		out[i] = v
	}
	return out, nil
}

// bowEncoder is a hashed bag of words.
type bowEncoder struct{}

func (bowEncoder) Name() string { return "bow" }
func (bowEncoder) Dim() int     { return 128 }
func (bowEncoder) Encode(_ context.Context, texts []string, _ sv.Progress) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, 128)
		for _, w := range strings.Fields(t) {
			h := fnv.New32a()
			h.Write([]byte(w))
			v[h.Sum32()%128]++
		}
		out[i] = v
	}
	return out, nil
}

func utt(source, conv string, turn int32, speaker, text, model, role string) data.Utterance {
	return data.Utterance{Source: source, ConversationID: conv, Turn: turn, Speaker: speaker, Text: text, AgentModel: model, Role: role}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-5 }

// TestScoreByHand checks Eq. 2, Eq. 3 and the rank against numbers worked
// out by hand (see the comments), including the exclusion of two sets
// drawn from one conversation.
func TestScoreByHand(t *testing.T) {
	r2 := float32(1 / math.Sqrt2)
	enc := lookupEncoder{map[string][]float32{
		"a1": {1, 0}, "a2": {0, 1}, "b1": {-1, 0},
		"ga": {1, 0}, "ga2": {r2, r2}, "gb": {-1, 0}, "gb2": {0, -1}, "gc": {-1, 0},
	}}
	rows := []data.Utterance{
		utt("show", "r1", 0, "Anna", "a1", "", ""),
		utt("show", "r2", 0, "Anna", "a2", "", ""),
		utt("show", "r3", 0, "Ben", "b1", "", ""),
		utt("gen", "g1", 0, "Anna", "ga", "M", "Anna"),
		utt("gen", "g2", 0, "Ben", "gb", "M", "Ben"),
		utt("gen", "g3", 0, "Cid", "gc", "M", "Cid"),
		utt("gen", "g4", 0, "Anna", "ga2", "M", "Anna"),
		utt("gen", "g4", 1, "Ben", "gb2", "M", "Ben"),
		utt("gen", "g4", 2, "User", "context line", "M", "Anna"), // context: ignored
	}
	cfg := Config{Grouping: GroupConversation, MinSetSize: 1, HeldOut: 0, Bootstrap: 0}
	rep, err := Score(context.Background(), enc, rows, rows, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Models) != 1 || rep.Models[0].Model != "M" {
		t.Fatalf("rows %+v (no Real row with HeldOut 0)", rep.Models)
	}
	m := rep.Models[0]
	// Sim_Anna = mean{cos(ga,a1)=1, cos(ga,a2)=0, cos(ga2,a1)=cos(ga2,a2)=1/√2} = 0.60355339
	// Sim_Ben  = mean{cos(gb,b1)=1, cos(gb2,b1)=0} = 0.5
	if s := m.Role("Anna").Simulation; !near(float64(s), 0.60355339) {
		t.Errorf("Sim_Anna = %v", s)
	}
	if !near(float64(m.Simulation), 0.55177670) {
		t.Errorf("Simulation = %v, want 0.55177670", m.Simulation)
	}
	// Pair means: (Anna,Ben) = mean{-1, 0, -1/√2} (ga2×gb2 share g4) = -0.56903559;
	// (Anna,Cid) = mean{-1, -1/√2}; (Ben,Cid) = mean{1, 0}.
	// Dist = mean over roles of stats.Mean(1 - pair) = 1.30752966.
	if !near(float64(m.Distinction), 1.30752966) {
		t.Errorf("Distinction = %v, want 1.30752966", m.Distinction)
	}
	if d := m.Role("Cid").Distinction; !near(float64(d), 1.17677670) {
		t.Errorf("Dist_Cid = %v", d)
	}
	// Ranks, default (RankAmongReal): each role's sets against every real
	// role's sets. Anna: 0.60355 for Anna, mean{cos(ga,b1)=-1,
	// cos(ga2,b1)=-1/√2} for Ben → 1 of 2. Ben: 0.5 for Ben, mean{-1, 0,
	// 0, -1} = -0.5 for Anna → 1 of 2.
	if m.Role("Anna").Rank != 1 || m.Role("Ben").Rank != 1 || m.AvgRank != 1 || m.Role("Ben").RankOf != 2 {
		t.Errorf("ranks among real roles %v %v avg %v of %d", m.Role("Anna").Rank, m.Role("Ben").Rank, m.AvgRank, m.Role("Ben").RankOf)
	}
	if top := m.Role("Ben").Top; len(top) != 2 || top[0].Role != "Ben" || top[1].Role != "Anna" || !near(float64(top[1].Similarity), -0.5) {
		t.Errorf("top among real roles %+v", top)
	}
	// RankAmongAgent: the model's roles against a role's real sets. For
	// Anna's, Anna (0.60355) beats Ben and Cid; for Ben's (b1), Cid (cos 1)
	// beats Ben (0.5) and Anna (-0.85355) → ranks 1 and 2 of 3.
	cfg.RankAmong = RankAmongAgent
	rep, err = Score(context.Background(), enc, rows, rows, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	ma := rep.Models[0]
	if ma.Role("Anna").Rank != 1 || ma.Role("Ben").Rank != 2 || !near(float64(ma.AvgRank), 1.5) {
		t.Errorf("ranks among the model's roles %v %v avg %v", ma.Role("Anna").Rank, ma.Role("Ben").Rank, ma.AvgRank)
	}
	if top := ma.Role("Ben").Top; len(top) != 3 || top[0].Role != "Cid" || top[1].Role != "Ben" || ma.Role("Ben").RankOf != 3 {
		t.Errorf("top %+v of %d", top, ma.Role("Ben").RankOf)
	}
	if ma.Simulation != m.Simulation || ma.Distinction != m.Distinction {
		t.Errorf("the rank's candidates changed the scores: %v/%v vs %v/%v", ma.Simulation, ma.Distinction, m.Simulation, m.Distinction)
	}
	// Cid has no real lines: Distinction only, listed as such.
	if c := m.Role("Cid"); c.Simulation.Defined() || c.RealRole != "" || c.Rank.Defined() {
		t.Errorf("Cid row %+v", c)
	}
	if len(rep.DistinctionOnly) != 1 || rep.DistinctionOnly[0] != "Cid" {
		t.Errorf("distinction-only %v", rep.DistinctionOnly)
	}
	if m.RolesWithReal != 2 || m.Roles != 3 || m.Utterances != 5 || m.Sets != 5 {
		t.Errorf("counts %+v", m)
	}
	// No bootstrap: intervals are null in JSON.
	b, _ := json.Marshal(m)
	if !strings.Contains(string(b), `"simulation_ci":[null,null]`) {
		t.Errorf("JSON %s", b)
	}
}

// angleEncoder maps each text to the unit vector at the angle (degrees)
// registered for it.
func angleEncoder(angles map[string]float64) lookupEncoder {
	vecs := map[string][]float32{}
	for t, d := range angles {
		r := d * math.Pi / 180
		vecs[t] = []float32{float32(math.Cos(r)), float32(math.Sin(r))}
	}
	return lookupEncoder{vecs}
}

// TestScoreRealRowByHand checks the Real row, both rank readings and the
// common-role comparison against numbers worked out by hand. Every set
// is one conversation whose utterances share one unit vector, so a
// cosine is the cosine of an angle difference.
func TestScoreRealRowByHand(t *testing.T) {
	angles := map[string]float64{}
	var rows []data.Utterance
	add := func(src, conv, speaker, model string, n int, angle float64) {
		for k := range n {
			text := fmt.Sprintf("%s/%s/%d", src, conv, k)
			angles[text] = angle
			role := ""
			if model != "" {
				role = speaker
			}
			rows = append(rows, utt(src, conv, int32(k), speaker, text, model, role))
		}
	}
	// Real roles: two conversations each, of 1 and 2 utterances.
	add("show", "A1", "Anna", "", 1, 0)
	add("show", "A2", "Anna", "", 2, 60)
	add("show", "B1", "Ben", "", 1, 180)
	add("show", "B2", "Ben", "", 2, 120)
	add("show", "C1", "Cal", "", 2, 270)
	add("show", "C2", "Cal", "", 1, 225)
	// Agent M: Anna at 40°, Ben at 165°, Zed (no real lines) at 130°.
	add("gen", "g1", "Anna", "M", 1, 40)
	add("gen", "g2", "Ben", "M", 1, 165)
	add("gen", "g3", "Zed", "M", 1, 130)
	enc := angleEncoder(angles)
	cfg := Config{Grouping: GroupConversation, MinSetSize: 1, HeldOut: 0.2, Bootstrap: 0, Seed: 1}
	// By default the real roles are those an agent plays: not Cal.
	rep, err := Score(context.Background(), enc, rows, rows, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Models[0].Roles != 2 || rep.Models[1].Role("Anna").RankOf != 2 {
		t.Fatalf("without AllRealSpeakers: Real row roles %d, Anna ranked among %d", rep.Models[0].Roles, rep.Models[1].Role("Anna").RankOf)
	}
	cfg.AllRealSpeakers = true
	rep, err = Score(context.Background(), enc, rows, rows, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Models) != 2 || rep.Models[0].Model != "Real" {
		t.Fatalf("rows %v", modelNames(rep))
	}
	real, m := rep.Models[0], rep.Models[1]
	// With seed 1 the held-out conversations are A1 (0°), B1 (180°) and C2
	// (225°) — one utterance each; the references A2 (60°), B2 (120°), C1
	// (270°).
	for _, r := range real.PerRole {
		if r.Utterances != 1 || r.Sets != 1 || r.RealSets != 1 {
			t.Fatalf("held-out split is not the one worked out by hand: %+v", r)
		}
	}
	c := func(d float64) float64 { return math.Cos(d * math.Pi / 180) }
	// Real row, Eq. 2: cos 60°, cos 60°, cos 45° → 0.56903559.
	if !near(float64(real.Simulation), (c(60)+c(60)+c(45))/3) || !near(float64(real.Simulation), 0.56903559) {
		t.Errorf("Real simulation %v, want 0.56903559", real.Simulation)
	}
	// Real row, Eq. 3 over the held-out sets at 0°, 180°, 225°: pair
	// dissimilarities 2, 1+cos 45°, 1−cos 45°; per role (2+1.7071)/2,
	// (2+0.2929)/2, (1.7071+0.2929)/2 → mean 4/3.
	if !near(float64(real.Distinction), 4.0/3) || !near(float64(real.Role("Anna").Distinction), 1.85355339) {
		t.Errorf("Real distinction %v (Anna %v), want 1.33333333 (1.85355339)", real.Distinction, real.Role("Anna").Distinction)
	}
	// Each held-out set is nearest its own role's references.
	if real.AvgRank != 1 || real.Role("Cal").RankOf != 3 {
		t.Errorf("Real ranks avg %v of %d", real.AvgRank, real.Role("Cal").RankOf)
	}
	// Agent, Eq. 2 against the references only (not the held-out sets):
	// Anna cos 20°, Ben cos 45° → 0.82339970.
	if !near(float64(m.Simulation), 0.82339970) || !near(float64(m.Role("Anna").Simulation), 0.93969262) {
		t.Errorf("M simulation %v (Anna %v), want 0.82339970 (0.93969262)", m.Simulation, m.Role("Anna").Simulation)
	}
	// Agent, Eq. 3 over Anna 40°, Ben 165°, Zed 130°: pairs 1−cos 125°,
	// 1−cos 90°, 1−cos 35° → per role 1.28678822, 0.87721220, 0.59042398,
	// mean 0.91814146.
	if !near(float64(m.Distinction), 0.91814146) || !near(float64(m.Role("Zed").Distinction), 0.59042398) {
		t.Errorf("M distinction %v (Zed %v), want 0.91814146 (0.59042398)", m.Distinction, m.Role("Zed").Distinction)
	}
	// Ranks among real roles: Anna's set (40°) is nearest Anna's
	// references (60°); Ben's (165°) nearest Ben's (120°: cos 45° against
	// cos 105° for Anna's 60° and Cal's 270°).
	if m.Role("Anna").Rank != 1 || m.Role("Ben").Rank != 1 || m.Role("Ben").Top[0].Role != "Ben" || m.Role("Ben").RankOf != 3 {
		t.Errorf("M ranks among real roles: %+v / %+v", m.Role("Anna"), m.Role("Ben"))
	}
	// Common roles with the Real row: Anna and Ben (Cal is not played, Zed
	// has no real lines). Agent: Simulation as before, Distinction the one
	// pair 1−cos 125° = 1.57357644; Real: cos 60° twice = 0.5, and 1−cos
	// 180° = 2.
	cm := m.Common
	if cm == nil || len(cm.Roles) != 2 || cm.Roles[0] != "Anna" || cm.Roles[1] != "Ben" {
		t.Fatalf("common %+v", cm)
	}
	if !near(float64(cm.Simulation), 0.82339970) || !near(float64(cm.Distinction), 1.57357644) || cm.AvgRank != 1 {
		t.Errorf("common agent scores %+v", cm)
	}
	if !near(float64(cm.RealSimulation), 0.5) || !near(float64(cm.RealDistinction), 2) || cm.RealAvgRank != 1 {
		t.Errorf("common Real scores %+v", cm)
	}
	if real.Common != nil {
		t.Error("the Real row has a common block")
	}
	if !NeedsCommon(rep) {
		t.Error("NeedsCommon: the rows' role sets differ")
	}

	// Ranks among the model's roles, against Ben's references (120°): Zed
	// (130°, cos 10°) beats Ben (165°, cos 45°) → 2 of 3; Anna 1 of 3.
	cfg.RankAmong = RankAmongAgent
	rep, err = Score(context.Background(), enc, rows, rows, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	m = rep.Models[1]
	if m.Role("Ben").Rank != 2 || m.Role("Ben").Top[0].Role != "Zed" || m.Role("Anna").Rank != 1 || !near(float64(m.AvgRank), 1.5) {
		t.Errorf("M ranks among its roles: %+v / %+v", m.Role("Anna"), m.Role("Ben"))
	}
	// Restricted to the common roles, Zed is no candidate: Ben ranks 1.
	if m.Common.AvgRank != 1 {
		t.Errorf("common avg rank among the model's shared roles %v, want 1", m.Common.AvgRank)
	}
}

// synthetic builds real and generated data for roles with their own
// words: agent "Good" speaks each role's words, "Bland" only common words.
func synthetic(seed uint64) (real, gen []data.Utterance) {
	rng := rand.New(rand.NewPCG(seed, 1))
	roles := []string{"Alice", "Bob", "Carol", "Dave"}
	vocab := map[string][]string{}
	for _, r := range roles {
		for k := range 12 {
			vocab[r] = append(vocab[r], fmt.Sprintf("%s%d", strings.ToLower(r), k))
		}
	}
	common := []string{"the", "a", "is", "and", "to", "of", "you", "it", "that", "we"}
	line := func(words []string) string {
		var w []string
		for range 6 {
			w = append(w, common[rng.IntN(len(common))])
		}
		for range 4 {
			if words != nil {
				w = append(w, words[rng.IntN(len(words))])
			} else {
				w = append(w, common[rng.IntN(len(common))])
			}
		}
		return strings.Join(w, " ")
	}
	for c := range 24 {
		// Two roles per scene.
		a, b := roles[c%4], roles[(c+1)%4]
		for k := range 12 {
			s := a
			if k%2 == 1 {
				s = b
			}
			real = append(real, utt("show", fmt.Sprintf("scene%d", c), int32(k), s, line(vocab[s]), "", ""))
		}
	}
	for _, r := range roles {
		for c := range 6 {
			for k := range 6 {
				gen = append(gen, utt("good", fmt.Sprintf("%s-%d", r, c), int32(k), r, line(vocab[r]), "Good", r))
				gen = append(gen, utt("bland", fmt.Sprintf("%s-%d", r, c), int32(k), r, line(nil), "Bland", r))
			}
		}
	}
	return real, gen
}

func TestScoreSynthetic(t *testing.T) {
	real, gen := synthetic(3)
	cfg := DefaultConfig()
	cfg.Grouping = GroupChunks // several sets per role: same-role pairs and set-level intervals
	cfg.Bootstrap = 200
	rep, err := Score(context.Background(), bowEncoder{}, real, gen, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Models[0].Model != "Real" || len(rep.Models) != 3 {
		t.Fatalf("rows: %v", modelNames(rep))
	}
	realRow, good, bland := rep.Model("Real"), rep.Model("Good"), rep.Model("Bland")
	if !(realRow.Simulation > bland.Simulation && good.Simulation > bland.Simulation) {
		t.Errorf("simulation: real %v good %v bland %v", realRow.Simulation, good.Simulation, bland.Simulation)
	}
	if !(realRow.Distinction > bland.Distinction && good.Distinction > bland.Distinction) {
		t.Errorf("distinction: real %v good %v bland %v", realRow.Distinction, good.Distinction, bland.Distinction)
	}
	if realRow.AvgRank != 1 || good.AvgRank != 1 || bland.AvgRank <= 1 {
		t.Errorf("avg rank: real %v good %v bland %v", realRow.AvgRank, good.AvgRank, bland.AvgRank)
	}
	for _, m := range rep.Models {
		for name, pair := range map[string]struct {
			v  stats.Float
			ci stats.Interval
		}{"simulation": {m.Simulation, m.SimulationCI}, "distinction": {m.Distinction, m.DistinctionCI}} {
			if !(pair.ci[0] < pair.ci[1]) || pair.ci[0] > pair.v || pair.ci[1] < pair.v {
				t.Errorf("%s %s = %v outside or degenerate CI %v", m.Model, name, pair.v, pair.ci)
			}
		}
	}
	// The Real row's held-out sets are compared with the other real sets
	// only: both rows face the same reference sets.
	if realRow.Role("Alice").RealSets != good.Role("Alice").RealSets {
		t.Errorf("reference sets differ: %d vs %d", realRow.Role("Alice").RealSets, good.Role("Alice").RealSets)
	}
	// Distributions: the good agent separates roles, the bland one barely.
	dg, db := findDist(rep, "Good", RealGenerated), findDist(rep, "Bland", RealGenerated)
	if !(dg.AUC > 0.9 && db.AUC < dg.AUC && dg.Overlap < db.Overlap) {
		t.Errorf("good AUC %v overlap %v; bland AUC %v overlap %v", dg.AUC, dg.Overlap, db.AUC, db.Overlap)
	}
	for _, d := range rep.Distributions {
		if d.AUC.Defined() && !(d.AUCCI[0] <= d.AUC && d.AUC <= d.AUCCI[1]) {
			t.Errorf("%s %s: AUC %v outside its interval %v", d.Model, d.Kind, d.AUC, d.AUCCI)
		}
	}
	if gg := findDist(rep, "Good", GeneratedGenerated); gg.NPositive == 0 || gg.NNegative == 0 || len(gg.Histogram.Edges) != cfg.Bins+1 {
		t.Errorf("generated-generated distribution %+v", gg)
	}

	// Seeded: a second run gives the same report; another seed other intervals.
	again, err := Score(context.Background(), bowEncoder{}, real, gen, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(rep)
	b, _ := json.Marshal(again)
	if string(a) != string(b) {
		t.Error("two runs with one seed differ")
	}
	cfg.Seed = 2
	other, err := Score(context.Background(), bowEncoder{}, real, gen, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if other.Model("Good").SimulationCI == good.SimulationCI {
		t.Error("another seed gave the same interval")
	}
}

func modelNames(r *Report) []string {
	var out []string
	for _, m := range r.Models {
		out = append(out, m.Model)
	}
	return out
}

func findDist(r *Report, model, kind string) Distribution {
	for _, d := range r.Distributions {
		if d.Model == model && d.Kind == kind {
			return d
		}
	}
	return Distribution{}
}

func TestScoreErrors(t *testing.T) {
	real, _ := synthetic(1)
	if _, err := Score(context.Background(), bowEncoder{}, real, real, DefaultConfig(), nil); err == nil || !strings.Contains(err.Error(), "no generated lines") {
		t.Errorf("real data only: %v", err)
	}
	bad := DefaultConfig()
	bad.HeldOut = 1
	if _, err := Score(context.Background(), bowEncoder{}, real, real, bad, nil); err == nil || !strings.Contains(err.Error(), "held-out") {
		t.Errorf("bad config: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, gen := synthetic(1)
	if _, err := Score(ctx, bowEncoder{}, real, gen, DefaultConfig(), nil); err == nil {
		t.Error("cancelled context ignored")
	}
}

func TestGroupings(t *testing.T) {
	var rows []data.Utterance
	for c := range 3 {
		for k := range 5 {
			rows = append(rows, utt("s", fmt.Sprintf("c%d", c), int32(4-k), "X", fmt.Sprintf("l%d-%d", c, 4-k), "", ""))
		}
	}
	convs := byConversation(rows)
	if convs[0].rows[0].Text != "l0-0" {
		t.Errorf("turn order: %q", convs[0].rows[0].Text)
	}
	chunks := makeSets(convs, GroupChunks, 4, 2, "p", refSets)
	// 15 lines in sets of 4: 4, 4, 4, 3 (the 3 ≥ 2 stays apart).
	if len(chunks) != 4 || len(chunks[3].texts) != 3 || len(chunks[1].convs) != 2 || chunks[1].id != "p#1" {
		t.Errorf("chunks: %d sets, last %d, second spans %v", len(chunks), len(chunks[len(chunks)-1].texts), chunks[1].convs)
	}
	chunks = makeSets(convs, GroupChunks, 7, 4, "p", refSets)
	// 7, 7, 1: the 1 < 4 joins the previous set.
	if len(chunks) != 2 || len(chunks[1].texts) != 8 {
		t.Errorf("remainder: %d sets, last %d", len(chunks), len(chunks[len(chunks)-1].texts))
	}
	if !sharesConversation(chunks[0], chunks[1]) {
		t.Error("chunks cut inside one conversation should share it")
	}
	if s := makeSets(convs, GroupConversation, 8, 6, "p", genSets); len(s) != 0 {
		t.Errorf("conversation sets smaller than the minimum kept: %d", len(s))
	}
	if s := makeSets(convs, GroupRole, 4, 2, "p", genSets); len(s) != 1 || len(s[0].texts) != 15 || len(s[0].convs) != 3 {
		t.Errorf("role set: %+v", s)
	}
	// Paper: a model's (and the Real row's) role is one set; the
	// reference sets are one per conversation, even below MinSetSize.
	for _, k := range []setKind{genSets, heldSets} {
		if s := makeSets(convs, GroupPaper, 4, 8, "p", k); len(s) != 1 || len(s[0].texts) != 15 {
			t.Errorf("paper grouping, kind %d: %d sets", k, len(s))
		}
	}
	if s := makeSets(convs, GroupPaper, 4, 8, "p", refSets); len(s) != 3 || len(s[0].texts) != 5 || len(s[0].convs) != 1 {
		t.Errorf("paper reference sets: %d", len(s))
	}
	held, ref := splitHeldOut(convs, 0.2, rand.New(rand.NewPCG(1, 2)))
	if len(held) != 1 || len(ref) != 2 {
		t.Errorf("held-out split %d/%d", len(held), len(ref))
	}
	if held, _ := splitHeldOut(convs[:1], 0.5, rand.New(rand.NewPCG(1, 2))); held != nil {
		t.Error("a single conversation was held out")
	}
}

func TestRankOf(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		cand []float64
		i    int
		want float64
	}{
		{[]float64{0.9, 0.5, 0.1}, 0, 1},
		{[]float64{0.9, 0.5, 0.1}, 2, 3},
		{[]float64{0.5, 0.5, 0.1}, 1, 1.5},
		{[]float64{0.5, nan, 0.7}, 0, 2},
	} {
		if got := rankOf(c.cand, c.i); got != c.want {
			t.Errorf("rankOf(%v, %d) = %v, want %v", c.cand, c.i, got, c.want)
		}
	}
	if !math.IsNaN(rankOf([]float64{nan, 1}, 0)) {
		t.Error("undefined role ranked")
	}
}

func TestHistogramOverlap(t *testing.T) {
	h, err := NewHistogram([]float64{0.1, 0.2, 0.3}, []float64{0.1, 0.2, 0.3}, 5)
	if err != nil || !near(h.Overlap(), 1) {
		t.Errorf("identical: %v %v", h.Overlap(), err)
	}
	h, _ = NewHistogram([]float64{0.9, 1.0}, []float64{0.0, 0.1}, 4)
	if h.Overlap() != 0 || len(h.Edges) != 5 || h.Positive[3] != 1 {
		t.Errorf("disjoint: %+v overlap %v", h, h.Overlap())
	}
	h, _ = NewHistogram([]float64{0, 1}, []float64{0.5}, 2)
	// positive: one in each bin; negative: 0.5 falls in the upper bin.
	if !near(h.Overlap(), 0.5) {
		t.Errorf("half overlap: %v", h.Overlap())
	}
	if _, err := NewHistogram(nil, nil, 0); err == nil {
		t.Error("0 bins accepted")
	}
	if !math.IsNaN(Histogram{Positive: []float64{0}, Negative: []float64{1}}.Overlap()) {
		t.Error("overlap of an empty side should be NaN")
	}
}

func TestValueJSON(t *testing.T) {
	b, _ := json.Marshal(struct {
		A stats.Float
		B stats.Interval
	}{stats.NaN(), stats.Interval{0.25, stats.NaN()}})
	if string(b) != `{"A":null,"B":[0.25,null]}` {
		t.Errorf("%s", b)
	}
	var v stats.Interval
	if err := json.Unmarshal([]byte(`[null, 0.5]`), &v); err != nil || v[0].Defined() || v[1] != 0.5 {
		t.Errorf("%v %v", v, err)
	}
}

// TestBootstrapByHand checks what the bootstrap resamples. Anna's agent
// sets lie at 0° and 90° from her one reference set: replicates of her
// Simulation are 1, 0.5 or 0 (both sets drawn, one each, or the other
// twice), each extreme with probability 1/4, so the 95 % interval is
// exactly [0, 1]. Ben's one set against his one reference cannot vary.
func TestBootstrapByHand(t *testing.T) {
	angles := map[string]float64{"a": 0, "b": 180, "ga1": 0, "ga2": 90, "gb": 150}
	rows := []data.Utterance{
		utt("show", "r1", 0, "Anna", "a", "", ""),
		utt("show", "r2", 0, "Ben", "b", "", ""),
		utt("gen", "g1", 0, "Anna", "ga1", "M", "Anna"),
		utt("gen", "g2", 0, "Anna", "ga2", "M", "Anna"),
		utt("gen", "g3", 0, "Ben", "gb", "M", "Ben"),
	}
	cfg := Config{Grouping: GroupConversation, MinSetSize: 1, HeldOut: 0, Bootstrap: 400, Seed: 3}
	rep, err := Score(context.Background(), angleEncoder(angles), rows, rows, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := rep.Models[0]
	anna, ben := m.Role("Anna"), m.Role("Ben")
	if !near(float64(anna.Simulation), 0.5) || !near(float64(anna.SimulationCI[0]), 0) || !near(float64(anna.SimulationCI[1]), 1) {
		t.Errorf("Anna simulation %v CI %v, want 0.5 [0, 1]", anna.Simulation, anna.SimulationCI)
	}
	cb := math.Cos(30 * math.Pi / 180)
	if !near(float64(ben.SimulationCI[0]), cb) || !near(float64(ben.SimulationCI[1]), cb) {
		t.Errorf("Ben simulation CI %v, want [%v, %v]", ben.SimulationCI, cb, cb)
	}
	// The model's Simulation resamples the roles too: a replicate of Ben
	// twice is cos 30° = 0.866 and one of Anna's sets at 0° twice is 1, so
	// the interval spans [0 or more, 1], wider than Ben's alone; its
	// lower end is below the point estimate (0.683).
	if !(m.SimulationCI[0] < m.Simulation && near(float64(m.SimulationCI[1]), 1)) {
		t.Errorf("model simulation %v CI %v", m.Simulation, m.SimulationCI)
	}
}
