package selfplay_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/llm"
	"github.com/roleprint/roleprint/llm/llmtest"
	"github.com/roleprint/roleprint/persona/selfplay"
)

func write(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadRolesFormats(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "friends"), 0o755); err != nil {
		t.Fatal(err)
	}
	personas := filepath.Join(dir, "friends", "personas.json")
	if err := os.WriteFile(personas, []byte(`[{"character": "Ross", "prompt": "You are Ross. You love dinosaurs.", "extractive": false, "backend": "llm"},
		{"character": "Rachel", "prompt": "You are Rachel."}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	rs, err := selfplay.LoadRoles(personas)
	if err != nil || len(rs) != 2 || rs[0].Name != "Ross" || rs[0].Prompt != "You are Ross. You love dinosaurs." || rs[0].Source != "friends" {
		t.Fatalf("personas.json: %+v %v", rs, err)
	}
	rs, err = selfplay.LoadRoles(write(t, "desc.json", `{"Sheldon Cooper": "A theoretical physicist.", "Jack Sparrow": "A pirate captain."}`))
	if err != nil || len(rs) != 2 || rs[0].Name != "Jack Sparrow" || rs[0].Prompt != "You are Jack Sparrow. A pirate captain." {
		t.Fatalf("desc.json: %+v %v", rs, err)
	}
	rs, err = selfplay.LoadRoles(write(t, "roles.tsv", "# comment\nAnn\tA baker.\tvillage\n\nBob\tYou are Bob, a smith.\n"))
	if err != nil || len(rs) != 2 || rs[0].Source != "village" || rs[1].Source != "roles" || rs[1].Prompt != "You are Bob, a smith." {
		t.Fatalf("tsv: %+v %v", rs, err)
	}
	for body, want := range map[string]string{
		"Ann\tA baker.\nBob\n":         "roles.tsv:2",
		"Ann\tA baker.\nAnn\tAgain.\n": "roles.tsv:2: role \"Ann\" given twice (first on line 1)",
		"Ann\tA baker.\n \tNobody.\n":  "roles.tsv:2: empty role name",
		"Ann\t \n":                     "roles.tsv:1: empty description",
	} {
		if _, err := selfplay.LoadRoles(write(t, "roles.tsv", body)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", body, err, want)
		}
	}
}

func TestScenesPairings(t *testing.T) {
	roles := []selfplay.Role{{Name: "A", Source: "x"}, {Name: "B", Source: "x"}, {Name: "C", Source: "y"}, {Name: "D", Source: "y"}}
	all, err := selfplay.Scenes(roles, selfplay.PairsAll, 2, 10, 2)
	if err != nil || len(all) != 12 {
		t.Fatalf("all: %d scenes, %v", len(all), err)
	}
	if all[0].ID != "A+B#0" || all[1].Roles[0] != "B" || all[1].Seed != 11 {
		t.Fatalf("replicates do not alternate the opener: %+v", all[:2])
	}
	paper, err := selfplay.Scenes(roles, selfplay.PairsPaper, 1, 0, 2)
	if err != nil || len(paper) != 2 || paper[0].ID != "A+B#0" || paper[1].ID != "C+D#0" {
		t.Fatalf("paper: %+v %v", paper, err)
	}
	trios, err := selfplay.Scenes(roles, selfplay.PairsAll, 3, 0, 3)
	if err != nil || len(trios) != 4*3 || trios[1].Roles[0] != "B" || trios[2].Roles[0] != "C" || trios[0].ID != "A+B+C#0" {
		t.Fatalf("trios: %+v %v", trios, err)
	}
	if _, err := selfplay.Scenes(roles[1:3], selfplay.PairsPaper, 1, 0, 2); err == nil || !strings.Contains(err.Error(), "source") {
		t.Fatalf("paper with no shared source: %v", err)
	}
}

func TestCleanReply(t *testing.T) {
	cases := []struct {
		in, text string
		ended    bool
	}{
		{`Ann: "Fine, thanks."`, "Fine, thanks.", false},
		{"**Ann:** Bye now. [END]", "Bye now.", true},
		{"Well. [END] (she leaves)", "Well.", true},
		{`"One" and "two"`, `"One" and "two"`, false},
		{"[END]", "", true},
	}
	for _, c := range cases {
		if got, ended := selfplay.CleanReply(c.in, "Ann", "[END]"); got != c.text || ended != c.ended {
			t.Errorf("CleanReply(%q) = %q, %v; want %q, %v", c.in, got, ended, c.text, c.ended)
		}
	}
}

// A scene runs until the end marker (after MinTurns) or MaxTurns; the
// speakers' views alternate user/assistant and carry their own persona.
func TestSelfPlayEndsAndViews(t *testing.T) {
	s := llmtest.New(func(req llm.Request) string {
		n := len(req.Messages)
		if strings.Contains(req.Messages[0].Content, "You are Ann") && n >= 4 {
			return "Goodbye then. [END]"
		}
		return fmt.Sprintf("line %d", n)
	})
	defer s.Close()
	client := s.Client(t, "m")
	roles := []selfplay.Role{{Name: "Ann", Prompt: "You are Ann."}, {Name: "Bob", Prompt: "You are Bob."}}
	j, err := selfplay.OpenJournal(filepath.Join(t.TempDir(), "j.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	cfg := selfplay.DefaultConfig()
	cfg.MaxTurns = 10
	res, err := selfplay.SelfPlay(context.Background(), client, roles, cfg, j, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range res.Rows {
		t.Logf("%s %d %-4s %q", u.ConversationID, u.Turn, u.Speaker, u.Text)
	}
	if len(res.Scenes) != 1 || res.Scenes[0].End != "marker" || res.Scenes[0].Turns != 3 || len(res.Rows) != 4 || res.Rows[3].Text != "Goodbye then." {
		t.Fatalf("scene %+v rows %d", res.Scenes, len(res.Rows))
	}
	for i, req := range s.Requests() {
		for k, m := range req.Messages[1:] {
			want := []string{"user", "assistant"}[k%2]
			if i%2 == 1 { // Bob: the greeting is his own line
				want = []string{"assistant", "user"}[k%2]
			}
			if m.Role != want {
				t.Fatalf("request %d message %d role %s, want %s", i, k+1, m.Role, want)
			}
		}
		if *req.Seed != cfg.Seed || *req.Temperature != 0.7 || req.MaxTokens != 256 {
			t.Fatalf("sampling not sent: %+v", req)
		}
	}
	// MaxTurns bounds a scene that never ends.
	s.SetAnswer(func(llm.Request) string { return "and so on" })
	cfg.MaxTurns, cfg.Seed = 5, 99
	res, err = selfplay.SelfPlay(context.Background(), client, roles, cfg, j, nil)
	if err != nil || res.Scenes[0].End != "max_turns" || res.Scenes[0].Turns != 5 {
		t.Fatalf("max turns: %+v %v", res.Scenes, err)
	}
}

// Interview: every role answers every question; a torn journal line (a
// kill during a write) is ignored on reopening.
func TestInterviewAndTornJournal(t *testing.T) {
	s := llmtest.New(func(req llm.Request) string { return "As myself: " + req.Messages[1].Content })
	defer s.Close()
	client := s.Client(t, "m")
	path := filepath.Join(t.TempDir(), "j.jsonl")
	j, err := selfplay.OpenJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	roles := []selfplay.Role{{Name: "Ann", Prompt: "You are Ann."}, {Name: "Bob", Prompt: "You are Bob."}}
	qs := []selfplay.Question{{Text: "Who are you?"}, {Text: "What do you fear?"}}
	res, err := selfplay.Interview(context.Background(), client, roles, qs, selfplay.DefaultConfig(), j, nil)
	if err != nil {
		t.Fatal(err)
	}
	j.Close()
	if len(res.Rows) != 8 || res.Rows[1].Speaker != "Ann" || res.Rows[1].ConversationID != "Ann/q1" || res.Rows[0].Speaker != "User" || res.Rows[0].Source != "interview" {
		t.Fatalf("rows %+v", res.Rows)
	}
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"key": "abc", "reply": "cut`)
	f.Close()
	j2, err := selfplay.OpenJournal(path)
	if err != nil || j2.Len() != 4 {
		t.Fatalf("torn journal: %v, %d entries", err, j2.Len())
	}
	res2, err := selfplay.Interview(context.Background(), client, roles, qs, selfplay.DefaultConfig(), j2, nil)
	if err != nil || res2.Replayed != 4 || res2.Requests != 0 || s.Served() != 4 {
		t.Fatalf("replay: %+v %v served %d", res2, err, s.Served())
	}
	j2.Close()
	// A bad line in the middle is an error naming it (line 1 is the
	// header).
	b, _ := os.ReadFile(path)
	head, rest, _ := strings.Cut(string(b), "\n")
	if head != selfplay.JournalHeader {
		t.Fatalf("first line %q, want the header", head)
	}
	os.WriteFile(path, []byte(head+"\ngarbage\n"+rest), 0o644)
	if _, err := selfplay.OpenJournal(path); err == nil || !strings.Contains(err.Error(), ":2:") {
		t.Fatalf("bad journal line: %v", err)
	}
}

// A file that is not a journal is refused and left as it was (its last
// line is not cut as a torn entry, nothing is appended); an empty file
// gets the header; a journal without the header line is read and
// appended to; a header cut short by a kill is completed.
func TestJournalRefusesForeignFiles(t *testing.T) {
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes.txt")
	const text = "my notes\nlast line without a newline"
	os.WriteFile(notes, []byte(text), 0o644)
	if _, err := selfplay.OpenJournal(notes); err == nil || !strings.Contains(err.Error(), notes) || !strings.Contains(err.Error(), "not a selfplay journal") {
		t.Errorf("foreign file: %v", err)
	}
	if b, _ := os.ReadFile(notes); string(b) != text {
		t.Errorf("foreign file changed: %q", b)
	}
	entry := func(key string) string {
		b, _ := json.Marshal(selfplay.Entry{Key: key, Conversation: "c", Turn: 1, Speaker: "Ann", Reply: "Hi."})
		return string(b) + "\n"
	}
	for _, c := range []struct {
		name, body string
		entries    int
		wantHead   bool
	}{
		{"empty", "", 0, true},
		{"headerless", entry("k1") + entry("k2"), 2, false},
		{"torn header", selfplay.JournalHeader[:10], 0, true},
	} {
		p := filepath.Join(dir, c.name+".jsonl")
		os.WriteFile(p, []byte(c.body), 0o644)
		j, err := selfplay.OpenJournal(p)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if j.Len() != c.entries {
			t.Errorf("%s: %d entries, want %d", c.name, j.Len(), c.entries)
		}
		if err := j.Add(selfplay.Entry{Key: "k3", Reply: "Bye."}); err != nil {
			t.Fatal(err)
		}
		j.Close()
		b, _ := os.ReadFile(p)
		if got := strings.HasPrefix(string(b), selfplay.JournalHeader+"\n"); got != c.wantHead {
			t.Errorf("%s: starts with the header %v, want %v: %q", c.name, got, c.wantHead, b)
		}
		j, err = selfplay.OpenJournal(p)
		if err != nil || j.Len() != c.entries+1 {
			t.Errorf("%s reopened: %v, %d entries", c.name, err, j.Len())
		}
		j.Close()
	}
}

// In a scene of three, each speaker sees the others' lines as user
// messages prefixed with their names, merged when consecutive.
func TestSelfPlayThreeRoles(t *testing.T) {
	s := llmtest.New(func(req llm.Request) string { return fmt.Sprintf("turn %d", len(req.Messages)) })
	defer s.Close()
	client := s.Client(t, "m")
	roles := []selfplay.Role{{Name: "Ann", Prompt: "You are Ann."}, {Name: "Bob", Prompt: "You are Bob."}, {Name: "Cy", Prompt: "You are Cy."}}
	j, _ := selfplay.OpenJournal(filepath.Join(t.TempDir(), "j.jsonl"))
	defer j.Close()
	cfg := selfplay.DefaultConfig()
	cfg.SceneSize, cfg.MaxTurns = 3, 4
	res, err := selfplay.SelfPlay(context.Background(), client, roles, cfg, j, nil)
	if err != nil || len(res.Scenes) != 1 || res.Scenes[0].Turns != 4 {
		t.Fatalf("%+v %v", res, err)
	}
	// Turn 3 is Cy's: greeting (Cy's own), then Ann and Bob merged.
	req := s.Requests()[2]
	if len(req.Messages) != 3 || req.Messages[1].Role != "assistant" || req.Messages[2].Content != "Ann: turn 2\nBob: turn 2" ||
		!strings.Contains(req.Messages[0].Content, "with Ann and Bob") {
		t.Fatalf("Cy's view: %+v", req.Messages)
	}
}

func TestLoadQuestionsFormats(t *testing.T) {
	qs, err := selfplay.LoadQuestions(write(t, "q.txt", "# c\nWho are you?\n\nWho are you?\nWhy?\n"))
	if err != nil || len(qs) != 2 || qs[1].Text != "Why?" || qs[0].Role != "" {
		t.Fatalf("text: %+v %v", qs, err)
	}
	qs, err = selfplay.LoadQuestions(write(t, "q.json", `[{"topic_id": "t", "question": "What do you think of your father?", "reply": [{"role": "Beethoven", "content": "x"}]}]`))
	if err != nil || len(qs) != 1 || qs[0].Text != "What do you think of your father?" {
		t.Fatalf("character-llm: %+v %v", qs, err)
	}
	qs, err = selfplay.LoadQuestions(write(t, "q.jsonl", `{"role": "Ann", "question": " Why bake? ", "generated": ["x"]}`+"\n"+`{"role": "Bob", "question": "Why forge?"}`+"\nnot json\n"))
	if err == nil || !strings.Contains(err.Error(), "q.jsonl:3") {
		t.Fatalf("bad JSONL line: %v", err)
	}
	qs, err = selfplay.LoadQuestions(write(t, "q.jsonl", `{"role": "Ann", "question": " Why bake? "}`+"\n"+`{"role": "Bob", "question": "Why forge?"}`+"\n"+`{"role": "Zed", "question": "Who?"}`+"\n"))
	if err != nil || len(qs) != 3 || qs[0] != (selfplay.Question{Role: "Ann", Text: "Why bake?"}) {
		t.Fatalf("rolebench: %+v %v", qs, err)
	}
	// Role-specific questions go to their role only; Zed's is left out.
	s := llmtest.New(func(req llm.Request) string { return "because" })
	defer s.Close()
	client, _ := llm.New(s.Config("m", ""))
	j, _ := selfplay.OpenJournal(filepath.Join(t.TempDir(), "j.jsonl"))
	defer j.Close()
	roles := []selfplay.Role{{Name: "Ann", Prompt: "You are Ann."}, {Name: "Bob", Prompt: "You are Bob."}}
	res, err := selfplay.Interview(context.Background(), client, roles, qs, selfplay.DefaultConfig(), j, nil)
	if err != nil || len(res.Rows) != 4 || res.Rows[0].Text != "Why bake?" || res.Rows[0].ConversationID != "Ann/q1" || res.Rows[2].ConversationID != "Bob/q2" {
		t.Fatalf("%+v %v", res, err)
	}
}

// Character-LLM's released interview files load as question lists.
func TestLoadQuestionsCharacterLLMRelease(t *testing.T) {
	dir, ok := data.SharedCorpus("releases/character-llm/interview_single")
	if !ok {
		t.Skip("shared Character-LLM release not present")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "Beethoven_chatgpt_result", "*.json"))
	if len(files) == 0 {
		t.Skip("no Beethoven interview file")
	}
	qs, err := selfplay.LoadQuestions(files[0])
	if err != nil || len(qs) < 10 {
		t.Fatalf("%d questions, %v", len(qs), err)
	}
	// The questions are the file's "question" fields, trimmed, each once,
	// in file order, for every role (the file names none).
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var recs []struct {
		Question string `json:"question"`
	}
	if err := json.Unmarshal(b, &recs); err != nil {
		t.Fatal(err)
	}
	var want []string
	seen := map[string]bool{}
	for _, r := range recs {
		if q := strings.TrimSpace(r.Question); q != "" && !seen[q] {
			seen[q] = true
			want = append(want, q)
		}
	}
	var got []string
	for _, q := range qs {
		if q.Role != "" {
			t.Errorf("question %q is for role %q, want every role", q.Text, q.Role)
		}
		got = append(got, q.Text)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("questions:\n%q\nwant\n%q", got, want)
	}
	t.Logf("%s: %d questions, first %q", filepath.Base(files[0]), len(qs), qs[0].Text)
}

// A scene whose requests fail stops alone: the error names it, the other
// scenes' turns are journalled, and a rerun pays only for what is missing.
func TestFailedSceneDoesNotStopTheOthers(t *testing.T) {
	broken := true
	s := llmtest.New(func(req llm.Request) string { return fmt.Sprintf("line %d [END]", len(req.Messages)) })
	defer s.Close()
	s.FailWhen(func(req llm.Request) *llmtest.Fault {
		if broken && strings.Contains(req.Messages[0].Content, "You are Cy.") {
			return &llmtest.BadRequest // 400: not retried
		}
		return nil
	})
	client, _ := llm.New(s.Config("m", ""))
	roles := []selfplay.Role{{Name: "Ann", Prompt: "You are Ann."}, {Name: "Bob", Prompt: "You are Bob."}, {Name: "Cy", Prompt: "You are Cy."}}
	path := filepath.Join(t.TempDir(), "j.jsonl")
	j, _ := selfplay.OpenJournal(path)
	cfg := selfplay.DefaultConfig()
	cfg.MinTurns = 3
	res, err := selfplay.SelfPlay(context.Background(), client, roles, cfg, j, nil)
	j.Close()
	if err == nil || !strings.Contains(err.Error(), "2 of 3 conversations failed") || !strings.Contains(err.Error(), "Ann+Cy#0") || res.Rows != nil {
		t.Fatalf("err %v", err)
	}
	paid := s.Served() // Ann+Bob's 3 turns and Ann's first turn with Cy
	broken = false
	j, _ = selfplay.OpenJournal(path)
	defer j.Close()
	res, err = selfplay.SelfPlay(context.Background(), client, roles, cfg, j, nil)
	if err != nil || len(res.Scenes) != 3 || res.Replayed != int64(paid) || s.Served() != 9 {
		t.Fatalf("rerun: %v, replayed %d of %d, served %d", err, res.Replayed, paid, s.Served())
	}
}
