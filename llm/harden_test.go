package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/llm"
	"github.com/roleprint/roleprint/llm/llmtest"
)

type scored struct {
	Score int `json:"score"`
}

func scoreIn(out *scored) func() error {
	return func() error {
		if out.Score < 1 || out.Score > 5 {
			return fmt.Errorf("score %d outside 1-5", out.Score)
		}
		return nil
	}
}

// Replies that fail validation — prose, JSON cut at the token limit, the
// wrong schema — must not be cached: a rerun asks the server again instead
// of replaying the failure with no request.
func TestRejectedRepliesAreNotCached(t *testing.T) {
	cases := map[string]llmtest.Reply{
		"prose":        {Content: "I would give it a four."},
		"cut":          {Content: `{"score": 4, "rationale": "the speaker keeps`, FinishReason: "length"},
		"cut-but-json": {Content: `{"score": 4}`, FinishReason: "length"},
		"schema":       {Content: `{"rating": "four"}`},
	}
	for name, bad := range cases {
		t.Run(name, func(t *testing.T) {
			s := newServer(t, nil)
			s.SetReply(func(llm.Request) llmtest.Reply { return bad })
			dir := t.TempDir()
			req := llm.Request{Messages: []llm.Message{llm.User("rate " + name)}}
			var out scored
			c := newClient(t, s, dir, func(c *llm.Config) { c.JSONRetries = 1 })
			_, err := c.ChatJSON(context.Background(), req, &out, scoreIn(&out))
			var me *llm.MalformedError
			if !errors.As(err, &me) || me.Entry == "" || !strings.Contains(err.Error(), me.Entry) || !strings.Contains(err.Error(), "not cached") {
				t.Fatalf("want a MalformedError naming the entry, got %v", err)
			}
			if name == "cut" || name == "cut-but-json" {
				if !errors.Is(err, llm.ErrCutOff) {
					t.Fatalf("cut reply not reported as cut: %v", err)
				}
			}
			if n, _ := c.Cache().Len(); n != 0 {
				t.Fatalf("%d rejected replies cached", n)
			}
			before := s.Served()
			// The server now answers well; a rerun must ask it.
			s.SetReply(func(llm.Request) llmtest.Reply { return llmtest.Reply{Content: `{"score": 4}`} })
			c2 := newClient(t, s, dir, nil)
			if _, err := c2.ChatJSON(context.Background(), req, &out, scoreIn(&out)); err != nil || out.Score != 4 || s.Served() != before+1 {
				t.Fatalf("rerun: %v score %d, served %d→%d", err, out.Score, before, s.Served())
			}
			// And the accepted answer replays for free.
			c3 := newClient(t, s, dir, nil)
			if r, err := c3.ChatJSON(context.Background(), req, &out, scoreIn(&out)); err != nil || !r.Cached || s.Served() != before+1 {
				t.Fatalf("accepted answer not replayed: %v", err)
			}
		})
	}
}

// A cached reply that fails validation (written by an older version) is
// reported with its file and the flag to refresh it; --llm-refresh asks
// again for it only, --llm-refresh=all for everything.
func TestRefreshFailedEntriesOnly(t *testing.T) {
	s := newServer(t, func(llm.Request) string { return `{"score": 3}` })
	dir := t.TempDir()
	c := newClient(t, s, dir, nil)
	good := llm.Request{Messages: []llm.Message{llm.User("good")}}
	bad := llm.Request{Messages: []llm.Message{llm.User("bad")}}
	var out scored
	if _, err := c.ChatJSON(context.Background(), good, &out, scoreIn(&out)); err != nil {
		t.Fatal(err)
	}
	// An old-style entry: prose cached for the JSON request.
	badResolved := c.Resolve(bad)
	badResolved.ResponseFormat = &llm.ResponseFormat{Type: "json_object"}
	if err := c.Cache().Put(badResolved, &llm.Response{Content: "Three, I think.", FinishReason: "stop"}); err != nil {
		t.Fatal(err)
	}
	served := s.Served()
	_, err := c.ChatJSON(context.Background(), bad, &out, scoreIn(&out))
	var ce *llm.CachedReplyError
	entry := c.Cache().Path(llm.CacheKey(badResolved))
	if !errors.As(err, &ce) || ce.Entry != entry || !strings.Contains(err.Error(), entry) || !strings.Contains(err.Error(), "--llm-refresh") {
		t.Fatalf("want a CachedReplyError naming %s and --llm-refresh, got %v", entry, err)
	}
	if s.Served() != served {
		t.Fatal("a failed cached entry was asked again without --llm-refresh")
	}

	// --llm-refresh (failed only).
	var mode llm.RefreshMode
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.Var(&mode, "llm-refresh", "")
	if err := fs.Parse([]string{"--llm-refresh"}); err != nil || mode != llm.RefreshFailed {
		t.Fatalf("--llm-refresh parsed as %q, %v", mode, err)
	}
	cf := newClient(t, s, dir, func(c *llm.Config) { c.Refresh = mode })
	for _, r := range []llm.Request{good, bad} {
		if _, err := cf.ChatJSON(context.Background(), r, &out, scoreIn(&out)); err != nil || out.Score != 3 {
			t.Fatalf("refresh failed: %v", err)
		}
	}
	if s.Served() != served+1 {
		t.Fatalf("--llm-refresh asked %d requests, want 1 (the failed entry only)", s.Served()-served)
	}
	// The entry is now good and replays.
	if r, err := c.ChatJSON(context.Background(), bad, &out, scoreIn(&out)); err != nil || !r.Cached {
		t.Fatalf("refreshed entry not replayed: %v", err)
	}

	// --llm-refresh=all asks again for both.
	if err := fs.Parse([]string{"--llm-refresh=all"}); err != nil || mode != llm.RefreshAll {
		t.Fatalf("--llm-refresh=all parsed as %q, %v", mode, err)
	}
	ca := newClient(t, s, dir, func(c *llm.Config) { c.Refresh = mode })
	served = s.Served()
	for _, r := range []llm.Request{good, bad} {
		if _, err := ca.ChatJSON(context.Background(), r, &out, scoreIn(&out)); err != nil {
			t.Fatal(err)
		}
	}
	if s.Served() != served+2 {
		t.Fatalf("--llm-refresh=all asked %d requests, want 2", s.Served()-served)
	}
}

// A key in the base URL's userinfo or in a header never shows in errors,
// log lines or cache entries, and is sent as the Bearer key.
func TestKeysAreRedacted(t *testing.T) {
	const key = "sk-live-0123456789abcdef"
	s := newServer(t, func(llm.Request) string { return "ok" })
	s.RequireKey(key)
	dir := t.TempDir()
	var logs []string
	cfg := s.Config("m", dir)
	cfg.BaseURL = strings.Replace(s.BaseURL, "http://", "http://user:"+key+"@", 1)
	cfg.Header = http.Header{"X-Api-Key": {"hdr-secret-42"}}
	cfg.Logf = func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) }
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Chat(context.Background(), llm.Request{Messages: []llm.Message{llm.User("hi")}}); err != nil {
		t.Fatalf("key in userinfo not sent as Bearer: %v", err)
	}
	if h := s.Headers()[0].Get("Authorization"); h != "Bearer "+key {
		t.Fatalf("server saw Authorization %q", h)
	}
	// Failures: the server echoes the credentials back, as some proxies do.
	s.Fail(llmtest.Fault{Status: 500, Body: `{"error": {"message": "upstream refused Authorization: Bearer ` + key + ` x-api-key hdr-secret-42"}}`},
		llmtest.Fault{Status: 404})
	_, err1 := c.Chat(context.Background(), llm.Request{Messages: []llm.Message{llm.User("again")}})
	c2 := newClient(t, s, "", func(c *llm.Config) {
		c.BaseURL = strings.Replace(s.BaseURL, "http://", "http://user:"+key+"@", 1) + "/nowhere"
		c.MaxRetries = 0
	})
	_, err2 := c2.Chat(context.Background(), llm.Request{Messages: []llm.Message{llm.User("x")}})
	c3 := newClient(t, s, "", func(c *llm.Config) {
		c.BaseURL = "http://user:" + key + "@127.0.0.1:1/v1"
		c.MaxRetries = 0
	})
	_, err3 := c3.Chat(context.Background(), llm.Request{Messages: []llm.Message{llm.User("x")}})
	var texts []string
	for _, e := range []error{err1, err2, err3} {
		if e == nil {
			t.Fatal("expected failures")
		}
		texts = append(texts, e.Error())
	}
	texts = append(texts, logs...)
	texts = append(texts, fmt.Sprint(cfg.Endpoint()), fmt.Sprint(c.Config().Endpoint()))
	b, _ := json.Marshal(c.Config().Endpoint())
	texts = append(texts, string(b))
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			texts = append(texts, string(b))
		}
		return nil
	})
	for _, x := range texts {
		if strings.Contains(x, key) || strings.Contains(x, "hdr-secret-42") || strings.Contains(x, "0123456789abcdef") {
			t.Errorf("secret leaked: %s", x)
		}
	}
	if !strings.Contains(strings.Join(logs, "\n"), "Bearer "+llm.Redacted) {
		t.Errorf("echoed key not marked as redacted in the retry log: %q", logs)
	}
}

func TestRedactURLAndText(t *testing.T) {
	cases := map[string]string{
		"http://user:sk-abc123456@host:8000/v1": "http://REDACTED@host:8000/v1",
		"https://sk-abc123456@host/v1":          "https://REDACTED@host/v1",
		"https://host/v1?api_key=abc&x=1":       "https://host/v1?api_key=REDACTED&x=1",
		"http://localhost:8000/v1":              "http://localhost:8000/v1",
	}
	for in, want := range cases {
		if got := llm.RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
	got := llm.RedactText("Post \"http://u:pw-secret@h/v1\": Authorization: Bearer abcdef123456 and sk-proj-XYZ123456")
	if strings.Contains(got, "pw-secret") || strings.Contains(got, "abcdef123456") || strings.Contains(got, "XYZ123456") {
		t.Fatalf("RedactText left a secret: %s", got)
	}
	h := llm.RedactHeader(http.Header{"Authorization": {"Bearer x"}, "Accept": {"json"}})
	if h.Get("Authorization") != llm.Redacted || h.Get("Accept") != "json" {
		t.Fatalf("RedactHeader: %v", h)
	}
}

func TestRedactTextLeavesProse(t *testing.T) {
	for _, s := range []string{"Basic authentication is not supported", "use scikit-learn", "bearer of bad news"} {
		if got := llm.RedactText(s); got != s {
			t.Errorf("RedactText(%q) = %q", s, got)
		}
	}
}

// ChatChecked applies the same rules to text replies: an unusable reply
// is not cached, a usable one is replayed.
func TestChatCheckedCachesOnlyUsableReplies(t *testing.T) {
	answer := "Maybe?"
	s := newServer(t, func(llm.Request) string { return answer })
	dir := t.TempDir()
	c := newClient(t, s, dir, nil)
	verdict := func(r *llm.Response) error {
		if !strings.Contains(r.Content, "TRUE") && !strings.Contains(r.Content, "FALSE") {
			return fmt.Errorf("no TRUE/FALSE verdict")
		}
		return nil
	}
	req := llm.Request{Messages: []llm.Message{llm.User("same speaker?")}}
	var me *llm.MalformedError
	if _, err := c.ChatChecked(context.Background(), req, verdict); !errors.As(err, &me) || s.Served() != 1 {
		t.Fatalf("unusable reply: %v", err)
	}
	answer = "TRUE"
	if r, err := c.ChatChecked(context.Background(), req, verdict); err != nil || r.Content != "TRUE" || s.Served() != 2 {
		t.Fatalf("rerun did not ask again: %v, served %d", err, s.Served())
	}
	if r, err := c.ChatChecked(context.Background(), req, verdict); err != nil || !r.Cached || s.Served() != 2 {
		t.Fatalf("usable reply not replayed: %v", err)
	}
}
