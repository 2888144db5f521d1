package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/llm"
	"github.com/roleprint/roleprint/llm/llmtest"
)

var judgeCodeRE = regexp.MustCompile(`(?m)^- ([A-Za-z]+) \(`)

// `judge --judge-audio` sends the recordings for the speech dimensions and
// labels each system by what its speech dimensions were judged on.
func TestJudgeAudioCLI(t *testing.T) {
	clearLLMEnv(t)
	t.Setenv(llm.EnvCache, "off")
	audioReqs := 0
	s := llmtest.New(func(req llm.Request) string {
		u := req.Messages[len(req.Messages)-1]
		if u.HasAudio() {
			audioReqs++
		}
		var a, b []string
		for _, m := range judgeCodeRE.FindAllStringSubmatch(u.Content, -1) {
			a, b = append(a, fmt.Sprintf("%q: 6", m[1])), append(b, fmt.Sprintf("%q: 3", m[1]))
		}
		return fmt.Sprintf(`{"rationale": "r", "scores": {"A": {%s}, "B": {%s}}}`, strings.Join(a, ","), strings.Join(b, ","))
	})
	defer s.Close()
	dir := t.TempDir()
	for _, n := range []string{"c.wav", "r.wav"} {
		os.WriteFile(filepath.Join(dir, n), []byte("RIFF"+n), 0o644)
	}
	spoken := filepath.Join(dir, "spoken.jsonl")
	os.WriteFile(spoken, []byte(`{"id": "1", "role": "Ann", "candidate": "hi", "references": ["hello"], "candidate_audio": "c.wav", "reference_audio": ["r.wav"]}`+"\n"), 0o644)
	written := filepath.Join(dir, "written.jsonl")
	os.WriteFile(written, []byte(`{"id": "1", "role": "Ann", "candidate": "hi", "references": ["hello"]}`+"\n"), 0o644)
	code, stdout, stderr := runPersonaCLI(t, "judge", "--protocol", "speechrole", "--judge", "llm", "--judge-audio",
		"--llm-base-url", s.BaseURL, "--llm-model", "omni", "--json", spoken, written)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var out judgeJSON
	decodeOne(t, stdout, &out)
	if len(out.Systems) != 2 || out.Systems[0].SpeechJudgedOn != "audio" || out.Systems[1].SpeechJudgedOn != "text" || out.Judge != "llm-audio:omni" {
		t.Fatalf("labels: %+v", out)
	}
	if audioReqs != 1 || out.Systems[0].Scores["SF"] != 2 || out.Systems[1].Scores["SF"] != 2 {
		t.Fatalf("%d audio requests; scores %+v", audioReqs, out.Systems)
	}
	// Without an LLM judge the flag is refused.
	if code, _, stderr := runPersonaCLI(t, "judge", "--judge-audio", spoken); code == 0 || !strings.Contains(stderr, "--judge llm") {
		t.Fatalf("--judge-audio with the lexical judge: %d %s", code, stderr)
	}
}
