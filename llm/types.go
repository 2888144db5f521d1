package llm

import (
	"fmt"
	"strings"
	"time"
)

// Message is one chat message.
type Message struct {
	// Role is "system", "user" or "assistant".
	Role string `json:"role"`
	// Content is the message text. When Parts is set, Content is only
	// the text of its text parts, kept for logs; Parts is what is sent.
	Content string `json:"content"`
	// Parts, when not empty, is sent as the content instead: a list of
	// text and input_audio parts (see UserParts).
	Parts []Part `json:"-"`
}

// System returns a system message.
func System(content string) Message { return Message{Role: "system", Content: content} }

// User returns a user message.
func User(content string) Message { return Message{Role: "user", Content: content} }

// Assistant returns an assistant message.
func Assistant(content string) Message { return Message{Role: "assistant", Content: content} }

// ResponseFormat asks the server for a reply format; {"type":"json_object"}
// is OpenAI's JSON mode. Servers that do not know it usually ignore it.
type ResponseFormat struct {
	// Type is "text" or "json_object".
	Type string `json:"type"`
}

// Request is one chat-completions request. Zero fields are left out of the
// request body, so the server's defaults apply.
type Request struct {
	// Model overrides the client's model when not empty.
	Model string `json:"model"`
	// Messages is the conversation so far.
	Messages []Message `json:"messages"`
	// Temperature overrides Config.Temperature when not nil.
	Temperature *float64 `json:"temperature,omitempty"`
	// TopP is nucleus sampling's probability mass.
	TopP *float64 `json:"top_p,omitempty"`
	// MaxTokens bounds the reply length.
	MaxTokens int `json:"max_tokens,omitempty"`
	// Seed asks servers that support it for reproducible sampling.
	Seed *int64 `json:"seed,omitempty"`
	// Stop lists sequences that end the reply.
	Stop []string `json:"stop,omitempty"`
	// ResponseFormat asks for JSON mode when {Type: "json_object"}.
	ResponseFormat *ResponseFormat `json:"response_format,omitempty"`
	// CacheTag is not sent; it only enters the cache key, so that otherwise
	// identical requests (repeated samples at temperature > 0) get separate
	// cache entries.
	CacheTag string `json:"-"`
}

// Float returns a pointer to v, for Request.Temperature and TopP.
func Float(v float64) *float64 { return &v }

// Usage is the token accounting the server reports.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// Response is the first choice of a chat completion.
type Response struct {
	// ID is the server's completion id.
	ID string `json:"id"`
	// Model is the model that answered, as the server names it.
	Model string `json:"model"`
	// Content is the reply text.
	Content string `json:"content"`
	// FinishReason is "stop", "length", ... as the server reports it.
	FinishReason string `json:"finish_reason"`
	// Usage is the token accounting of the (original, uncached) call.
	Usage Usage `json:"usage"`
	// Cached is true when the reply came from the on-disk cache.
	Cached bool `json:"-"`
	// Attempts is how many HTTP attempts this call made (0 when cached).
	Attempts int `json:"-"`
}

// APIError is an error reply from the server (a non-2xx status).
type APIError struct {
	// StatusCode is the HTTP status.
	StatusCode int
	// Type, Code and Message come from the OpenAI error object
	// {"error": {"message", "type", "code"}} when the body has one.
	Type, Code, Message string
	// Body is the start of the raw body when it was not an error object.
	Body string
	// RetryAfter is the server's Retry-After, when given.
	RetryAfter time.Duration
	// URL is the endpoint that answered.
	URL string
}

// Error names the endpoint, the status, the server's message and, for
// 401 and 404, what to check.
func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: HTTP %d", e.URL, e.StatusCode)
	if e.Type != "" || e.Code != "" {
		fmt.Fprintf(&b, " (%s)", strings.Trim(e.Type+" "+e.Code, " "))
	}
	if e.Message != "" {
		fmt.Fprintf(&b, ": %s", e.Message)
	} else if e.Body != "" {
		fmt.Fprintf(&b, ": %q", e.Body)
	}
	switch e.StatusCode {
	case 401:
		b.WriteString(" (check the API key: ROLEPRINT_LLM_API_KEY or OPENAI_API_KEY)")
	case 404:
		b.WriteString(" (check the base URL, which should end in /v1, and the model name)")
	}
	return b.String()
}

// Temporary reports whether retrying may help: request timeout (408),
// conflict (409), rate limit (429) and server errors (5xx).
func (e *APIError) Temporary() bool {
	return e.StatusCode == 408 || e.StatusCode == 409 || e.StatusCode == 429 || e.StatusCode >= 500
}

// ReplyError is a 2xx reply whose body is not a chat completion (malformed
// JSON, no choices). It is retried: proxies sometimes cut bodies short.
type ReplyError struct {
	// URL is the endpoint that answered.
	URL string
	// Body is the start of the body.
	Body string
	// Err is what was wrong with it.
	Err error
}

// Error names the endpoint, the problem and the start of the body.
func (e *ReplyError) Error() string {
	return fmt.Sprintf("%s: unreadable chat completion (%v); body starts %q", e.URL, e.Err, e.Body)
}

// Unwrap returns the decoding error.
func (e *ReplyError) Unwrap() error { return e.Err }

// snippet returns the first n bytes of b as a string for error messages.
func snippet(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}
