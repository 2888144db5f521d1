package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/llm"
	"github.com/roleprint/roleprint/llm/llmtest"
)

var inCharacterRE = regexp.MustCompile(`Stay in character as ([A-Za-z]+)\.`)

// selfPlayAnswer is a fake role-player: the speaker named in the system
// prompt says a line of its own words (as the real fixture corpus's
// speakers do) chosen by a hash of the request, and ends the scene with
// the marker after a request-dependent number of turns. The answer depends
// on the request only, so a resumed or concurrent run must reproduce it.
func selfPlayAnswer(req llm.Request) string {
	m := inCharacterRE.FindStringSubmatch(req.Messages[0].Content)
	if m == nil {
		return "I am nobody."
	}
	b, _ := json.Marshal(req.Messages)
	h := sha256.Sum256(b)
	own := strings.ToLower(m[1])
	var w []string
	for k := range 9 {
		if k%3 == 0 {
			w = append(w, fmt.Sprintf("%s%c", own, 'a'+h[k]%10))
		} else {
			w = append(w, strings.Fields("the a is and to of you it that we so well")[h[k]%12])
		}
	}
	line := m[1] + ": " + strings.Join(w, " ")
	if len(req.Messages) >= 4+int(h[20]%6) {
		line += " [END]"
	}
	return line
}

// runSelfPlayCLI runs selfplay with a context the caller may cancel.
func runSelfPlayCLI(ctx context.Context, args ...string) (int, string, string) {
	var o, e bytes.Buffer
	code := run(ctx, append([]string{"selfplay"}, args...), &o, &e)
	return code, o.String(), e.String()
}

// Self-play against a fake OpenAI-compatible server, killed midway and
// resumed: the output equals an uninterrupted run's, the server bills
// every request once in all, and `score` reads the output.
func TestSelfPlayKilledResumedThenScored(t *testing.T) {
	clearLLMEnv(t)
	t.Setenv(llm.EnvCache, "off")
	realPath, _ := writeScoreFixtures(t)
	dir := t.TempDir()
	roles := filepath.Join(dir, "roles.tsv")
	var rl strings.Builder
	rl.WriteString("# role\tdescription\tsource\n")
	for _, r := range []string{"Sheldon", "Penny", "Raj", "Howard"} {
		fmt.Fprintf(&rl, "%s\t%s is a character of the show.\ttbbt\n", r, r)
	}
	if err := os.WriteFile(roles, []byte(rl.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	args := func(s *llmtest.Server, out string) []string {
		return []string{"--model", "fake-model", "--base-url", s.BaseURL, "--roles", roles, "--out", out, "--pairs", "paper",
			"--per-pair", "2", "--max-turns", "8", "--concurrency", "3", "--seed", "7", "--json"}
	}

	// Reference: one uninterrupted run.
	ref := llmtest.New(selfPlayAnswer)
	defer ref.Close()
	refOut := filepath.Join(dir, "ref", "gen.parquet")
	if err := os.MkdirAll(filepath.Dir(refOut), 0o755); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runSelfPlayCLI(context.Background(), args(ref, refOut)...); code != 0 {
		t.Fatalf("reference run: exit %d: %s", code, stderr)
	}
	total := ref.Served()
	if total < 12*2 {
		t.Fatalf("reference run made %d requests for 12 scenes", total)
	}

	// Killed after 10 requests reach the server, then resumed.
	ctx, cancel := context.WithCancel(context.Background())
	var once sync.Once
	s := llmtest.New(nil)
	defer s.Close()
	var mu sync.Mutex
	seen := 0
	s.SetAnswer(func(req llm.Request) string {
		mu.Lock()
		seen++
		if seen == 10 {
			once.Do(cancel)
		}
		mu.Unlock()
		return selfPlayAnswer(req)
	})
	out := filepath.Join(dir, "gen.parquet")
	code, _, stderr := runSelfPlayCLI(ctx, args(s, out)...)
	if code == 0 || !strings.Contains(stderr, "journal") {
		t.Fatalf("killed run: exit %d, %s", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("a killed run wrote the output")
	}
	killed := s.Served()
	if killed < 10 || killed >= total {
		t.Fatalf("killed run made %d of %d requests", killed, total)
	}
	t.Logf("reference %d requests; killed run %d", total, killed)
	code, stdout, stderr := runSelfPlayCLI(context.Background(), args(s, out)...)
	if code != 0 {
		t.Fatalf("resumed run: exit %d: %s", code, stderr)
	}
	var j selfPlayJSON
	decodeOne(t, stdout, &j)
	if s.Served() != total {
		t.Fatalf("killed + resumed runs paid %d requests, an uninterrupted run %d", s.Served(), total)
	}
	if j.Replayed != int64(killed) || j.Requests != int64(total-killed) || j.Scenes != 12 {
		t.Fatalf("resume JSON %+v; want %d replayed, %d paid", j, killed, total-killed)
	}
	got, err := data.ReadUtterances(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := data.ReadUtterances(refOut)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("resumed output differs from the uninterrupted run (%d vs %d rows)", len(got), len(want))
	}

	checkSelfPlayRows(t, got)
	checkSelfPlayManifest(t, j.Manifest)
	checkSelfPlayScored(t, realPath, out)
}

// checkSelfPlayRows checks self-play's rows: a greeting row then
// alternating roles, one conversation id for both roles of a scene (what
// Eq. 3 needs to leave the pair out).
func checkSelfPlayRows(t *testing.T, got []data.Utterance) {
	t.Helper()
	convRoles := map[string]map[string]bool{}
	for i, u := range got {
		if err := u.Validate(); err != nil {
			t.Fatalf("row %d: %v", i, err)
		}
		if u.AgentModel != "fake-model" || u.Source != "selfplay" {
			t.Fatalf("row %d: %+v", i, u)
		}
		if u.Turn == 0 {
			if u.Speaker != "User" || u.Text != "Hello!" {
				t.Fatalf("row %d: scene does not open with the greeting: %+v", i, u)
			}
			continue
		}
		if u.Speaker != u.Role || strings.Contains(u.Text, "[END]") || strings.HasPrefix(u.Text, u.Speaker+":") {
			t.Fatalf("row %d not cleaned: %+v", i, u)
		}
		if convRoles[u.ConversationID] == nil {
			convRoles[u.ConversationID] = map[string]bool{}
		}
		convRoles[u.ConversationID][u.Role] = true
	}
	if len(convRoles) != 12 {
		t.Fatalf("%d conversations, want 6 pairs × 2", len(convRoles))
	}
	for id, rs := range convRoles {
		if len(rs) != 2 {
			t.Fatalf("conversation %s has roles %v", id, rs)
		}
	}
}

// checkSelfPlayManifest checks the manifest beside the output: without
// secrets, with the prompts.
func checkSelfPlayManifest(t *testing.T, path string) {
	t.Helper()
	var m struct {
		Endpoint struct {
			Model string `json:"model"`
		} `json:"endpoint"`
		Config struct {
			Temperature float64 `json:"temperature"`
			MaxTokens   int     `json:"max_tokens"`
			Seed        int64   `json:"seed"`
		} `json:"config"`
		Roles []struct {
			SHA256 string `json:"sha256"`
			Prompt string `json:"prompt"`
		} `json:"roles"`
	}
	mb, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(mb, &m) != nil {
		t.Fatalf("manifest %s: %v", path, err)
	}
	if m.Endpoint.Model != "fake-model" || m.Config.Seed != 7 || m.Config.Temperature != 0.7 || m.Config.MaxTokens != 256 || len(m.Roles) != 4 || len(m.Roles[0].SHA256) != 64 {
		t.Fatalf("manifest %s", mb)
	}

}

// checkSelfPlayScored checks that score reads self-play's output.
func checkSelfPlayScored(t *testing.T, realPath, out string) {
	t.Helper()
	// score reads it. With --pairs all every role met every other, so the
	// paper's Eq. 3 (counterparts excluded, one set per role) has no pair
	// left; the chunked grouping still compares the roles' chunks.
	code, stdout, stderr := scoreCLI("score", "--real", realPath, "--generated", out, "--encoder", "tfidf", "--grouping", "chunks", "--bootstrap", "0", "--json")
	if code != 0 {
		t.Fatalf("score: exit %d: %s", code, stderr)
	}
	var rep struct {
		Models []struct {
			Model       string  `json:"model"`
			Simulation  float64 `json:"simulation"`
			Distinction float64 `json:"distinction"`
			Roles       int     `json:"roles"`
		} `json:"models"`
	}
	decodeOne(t, stdout, &rep)
	found := false
	for _, r := range rep.Models {
		if r.Model == "fake-model" {
			found = true
			t.Logf("score row %+v", r)
			if r.Roles != 4 || r.Distinction <= 0 || r.Simulation <= 0 {
				t.Fatalf("score row %+v", r)
			}
		}
	}
	if !found {
		t.Fatalf("score has no fake-model row: %s", stdout)
	}
}

// --interview: every role answers every question; the manifest keeps them.
func TestSelfPlayInterviewCLI(t *testing.T) {
	clearLLMEnv(t)
	t.Setenv(llm.EnvCache, "off")
	s := llmtest.New(func(req llm.Request) string {
		m := regexp.MustCompile(`Stay in character as ([A-Za-z]+)`).FindStringSubmatch(req.Messages[0].Content)
		if m == nil {
			return "no role"
		}
		return m[1] + ": about " + req.Messages[1].Content
	})
	defer s.Close()
	dir := t.TempDir()
	roles := filepath.Join(dir, "desc.json")
	os.WriteFile(roles, []byte(`{"Ann": "A baker.", "Bob": "A smith."}`), 0o644)
	qs := filepath.Join(dir, "q.txt")
	os.WriteFile(qs, []byte("# questions\nWho are you?\nWhat do you fear?\n"), 0o644)
	out := filepath.Join(dir, "answers.parquet")
	code, stdout, stderr := runSelfPlayCLI(context.Background(), "--model", "m", "--base-url", s.BaseURL, "--roles", roles, "--interview", qs, "--out", out, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var j selfPlayJSON
	decodeOne(t, stdout, &j)
	rows, err := data.ReadUtterances(out)
	if err != nil || j.Mode != "interview" || j.Scenes != 4 || len(rows) != 8 || s.Served() != 4 {
		t.Fatalf("%+v rows %d %v", j, len(rows), err)
	}
	if rows[1].ConversationID != "Ann/q1" || rows[1].Speaker != "Ann" || rows[1].Text != "about Who are you?" || rows[0].Text != "Who are you?" || rows[0].Speaker != "User" {
		t.Fatalf("rows %+v", rows[:2])
	}
	mb, _ := os.ReadFile(j.Manifest)
	if !strings.Contains(string(mb), `"What do you fear?"`) || !strings.Contains(string(mb), `"mode": "interview"`) {
		t.Fatalf("manifest %s", mb)
	}
	// No model: refused with the flags named.
	if code, _, stderr := runSelfPlayCLI(context.Background(), "--roles", roles, "--out", out); code != 2 || !strings.Contains(stderr, "--llm-model") {
		t.Fatalf("no model: %d %s", code, stderr)
	}
}

// The ids let Eq. 3 leave a role's own interlocutor out: with one scene of
// two roles and one set per conversation, every pair of the two roles'
// sets comes from the same conversation, so Distinction is undefined;
// with two scenes of the pair it is defined (pairs across scenes).
func TestSelfPlayIDsLetDistinctionSkipTheCounterpart(t *testing.T) {
	clearLLMEnv(t)
	t.Setenv(llm.EnvCache, "off")
	s := llmtest.New(selfPlayAnswer)
	defer s.Close()
	dir := t.TempDir()
	roles := filepath.Join(dir, "roles.tsv")
	os.WriteFile(roles, []byte("Sheldon\tA physicist.\nPenny\tA waitress.\n"), 0o644)
	realPath, _ := writeScoreFixtures(t)
	distinction := func(perPair string) *float64 {
		out := filepath.Join(dir, "gen"+perPair+".parquet")
		if code, _, stderr := runSelfPlayCLI(context.Background(), "--model", "m", "--base-url", s.BaseURL, "--roles", roles, "--out", out,
			"--per-pair", perPair, "--max-turns", "8", "--min-turns", "8"); code != 0 {
			t.Fatalf("selfplay: %s", stderr)
		}
		code, stdout, stderr := scoreCLI("score", "--real", realPath, "--generated", out, "--encoder", "tfidf", "--grouping", "conversation", "--bootstrap", "0", "--held-out", "0", "--json")
		if code != 0 {
			t.Fatalf("score: %s", stderr)
		}
		var rep struct {
			Models []struct {
				Model       string   `json:"model"`
				Distinction *float64 `json:"distinction"`
			} `json:"models"`
		}
		decodeOne(t, stdout, &rep)
		for _, r := range rep.Models {
			if r.Model == "m" {
				return r.Distinction
			}
		}
		t.Fatalf("no row for m: %s", stdout)
		return nil
	}
	if d := distinction("1"); d != nil {
		t.Fatalf("one scene: Distinction %v compares a role with its own interlocutor", *d)
	}
	if d := distinction("2"); d == nil || *d <= 0 {
		t.Fatalf("two scenes: Distinction %v, want defined", d)
	}
}
