package judge

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/llm"
	"github.com/roleprint/roleprint/llm/llmtest"
	"github.com/roleprint/roleprint/speech"
)

// TestSpeechRoleDimensionGroups checks the paper's grouping and IA's
// wording, and that the pairwise judge's prompt lists the groups.
func TestSpeechRoleDimensionGroups(t *testing.T) {
	want := map[string][]string{
		GroupInteraction: {"IA", "CC"},
		GroupSpeech:      {"SF", "SN", "PC", "EA"},
		GroupRole:        {"PeC", "KC"},
	}
	for g, codes := range want {
		if got := Codes(DimensionsOfGroup(SpeechRoleDimensions, g)); strings.Join(got, ",") != strings.Join(codes, ",") {
			t.Errorf("group %s: %v, want %v", g, got, codes)
		}
	}
	if got := strings.Join(Codes(SpeechRoleDimensions), ","); got != "IA,CC,SF,SN,PC,EA,PeC,KC" {
		t.Errorf("table order %s", got)
	}
	if q := SpeechRoleDimensions[0].Question; !strings.Contains(q, "no out-of-role or meta comments") {
		t.Errorf("IA question %q lacks the paper's out-of-role clause", q)
	}
	srv := llmtest.New(func(req llm.Request) string {
		return `{"rationale": "r", "scores": {"A": {"IA": 5, "CC": 5, "SF": 5, "SN": 5, "PC": 5, "EA": 5, "PeC": 5, "KC": 5}, "B": {"IA": 5, "CC": 5, "SF": 5, "SN": 5, "PC": 5, "EA": 5, "PeC": 5, "KC": 5}}}`
	})
	defer srv.Close()
	c, _ := llm.New(srv.Config("sr", ""))
	if _, err := (&LLMPairJudge{Client: c}).ComparePair(context.Background(), SRInstance{ID: "x", Role: "Sheldon", Candidate: "Bazinga.", References: []string{"Bazinga!"}}, 0); err != nil {
		t.Fatal(err)
	}
	u := srv.Requests()[0].Messages[1].Content
	for _, h := range []string{"Interaction ability:\n- IA", "Speech expressiveness:\n- SF", "Role-playing fidelity:\n- PeC"} {
		if !strings.Contains(u, h) {
			t.Errorf("prompt lacks %q:\n%s", h, u)
		}
	}
}

// TestVoxRoleDimensionDefinitions checks Human-Likeness (natural versus
// robotic speech, not character likeness), the paralinguistic dimension's
// semantic and emotional fit, the 1–5 rubric of every dimension, and that
// the judge's prompt carries rubrics and emotion labels.
func TestVoxRoleDimensionDefinitions(t *testing.T) {
	like := VoxRoleDimensions[0]
	if like.Code != "likeness" || like.Name != "Human-Likeness" || !strings.Contains(like.Question, "robotic") || strings.Contains(strings.ToLower(like.Question), "this very character") {
		t.Errorf("likeness dimension %+v", like)
	}
	ac := VoxRoleDimensions[5]
	if !strings.Contains(ac.Question, "semantic fit") || !strings.Contains(ac.Question, "emotional fit") || !strings.Contains(ac.Question, "emotion label") {
		t.Errorf("paralinguistic dimension %+v", ac)
	}
	for _, d := range VoxRoleDimensions {
		if len(d.Rubric) != 5 {
			t.Errorf("%s: %d rubric anchors, want 5", d.Code, len(d.Rubric))
		}
		for i, a := range d.Rubric {
			if !strings.HasPrefix(a, string(rune('1'+i))+":") {
				t.Errorf("%s anchor %d = %q", d.Code, i, a)
			}
		}
	}

	// An instance with emotion labels (as Emotion2Vec gives) decodes under
	// the CLI's strict reader, and the labels alone make the
	// paralinguistic dimension asked.
	line := `{"id": "e1", "role": "Penny", "context": [{"speaker": "Sheldon", "text": "You're in my spot.", "emotion": "angry"}], "response": "Oh, come on!", "response_emotion": "happy"}`
	dec := json.NewDecoder(bytes.NewReader([]byte(line)))
	dec.DisallowUnknownFields()
	var inst VRInstance
	if err := dec.Decode(&inst); err != nil {
		t.Fatalf("emotion fields rejected: %v", err)
	}
	srv := llmtest.New(func(req llm.Request) string {
		return `{"rationale": "r", "scores": {"likeness": 4, "personality": 4, "linguistic": 4, "relation": 4, "coherence": 4, "acoustic": 3}}`
	})
	defer srv.Close()
	c, _ := llm.New(srv.Config("vox", ""))
	s, err := (&LLMJudge{Client: c}).Score(context.Background(), inst)
	if err != nil {
		t.Fatal(err)
	}
	if s.Scores["acoustic"] != 3 {
		t.Errorf("paralinguistic dimension not asked with emotion labels only: %v", s.Scores)
	}
	u := srv.Requests()[0].Messages[1].Content
	for _, want := range []string{"[emotion: angry]", "Oh, come on! [emotion: happy]", like.Rubric[0], ac.Rubric[4]} {
		if !strings.Contains(u, want) {
			t.Errorf("prompt lacks %q:\n%s", want, u)
		}
	}
	// The offline judge's Human-Likeness marks machine formatting down.
	lj := NewLexicalJudge()
	plain, _ := lj.Score(context.Background(), VRInstance{ID: "p", Role: "Penny", Response: "Oh come on, it is just a couch.", Reference: "It's just a couch, Sheldon, sit down."})
	bot, _ := lj.Score(context.Background(), VRInstance{ID: "b", Role: "Penny", Response: "As an AI, it is just a couch.", Reference: "It's just a couch, Sheldon, sit down."})
	if !(plain.Scores["likeness"] > bot.Scores["likeness"]) {
		t.Errorf("lexical human-likeness: plain %v, robotic %v", plain.Scores["likeness"], bot.Scores["likeness"])
	}
}

// tone writes a sine of freq Hz and amplitude amp lasting dur seconds.
func tone(t *testing.T, dir, name string, freq, amp, dur float64) string {
	t.Helper()
	const rate = 16000
	s := &speech.Sound{Rate: rate, Samples: make([]float64, int(rate*dur))}
	for i := range s.Samples {
		s.Samples[i] = amp * math.Sin(2*math.Pi*freq*float64(i)/rate)
	}
	p := filepath.Join(dir, name)
	if err := speech.WriteWAV(p, s, 16); err != nil {
		t.Fatal(err)
	}
	return name
}

// TestFillSentenceTags bins five recorded sentences of one speaker at
// 20/60/20 %: the lowest tone is Low pitch, the highest High, the three
// between Medium; the quietest is Low energy. Given tags are kept.
func TestFillSentenceTags(t *testing.T) {
	dir := t.TempDir()
	freqs := []float64{110, 140, 170, 200, 260}
	amps := []float64{0.3, 0.05, 0.3, 0.3, 0.3}
	var ctxTurns []Turn
	for i := range 4 {
		ctxTurns = append(ctxTurns, Turn{Speaker: "Penny", Text: "la la la", Audio: tone(t, dir, "c"+string(rune('0'+i))+".wav", freqs[i], amps[i], 1)})
	}
	ctxTurns = append(ctxTurns, Turn{Speaker: "Sheldon", Text: "hm", Tags: AcousticTags{Pitch: "Low"}})
	insts := []VRInstance{{ID: "i1", Role: "Penny", Context: ctxTurns, Response: "la la", ResponseAudio: tone(t, dir, "r.wav", freqs[4], amps[4], 1)}}
	n, err := FillSentenceTags(insts, dir, speech.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	got := insts[0]
	if n != 5 || got.Context[0].Tags.Pitch != "Low" || got.Context[1].Tags.Pitch != "Medium" || got.ResponseTags.Pitch != "High" ||
		got.Context[1].Tags.Energy != "Low" || got.Context[4].Tags != (AcousticTags{Pitch: "Low"}) {
		t.Errorf("%d filled; tags %v %v %v %v, response %v", n, got.Context[0].Tags, got.Context[1].Tags, got.Context[2].Tags, got.Context[4].Tags, got.ResponseTags)
	}
	bad := []VRInstance{{ID: "z", Role: "Penny", Response: "x", ResponseAudio: "missing.wav"}}
	if _, err := FillSentenceTags(bad, dir, speech.DefaultConfig()); err == nil || !strings.Contains(err.Error(), `"z"`) || !strings.Contains(err.Error(), "missing.wav") {
		t.Errorf("missing recording: %v", err)
	}
}

// recordingAgent records the context each call gets.
type recordingAgent struct{ calls []recorded }

type recorded struct {
	id   string
	turn []Turn
}

func (a *recordingAgent) Name() string { return "recorder" }
func (a *recordingAgent) Respond(_ context.Context, it AblationItem, c []Turn) (string, error) {
	a.calls = append(a.calls, recorded{it.ID, c})
	return "a reply", nil
}

// TestContextLengthCounts checks what k counts in the context-length
// ablation: exactly the k turns right before the target (the target
// excluded), the same targets at every k, and an error for a target with
// fewer turns before it than the largest k.
func TestContextLengthCounts(t *testing.T) {
	utts := syntheticDialogues()
	items := AblationItems(utts, []string{"Bob"}, nil, 10, 3)
	if len(items) != 3 {
		t.Fatalf("%d items", len(items))
	}
	a := &recordingAgent{}
	tab, err := ContextAblation(context.Background(), a, NewLexicalJudge(), items, DefaultContextLengths, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.calls) != 12 || tab.KCounts != ContextLengthMeaning || len(tab.Targets) != 3 {
		t.Fatalf("%d calls, table %+v", len(a.calls), tab)
	}
	for i, c := range a.calls {
		k, it := DefaultContextLengths[i/3], items[i%3]
		if c.id != it.ID || tab.Targets[i%3] != it.ID {
			t.Errorf("call %d: target %s, want %s (targets fixed across lengths)", i, c.id, it.ID)
		}
		h := it.History
		if len(c.turn) != k || c.turn[k-1] != h[len(h)-1] || c.turn[0] != h[len(h)-k] {
			t.Errorf("k=%d: %d turns given, want the %d before the target", k, len(c.turn), k)
		}
	}
	// With unique lines t0 … t11 (Bob speaks the odd ones), the target t11
	// at k = 4 sees t7 … t10.
	var uniq []data.Utterance
	for i := range 12 {
		uniq = append(uniq, data.Utterance{Source: "u", ConversationID: "c", Turn: int32(i), Speaker: []string{"Ada", "Bob"}[i%2], Text: fmt.Sprint("t", i)})
	}
	last := AblationItems(uniq, []string{"Bob"}, nil, 10, 0)
	if len(last) != 1 || last[0].Reference != "t11" {
		t.Fatalf("items %+v", last)
	}
	a.calls = nil
	if _, err := ContextAblation(context.Background(), a, NewLexicalJudge(), last, []int{4}, nil); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, turn := range a.calls[0].turn {
		got = append(got, turn.Text)
	}
	if strings.Join(got, " ") != "t7 t8 t9 t10" {
		t.Errorf("k=4 context of t11: %v, want t7 t8 t9 t10", got)
	}
	short := []AblationItem{{ID: "s", Role: "Bob", History: items[0].History[:5], Reference: "x"}}
	if _, err := ContextAblation(context.Background(), a, NewLexicalJudge(), short, DefaultContextLengths, nil); err == nil || !strings.Contains(err.Error(), `"s" has 5 turns`) {
		t.Errorf("short history: %v", err)
	}
}

// TestFillAblationTags: corpus rows with audio give the ablation's history
// turns per-sentence tags.
func TestFillAblationTags(t *testing.T) {
	dir := t.TempDir()
	var utts []data.Utterance
	for i := range 6 {
		sp := []string{"Ada", "Bob"}[i%2]
		utts = append(utts, data.Utterance{Source: "s", ConversationID: "c", Turn: int32(i), Speaker: sp, Text: fmt.Sprint("line ", i),
			AudioPath: tone(t, dir, fmt.Sprint("u", i, ".wav"), 100+40*float64(i), 0.3, 1)})
	}
	items := AblationItems(utts, []string{"Bob"}, nil, 4, 0)
	if len(items) != 1 || items[0].History[0].Audio == "" {
		t.Fatalf("items %+v", items)
	}
	n, err := FillAblationTags(items, dir, speech.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	// Ada's turns 0, 2, 4 rise in pitch: Low, Medium, High among her three.
	h := items[0].History
	if n != 5 || h[0].Tags.Pitch != "Low" || h[2].Tags.Pitch != "Medium" || h[4].Tags.Pitch != "High" {
		t.Errorf("%d tagged; Ada's pitch tags %q %q %q", n, h[0].Tags.Pitch, h[2].Tags.Pitch, h[4].Tags.Pitch)
	}
}
