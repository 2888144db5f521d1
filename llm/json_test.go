package llm_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/llm"
)

func TestExtractJSON(t *testing.T) {
	cases := []struct {
		in, want string
		ok       bool
	}{
		{`{"a": 1}`, `{"a": 1}`, true},
		{"Sure! Here it is:\n```json\n{\"a\": \"}\"}\n```\nThanks", `{"a": "}"}`, true},
		{`Rationale first. {"score": {"x": 2}, "s": "a \"q\" {"} trailing`, `{"score": {"x": 2}, "s": "a \"q\" {"}`, true},
		{`no json here`, ``, false},
		{`{"a": [1, 2`, ``, false},
	}
	for _, c := range cases {
		got, err := llm.ExtractJSON(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ExtractJSON(%q) = %q, %v; want %q ok=%v", c.in, got, err, c.want, c.ok)
		}
	}
}

func TestDecodeJSONIsStrictAboutTypes(t *testing.T) {
	var v struct {
		Score int `json:"score"`
	}
	if err := llm.DecodeJSON(`{"score": "high"}`, &v); err == nil {
		t.Fatal("string accepted for an int")
	}
	if err := llm.DecodeJSON(`{"score": 7}`, &v); err != nil || v.Score != 7 {
		t.Fatalf("got %v %v", v, err)
	}
}

func TestChatJSONRetriesMalformedAndInvalidReplies(t *testing.T) {
	replies := []string{
		"I think the score is 7.",             // no JSON
		`{"score": 11, "rationale": "great"}`, // out of range
		`{"rationale": "fine", "score": 7}`,   // good
	}
	n := 0
	s := newServer(t, func(req llm.Request) string {
		r := replies[min(n, len(replies)-1)]
		n++
		return r
	})
	c := newClient(t, s, t.TempDir(), nil)
	var out struct {
		Rationale string `json:"rationale"`
		Score     int    `json:"score"`
	}
	validate := func() error {
		if out.Score < 1 || out.Score > 10 {
			return fmt.Errorf("score %d outside 1-10", out.Score)
		}
		return nil
	}
	_, err := c.ChatJSON(context.Background(), llm.Request{Messages: []llm.Message{llm.User("rate it")}}, &out, validate)
	if err != nil {
		t.Fatal(err)
	}
	if out.Score != 7 || out.Rationale != "fine" {
		t.Fatalf("decoded %+v", out)
	}
	reqs := s.Requests()
	if len(reqs) != 3 || reqs[0].ResponseFormat == nil || reqs[0].ResponseFormat.Type != "json_object" {
		t.Fatalf("requests %+v", reqs)
	}
	last := reqs[2].Messages
	if len(last) != 5 || last[1].Role != "assistant" || !strings.Contains(last[2].Content, "no JSON object") || !strings.Contains(last[4].Content, "outside 1-10") {
		t.Fatalf("follow-ups do not name the problems: %+v", last)
	}
	// The same exchange replays from the cache.
	c2 := newClient(t, s, c.Cache().Dir(), nil)
	out.Score = 0
	if _, err := c2.ChatJSON(context.Background(), llm.Request{Messages: []llm.Message{llm.User("rate it")}}, &out, validate); err != nil || out.Score != 7 || s.Served() != 3 {
		t.Fatalf("replay: %v score %d served %d", err, out.Score, s.Served())
	}
}

func TestChatJSONGivesUp(t *testing.T) {
	s := newServer(t, func(llm.Request) string { return "never json" })
	c := newClient(t, s, "", func(c *llm.Config) { c.JSONRetries = 1 })
	var out map[string]any
	_, err := c.ChatJSON(context.Background(), llm.Request{Messages: []llm.Message{llm.User("x")}}, &out, nil)
	var me *llm.MalformedError
	if !errors.As(err, &me) || me.Tries != 2 || me.Reply != "never json" {
		t.Fatalf("want MalformedError after 2 tries, got %v", err)
	}
}

// A follow-up reply that leaves out a field must not inherit the value the
// rejected reply gave it: out is decoded afresh each time.
func TestChatJSONDoesNotKeepRejectedFields(t *testing.T) {
	replies := []string{
		`{"summary": "from the rejected reply", "scores": {"a": 3, "b": 99}}`, // b out of range
		`{"scores": {"b": 4}}`, // summary and a missing
		`{"summary": "ok", "scores": {"a": 2, "b": 4}}`,
	}
	n := 0
	s := newServer(t, func(req llm.Request) string {
		r := replies[min(n, len(replies)-1)]
		n++
		return r
	})
	c := newClient(t, s, "", nil)
	var out struct {
		Summary string         `json:"summary"`
		Scores  map[string]int `json:"scores"`
	}
	validate := func() error {
		if out.Summary == "" {
			return fmt.Errorf("no summary")
		}
		for _, k := range []string{"a", "b"} {
			v, ok := out.Scores[k]
			if !ok || v < 1 || v > 10 {
				return fmt.Errorf("scores.%s missing or outside 1-10", k)
			}
		}
		return nil
	}
	if _, err := c.ChatJSON(context.Background(), llm.Request{Messages: []llm.Message{llm.User("rate")}}, &out, validate); err != nil {
		t.Fatal(err)
	}
	if s.Served() != 3 || out.Summary != "ok" || out.Scores["a"] != 2 {
		t.Fatalf("accepted the incomplete second reply: served %d, %+v", s.Served(), out)
	}
}
