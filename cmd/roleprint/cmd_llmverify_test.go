package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data/genimport"
	"github.com/roleprint/roleprint/llm"
	"github.com/roleprint/roleprint/llm/llmtest"
)

// clearLLMEnv makes a test independent of the caller's LLM settings.
func clearLLMEnv(t *testing.T) {
	for _, v := range []string{llm.EnvBaseURL, llm.EnvModel, llm.EnvAPIKey, llm.EnvCache, llm.EnvTimeout, llm.EnvOpenAIBaseURL, llm.EnvOpenAIKey} {
		t.Setenv(v, "")
	}
}

// writeLLMVerifyRecords writes n pair records whose anchors start with the
// word "same" or "diff" as their label says, with conversations.
func writeLLMVerifyRecords(t *testing.T, name string, n int) string {
	t.Helper()
	var recs []genimport.PairRecord
	for i := range n {
		label, word := i%2, "diff"
		if label == 1 {
			word = "same"
		}
		a := fmt.Sprintf("%s anchor line %d", word, i)
		b := fmt.Sprintf("paired line %d", i)
		recs = append(recs, genimport.PairRecord{
			AnchorDataset: "toy", AnchorSpeaker: "Ann", AnchorUtterances: []string{a},
			AnchorConversation: []genimport.ConversationTurn{{Speaker: "Bob", Utterance: "hello"}, {Speaker: "Ann", Utterance: a}},
			PairedDataset:      "toy", PairedSpeaker: "Cid", PairedUtterances: []string{b},
			PairedConversation: []genimport.ConversationTurn{{Speaker: "Cid", Utterance: b}},
			Label:              label,
		})
	}
	path := filepath.Join(t.TempDir(), name)
	if err := genimport.WritePairRecords(path, recs); err != nil {
		t.Fatal(err)
	}
	return path
}

// llmVerifyAnswer is a fake verifier that reads the label hidden in the
// anchor of the question (the last user message): right on "same" pairs,
// and right on "diff" pairs only in the utterances view.
func llmVerifyAnswer(req llm.Request) string {
	q := req.Messages[len(req.Messages)-1].Content
	switch {
	case strings.Contains(q, "same anchor"):
		return "Answer: TRUE"
	case strings.Contains(q, "Conversation 1"):
		return "TRUE"
	}
	return "FALSE"
}

func TestLLMVerifyCommand(t *testing.T) {
	clearLLMEnv(t)
	srv := llmtest.New(llmVerifyAnswer)
	t.Cleanup(srv.Close)
	test := writeLLMVerifyRecords(t, "test.jsonl", 10)
	train := writeLLMVerifyRecords(t, "train.jsonl", 6)
	preds := filepath.Join(t.TempDir(), "preds.json")
	saved := filepath.Join(t.TempDir(), "sample.jsonl")
	code, stdout, stderr := scoreCLI("llm-verify", "--llm-base-url", srv.BaseURL, "--llm-model", "fake", "--llm-cache", "off",
		"--views", "conversation,utterances", "--promptings", "zero-shot,cot,2-shot", "--n", "8", "--train", train,
		"--predictions", preds, "--save-records", saved, "--json", test)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out struct {
		Model   string `json:"model"`
		N       int    `json:"n"`
		Results []struct {
			View      string   `json:"view"`
			Prompting string   `json:"prompting"`
			N         int      `json:"n"`
			ACC       *float64 `json:"acc"`
			F1        *float64 `json:"f1"`
			MacroF1   *float64 `json:"macro_f1"`
			Unparsed  int      `json:"unparsed"`
		} `json:"results"`
		Stats struct {
			Calls int `json:"calls"`
		} `json:"llm_stats"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if out.Model != "fake" || out.N != 8 || len(out.Results) != 6 || out.Stats.Calls != 48 {
		t.Fatalf("output %+v", out)
	}
	for _, r := range out.Results {
		// 4 same + 4 different pairs: the utterances view is always right;
		// the conversation view says TRUE to everything (ACC 0.5, F1 2/3).
		wantACC, wantF1 := 1.0, 1.0
		if r.View == "conversation" {
			wantACC, wantF1 = 0.5, 2.0/3
		}
		if r.N != 8 || *r.ACC != wantACC || *r.F1-wantF1 > 1e-6 || wantF1-*r.F1 > 1e-6 {
			t.Errorf("%s %s: acc %v f1 %v", r.View, r.Prompting, *r.ACC, *r.F1)
		}
	}
	if b, err := os.ReadFile(preds); err != nil || !strings.Contains(string(b), `"reply": "Answer: TRUE"`) {
		t.Errorf("predictions file: %v", err)
	}
	if recs, err := genimport.ReadPairRecords(saved); err != nil || len(recs) != 8 {
		t.Errorf("saved sample: %v %d", err, len(recs))
	}
	// The k-shot requests carry 2 demonstrations (a question and an answer
	// each) before the question.
	long := 0
	for _, r := range srv.Requests() {
		if len(r.Messages) == 6 {
			long++
		}
	}
	if long != 16 {
		t.Errorf("%d requests with two demonstrations, want 16", long)
	}

	// Text output: Table 1 layout.
	code, stdout, stderr = scoreCLI("llm-verify", "--llm-base-url", srv.BaseURL, "--llm-model", "fake", "--llm-cache", "off",
		"--views", "utterances", "--prompts", "zero-shot", "--n", "0", test)
	if code != 0 || !strings.Contains(stdout, "utterances ACC") || !strings.Contains(stdout, "zero-shot") || !strings.Contains(stdout, "100.00") {
		t.Errorf("text output (exit %d):\n%s\n%s", code, stdout, stderr)
	}

	// --prompts DIR replaces a template: the requests carry it and the
	// JSON records every template's hash, the replaced one's new.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "instruction.tmpl"), []byte("Custom instruction: say TRUE or FALSE.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := len(srv.Requests())
	code, stdout, stderr = scoreCLI("llm-verify", "--llm-base-url", srv.BaseURL, "--llm-model", "fake", "--llm-cache", "off",
		"--views", "utterances", "--promptings", "zero-shot", "--prompts", dir, "--n", "0", "--json", test)
	if code != 0 {
		t.Fatalf("--prompts DIR: exit %d: %s", code, stderr)
	}
	var tout struct {
		PromptsDir string            `json:"prompts_dir"`
		Templates  map[string]string `json:"templates"`
		Results    []struct {
			Templates map[string]string `json:"templates"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(stdout), &tout); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()[before:]
	if len(reqs) == 0 || !strings.HasSuffix(reqs[0].Messages[len(reqs[0].Messages)-1].Content, "Custom instruction: say TRUE or FALSE.") {
		t.Errorf("requests do not carry the replaced template")
	}
	if tout.PromptsDir != dir || len(tout.Templates) != 5 || len(tout.Results) != 1 || tout.Results[0].Templates["instruction.tmpl"] != tout.Templates["instruction.tmpl"] ||
		tout.Templates["instruction.tmpl"] == "" {
		t.Errorf("templates in JSON: %+v", tout)
	}
}

func TestLLMVerifyCommandErrors(t *testing.T) {
	clearLLMEnv(t)
	test := writeLLMVerifyRecords(t, "test.jsonl", 4)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"llm-verify", test}, "no LLM endpoint configured"},
		{[]string{"llm-verify", "--llm-model", "gpt-x", test}, "needs an API key"},
		{[]string{"llm-verify", "--llm-base-url", "http://127.0.0.1:1/v1", "--llm-model", "m"}, "no test pairs"},
		{[]string{"llm-verify", "--llm-base-url", "http://127.0.0.1:1/v1", "--llm-model", "m", "--prompts", "3-shot", test}, "--prompts"},
		{[]string{"llm-verify", "--llm-base-url", "http://127.0.0.1:1/v1", "--llm-model", "m", "--views", "video", test}, "--views"},
	} {
		code, _, stderr := scoreCLI(c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args[1:], code, stderr, c.want)
		}
	}
	// K-shot without training pairs is skipped with a note, not run.
	srv := llmtest.New(func(llm.Request) string { return "TRUE" })
	t.Cleanup(srv.Close)
	code, _, stderr := scoreCLI("llm-verify", "--llm-base-url", srv.BaseURL, "--llm-model", "m", "--llm-cache", "off",
		"--views", "utterances", "--prompts", "2-shot", test)
	if code != 0 || !strings.Contains(stderr, "no training pairs") || srv.Served() != 0 {
		t.Errorf("k-shot without --train: exit %d, %q, %d served", code, stderr, srv.Served())
	}
}

// --out writes Table 1 (LaTeX and Markdown) with the measured values and
// the paper's rows of the level named by --test.
func TestLLMVerifyWritesTable1(t *testing.T) {
	clearLLMEnv(t)
	srv := llmtest.New(llmVerifyAnswer)
	t.Cleanup(srv.Close)
	test := writeLLMVerifyRecords(t, "test.jsonl", 10)
	dir := filepath.Join(t.TempDir(), "out")
	code, _, stderr := scoreCLI("llm-verify", "--llm-base-url", srv.BaseURL, "--llm-model", "fake", "--llm-cache", "off",
		"--views", "conversation,utterances", "--promptings", "zero-shot", "--n", "8", "--test", "unseen-unseen-harder",
		"--out", dir, "--json", test)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	tex, err := os.ReadFile(filepath.Join(dir, "table1.tex"))
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "table1.md"))
	if err != nil {
		t.Fatal(err)
	}
	// Utterances view always right (100.00), conversation view 50.00 ACC.
	for _, want := range []string{`\toprule`, "zero-shot", "100.00", "50.00", "fake"} {
		if !strings.Contains(string(tex), want) {
			t.Errorf("table1.tex lacks %q:\n%s", want, tex)
		}
	}
	if !strings.Contains(string(md), "paper") {
		t.Errorf("table1.md has no paper rows:\n%s", md)
	}
}
