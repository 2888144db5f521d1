package llm_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roleprint/roleprint/llm"
	"github.com/roleprint/roleprint/llm/llmtest"
)

// logLines collects a client's log lines.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *logLines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

// A key in the base URL's query reaches the server on the endpoint's path
// (/v1/chat/completions?key=…, not /v1?key=…/chat/completions) and never
// shows in an error or a log line, including the *url.Error of a refused
// connection that names the full URL.
func TestKeyInURLQueryIsSentButNeverPrinted(t *testing.T) {
	const secret = "SECRET-q9x8w7"
	var gotPath, gotKey string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotPath, gotKey = r.URL.Path, r.URL.Query().Get("key")
		w.WriteHeader(401)
		fmt.Fprintf(w, `{"error": {"message": "key %s rejected at %s"}}`, secret, r.URL.String())
	}))
	defer srv.Close()
	var logs logLines
	cfg := llm.DefaultConfig()
	cfg.BaseURL, cfg.Model, cfg.Logf = srv.URL+"/v1?key="+secret, "m", logs.logf
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Chat(context.Background(), llm.Request{Messages: []llm.Message{llm.User("hi")}})
	if gotPath != "/v1/chat/completions" || gotKey != secret {
		t.Fatalf("server saw path %q key %q", gotPath, gotKey)
	}
	if err == nil || strings.Contains(err.Error(), secret) || !strings.Contains(err.Error(), "401") {
		t.Fatalf("401 error: %v", err)
	}
	if e := c.Config().Endpoint(); strings.Contains(e.BaseURL, secret) {
		t.Fatalf("manifest shows the key: %s", e.BaseURL)
	}

	// Nothing listens on port 1: the transport error names the URL.
	cfg.BaseURL = "http://127.0.0.1:1/v1?api_key=" + secret + "&token=" + secret + "x&mode=fast"
	cfg.MaxRetries, cfg.MinBackoff, cfg.MaxBackoff = 1, time.Millisecond, time.Millisecond
	c, err = llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Chat(context.Background(), llm.Request{Messages: []llm.Message{llm.User("hi")}})
	if err == nil || strings.Contains(err.Error(), secret) || !strings.Contains(err.Error(), "mode=fast") {
		t.Fatalf("refused connection: %v", err)
	}
	if !strings.Contains(err.Error(), "/v1/chat/completions?") {
		t.Fatalf("endpoint path not joined before the query: %v", err)
	}
	if l := logs.String(); strings.Contains(l, secret) || !strings.Contains(l, "retrying") {
		t.Fatalf("log lines: %s", l)
	}
}

// RedactURL and RedactText hide the values of credential-like query
// parameters, whatever their spelling, and keep the others.
func TestRedactQueryParameters(t *testing.T) {
	for _, name := range []string{"key", "api_key", "API-KEY", "token", "access_token", "secret", "client_secret", "password", "sig", "signature", "auth", "X-Goog-Api-Key", "refresh_token"} {
		u := "https://h/v1/x?model=a&" + name + "=s3cr3tv4lue&b=2"
		got := llm.RedactURL(u)
		if strings.Contains(got, "s3cr3tv4lue") || !strings.Contains(got, "model=a") || !strings.Contains(got, "b=2") {
			t.Errorf("RedactURL(%s) = %s", u, got)
		}
		txt := `Post "` + u + `": dial tcp: refused`
		if got := llm.RedactText(txt); strings.Contains(got, "s3cr3tv4lue") || !strings.Contains(got, "dial tcp") {
			t.Errorf("RedactText(%s) = %s", txt, got)
		}
	}
	if got := llm.RedactURL("https://h/v1?model=gpt&designation=x"); got != "https://h/v1?model=gpt&designation=x" {
		t.Errorf("harmless parameters changed: %s", got)
	}
}

// A 429 whose Retry-After is longer than the cap fails at once with the
// server's message instead of waiting the cap once per retry; one within
// the cap is waited for and said so in the log.
func TestLongRetryAfterFailsWithServerMessage(t *testing.T) {
	s := newServer(t, echo)
	s.Fail(llmtest.Fault{Status: 429, RetryAfter: "3600", Body: `{"error": {"message": "You exceeded your current quota", "type": "insufficient_quota"}}`})
	var logs logLines
	c := newClient(t, s, "", func(c *llm.Config) { c.MaxRetryAfter = time.Minute; c.Logf = logs.logf })
	start := time.Now()
	_, err := c.Chat(context.Background(), llm.Request{Messages: []llm.Message{llm.User("x")}})
	if err == nil || !strings.Contains(err.Error(), "exceeded your current quota") || !strings.Contains(err.Error(), "1h0m0s") {
		t.Fatalf("want the server's message and the wait it asked for, got %v", err)
	}
	if el := time.Since(start); el > 10*time.Second || len(s.Requests()) != 1 {
		t.Fatalf("%d requests in %s: the long Retry-After was waited for", len(s.Requests()), el)
	}

	s.Fail(llmtest.Fault{Status: 429, RetryAfter: "0.05"})
	if _, err := c.Chat(context.Background(), llm.Request{Messages: []llm.Message{llm.User("y")}}); err != nil {
		t.Fatal(err)
	}
	if l := logs.String(); !strings.Contains(l, "Retry-After") {
		t.Fatalf("the honoured Retry-After is not logged: %q", l)
	}
}

// A reply body far larger than max_tokens allows is refused with an error
// naming the cap, and not asked again; an ordinary one passes.
func TestReplyBodyCappedByMaxTokens(t *testing.T) {
	huge := strings.Repeat("x", 20<<20)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("small") != "" {
			fmt.Fprintf(w, `{"choices": [{"message": {"role": "assistant", "content": %q}, "finish_reason": "stop"}]}`, strings.Repeat("word ", 250))
			return
		}
		fmt.Fprintf(w, `{"choices": [{"message": {"role": "assistant", "content": "%s"}, "finish_reason": "stop"}]}`, huge)
	}))
	defer srv.Close()
	cfg := llm.DefaultConfig()
	cfg.BaseURL, cfg.Model, cfg.MinBackoff, cfg.MaxBackoff = srv.URL+"/v1", "m", time.Millisecond, time.Millisecond
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	req := llm.Request{Messages: []llm.Message{llm.User("hi")}, MaxTokens: 256}
	_, err = c.Chat(context.Background(), req)
	if !errors.Is(err, llm.ErrReplyTooLarge) || !strings.Contains(err.Error(), "max_tokens=256") {
		t.Fatalf("20 MB reply to 256 tokens: %v", err)
	}
	if st := c.Stats(); st.Attempts != 1 {
		t.Fatalf("a too-large reply was asked again: %d attempts", st.Attempts)
	}
	cfg.BaseURL = srv.URL + "/v1?small=1"
	c, _ = llm.New(cfg)
	if r, err := c.Chat(context.Background(), req); err != nil || len(r.Content) != 1250 {
		t.Fatalf("ordinary reply: %v", err)
	}
}
