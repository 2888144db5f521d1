package judge

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/llm"
	"github.com/roleprint/roleprint/llm/llmtest"
)

func near(t *testing.T, name string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-9 {
		t.Errorf("%s = %.6f, want %.6f", name, got, want)
	}
}

func all(v float64) map[string]float64 {
	m := map[string]float64{}
	for _, c := range Codes(SpeechRoleDimensions) {
		m[c] = v
	}
	return m
}

// fixedJudge returns canned pair ratings per (instance, reference).
type fixedJudge map[string]PairScores

func (f fixedJudge) Name() string { return "fixed" }
func (f fixedJudge) ComparePair(_ context.Context, inst SRInstance, ref int) (PairScores, error) {
	return f[fmt.Sprintf("%s/%d", inst.ID, ref)], nil
}

// The SpeechRole ratio metric worked by hand. Instance x has two
// references. Candidate vs reference 0: 8 vs 10 on every dimension except
// IA, 6 vs 3. Candidate vs reference 1: 4 vs 8 on every dimension except
// IA, 9 vs 9. Ratios: IA (6/3 + 9/9)/2 = 1.5; the other seven
// (0.8 + 0.5)/2 = 0.65. Instance overall (1.5 + 7·0.65)/8 = 0.75625.
// Instance y has one reference rated 5 vs 5 everywhere: ratios 1,
// overall 1. System: IA (1.5 + 1)/2 = 1.25, others (0.65 + 1)/2 = 0.825,
// overall (1.25 + 7·0.825)/8 = 0.878125 = mean of 0.75625 and 1.
func TestSpeechRoleRatioHandWorked(t *testing.T) {
	c0, r0 := all(8), all(10)
	c0["IA"], r0["IA"] = 6, 3
	c1, r1 := all(4), all(8)
	c1["IA"], r1["IA"] = 9, 9
	j := fixedJudge{
		"x/0": {Candidate: c0, Reference: r0},
		"x/1": {Candidate: c1, Reference: r1},
		"y/0": {Candidate: all(5), Reference: all(5)},
	}
	insts := []SRInstance{{ID: "x", References: []string{"r0", "r1"}}, {ID: "y", References: []string{"r0"}}}
	res, err := ScoreSpeechRole(context.Background(), j, "sys", insts, nil)
	if err != nil {
		t.Fatal(err)
	}
	x := res.Instances[0]
	near(t, "x IA", x.Ratio["IA"], 1.5)
	near(t, "x KC", x.Ratio["KC"], 0.65)
	near(t, "x overall", x.Overall, 0.75625)
	near(t, "y overall", res.Instances[1].Overall, 1)
	near(t, "system IA", res.Ratio["IA"], 1.25)
	near(t, "system PeC", res.Ratio["PeC"], 0.825)
	near(t, "system overall", res.Overall, 0.878125)
	if res.N != 2 || res.Judge != "fixed" || res.System != "sys" {
		t.Fatalf("header %+v", res)
	}
	bad := fixedJudge{"z/0": {Candidate: all(5), Reference: all(0)}}
	if _, err := ScoreSpeechRole(context.Background(), bad, "s", []SRInstance{{ID: "z", References: []string{"r"}}}, nil); err == nil {
		t.Fatal("zero reference rating accepted")
	}
	if _, err := ScoreSpeechRole(context.Background(), j, "s", []SRInstance{{ID: "x"}}, nil); err == nil {
		t.Fatal("instance without references accepted")
	}
	tagged := SRInstance{ID: "x", References: []string{"r0", "r1"}, ReferenceTags: []AcousticTags{{Pitch: "High"}}}
	if _, err := ScoreSpeechRole(context.Background(), j, "s", []SRInstance{tagged}, nil); err == nil || !strings.Contains(err.Error(), "reference_tags") {
		t.Fatalf("1 reference tag for 2 references: %v", err)
	}
	// More recordings than references would be ignored silently, fewer
	// leave unclear which references they belong to: both refused.
	for _, audio := range [][]string{{"a.wav"}, {"a.wav", "b.wav", "c.wav"}} {
		spoken := SRInstance{ID: "x", References: []string{"r0", "r1"}, ReferenceAudio: audio}
		if _, err := ScoreSpeechRole(context.Background(), j, "s", []SRInstance{spoken}, nil); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%d reference_audio for 2 references", len(audio))) {
			t.Fatalf("%d reference recordings for 2 references: %v", len(audio), err)
		}
	}
}

var reResp = regexp.MustCompile(`Response A: (.*)\nResponse B: (.*)\n`)

func scoresJSON(codes []string, v int) string {
	var parts []string
	for _, c := range codes {
		parts = append(parts, fmt.Sprintf("%q: %d", c, v))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// The LLM pair judge shows the candidate as A or B by a hash, and maps
// the scores back; the fake model rates whichever response says
// CANDIDATE 9 and the other 3, and once answers out of range.
func TestLLMPairJudgeSwapsAndRetries(t *testing.T) {
	codes := Codes(SpeechRoleDimensions)
	calls := 0
	srv := llmtest.New(func(req llm.Request) string {
		calls++
		m := reResp.FindStringSubmatch(req.Messages[1].Content)
		a, b := 9, 3
		if !strings.Contains(m[1], "CANDIDATE") {
			a, b = 3, 9
		}
		if calls == 1 {
			return `{"rationale": "x", "scores": {"A": ` + scoresJSON(codes, 11) + `, "B": ` + scoresJSON(codes, 3) + `}}`
		}
		return `{"rationale": "A is better", "scores": {"A": ` + scoresJSON(codes, a) + `, "B": ` + scoresJSON(codes, b) + `}}`
	})
	defer srv.Close()
	c, err := llm.New(srv.Config("judge-model", ""))
	if err != nil {
		t.Fatal(err)
	}
	j := &LLMPairJudge{Client: c}
	var inst []SRInstance
	swaps := 0
	for i := 0; i < 6; i++ {
		id := fmt.Sprintf("item-%d", i)
		if swapFor(id, 0) {
			swaps++
		}
		inst = append(inst, SRInstance{ID: id, Role: "Sheldon", Candidate: "CANDIDATE answer", References: []string{"reference answer"},
			Context: []Turn{{Speaker: "Leonard", Text: "Hi", Tags: AcousticTags{Pitch: "High"}}}})
	}
	if swaps == 0 || swaps == 6 {
		t.Fatalf("position never varied (%d swaps of 6)", swaps)
	}
	res, err := ScoreSpeechRole(context.Background(), j, "sys", inst, nil)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "overall", res.Overall, 3) // 9/3 on every dimension
	if res.Judge != "llm:judge-model" || calls != 7 {
		t.Fatalf("judge %s, %d calls (6 + 1 retry)", res.Judge, calls)
	}
	if !strings.Contains(srv.Requests()[0].Messages[1].Content, "[pitch: High]") {
		t.Fatal("acoustic tags not in the prompt")
	}
}

func TestLLMVoxRoleJudge(t *testing.T) {
	srv := llmtest.New(func(req llm.Request) string {
		u := req.Messages[1].Content
		if strings.Contains(u, `"acoustic": n`) {
			return "Reasoning first.\n" + `{"rationale": "ok", "scores": {"likeness": 4, "personality": 3, "linguistic": 5, "relation": 4, "coherence": 4, "acoustic": 2}}`
		}
		return `{"rationale": "ok", "scores": {"likeness": 4, "personality": 3, "linguistic": 5, "relation": 4, "coherence": 4}}`
	})
	defer srv.Close()
	c, _ := llm.New(srv.Config("vox", ""))
	j := &LLMJudge{Client: c}
	with, err := j.Score(context.Background(), VRInstance{ID: "a", Role: "Penny", Response: "Hi!", ResponseTags: AcousticTags{Pitch: "High", Energy: "High", Rate: "Medium"}})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "with tags", with.Overall, 22.0/6)
	without, err := j.Score(context.Background(), VRInstance{ID: "b", Role: "Penny", Response: "Hi!"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := without.Scores["acoustic"]; ok || len(without.Scores) != 5 {
		t.Fatalf("acoustic scored without tags: %v", without.Scores)
	}
	agg := AggregateVoxRole("sys", j.Name(), []VRScore{with, without})
	near(t, "agg acoustic", agg.Scores["acoustic"], 2)
	near(t, "agg likeness", agg.Scores["likeness"], 4)
}

func TestLexicalJudge(t *testing.T) {
	j := NewLexicalJudge()
	ctx := context.Background()
	base := VRInstance{ID: "x", Role: "Bob", Persona: "You are Bob. You love pizza.", Reference: "Can we please order pizza first?",
		Context: []Turn{{Speaker: "Ada", Text: "What should we order for dinner?"}}, Profile: AcousticTags{Pitch: "Low", Energy: "High", Rate: "Medium"}}
	good, bad := base, base
	good.Response, good.ResponseTags = "Can we order pizza first, please?", AcousticTags{Pitch: "Low", Energy: "High", Rate: "Medium"}
	bad.Response, bad.ResponseTags = "The invariant holds, obviously.", AcousticTags{Pitch: "High", Energy: "Low", Rate: "Medium"}
	g, _ := j.Score(ctx, good)
	b, _ := j.Score(ctx, bad)
	for _, d := range Codes(VoxRoleDimensions) {
		if g.Scores[d] < 1 || g.Scores[d] > 5 {
			t.Fatalf("%s out of range: %v", d, g.Scores[d])
		}
	}
	if g.Scores["likeness"] <= b.Scores["likeness"] || g.Overall <= b.Overall {
		t.Fatalf("good %v not above bad %v", g.Scores, b.Scores)
	}
	near(t, "acoustic good", g.Scores["acoustic"], 5)
	near(t, "acoustic bad", b.Scores["acoustic"], 1+4.0/3)
}

func TestParseTags(t *testing.T) {
	a, err := ParseTags("pitch=high, energy=LOW;rate:m")
	if err != nil || a != (AcousticTags{Pitch: "High", Energy: "Low", Rate: "Medium"}) {
		t.Fatalf("%+v %v", a, err)
	}
	if a.String() != "[pitch: High, energy: Low, rate: Medium]" {
		t.Fatalf("String %q", a.String())
	}
	if _, err := ParseTags("pitch=loud"); err == nil {
		t.Fatal("bad level accepted")
	}
	if _, err := ParseTags("tone=high"); err == nil {
		t.Fatal("bad key accepted")
	}
	if a, err := ParseTags("pitch=high energy=low"); err != nil || a != (AcousticTags{Pitch: "High", Energy: "Low"}) {
		t.Fatalf("space-separated: %+v %v", a, err)
	}
	// The transcript form reads back.
	if a, err := ParseTags("[pitch: High, energy: Low, rate: Medium]"); err != nil || a.String() != "[pitch: High, energy: Low, rate: Medium]" {
		t.Fatalf("round trip: %+v %v", a, err)
	}
}

// The speech package's profile tag lines (speech.Profile.Tags; written
// out here so that the judge's tests need no audio — the CLI test checks
// the real speech output against this parser) are valid tag strings.
func TestParseTagsReadsSpeechProfileLines(t *testing.T) {
	a, err := ParseTags("Pitch: High (mean F0 212 Hz); Energy: Medium (63.1 dB); Speaking rate: Low (3.1 syllables/s)")
	if err != nil || a != (AcousticTags{Pitch: "High", Energy: "Medium", Rate: "Low"}) {
		t.Fatalf("%+v %v", a, err)
	}
	a, err = ParseTags("Pitch: Unknown (mean F0 not measured); Energy: Low (55.0 dB); Speaking rate: High (5.2 syllables/s)")
	if err != nil || a != (AcousticTags{Energy: "Low", Rate: "High"}) {
		t.Fatalf("unknown pitch: %+v %v", a, err)
	}
}

// In JSON, tags are an object with checked levels or any string ParseTags
// reads.
func TestAcousticTagsJSON(t *testing.T) {
	var inst VRInstance
	err := json.Unmarshal([]byte(`{"id": "1", "role": "Bob", "response": "Hi", "profile": "Pitch: Low (mean F0 98 Hz); Energy: High (75.0 dB); Speaking rate: Medium (3.9 syllables/s)", "response_tags": {"pitch": "low", "rate": "HIGH"}}`), &inst)
	if err != nil {
		t.Fatal(err)
	}
	if inst.Profile != (AcousticTags{Pitch: "Low", Energy: "High", Rate: "Medium"}) || inst.ResponseTags != (AcousticTags{Pitch: "Low", Rate: "High"}) {
		t.Fatalf("decoded %+v / %+v", inst.Profile, inst.ResponseTags)
	}
	for _, bad := range []string{`{"pitch": "loud"}`, `{"tone": "High"}`, `"pitch=loud"`, `7`} {
		var a AcousticTags
		if err := json.Unmarshal([]byte(bad), &a); err == nil {
			t.Errorf("%s accepted as %+v", bad, a)
		}
	}
	b, _ := json.Marshal(AcousticTags{Pitch: "High"})
	var back AcousticTags
	if err := json.Unmarshal(b, &back); err != nil || back != (AcousticTags{Pitch: "High"}) {
		t.Fatalf("marshal round trip %s: %+v %v", b, back, err)
	}
}

func syntheticDialogues() []data.Utterance {
	lines := map[string][]string{
		"Ada": {"The proof is elegant.", "Check the invariant.", "Compilers never lie.", "I need a whiteboard."},
		"Bob": {"Can we order pizza?", "Pizza fixes everything.", "Who ate my pizza?", "One more episode."},
	}
	var u []data.Utterance
	for c := 0; c < 6; c++ {
		for turn := 0; turn < 14; turn++ {
			sp := []string{"Ada", "Bob"}[turn%2]
			u = append(u, data.Utterance{Source: "fx", ConversationID: fmt.Sprint("c", c), Turn: int32(turn), Speaker: sp, Text: lines[sp][(turn/2+c)%4]})
		}
	}
	return u
}

func TestContextAblationOffline(t *testing.T) {
	utts := syntheticDialogues()
	items := AblationItems(utts, []string{"Bob"}, map[string]string{"Bob": "You are Bob. You love pizza."}, 10, 5)
	if len(items) != 5 || items[0].Role != "Bob" || len(items[0].History) < 10 {
		t.Fatalf("items %d", len(items))
	}
	for _, it := range items {
		last := it.History[len(it.History)-1]
		if last.Speaker == "Bob" && it.Reference == last.Text {
			t.Fatal("reference leaked into history")
		}
	}
	agent := NewRetrievalAgent(utts)
	tab, err := ContextAblation(context.Background(), agent, NewLexicalJudge(), items, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Overall) != 4 || tab.Ks[3] != 10 || tab.Agent != "retrieval" || tab.Judge != "lexical" || tab.N != 5 {
		t.Fatalf("table %+v", tab)
	}
	for i, v := range tab.Overall {
		if math.IsNaN(v) || v < 1 || v > 5 {
			t.Fatalf("k=%d overall %v", tab.Ks[i], v)
		}
	}
	// The retrieval agent never answers from the target's conversation.
	r, err := agent.Respond(context.Background(), items[0], items[0].History)
	if err != nil || r == "" {
		t.Fatalf("respond %q %v", r, err)
	}
	// A role heard in one conversation only cannot be answered: CanAnswer
	// says so before Respond fails.
	solo := append(utts, data.Utterance{Source: "fx", ConversationID: "c0", Turn: 99, Speaker: "Cy", Text: "I only speak once."})
	soloItems := AblationItems(solo, []string{"Cy", "Bob"}, nil, 10, 5)
	soloAgent := NewRetrievalAgent(solo)
	var can, cannot int
	for _, it := range soloItems {
		if soloAgent.CanAnswer(it) {
			can++
			continue
		}
		cannot++
		if it.Role != "Cy" {
			t.Fatalf("%s judged unanswerable", it.Role)
		}
		if _, err := soloAgent.Respond(context.Background(), it, it.History); err == nil {
			t.Fatal("Respond answered what CanAnswer refused")
		}
	}
	if cannot != 1 || can != 5 {
		t.Fatalf("answerable %d, not %d", can, cannot)
	}
}
