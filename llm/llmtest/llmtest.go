// Package llmtest is a fake OpenAI-compatible chat-completions server on
// the loopback interface, for tests of code that uses package llm. It
// answers with a function of the request and can be told to fail the next
// requests in the ways real servers do: 429 with Retry-After, 5xx, replies
// slower than the client's timeout, malformed JSON bodies and dropped
// connections — queued (Fail) or chosen by request (FailWhen). SetReply
// sets finish reasons ("length"); Handle serves other endpoints
// (/v1/audio/transcriptions, /v1/audio/speech) on the same server;
// Headers and Bodies return what the client sent.
package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/roleprint/roleprint/llm"
)

// Fault is one failure the server answers a request with instead of a
// completion.
type Fault struct {
	// Status is the HTTP status to answer (e.g. 429, 500). Zero with a
	// Body means 200.
	Status int
	// RetryAfter is sent as the Retry-After header when not empty.
	RetryAfter string
	// Body is the raw body; empty means an OpenAI error object.
	Body string
	// Delay makes the server wait before answering (to trip the client's
	// timeout); the request context ending stops the wait.
	Delay time.Duration
	// Drop closes the connection without an answer.
	Drop bool
}

// Common faults.
var (
	RateLimited = Fault{Status: 429, RetryAfter: "0"}
	ServerError = Fault{Status: 500}
	Unavailable = Fault{Status: 503}
	Malformed   = Fault{Status: 200, Body: `{"id": "x", "choices": [{"message": {"content": "cut`}
	BadRequest  = Fault{Status: 400}
)

// Slow returns a fault that answers after d.
func Slow(d time.Duration) Fault { return Fault{Delay: d} }

// Answer computes the reply text for a request.
type Answer func(req llm.Request) string

// Reply is a reply with its finish reason, for SetReply.
type Reply struct {
	// Content is the reply text.
	Content string
	// FinishReason is sent as choices[0].finish_reason; empty means "stop".
	FinishReason string
}

// Server is the fake API. Its BaseURL ends in /v1 like a real one.
type Server struct {
	srv *httptest.Server
	// BaseURL is the API root to put in llm.Config.BaseURL.
	BaseURL string

	mu       sync.Mutex
	answer   Answer
	reply    func(llm.Request) Reply
	faults   []Fault
	requests []llm.Request
	headers  []http.Header
	bodies   [][]byte
	served   int
	key      string
	// failWhen chooses a fault by request (see FailWhen).
	failWhen func(llm.Request) *Fault
	// extra holds handlers of other endpoints (see Handle).
	extra map[string]http.HandlerFunc
}

// New starts a server that answers each request with answer(req). Close it
// when done (t.Cleanup(s.Close)).
func New(answer Answer) *Server {
	s := &Server{answer: answer}
	s.srv = httptest.NewServer(http.HandlerFunc(s.handle))
	s.BaseURL = s.srv.URL + "/v1"
	return s
}

// Close shuts the server down.
func (s *Server) Close() { s.srv.Close() }

// RequireKey makes the server answer 401 unless the request carries
// "Authorization: Bearer key".
func (s *Server) RequireKey(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.key = key
}

// Fail queues faults: the next len(faults) requests get them, in order.
func (s *Server) Fail(faults ...Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, faults...)
}

// SetAnswer replaces the answer function.
func (s *Server) SetAnswer(a Answer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.answer = a
}

// FailWhen makes the server answer every request for which f returns a
// fault with that fault (after the queued faults of Fail); nil answers.
func (s *Server) FailWhen(f func(req llm.Request) *Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failWhen = f
}

// SetReply replaces the answer function by one that also chooses the
// finish reason (e.g. "length" for a reply cut at max_tokens).
func (s *Server) SetReply(r func(req llm.Request) Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reply = r
}

// Handle serves another endpoint path (e.g. "/v1/audio/transcriptions")
// with h, on the same loopback server.
func (s *Server) Handle(path string, h http.HandlerFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.extra == nil {
		s.extra = map[string]http.HandlerFunc{}
	}
	s.extra[path] = h
}

// Headers returns the headers of every chat request received, in order.
func (s *Server) Headers() []http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]http.Header(nil), s.headers...)
}

// Bodies returns the raw body of every chat request received, in order.
func (s *Server) Bodies() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]byte(nil), s.bodies...)
}

// Requests returns every request received (faulted ones included).
func (s *Server) Requests() []llm.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]llm.Request(nil), s.requests...)
}

// Served counts the completions answered successfully: what a real
// server would have billed.
func (s *Server) Served() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.served
}

// Config returns an llm.Config pointing at the server, with the given
// model, tiny backoffs and timeout so tests run fast, and cacheDir as the
// cache ("" for none).
func (s *Server) Config(model, cacheDir string) llm.Config {
	c := llm.DefaultConfig()
	c.BaseURL = s.BaseURL
	c.Model = model
	c.CacheDir = cacheDir
	c.MinBackoff = time.Millisecond
	c.MaxBackoff = 5 * time.Millisecond
	c.MaxRetryAfter = 50 * time.Millisecond
	c.Timeout = 2 * time.Second
	return c
}

// Client returns an llm.Client of Config(model, "") (no cache), failing t
// when it cannot be made.
func (s *Server) Client(t testing.TB, model string) *llm.Client {
	t.Helper()
	c, err := llm.New(s.Config(model, ""))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	h := s.extra[r.URL.Path]
	s.mu.Unlock()
	if h != nil {
		h(w, r)
		return
	}
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		writeErr(w, 404, "invalid_request_error", fmt.Sprintf("unknown endpoint %s %s", r.Method, r.URL.Path))
		return
	}
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		writeErr(w, 400, "invalid_request_error", "unreadable body: "+err.Error())
		return
	}
	var req llm.Request
	if err := json.Unmarshal(raw, &req); err != nil {
		writeErr(w, 400, "invalid_request_error", "request body is not JSON: "+err.Error())
		return
	}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.headers = append(s.headers, r.Header.Clone())
	s.bodies = append(s.bodies, raw)
	var f *Fault
	if len(s.faults) > 0 {
		f = &s.faults[0]
		s.faults = s.faults[1:]
	}
	answer, reply, key, failWhen := s.answer, s.reply, s.key, s.failWhen
	s.mu.Unlock()
	if f == nil && failWhen != nil {
		f = failWhen(req)
	}

	if key != "" && r.Header.Get("Authorization") != "Bearer "+key {
		writeErr(w, 401, "invalid_api_key", "Incorrect API key provided")
		return
	}
	if req.Model == "" || len(req.Messages) == 0 {
		writeErr(w, 400, "invalid_request_error", "model and messages are required")
		return
	}
	if f != nil {
		if f.Delay > 0 {
			select {
			case <-time.After(f.Delay):
			case <-r.Context().Done():
				return
			}
		}
		if f.Drop {
			if hj, ok := w.(http.Hijacker); ok {
				if conn, _, err := hj.Hijack(); err == nil {
					conn.Close()
					return
				}
			}
		}
		if f.RetryAfter != "" {
			w.Header().Set("Retry-After", f.RetryAfter)
		}
		switch {
		case f.Body != "":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(max(f.Status, 200))
			fmt.Fprint(w, f.Body)
			return
		case f.Status != 0:
			writeErr(w, f.Status, "server_error", fmt.Sprintf("injected HTTP %d", f.Status))
			return
		}
	}
	content, finish := "", "stop"
	switch {
	case reply != nil:
		rp := reply(req)
		content = rp.Content
		if rp.FinishReason != "" {
			finish = rp.FinishReason
		}
	case answer != nil:
		content = answer(req)
	}
	s.mu.Lock()
	s.served++
	id := s.served
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id":      fmt.Sprintf("chatcmpl-%d", id),
		"object":  "chat.completion",
		"created": time.Now().Unix(),
		"model":   req.Model,
		"choices": []map[string]any{{
			"index":         0,
			"message":       map[string]any{"role": "assistant", "content": content},
			"finish_reason": finish,
		}},
		"usage": map[string]int{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
	})
}

func writeErr(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg, "type": typ, "code": nil}})
}
