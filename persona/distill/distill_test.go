package distill

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/llm"
	"github.com/roleprint/roleprint/llm/llmtest"
	"github.com/roleprint/roleprint/persona/script"
)

func fixture(t *testing.T) *script.Script {
	t.Helper()
	s, err := script.ParseFile("testdata/sitcom.txt", script.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func smallConfig() Config {
	c := DefaultConfig()
	c.MinLines = 5
	c.MinCoEvents = 2
	c.Chunk = script.ChunkOptions{MaxLines: 8}
	return c
}

func TestExtractiveEndToEnd(t *testing.T) {
	s := fixture(t)
	dir := t.TempDir()
	ctx := context.Background()
	res, err := Run(ctx, s, NewExtractive(), dir, smallConfig(), "testdata/sitcom.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !res.Extractive || res.Backend != "extractive" || len(res.Characters) != 4 {
		t.Fatalf("result header %+v", res.Characters)
	}
	if res.Chunks <= len(s.Scenes) {
		t.Fatalf("%d chunks for %d scenes: long scenes were not cut", res.Chunks, len(s.Scenes))
	}
	// Every event names its speakers and says it is extractive.
	for _, ev := range res.Events {
		if !strings.HasPrefix(ev.Summary, "[extractive]") || len(ev.Speakers) == 0 || len(ev.Keywords) == 0 {
			t.Fatalf("event %+v", ev)
		}
	}
	// Relationships exist exactly for pairs with ≥ 2 shared events, with
	// the right counts.
	co := map[[2]string]int{}
	for _, ev := range res.Events {
		cs := slices.Clone(ev.Characters)
		slices.Sort(cs)
		for i := range cs {
			for j := i + 1; j < len(cs); j++ {
				co[[2]string{cs[i], cs[j]}]++
			}
		}
	}
	want := 0
	for _, n := range co {
		if n >= 2 {
			want++
		}
	}
	if len(res.Relationships) != want || want == 0 {
		t.Fatalf("%d relationships, want %d", len(res.Relationships), want)
	}
	for _, r := range res.Relationships {
		if r.CoEvents != co[[2]string{r.A, r.B}] || r.A >= r.B {
			t.Fatalf("relationship %+v, co-events %d", r, co[[2]string{r.A, r.B}])
		}
	}
	byName := map[string]int{}
	for i, c := range res.Characters {
		byName[c] = i
	}
	// Bob's distinctive word is pizza; Dev's mother and the observatory.
	if kw := res.Personalities[byName["Bob"]].Keywords; !slices.Contains(kw, "pizza") {
		t.Fatalf("Bob's keywords %v lack pizza", kw)
	}
	if kw := res.Personalities[byName["Dev"]].Keywords; !slices.Contains(kw, "observatory") && !slices.Contains(kw, "mother") {
		t.Fatalf("Dev's keywords %v", kw)
	}
	// Style statistics match a direct count.
	var bobLines []string
	for _, sc := range s.Scenes {
		for _, l := range sc.Lines {
			if l.Speaker == "Bob" {
				bobLines = append(bobLines, l.Text)
			}
		}
	}
	q := 0
	for _, l := range bobLines {
		if strings.Contains(l, "?") {
			q++
		}
	}
	st := res.Styles[byName["Bob"]].Stats
	if st.Lines != len(bobLines) || st.QuestionRate != float64(q)/float64(len(bobLines)) {
		t.Fatalf("Bob's style %+v, %d lines %d questions", st, len(bobLines), q)
	}
	// Prompts are second person, name the character, and are labelled.
	for _, p := range res.Personas {
		if !strings.HasPrefix(p.Prompt, "You are "+p.Character+".") || !strings.Contains(p.Prompt, "Extractive persona") || !p.Extractive {
			t.Fatalf("prompt of %s: %q", p.Character, p.Prompt)
		}
	}
	// Every output file is there and readable.
	for _, f := range []string{"manifest.json", "events.json", "personalities.json", "relationships.json", "styles.json", "personas.json"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil || !json.Valid(b) {
			t.Fatalf("%s: %v", f, err)
		}
	}
	rows, err := data.ReadParquet[PersonaRow](filepath.Join(dir, "personas.parquet"))
	if err != nil || len(rows) != 4 || rows[0].Prompt != res.Personas[0].Prompt || !rows[0].Extractive {
		t.Fatalf("personas.parquet: %d rows, %v", len(rows), err)
	}
	evRows, err := data.ReadParquet[EventRow](filepath.Join(dir, "events.parquet"))
	if err != nil || len(evRows) != len(res.Events) {
		t.Fatalf("events.parquet: %d rows, %v", len(evRows), err)
	}
	// A second run reuses every unit and gives the same personas.
	again, err := Run(ctx, s, NewExtractive(), dir, smallConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range again.Stages {
		if sc.Computed != 0 || sc.Reused != sc.Units {
			t.Fatalf("rerun stage %+v", sc)
		}
	}
	if !reflect.DeepEqual(again.Personas, res.Personas) || !reflect.DeepEqual(again.Relationships, res.Relationships) {
		t.Fatal("rerun changed the outputs")
	}
}

var (
	reTask    = regexp.MustCompile(`Task: ([a-z-]+)\.`)
	reSpeakAs = regexp.MustCompile(`speak as ([A-Za-z]+)\.`)
)

// fakeModel answers the distillation prompts with valid JSON that depends
// on the request, except that the first event request gets prose (a
// malformed reply) and the first relationship an invalid sentiment.
type fakeModel struct {
	mu   sync.Mutex
	seen map[string]bool
}

func (f *fakeModel) answer(req llm.Request) string {
	task := reTask.FindStringSubmatch(req.Messages[0].Content)[1]
	user := req.Messages[1].Content
	h := sha256.Sum256([]byte(user))
	tag := hex.EncodeToString(h[:4])
	f.mu.Lock()
	first := !f.seen[task]
	f.seen[task] = true
	f.mu.Unlock()
	retry := len(req.Messages) > 2
	switch task {
	case "event-summary":
		if first && !retry {
			return "Here is what happens: everyone argues."
		}
		return `{"summary": "Event ` + tag + `.", "characters": ["Ada"]}`
	case "personality":
		return "Let me think.\n```json\n{\"rationale\": \"evidence " + tag + "\", \"traits\": [\"curious\", \"stubborn\", \"loyal\"], \"description\": \"Personality " + tag + ".\"}\n```"
	case "relationship":
		if first && !retry {
			return `{"rationale": "r", "relationship": "friends", "sentiment": "amicable"}`
		}
		return `{"rationale": "r", "relationship": "Relationship ` + tag + `.", "sentiment": "Positive"}`
	case "linguistic-style":
		return `{"description": "Style ` + tag + `.", "catchphrases": ["Bazinga"]}`
	case "role-prompt":
		name := reSpeakAs.FindStringSubmatch(user)[1]
		return `{"prompt": "You are ` + name + `. Prompt ` + tag + `."}`
	}
	return "?"
}

func newFake(t *testing.T) (*llmtest.Server, *fakeModel) {
	f := &fakeModel{seen: map[string]bool{}}
	s := llmtest.New(f.answer)
	t.Cleanup(s.Close)
	return s, f
}

func llmBackend(t *testing.T, s *llmtest.Server, cache string) Backend {
	t.Helper()
	cfg := s.Config("fake-distiller", cache)
	cfg.Timeout = 300 * time.Millisecond
	cfg.MaxConcurrent = 1
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewBackend("llm", Options{LLM: c})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestLLMInterruptedAndResumed runs the llm backend against the fake
// server with rate limits, server errors, a timeout, a malformed body and
// malformed replies; cancels the run after 25 paid answers; resumes; and
// checks that the result equals an uninterrupted run's and that the
// server was paid for at most one answer twice (the one in flight when
// the run was cancelled).
func TestLLMInterruptedAndResumed(t *testing.T) {
	s := fixture(t)
	cfg := smallConfig()
	cfg.Concurrency = 1
	ctx := context.Background()

	// The reference: one clean run.
	cleanSrv, _ := newFake(t)
	clean, err := Run(ctx, s, llmBackend(t, cleanSrv, t.TempDir()), t.TempDir(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	distinct := cleanSrv.Served()

	srv, _ := newFake(t)
	srv.Fail(llmtest.RateLimited, llmtest.ServerError, llmtest.Slow(2*time.Second), llmtest.Malformed, llmtest.Unavailable)
	cache, out := t.TempDir(), t.TempDir()
	runCtx, cancel := context.WithCancel(ctx)
	inner := srv
	var once sync.Once
	fm := &fakeModel{seen: map[string]bool{}}
	inner.SetAnswer(func(req llm.Request) string {
		a := fm.answer(req)
		if inner.Served() >= 24 {
			once.Do(cancel)
		}
		return a
	})
	_, err = Run(runCtx, s, llmBackend(t, srv, cache), out, cfg)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v", err)
	}
	paidFirst := srv.Served()
	units, _ := filepath.Glob(filepath.Join(out, "units", "*", "*.json"))
	if len(units) == 0 {
		t.Fatal("no unit stored before the interruption")
	}
	if _, err := os.Stat(filepath.Join(out, "manifest.json")); err == nil {
		t.Fatal("manifest written by an interrupted run")
	}

	res, err := Run(ctx, s, llmBackend(t, srv, cache), out, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("clean run: %d paid answers; interrupted run: %d paid, %d units stored; resumed total: %d paid", distinct, paidFirst, len(units), srv.Served())
	reused := 0
	for _, st := range res.Stages {
		reused += st.Reused
	}
	if reused < len(units) {
		t.Fatalf("resumed run reused %d units, %d were stored", reused, len(units))
	}
	if srv.Served() > distinct+1 {
		t.Fatalf("paid %d answers in all, an uninterrupted run needs %d", srv.Served(), distinct)
	}
	if !reflect.DeepEqual(res.Personas, clean.Personas) || !reflect.DeepEqual(res.Events, clean.Events) ||
		!reflect.DeepEqual(res.Relationships, clean.Relationships) || !reflect.DeepEqual(res.Personalities, clean.Personalities) {
		t.Fatal("resumed result differs from the uninterrupted run")
	}
	if res.Extractive || !strings.HasPrefix(res.Fingerprint, PromptVersion+"/fake-distiller/") {
		t.Fatalf("result header %+v", res.Fingerprint)
	}
	for _, p := range res.Personas {
		if !strings.HasPrefix(p.Prompt, "You are "+p.Character+".") || p.Extractive {
			t.Fatalf("persona %+v", p)
		}
	}
	for _, r := range res.Relationships {
		if r.Sentiment != "positive" {
			t.Fatalf("sentiment not normalised: %+v", r)
		}
	}
}

func TestUnknownBackendAndNoCharacters(t *testing.T) {
	if _, err := NewBackend("gpt", Options{}); err == nil || !strings.Contains(err.Error(), "extractive") {
		t.Fatalf("unknown backend: %v", err)
	}
	if _, err := NewBackend("llm", Options{}); err == nil {
		t.Fatal("llm backend without a client")
	}
	cfg := smallConfig()
	cfg.MinLines = 1000
	if _, err := Run(context.Background(), fixture(t), NewExtractive(), t.TempDir(), cfg); err == nil || !strings.Contains(err.Error(), "min-lines") {
		t.Fatalf("no characters: %v", err)
	}
}

func TestMATTRAndLogOdds(t *testing.T) {
	w := strings.Fields("a b a b a b")
	if got := mattr(w, 100); got != 2.0/6 {
		t.Fatalf("short MATTR %v", got)
	}
	// Windows of 2 over a b a c: {a,b} {b,a} {a,c} all 2 types → 1.
	if got := mattr(strings.Fields("a b a c"), 2); got != 1 {
		t.Fatalf("MATTR %v", got)
	}
	a := map[string]int{"pizza": 20, "the": 50, "proof": 1}
	b := map[string]int{"pizza": 1, "the": 60, "proof": 30}
	if got := logOdds(a, b, 1, 3, 100); !reflect.DeepEqual(got, []string{"pizza"}) {
		t.Fatalf("log-odds top %v", got)
	}
}
