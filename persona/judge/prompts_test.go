package judge_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/llm/llmtest"
	"github.com/roleprint/roleprint/persona/judge"
)

// A prompts folder replaces the embedded template of the same name (the
// others stay embedded); a misspelt file name and a speech prompt that
// does not place both recordings are errors.
func TestJudgePromptsFromFolder(t *testing.T) {
	s := llmtest.New(pairAnswer)
	defer s.Close()
	client := s.Client(t, "m")
	dir := t.TempDir()
	custom := "CUSTOM judge of {{.Role}}, {{.Scale.Lo}} to {{.Scale.Hi}}:\n{{.Dimensions}}A: {{.A}}\nB: {{.B}}\n"
	if err := os.WriteFile(filepath.Join(dir, judge.PromptPair), []byte(custom), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := judge.LoadPrompts(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p.Source[judge.PromptPair] != filepath.Join(dir, judge.PromptPair) || p.Source[judge.PromptSystem] != "embedded" {
		t.Fatalf("sources %v", p.Source)
	}
	inst := judge.SRInstance{ID: "i", Role: "Sheldon", Candidate: "CAND", References: []string{"REF"}}
	if _, err := (&judge.LLMPairJudge{Client: client, Prompts: p, NoSwap: true}).ComparePair(context.Background(), inst, 0); err != nil {
		t.Fatal(err)
	}
	reqs := s.Requests()
	if got := reqs[len(reqs)-1].Messages[1].Content; !strings.HasPrefix(got, "CUSTOM judge of Sheldon, 1 to 10:\nInteraction ability:\n- IA (") || !strings.HasSuffix(got, "A: CAND\nB: REF") {
		t.Fatalf("the folder's template was not used: %q", got)
	}

	// The custom pair.tmpl places no recordings: the audio judge refuses it.
	audioDir := t.TempDir()
	for _, n := range []string{"c.wav", "r.wav"} {
		if err := os.WriteFile(filepath.Join(audioDir, n), []byte("RIFF-"+n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	inst.CandidateAudio, inst.ReferenceAudio = "c.wav", []string{"r.wav"}
	_, err = (&judge.AudioPairJudge{Client: client, Prompts: p, BaseDir: audioDir}).ComparePair(context.Background(), inst, 0)
	if err == nil || !strings.Contains(err.Error(), `{{audio "A"}}`) {
		t.Fatalf("speech prompt without recordings: %v", err)
	}

	if err := os.WriteFile(filepath.Join(dir, "pairs.tmpl"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := judge.LoadPrompts(dir); err == nil || !strings.Contains(err.Error(), "pairs.tmpl: unknown template") {
		t.Fatalf("misspelt template accepted: %v", err)
	}
}

// The text and audio pairwise judges share the swap: for each (instance,
// reference) the candidate is on the same side in both, and both map the
// scores back to the candidate (the server rates A 8 and B 4).
func TestPairSwapSharedByTextAndAudioJudges(t *testing.T) {
	s := llmtest.New(pairAnswer)
	defer s.Close()
	client := s.Client(t, "m")
	dir := t.TempDir()
	for _, n := range []string{"c.wav", "r.wav"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("RIFF-"+n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	swapped := 0
	for _, id := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		inst := judge.SRInstance{ID: id, Role: "Ann", Candidate: "CAND", References: []string{"REF"}}
		text, err := (&judge.LLMPairJudge{Client: client}).ComparePair(context.Background(), inst, 0)
		if err != nil {
			t.Fatal(err)
		}
		textReq := s.Requests()[len(s.Requests())-1].Messages[1].Content
		inst.CandidateAudio, inst.ReferenceAudio = "c.wav", []string{"r.wav"}
		audio, err := (&judge.AudioPairJudge{Client: client, BaseDir: dir}).ComparePair(context.Background(), inst, 0)
		if err != nil {
			t.Fatal(err)
		}
		reqs := s.Requests()
		audioText := reqs[len(reqs)-2].Messages[1].Content
		candFirst := strings.Contains(textReq, "Response A: CAND")
		if candFirst != strings.Contains(audioText, "Response A: CAND") {
			t.Fatalf("%s: text judge shows the candidate first %v, audio judge not", id, candFirst)
		}
		want := 8.0
		if !candFirst {
			want = 4
			swapped++
		}
		if text.Candidate["IA"] != want || audio.Candidate["IA"] != want || audio.Candidate["SF"] != want {
			t.Fatalf("%s: candidate scores %v / %v, want %v", id, text.Candidate, audio.Candidate, want)
		}
	}
	if swapped == 0 || swapped == 8 {
		t.Fatalf("%d of 8 pairs swapped: the swap does not depend on the instance", swapped)
	}
}
