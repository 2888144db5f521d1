package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/sv/verifier"
)

// scoreCLI runs one command line and returns its exit code and output.
func scoreCLI(args ...string) (int, string, string) {
	var o, e bytes.Buffer
	code := run(context.Background(), args, &o, &e)
	return code, o.String(), e.String()
}

// writeScoreFixtures writes a real corpus (four roles with words of their
// own, two per scene) and a generated one in which agent "Good" speaks each
// role's words, "Bland" common words only, and "Good" also plays a role
// without real lines.
func writeScoreFixtures(t *testing.T) (realPath, genPath string) {
	t.Helper()
	rng := rand.New(rand.NewPCG(5, 6))
	roles := []string{"Sheldon", "Penny", "Raj", "Howard"}
	words := func(r string) []string {
		var w []string
		for k := range 10 {
			w = append(w, fmt.Sprintf("%s%c", strings.ToLower(r), 'a'+k))
		}
		return w
	}
	common := strings.Fields("the a is and to of you it that we so well")
	line := func(own []string) string {
		var w []string
		for k := range 9 {
			if own != nil && k%3 == 0 {
				w = append(w, own[rng.IntN(len(own))])
			} else {
				w = append(w, common[rng.IntN(len(common))])
			}
		}
		return strings.Join(w, " ")
	}
	var real, gen []data.Utterance
	for c := range 20 {
		a, b := roles[c%4], roles[(c+1)%4]
		for k := range 10 {
			s := a
			if k%2 == 1 {
				s = b
			}
			real = append(real, data.Utterance{Source: "tbbt", ConversationID: fmt.Sprint(c), Turn: int32(k), Speaker: s, Text: line(words(s))})
		}
	}
	for _, r := range append(roles, "Zed") {
		for c := range 24 {
			// The agents name Sheldon in full: matched by the alias table.
			role := r
			if r == "Sheldon" {
				role = "Sheldon Cooper"
			}
			gen = append(gen, data.Utterance{Source: "gen", ConversationID: fmt.Sprintf("%s%d", r, c), Turn: 1, Speaker: role, Text: line(words(r)), AgentModel: "Good", Role: role})
			if r != "Zed" {
				gen = append(gen, data.Utterance{Source: "gen", ConversationID: fmt.Sprintf("%s%d", r, c), Turn: 0, Speaker: "User", Text: "what do you think", AgentModel: "Good", Role: role})
				gen = append(gen, data.Utterance{Source: "gen2", ConversationID: fmt.Sprintf("%s%d", r, c), Turn: 1, Speaker: role, Text: line(nil), AgentModel: "Bland", Role: role})
			}
		}
	}
	dir := t.TempDir()
	realPath, genPath = filepath.Join(dir, "real.parquet"), filepath.Join(dir, "gen.parquet")
	if err := data.WriteUtterances(realPath, real); err != nil {
		t.Fatal(err)
	}
	if err := data.WriteUtterances(genPath, gen); err != nil {
		t.Fatal(err)
	}
	return realPath, genPath
}

// scoreJSON mirrors the documented keys of `roleprint score --json`.
type scoreJSON struct {
	Encoder string `json:"encoder"`
	Models  []struct {
		Model         string     `json:"model"`
		Simulation    *float64   `json:"simulation"`
		SimulationCI  []*float64 `json:"simulation_ci"`
		Distinction   *float64   `json:"distinction"`
		DistinctionCI []*float64 `json:"distinction_ci"`
		AvgRank       *float64   `json:"avg_rank"`
		AvgRankCI     []*float64 `json:"avg_rank_ci"`
		Roles         int        `json:"roles"`
		RolesWithReal int        `json:"roles_with_real"`
		Common        *struct {
			Roles           []string   `json:"roles"`
			Distinction     *float64   `json:"distinction"`
			DistinctionCI   []*float64 `json:"distinction_ci"`
			RealDistinction *float64   `json:"real_distinction"`
			RealSimulation  *float64   `json:"real_simulation"`
		} `json:"common"`
		PerRole []struct {
			Role       string   `json:"role"`
			RealRole   string   `json:"real_role"`
			Simulation *float64 `json:"simulation"`
			Rank       *float64 `json:"rank"`
			RankOf     int      `json:"rank_of"`
			Top        []struct {
				Role string `json:"role"`
			} `json:"top"`
		} `json:"per_role"`
	} `json:"models"`
	RoleMatches []struct {
		Role     string `json:"role"`
		RealRole string `json:"real_role"`
		Method   string `json:"method"`
	} `json:"role_matches"`
	DistinctionOnly []string `json:"distinction_only_roles"`
	Distributions   []struct {
		Model    string    `json:"model"`
		Kind     string    `json:"kind"`
		AUC      *float64  `json:"auc"`
		Positive []float64 `json:"positive"`
	} `json:"distributions"`
}

func TestScoreCommandJSON(t *testing.T) {
	realPath, genPath := writeScoreFixtures(t)
	dist := filepath.Join(t.TempDir(), "out", "dist.json")
	code, stdout, stderr := scoreCLI("score", "--real", realPath, "--generated", genPath, "--encoder", "tfidf",
		"--bootstrap", "100", "--distributions", dist, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out scoreJSON
	dec := json.NewDecoder(strings.NewReader(stdout))
	if err := dec.Decode(&out); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, stdout)
	}
	if dec.More() {
		t.Fatal("more than one JSON value on stdout")
	}
	if out.Encoder != "tfidf" || len(out.Models) != 3 || out.Models[0].Model != "Real" {
		t.Fatalf("models %+v", out.Models)
	}
	byName := map[string]int{}
	for i, m := range out.Models {
		byName[m.Model] = i
		if m.Simulation == nil || m.Distinction == nil || m.AvgRank == nil || len(m.SimulationCI) != 2 || m.SimulationCI[0] == nil || len(m.DistinctionCI) != 2 || len(m.AvgRankCI) != 2 {
			t.Fatalf("row %s lacks a score or interval: %+v", m.Model, m)
		}
		if !(*m.SimulationCI[0] <= *m.Simulation && *m.Simulation <= *m.SimulationCI[1]) {
			t.Errorf("%s simulation %v outside %v..%v", m.Model, *m.Simulation, *m.SimulationCI[0], *m.SimulationCI[1])
		}
	}
	good, bland, real := out.Models[byName["Good"]], out.Models[byName["Bland"]], out.Models[byName["Real"]]
	if !(*good.Simulation > *bland.Simulation && *real.Simulation > *bland.Simulation && *good.Distinction > *bland.Distinction) {
		t.Errorf("real %v/%v good %v/%v bland %v/%v", *real.Simulation, *real.Distinction, *good.Simulation, *good.Distinction, *bland.Simulation, *bland.Distinction)
	}
	if good.Roles != 5 || good.RolesWithReal != 4 {
		t.Errorf("Good roles %d/%d", good.RolesWithReal, good.Roles)
	}
	// The role without real lines is listed and has no Simulation or rank.
	if len(out.DistinctionOnly) != 1 || out.DistinctionOnly[0] != "Zed" {
		t.Errorf("distinction-only %v", out.DistinctionOnly)
	}
	for _, r := range good.PerRole {
		if r.Role == "Zed" && (r.Simulation != nil || r.Rank != nil || r.RealRole != "") {
			t.Errorf("Zed row %+v", r)
		}
		// Ranked among the four real roles (the default candidates).
		if r.Role == "Sheldon Cooper" && (r.RealRole != "Sheldon" || r.RankOf != 4 || len(r.Top) != 4 || r.Top[0].Role != "Sheldon") {
			t.Errorf("Sheldon row %+v", r)
		}
	}
	// Good plays Zed, which has no real lines: its comparable Distinction
	// with the Real row is over the four shared roles.
	if c := good.Common; c == nil || len(c.Roles) != 4 || c.Distinction == nil || c.RealDistinction == nil || len(c.DistinctionCI) != 2 || c.DistinctionCI[0] == nil {
		t.Errorf("Good common block %+v", c)
	}
	if real.Common != nil {
		t.Error("the Real row has a common block")
	}
	matched := false
	for _, m := range out.RoleMatches {
		if m.Role == "Sheldon Cooper" && m.RealRole == "Sheldon" && m.Method == "alias" {
			matched = true
		}
	}
	if !matched {
		t.Errorf("role matches %+v", out.RoleMatches)
	}
	// Distribution values go to --distributions only.
	if len(out.Distributions) != 6 || out.Distributions[0].Positive != nil || out.Distributions[0].AUC == nil {
		t.Errorf("distributions in the report: %+v", out.Distributions)
	}
	b, err := os.ReadFile(dist)
	if err != nil {
		t.Fatal(err)
	}
	var full scoreJSON
	if err := json.Unmarshal(b, &full); err != nil || len(full.Distributions) != 6 || len(full.Distributions[0].Positive) == 0 {
		t.Errorf("distributions file: %v %d", err, len(full.Distributions))
	}
}

func TestScoreCommandText(t *testing.T) {
	realPath, genPath := writeScoreFixtures(t)
	rm := filepath.Join(t.TempDir(), "map.txt")
	if err := os.WriteFile(rm, []byte("# no real lines for Penny here\nPenny =\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := scoreCLI("score", "--real", realPath, "--encoder", "tfidf", "--bootstrap", "0", "--role-map", rm,
		"--rank-role", "Sheldon", "--per-role", "--models", "Good", genPath)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"Simulation ↑", "Distinction ↑", "Avg rank ↓", "Role matches", "Penny", "role-map", "(distinction only)",
		"Simulation Rank of Sheldon", "Top 5", "Similarity distributions"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "Bland") {
		t.Error("--models Good still scored Bland")
	}
	// Good plays Zed and Penny has no real lines here: the rows' role sets
	// differ, so the comparable table on the shared roles is printed.
	if !strings.Contains(stdout, "On the real roles each model shares with the Real row") {
		t.Errorf("no common-roles table:\n%s", stdout)
	}
	// A role-map entry for a role only a model left out by --models plays
	// is not an error.
	zed := filepath.Join(t.TempDir(), "zed.map")
	if err := os.WriteFile(zed, []byte("Zed =\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := scoreCLI("score", "--real", realPath, "--encoder", "tfidf", "--bootstrap", "0", "--role-map", zed,
		"--models", "Bland", genPath); code != 0 {
		t.Errorf("role map entry of a filtered-out model: exit %d: %s", code, stderr)
	}
}

func TestScoreCommandErrors(t *testing.T) {
	realPath, genPath := writeScoreFixtures(t)
	dir := t.TempDir()
	badRole := filepath.Join(dir, "role.map")
	badSpeaker := filepath.Join(dir, "speaker.map")
	if err := os.WriteFile(badRole, []byte("Sheldon Coper = Sheldon\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(badSpeaker, []byte("Sheldon Cooper = Sheldon; Leonard\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"score", "--real", realPath, "--generated", genPath}, 2, "--encoder is required"},
		{[]string{"score", "--generated", genPath, "--encoder", "tfidf"}, 2, "--real is required"},
		{[]string{"score", "--real", realPath, "--encoder", "tfidf"}, 2, "--generated is required"},
		{[]string{"score", "--real", realPath, "--generated", genPath, "--encoder", "nope"}, 1, "unknown encoder"},
		{[]string{"score", "--real", realPath, "--generated", realPath, "--encoder", "tfidf"}, 1, "no generated rows"},
		{[]string{"score", "--real", realPath, "--generated", genPath, "--encoder", "tfidf", "--held-out", "1.5"}, 1, "held-out"},
		{[]string{"score", "--real", realPath, "--generated", genPath, "--encoder", "tfidf", "--grouping", "scene"}, 1, "unknown grouping"},
		{[]string{"score", "--real", realPath, "--generated", "missing.parquet", "--encoder", "tfidf"}, 1, "missing.parquet"},
		{[]string{"score", "--real", realPath, "--generated", genPath, "--encoder", "tfidf", "--models", "Nobody"}, 2, "(models there: Bland, Good)"},
		{[]string{"score", "--real", "nowhere.parquet", "--generated", genPath, "--encoder", "tfidf"}, 1, "nowhere.parquet"},
		{[]string{"score", "--real", genPath, "--generated", genPath, "--encoder", "tfidf"}, 1, "no real rows"},
		{[]string{"score", "--real", realPath, "--generated", genPath, "--encoder", "tfidf", "--role-map", badRole}, 1, "role.map: role map entry \"Sheldon Coper\": no generated role of that name; expected one of "},
		{[]string{"score", "--real", realPath, "--generated", genPath, "--encoder", "tfidf", "--role-map", badSpeaker}, 1, "speaker.map: role map entry \"Sheldon Cooper\" = \"Leonard\": no real speaker"},
		{[]string{"score", "--real", realPath, "--generated", genPath, "--encoder", "tfidf", "--role-map", filepath.Join(dir, "none.map")}, 1, "none.map"},
		{[]string{"score", "--real", realPath, "--generated", genPath, "--encoder", "tfidf", "--rank-among", "both"}, 1, "unknown rank candidates"},
		{[]string{"score", "--real", realPath, "--encoder", "tfidf", genPath, "--json"}, 2, "after the input files"},
		{[]string{"score", "--real", realPath, "--generated", genPath, "--verifier", dir, "--fit-on", realPath}, 2, "--fit-on fits an --encoder"},
		{[]string{"score", "--real", realPath, "--generated", genPath, "--encoder", "tfidf", "--fit-on", realPath, "--fit-real-only"}, 2, "give one"},
		{[]string{"score", "--real", realPath, "--generated", genPath, "--encoder", "tfidf", "--fit-on", dir}, 1, "verifier.json"},
		{[]string{"score", "--real", realPath, "--generated", genPath, "--encoder", "lsm", "--fit-on", realPath}, 2, "is not fitted on texts"},
		{[]string{"score", "--real", realPath, "--generated", genPath, "--encoder", "tfidf", "--vs", "tfidff"}, 1, "--vs tfidff: "},
		{[]string{"score", "--real", realPath, "--generated", genPath, "--encoder", "tfidf", "--vs", dir}, 1, "--vs " + dir + ": "},
		{[]string{"score", "--real", realPath, "--generated", genPath, "--encoder", "tfidf", "--vs", "ngram-metric_ft"}, 2, "--vs ngram-metric_ft: score uses untrained encoders"},
		{[]string{"score", "--real", realPath, "--generated", genPath, "--encoder", "tfidf", "--fit-on", filepath.Join(dir, "no.txt")}, 1, "no.txt"},
	} {
		code, _, stderr := scoreCLI(c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args[1:], code, stderr, c.code, c.want)
		}
	}
}

// TestScoreCommandFitOn fits tfidf on a bundle folder's fit.txt holding no
// role's own words: its vocabulary cannot tell the roles apart, so the
// Real row's separation falls from the default fit on the scored texts.
func TestScoreCommandFitOn(t *testing.T) {
	realPath, genPath := writeScoreFixtures(t)
	bundle := t.TempDir()
	var lines []string
	for k := range 50 {
		lines = append(lines, strings.Repeat([]string{"the a is and", "to of you it", "that we so well"}[k%3]+" ", 3))
	}
	spec := fmt.Sprintf(`{"format": %q, "format_version": %d, "name": "t", "manifest": "manifest.json", "fit_texts": "fit.txt",
		"parts": [{"row": "tfidf", "encoder": "tfidf", "weight": 1, "fit": true}]}`, verifier.Format, verifier.FormatVersion)
	for f, body := range map[string]string{"verifier.json": spec, "manifest.json": "{}", "fit.txt": strings.Join(lines, "\n") + "\n"} {
		if err := os.WriteFile(filepath.Join(bundle, f), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sep := func(extra ...string) (float64, string) {
		args := append([]string{"score", "--real", realPath, "--generated", genPath, "--encoder", "tfidf", "--bootstrap", "0", "--json"}, extra...)
		code, stdout, stderr := scoreCLI(args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", extra, code, stderr)
		}
		var out struct {
			Config struct {
				FitOn string `json:"fit_on"`
			} `json:"config"`
			Distributions []struct {
				Model string   `json:"model"`
				Kind  string   `json:"kind"`
				AUC   *float64 `json:"auc"`
			} `json:"distributions"`
		}
		if err := json.Unmarshal([]byte(stdout), &out); err != nil {
			t.Fatal(err)
		}
		for _, d := range out.Distributions {
			if d.Model == "Real" && d.Kind == "real-generated" && d.AUC != nil {
				return *d.AUC, out.Config.FitOn
			}
		}
		t.Fatalf("%v: no Real real-generated AUC in %s", extra, stdout)
		return 0, ""
	}
	def, on := sep()
	if on != "" {
		t.Errorf("default fit_on %q, want empty", on)
	}
	fitted, on := sep("--fit-on", bundle)
	if on != bundle {
		t.Errorf("fit_on %q, want %q", on, bundle)
	}
	if !(def > 0.9 && fitted < def-0.1) {
		t.Errorf("separation fitted on the scored texts %.3f, on role-free texts %.3f: want > 0.9 and at least 0.1 lower", def, fitted)
	}
}

// TestScoreCommandVs compares tfidf with itself (every paired difference
// 0) and with liwc on the fixture's sets; without --vs the key is [].
func TestScoreCommandVs(t *testing.T) {
	realPath, genPath := writeScoreFixtures(t)
	type cmp struct {
		Model     string     `json:"model"`
		Kind      string     `json:"kind"`
		A         string     `json:"a"`
		B         string     `json:"b"`
		AUCDiff   *float64   `json:"auc_diff"`
		AUCDiffCI []*float64 `json:"auc_diff_ci"`
		Share     *float64   `json:"share_not_above"`
		Reps      int        `json:"replicates"`
	}
	run := func(extra ...string) []cmp {
		args := append([]string{"score", "--real", realPath, "--generated", genPath, "--encoder", "tfidf", "--bootstrap", "200", "--json"}, extra...)
		code, stdout, stderr := scoreCLI(args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", extra, code, stderr)
		}
		var out struct {
			Comparisons []cmp `json:"comparisons"`
		}
		if !strings.Contains(stdout, `"comparisons":`) {
			t.Fatalf("%v: no comparisons key", extra)
		}
		if err := json.Unmarshal([]byte(stdout), &out); err != nil {
			t.Fatal(err)
		}
		return out.Comparisons
	}
	if c := run(); len(c) != 0 {
		t.Errorf("without --vs: %d comparisons", len(c))
	}
	self := run("--vs", "tfidf")
	if len(self) != 6 {
		t.Fatalf("--vs tfidf: %d comparisons, want one per distribution (6)", len(self))
	}
	paired := 0
	for _, c := range self {
		if c.A != "tfidf" || c.B != "tfidf" {
			t.Errorf("names %q %q", c.A, c.B)
		}
		if c.Reps == 0 {
			continue
		}
		paired++
		if c.AUCDiff == nil || c.AUCDiffCI[0] == nil || c.AUCDiffCI[1] == nil || *c.AUCDiff != 0 || *c.AUCDiffCI[0] != 0 || *c.AUCDiffCI[1] != 0 {
			t.Errorf("%s %s against itself: diff %v, interval %v", c.Model, c.Kind, deref(c.AUCDiff), []float64{deref(c.AUCDiffCI[0]), deref(c.AUCDiffCI[1])})
		}
	}
	if paired == 0 {
		t.Error("--vs tfidf: no comparison with paired replicates")
	}
	found := false
	for _, c := range run("--vs", "liwc") {
		if c.Model == "Real" && c.Kind == "real-generated" {
			found = c.B == "liwc" && c.Reps > 100 && c.AUCDiff != nil && c.AUCDiffCI[0] != nil && c.AUCDiffCI[1] != nil &&
				*c.AUCDiffCI[0] <= *c.AUCDiff && *c.AUCDiff <= *c.AUCDiffCI[1]
		}
	}
	if !found {
		t.Error("--vs liwc: no paired interval around the Real row's difference")
	}
}

// deref is *p, or NaN for nil.
func deref(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}
