package llm_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roleprint/roleprint/llm"
	"github.com/roleprint/roleprint/llm/llmtest"
)

// echo answers with the last user message reversed word by word, so
// tests can tell which request an answer belongs to.
func echo(req llm.Request) string {
	last := req.Messages[len(req.Messages)-1].Content
	return "echo: " + last
}

func newServer(t *testing.T, a llmtest.Answer) *llmtest.Server {
	t.Helper()
	s := llmtest.New(a)
	t.Cleanup(s.Close)
	return s
}

func newClient(t *testing.T, s *llmtest.Server, cacheDir string, edit func(*llm.Config)) *llm.Client {
	t.Helper()
	cfg := s.Config("fake-model", cacheDir)
	if edit != nil {
		edit(&cfg)
	}
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestChatSendsRequestAndReadsReply(t *testing.T) {
	s := newServer(t, echo)
	s.RequireKey("sk-test")
	c := newClient(t, s, "", func(c *llm.Config) { c.APIKey = "sk-test" })
	r, err := c.Chat(context.Background(), llm.Request{Messages: []llm.Message{llm.System("be brief"), llm.User("hello")}, MaxTokens: 7})
	if err != nil {
		t.Fatal(err)
	}
	if r.Content != "echo: hello" || r.Model != "fake-model" || r.FinishReason != "stop" || r.Usage.TotalTokens != 15 || r.Attempts != 1 || r.Cached {
		t.Fatalf("unexpected response %+v", r)
	}
	got := s.Requests()
	if len(got) != 1 || got[0].Model != "fake-model" || got[0].MaxTokens != 7 || got[0].Temperature == nil || *got[0].Temperature != 0 || got[0].Messages[0].Role != "system" {
		t.Fatalf("server saw %+v", got)
	}
}

func TestWrongKeyFailsAtOnceWithHint(t *testing.T) {
	s := newServer(t, echo)
	s.RequireKey("sk-right")
	c := newClient(t, s, "", func(c *llm.Config) { c.APIKey = "sk-wrong" })
	_, err := c.Chat(context.Background(), llm.Request{Messages: []llm.Message{llm.User("x")}})
	var api *llm.APIError
	if !errors.As(err, &api) || api.StatusCode != 401 || !strings.Contains(err.Error(), "OPENAI_API_KEY") {
		t.Fatalf("want a 401 APIError with a hint, got %v", err)
	}
	if n := len(s.Requests()); n != 1 {
		t.Fatalf("401 was retried: %d requests", n)
	}
}

func TestRetriesTransientFailures(t *testing.T) {
	s := newServer(t, echo)
	s.Fail(llmtest.RateLimited, llmtest.ServerError, llmtest.Unavailable, llmtest.Malformed, llmtest.Fault{Drop: true})
	c := newClient(t, s, "", nil)
	r, err := c.Chat(context.Background(), llm.Request{Messages: []llm.Message{llm.User("hi")}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Content != "echo: hi" || r.Attempts != 6 {
		t.Fatalf("got %q after %d attempts, want success on the 6th", r.Content, r.Attempts)
	}
	st := c.Stats()
	if st.Retries != 5 || st.Attempts != 6 || st.Failures != 0 || s.Served() != 1 {
		t.Fatalf("stats %+v, served %d", st, s.Served())
	}
}

func TestGivesUpAfterMaxRetriesWithLastError(t *testing.T) {
	s := newServer(t, echo)
	s.Fail(llmtest.ServerError, llmtest.ServerError, llmtest.ServerError, llmtest.ServerError)
	c := newClient(t, s, "", func(c *llm.Config) { c.MaxRetries = 2 })
	_, err := c.Chat(context.Background(), llm.Request{Messages: []llm.Message{llm.User("hi")}})
	var api *llm.APIError
	if !errors.As(err, &api) || api.StatusCode != 500 || !strings.Contains(err.Error(), "after 3 attempt(s)") || !strings.Contains(err.Error(), "injected HTTP 500") {
		t.Fatalf("want the last 500 after 3 attempts, got %v", err)
	}
	if n := len(s.Requests()); n != 3 {
		t.Fatalf("%d requests, want 3", n)
	}
}

func TestBadRequestIsNotRetried(t *testing.T) {
	s := newServer(t, echo)
	s.Fail(llmtest.BadRequest)
	c := newClient(t, s, "", nil)
	_, err := c.Chat(context.Background(), llm.Request{Messages: []llm.Message{llm.User("hi")}})
	var api *llm.APIError
	if !errors.As(err, &api) || api.StatusCode != 400 || api.Temporary() {
		t.Fatalf("want a permanent 400, got %v", err)
	}
	if n := len(s.Requests()); n != 1 {
		t.Fatalf("400 was retried (%d requests)", n)
	}
}

func TestTimeoutIsRetried(t *testing.T) {
	s := newServer(t, echo)
	s.Fail(llmtest.Slow(2*time.Second), llmtest.Slow(2*time.Second))
	c := newClient(t, s, "", func(c *llm.Config) { c.Timeout = 100 * time.Millisecond })
	start := time.Now()
	r, err := c.Chat(context.Background(), llm.Request{Messages: []llm.Message{llm.User("late")}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Attempts != 3 || r.Content != "echo: late" {
		t.Fatalf("attempts %d content %q", r.Attempts, r.Content)
	}
	// Without a per-attempt timeout the two slow replies alone take 4 s;
	// the bound leaves room for a loaded machine.
	if el := time.Since(start); el > 3500*time.Millisecond {
		t.Fatalf("timeouts not enforced per attempt: took %s", el)
	}
}

func TestAllAttemptsTimingOutSaysSo(t *testing.T) {
	s := newServer(t, echo)
	s.Fail(llmtest.Slow(time.Second), llmtest.Slow(time.Second))
	c := newClient(t, s, "", func(c *llm.Config) { c.Timeout = 50 * time.Millisecond; c.MaxRetries = 1 })
	_, err := c.Chat(context.Background(), llm.Request{Messages: []llm.Message{llm.User("late")}})
	if err == nil || !strings.Contains(err.Error(), "no reply within 50ms") {
		t.Fatalf("want a timeout error, got %v", err)
	}
}

func TestCancelStopsBackoffWait(t *testing.T) {
	s := newServer(t, echo)
	s.Fail(llmtest.Fault{Status: 429, RetryAfter: "30"})
	c := newClient(t, s, "", func(c *llm.Config) { c.MaxRetryAfter = time.Minute })
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.Chat(ctx, llm.Request{Messages: []llm.Message{llm.User("x")}})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want the context's error, got %v", err)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Fatalf("cancellation ignored during Retry-After wait: %s", el)
	}
}

func TestCacheAnswersRepeatsAndSeparatesDifferentRequests(t *testing.T) {
	s := newServer(t, echo)
	dir := t.TempDir()
	c := newClient(t, s, dir, nil)
	ctx := context.Background()
	req := llm.Request{Messages: []llm.Message{llm.User("q1")}}
	r1, err := c.Chat(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := c.Chat(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if r1.Cached || !r2.Cached || r2.Content != r1.Content || r2.Usage != r1.Usage || s.Served() != 1 {
		t.Fatalf("second call not from cache: %+v %+v served %d", r1, r2, s.Served())
	}
	// A new client on the same folder (a resumed run) hits the cache too.
	c2 := newClient(t, s, dir, nil)
	if r, err := c2.Chat(ctx, req); err != nil || !r.Cached {
		t.Fatalf("resumed client missed the cache: %+v %v", r, err)
	}
	// Any change to what is sent, or the tag, is another entry.
	variants := []llm.Request{
		{Messages: []llm.Message{llm.User("q1")}, Temperature: llm.Float(0.7)},
		{Messages: []llm.Message{llm.User("q1")}, CacheTag: "sample-2"},
		{Messages: []llm.Message{llm.User("q1")}, Model: "other-model"},
		{Messages: []llm.Message{llm.System("s"), llm.User("q1")}},
		{Messages: []llm.Message{llm.User("q1")}, MaxTokens: 5},
	}
	for i, v := range variants {
		if r, err := c.Chat(ctx, v); err != nil || r.Cached {
			t.Fatalf("variant %d answered from cache: %+v %v", i, r, err)
		}
	}
	if n, _ := c.Cache().Len(); n != 1+len(variants) {
		t.Fatalf("cache has %d entries, want %d", n, 1+len(variants))
	}
	// Refresh asks again.
	c3 := newClient(t, s, dir, func(c *llm.Config) { c.Refresh = llm.RefreshAll })
	before := s.Served()
	if r, err := c3.Chat(ctx, req); err != nil || r.Cached || s.Served() != before+1 {
		t.Fatalf("refresh did not ask the server: %+v %v", r, err)
	}
}

func TestCorruptCacheEntryIsAskedAgain(t *testing.T) {
	s := newServer(t, echo)
	dir := t.TempDir()
	c := newClient(t, s, dir, nil)
	ctx := context.Background()
	req := llm.Request{Messages: []llm.Message{llm.User("q")}}
	if _, err := c.Chat(ctx, req); err != nil {
		t.Fatal(err)
	}
	key := llm.CacheKey(c.Resolve(req))
	p := filepath.Join(dir, key[:2], key+".json")
	if err := os.WriteFile(p, []byte(`{"version": "roleprint-llm-cache-v1", "ke`), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := c.Chat(ctx, req)
	if err != nil || r.Cached || s.Served() != 2 {
		t.Fatalf("corrupt entry: %+v %v served %d", r, err, s.Served())
	}
	if r, err := c.Chat(ctx, req); err != nil || !r.Cached {
		t.Fatalf("entry not rewritten: %+v %v", r, err)
	}
	// No temporary files are left behind.
	tmps, _ := filepath.Glob(filepath.Join(dir, "*", ".*tmp*"))
	if len(tmps) != 0 {
		t.Fatalf("temporary files left: %v", tmps)
	}
}

// TestInterruptedRunResumesWithoutPayingTwice cancels a batch of calls
// half-way and runs it again: every answer that reached the client before
// the cancel comes from the cache, and the server bills each question at
// most once more than it has to for the calls that were in flight.
func TestInterruptedRunResumesWithoutPayingTwice(t *testing.T) {
	s := newServer(t, echo)
	dir := t.TempDir()
	const n = 40
	run := func(ctx context.Context, cancelAfter int) (got map[int]string) {
		c := newClient(t, s, dir, func(c *llm.Config) { c.MaxConcurrent = 1 })
		got = map[int]string{}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		for i := 0; i < n; i++ {
			if i == cancelAfter {
				cancel()
			}
			r, err := c.Chat(ctx, llm.Request{Messages: []llm.Message{llm.User(fmt.Sprint("question ", i))}})
			if err != nil {
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("call %d: %v", i, err)
				}
				continue
			}
			got[i] = r.Content
		}
		return got
	}
	s.Fail(llmtest.RateLimited, llmtest.Malformed, llmtest.Slow(0))
	first := run(context.Background(), 17)
	if len(first) != 17 || s.Served() != 17 {
		t.Fatalf("first run: %d answers, %d billed", len(first), s.Served())
	}
	second := run(context.Background(), -1)
	if len(second) != n {
		t.Fatalf("second run answered %d of %d", len(second), n)
	}
	if s.Served() != n {
		t.Fatalf("server billed %d completions for %d distinct questions", s.Served(), n)
	}
	for i, a := range first {
		if second[i] != a {
			t.Fatalf("answer %d changed on resume: %q vs %q", i, a, second[i])
		}
	}
}

func TestConcurrentCallsAreBounded(t *testing.T) {
	var mu sync.Mutex
	inFlight, peak := 0, 0
	s := newServer(t, func(req llm.Request) string {
		mu.Lock()
		inFlight++
		peak = max(peak, inFlight)
		mu.Unlock()
		time.Sleep(20 * time.Millisecond)
		mu.Lock()
		inFlight--
		mu.Unlock()
		return "ok"
	})
	c := newClient(t, s, "", func(c *llm.Config) { c.MaxConcurrent = 2 })
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if _, err := c.Chat(context.Background(), llm.Request{Messages: []llm.Message{llm.User(fmt.Sprint(i))}}); err != nil {
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
	if peak > 2 || peak < 1 {
		t.Fatalf("peak concurrency %d, want ≤ 2", peak)
	}
}

func TestConfigFromEnvAndFlags(t *testing.T) {
	t.Setenv(llm.EnvBaseURL, "")
	t.Setenv(llm.EnvOpenAIBaseURL, "http://localhost:8000/v1/")
	t.Setenv(llm.EnvModel, "qwen")
	t.Setenv(llm.EnvAPIKey, "")
	t.Setenv(llm.EnvOpenAIKey, "sk-env")
	t.Setenv(llm.EnvCache, "off")
	t.Setenv(llm.EnvTimeout, "7s")
	cfg, err := llm.ConfigFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.BaseURL != "http://localhost:8000/v1/" || cfg.Model != "qwen" || cfg.APIKey != "sk-env" || cfg.CacheDir != "" || cfg.Timeout != 7*time.Second {
		t.Fatalf("from env: %+v", cfg)
	}
	t.Setenv("MY_KEY", "sk-flag")
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	finish := cfg.RegisterFlags(fs)
	if err := fs.Parse([]string{"--llm-model", "llama", "--llm-key-env", "MY_KEY", "--llm-cache", "/tmp/c", "--llm-temperature", "0.3"}); err != nil {
		t.Fatal(err)
	}
	if err := finish(); err != nil {
		t.Fatal(err)
	}
	if cfg.Model != "llama" || cfg.APIKey != "sk-flag" || cfg.CacheDir != "/tmp/c" || *cfg.Temperature != 0.3 {
		t.Fatalf("from flags: %+v", cfg)
	}
	t.Setenv(llm.EnvTimeout, "soon")
	if _, err := llm.ConfigFromEnv(); err == nil || !strings.Contains(err.Error(), llm.EnvTimeout) {
		t.Fatalf("bad timeout accepted: %v", err)
	}
	if _, err := llm.New(llm.Config{BaseURL: "localhost:8000"}); err == nil {
		t.Fatal("base URL without scheme accepted")
	}
	if _, err := llm.New(llm.Config{BaseURL: "http://x/v1"}); err == nil || !strings.Contains(err.Error(), llm.EnvModel) {
		t.Fatalf("missing model: %v", err)
	}
}
