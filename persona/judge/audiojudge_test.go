package judge_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/llm"
	"github.com/roleprint/roleprint/llm/llmtest"
	"github.com/roleprint/roleprint/persona/judge"
)

var askedCodeRE = regexp.MustCompile(`(?m)^- ([A-Za-z]+) \(`)

// pairAnswer rates A 8 and B 4 on every dimension the prompt lists.
func pairAnswer(req llm.Request) string {
	var codes []string
	for _, m := range askedCodeRE.FindAllStringSubmatch(req.Messages[len(req.Messages)-1].Content, -1) {
		codes = append(codes, fmt.Sprintf("%q: %%d", m[1]))
	}
	tmpl := strings.Join(codes, ", ")
	return fmt.Sprintf(`{"rationale": "r", "scores": {"A": {%s}, "B": {%s}}}`,
		fmt.Sprintf(tmpl, repeat(8, len(codes))...), fmt.Sprintf(tmpl, repeat(4, len(codes))...))
}

func repeat(v, n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// The speech dimensions reach the server with both recordings as
// input_audio parts; the transcript dimensions, and every dimension of an
// instance without recordings, go without audio.
func TestAudioJudgeSendsAudioForSpeechDimensionsOnly(t *testing.T) {
	s := llmtest.New(pairAnswer)
	defer s.Close()
	client := s.Client(t, "audio-model")
	dir := t.TempDir()
	clip := map[string][]byte{"cand.wav": []byte("RIFF-candidate-bytes"), "ref.wav": []byte("RIFF-reference-bytes")}
	for n, b := range clip {
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	j := &judge.AudioPairJudge{Client: client, BaseDir: dir, NoSwap: true}
	withAudio := judge.SRInstance{ID: "i1", Role: "Ann", Candidate: "hello there", References: []string{"hi"},
		CandidateAudio: "cand.wav", ReferenceAudio: []string{"ref.wav"}}
	textOnly := judge.SRInstance{ID: "i2", Role: "Ann", Candidate: "hello there", References: []string{"hi"}}
	res, err := judge.ScoreSpeechRole(context.Background(), j, "sys", []judge.SRInstance{withAudio, textOnly}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a, tx := j.Modality(); a != 1 || tx != 1 {
		t.Fatalf("modality %d audio, %d text", a, tx)
	}
	// Every dimension is scored, candidate 8 vs reference 4: ratio 2.
	for _, d := range judge.Codes(judge.SpeechRoleDimensions) {
		if r := res.Ratio[d]; r != 2 {
			t.Fatalf("ratio %s = %v", d, r)
		}
	}
	bodies := s.Bodies()
	if len(bodies) != 3 {
		t.Fatalf("%d requests, want 2 (audio instance) + 1 (text fallback)", len(bodies))
	}
	speech := map[string]bool{}
	for _, c := range judge.SpeechDimensionCodes {
		speech[c] = true
	}
	for i, b := range bodies {
		var w struct {
			Messages []struct {
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(b, &w); err != nil {
			t.Fatal(err)
		}
		var parts []struct {
			Type       string `json:"type"`
			InputAudio *struct {
				Data   string `json:"data"`
				Format string `json:"format"`
			} `json:"input_audio"`
		}
		var audio [][]byte
		if c := w.Messages[1].Content; len(c) > 0 && c[0] == '[' {
			if err := json.Unmarshal(c, &parts); err != nil {
				t.Fatal(err)
			}
			for _, p := range parts {
				if p.Type == "input_audio" {
					d, err := base64.StdEncoding.DecodeString(p.InputAudio.Data)
					if err != nil || p.InputAudio.Format != "wav" {
						t.Fatalf("request %d: bad audio part %v %q", i, err, p.InputAudio.Format)
					}
					audio = append(audio, d)
				}
			}
		}
		asked := askedCodeRE.FindAllStringSubmatch(s.Requests()[i].Messages[1].Content, -1)
		nSpeech := 0
		for _, m := range asked {
			if speech[m[1]] {
				nSpeech++
			}
		}
		switch {
		case nSpeech == len(asked) && nSpeech == 4: // speech dimensions only
			if len(audio) != 2 || string(audio[0]) != string(clip["cand.wav"]) || string(audio[1]) != string(clip["ref.wav"]) {
				t.Fatalf("request %d asks the speech dimensions without both recordings (%d audio parts)", i, len(audio))
			}
		default:
			if len(audio) != 0 {
				t.Fatalf("request %d asks %v with %d audio parts", i, asked, len(audio))
			}
		}
	}
}

func TestLoadAudioFileRefusesOtherFormats(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.flac")
	os.WriteFile(p, []byte("fLaC"), 0o644)
	if _, _, err := judge.LoadAudioFile(p); err == nil || !strings.Contains(err.Error(), "convert") {
		t.Fatalf("flac accepted: %v", err)
	}
}
