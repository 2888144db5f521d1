package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
)

// personaFixture is the distill package's small sitcom script.
const personaFixture = "../../persona/distill/testdata/sitcom.txt"

// runPersonaCLI runs one command line and returns exit code, stdout and
// stderr.
func runPersonaCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// decodeOne insists on exactly one JSON object on stdout.
func decodeOne(t *testing.T, stdout string, v any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(stdout))
	if err := dec.Decode(v); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
	}
	if dec.More() {
		t.Fatalf("more than one JSON value on stdout:\n%s", stdout)
	}
}

func TestPersonaDistillCLI(t *testing.T) {
	t.Setenv("ROLEPRINT_LLM_MODEL", "")
	t.Setenv("ROLEPRINT_LLM_CACHE", "off")
	out := t.TempDir()
	code, stdout, stderr := runPersonaCLI(t, "persona", "distill", "--backend", "extractive", "--out", out, "--min-lines", "5", "--min-co-events", "2", "--json", "--prompts", personaFixture)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Backend       string            `json:"backend"`
		Extractive    bool              `json:"extractive"`
		Characters    []string          `json:"characters"`
		Relationships int               `json:"relationships"`
		Stages        []map[string]any  `json:"stages"`
		Prompts       map[string]string `json:"prompts"`
		Files         []string          `json:"files"`
	}
	decodeOne(t, stdout, &got)
	if got.Backend != "extractive" || !got.Extractive || len(got.Characters) != 4 || got.Relationships == 0 || len(got.Stages) != 5 {
		t.Fatalf("json %+v", got)
	}
	if !strings.HasPrefix(got.Prompts["Bob"], "You are Bob.") {
		t.Fatalf("Bob's prompt %q", got.Prompts["Bob"])
	}
	for _, f := range got.Files {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Fatalf("listed file missing: %v", err)
		}
	}
	// Parquet input works too, and a missing --out is a usage error.
	pq := filepath.Join(t.TempDir(), "c.parquet")
	var utts []data.Utterance
	for i := 0; i < 30; i++ {
		utts = append(utts, data.Utterance{Source: "x", ConversationID: []string{"a", "b", "c"}[i%3], Turn: int32(i), Speaker: []string{"Ann", "Ben"}[i%2], Text: "line about pizza and proofs number " + string(rune('a'+i%26))})
	}
	if err := data.WriteUtterances(pq, utts); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runPersonaCLI(t, "persona", "distill", "--out", t.TempDir(), "--min-lines", "5", pq); code != 0 {
		t.Fatalf("parquet input: exit %d: %s", code, stderr)
	}
	if code, _, _ := runPersonaCLI(t, "persona", "distill", personaFixture); code != 2 {
		t.Fatalf("missing --out: exit %d, want 2", code)
	}
	if code, _, stderr := runPersonaCLI(t, "persona", "distill", "--backend", "llm", "--llm-model", "", "--out", out, personaFixture); code != 2 || !strings.Contains(stderr, "model") {
		t.Fatalf("llm without model: exit %d: %s", code, stderr)
	}
}

func TestJudgeCLI(t *testing.T) {
	dir := t.TempDir()
	sr := filepath.Join(dir, "agent.jsonl")
	os.WriteFile(sr, []byte(`{"id": "1", "role": "Bob", "profile": "Bob loves pizza.", "context": [{"speaker": "Ada", "text": "Dinner?"}], "candidate": "Pizza, obviously!", "references": ["Can we order pizza?", "Pizza, please."]}
{"id": "2", "role": "Bob", "candidate": "I surrender.", "references": ["Okay, okay, I surrender."]}
`), 0o644)
	code, stdout, stderr := runPersonaCLI(t, "judge", "--protocol", "speechrole", "--json", sr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Protocol   string   `json:"protocol"`
		Judge      string   `json:"judge"`
		Offline    bool     `json:"offline"`
		Dimensions []string `json:"dimensions"`
		Systems    []struct {
			System  string             `json:"system"`
			N       int                `json:"n"`
			Scores  map[string]float64 `json:"scores"`
			Overall float64            `json:"overall"`
		} `json:"systems"`
	}
	decodeOne(t, stdout, &got)
	if got.Judge != "lexical" || !got.Offline || len(got.Dimensions) != 8 || len(got.Systems) != 1 || got.Systems[0].N != 2 || got.Systems[0].Overall <= 0 || len(got.Systems[0].Scores) != 8 {
		t.Fatalf("json %+v", got)
	}
	vr := filepath.Join(dir, "vox.jsonl")
	os.WriteFile(vr, []byte(`{"id": "1", "role": "Bob", "persona": "You are Bob.", "response": "Pizza!", "reference": "Pizza fixes everything.", "response_tags": {"pitch": "High"}, "profile": {"pitch": "High"}}
`), 0o644)
	if code, stdout, stderr := runPersonaCLI(t, "judge", "--protocol", "voxrole", vr); code != 0 || !strings.Contains(stdout, "likeness") {
		t.Fatalf("voxrole: exit %d: %s %s", code, stdout, stderr)
	}
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte("{\"id\": \"1\", \"candidate\": \"x\", \"references\": [\"y\"]}\n{\"id\": 2}\n"), 0o644)
	if code, _, stderr := runPersonaCLI(t, "judge", bad); code != 1 || !strings.Contains(stderr, "bad.jsonl:2") {
		t.Fatalf("bad input: exit %d: %s", code, stderr)
	}
	code, stdout, stderr = runPersonaCLI(t, "judge", "--protocol", "ablation", "--roles", "Bob,Ada", "--per-role", "3", "--k", "2,4", "--json", personaFixture)
	if code != 0 {
		t.Fatalf("ablation: exit %d: %s", code, stderr)
	}
	var ab struct {
		Agent   string    `json:"agent"`
		Ks      []int     `json:"ks"`
		Overall []float64 `json:"overall"`
		N       int       `json:"n"`
	}
	decodeOne(t, stdout, &ab)
	if ab.Agent != "retrieval" || len(ab.Overall) != 2 || ab.Ks[1] != 4 || ab.N != 6 {
		t.Fatalf("ablation %+v", ab)
	}
}

func TestMetricsCLI(t *testing.T) {
	t.Setenv("HF_HUB_CACHE", t.TempDir()) // no Hub models: the lexical fallbacks, whatever this machine has cached
	dir := t.TempDir()
	tp := filepath.Join(dir, "sys.jsonl")
	os.WriteFile(tp, []byte(`{"candidate": "police kill the gunman", "reference": "police killed the gunman"}
{"candidate": "the gunman kill police", "references": ["police killed the gunman"]}
`), 0o644)
	code, stdout, stderr := runPersonaCLI(t, "metrics", "--json", "--no-synonyms", tp)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Kind    string `json:"kind"`
		Systems []struct {
			RougeL float64 `json:"rouge_l"`
			Meteor float64 `json:"meteor"`
			BERT   float64 `json:"bertscore_f1"`
			N      int     `json:"n"`
		} `json:"systems"`
		Modules []string `json:"meteor_modules"`
		Encoder string   `json:"encoder"`
	}
	decodeOne(t, stdout, &got)
	if got.Kind != "text" || len(got.Systems) != 1 || got.Systems[0].N != 2 || got.Encoder != "hash-ngram" || strings.Join(got.Modules, ",") != "exact,stem" {
		t.Fatalf("json %+v", got)
	}
	if r := got.Systems[0].RougeL; r < 0.6249 || r > 0.6251 { // (0.75 + 0.5)/2, Lin (2004)
		t.Fatalf("rouge_l %v, want 0.625", r)
	}
	ag := filepath.Join(dir, "h.csv")
	os.WriteFile(ag, []byte("item,dimension,human,judge\n1,IA,1,1\n2,IA,2,3\n3,IA,3,2\n4,IA,4,4\n1,KC,1,2\n2,KC,2,1\n"), 0o644)
	code, stdout, stderr = runPersonaCLI(t, "metrics", "--kind", "agreement", "--json", ag)
	if code != 0 {
		t.Fatalf("agreement: exit %d: %s", code, stderr)
	}
	var agr struct {
		Agreement []struct {
			Dimension string  `json:"dimension"`
			N         int     `json:"n"`
			Spearman  float64 `json:"spearman"`
			Kendall   float64 `json:"kendall_tau_b"`
			Pairwise  float64 `json:"pairwise_agreement"`
		} `json:"agreement"`
	}
	decodeOne(t, stdout, &agr)
	if len(agr.Agreement) != 2 || agr.Agreement[0].Dimension != "IA" || agr.Agreement[0].Spearman != 0.8 || agr.Agreement[1].Kendall != -1 {
		t.Fatalf("agreement %+v", agr)
	}
	// Dedup: three conversations, two identical.
	pq := filepath.Join(dir, "d.parquet")
	var utts []data.Utterance
	for i, c := range []string{"a", "b", "c"} {
		text := "we should order pizza tonight"
		if i == 2 {
			text = "the invariant of the loop holds"
		}
		utts = append(utts, data.Utterance{Source: "x", ConversationID: c, Speaker: "Bob", Text: text})
	}
	data.WriteUtterances(pq, utts)
	kept := filepath.Join(dir, "kept.parquet")
	code, stdout, stderr = runPersonaCLI(t, "metrics", "--kind", "dedup", "--out", kept, "--json", pq)
	if code != 0 {
		t.Fatalf("dedup: exit %d: %s", code, stderr)
	}
	var dd struct {
		Dedup struct {
			Dialogues, Kept, Dropped int
		} `json:"dedup"`
	}
	decodeOne(t, stdout, &dd)
	if dd.Dedup.Dialogues != 3 || dd.Dedup.Kept != 2 || dd.Dedup.Dropped != 1 {
		t.Fatalf("dedup %+v", dd)
	}
	if rows, err := data.ReadUtterances(kept); err != nil || len(rows) != 2 {
		t.Fatalf("kept rows %d %v", len(rows), err)
	}
}

func TestAlignCLI(t *testing.T) {
	t.Setenv("HF_HUB_CACHE", t.TempDir()) // no Hub models: the lexical check, whatever this machine has cached
	code, stdout, stderr := runPersonaCLI(t, "align", "--synthetic", "--json", personaFixture)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Stats struct {
			Lines      int `json:"lines"`
			ValidLines int `json:"valid_lines"`
		} `json:"stats"`
		Boundaries struct {
			ExactRate float64 `json:"exact_rate"`
		} `json:"boundaries"`
		Segments int    `json:"segments"`
		Encoder  string `json:"encoder"`
	}
	decodeOne(t, stdout, &got)
	if got.Stats.Lines < 80 || got.Boundaries.ExactRate < 0.9 || got.Segments == 0 || got.Encoder != "hash-ngram" {
		t.Fatalf("json %+v", got)
	}
	// A real transcript file (TSV) against a two-line script.
	dir := t.TempDir()
	scr := filepath.Join(dir, "s.txt")
	os.WriteFile(scr, []byte("Scene: x\nAda: hello there bob\nBob: hi ada how are you\nAda: fine thanks\n"), 0o644)
	tr := filepath.Join(dir, "t.tsv")
	os.WriteFile(tr, []byte("start\tend\tword\n0\t0.4\thello\n0.5\t0.9\tthere\n1\t1.3\tbob\n2\t2.2\thi\n2.3\t2.6\tada\n2.7\t2.9\thow\n3\t3.2\tare\n3.3\t3.5\tyou\n4\t4.3\tfine\n4.4\t4.8\tthanks\n"), 0o644)
	out := filepath.Join(dir, "a.json")
	code, stdout, stderr = runPersonaCLI(t, "align", "--out", out, scr, tr)
	if code != 0 || !strings.Contains(stdout, "3 of 3 lines valid") || !strings.Contains(stdout, "1 two-speaker segments") {
		t.Fatalf("exit %d: %s %s", code, stdout, stderr)
	}
	var full struct {
		Lines []struct {
			Start *float64 `json:"start"`
			End   *float64 `json:"end"`
		} `json:"lines"`
	}
	b, _ := os.ReadFile(out)
	if err := json.Unmarshal(b, &full); err != nil || len(full.Lines) != 3 || *full.Lines[1].Start != 2 || *full.Lines[1].End != 3.5 {
		t.Fatalf("alignment file: %v %s", err, b)
	}
	if code, _, _ := runPersonaCLI(t, "align", scr); code != 2 {
		t.Fatalf("missing transcript: exit %d, want 2", code)
	}
}
