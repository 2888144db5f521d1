package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"
)

// Client sends chat-completions requests. Create it with New; it is safe
// for concurrent use.
type Client struct {
	cfg   Config
	ep    endpoint
	http  *http.Client
	cache *Cache
	sem   chan struct{}
	stats stats
	// secrets are the credentials to redact from messages.
	secrets []string
	// sleep waits d or until ctx is done; tests replace it.
	sleep func(ctx context.Context, d time.Duration) error
	// jitter returns a uniform random duration in [0, d].
	jitter func(d time.Duration) time.Duration
}

type stats struct {
	calls, cacheHits, attempts, retries, failures atomic.Int64
	promptTokens, completionTokens                atomic.Int64
}

// Stats counts what a client did.
type Stats struct {
	// Calls is the number of Chat calls.
	Calls int64 `json:"calls"`
	// CacheHits is how many calls were answered from the cache.
	CacheHits int64 `json:"cache_hits"`
	// Attempts is the number of HTTP requests sent.
	Attempts int64 `json:"attempts"`
	// Retries is the number of attempts after a failed one.
	Retries int64 `json:"retries"`
	// Failures is the number of calls that returned an error.
	Failures int64 `json:"failures"`
	// PromptTokens and CompletionTokens add up the usage of paid calls.
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
}

// New checks cfg, fills its zero fields with defaults and opens the cache.
func New(cfg Config) (*Client, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	ep, err := newEndpoint(cfg.BaseURL, "chat/completions", cfg.APIKey)
	if err != nil {
		return nil, fmt.Errorf("llm: %w", err)
	}
	c := &Client{
		cfg:    cfg,
		ep:     ep,
		http:   cfg.HTTPClient,
		sem:    make(chan struct{}, cfg.MaxConcurrent),
		sleep:  sleepCtx,
		jitter: randomDuration,
	}
	c.secrets = cfg.secrets()
	if c.http == nil {
		c.http = &http.Client{}
	}
	if cfg.CacheDir != "" {
		cache, err := OpenCache(cfg.CacheDir)
		if err != nil {
			return nil, err
		}
		c.cache = cache
	}
	return c, nil
}

// Model returns the client's default model.
func (c *Client) Model() string { return c.cfg.Model }

// Config returns the resolved configuration (defaults filled in).
func (c *Client) Config() Config { return c.cfg }

// Cache returns the on-disk cache, or nil when caching is off.
func (c *Client) Cache() *Cache { return c.cache }

// Stats returns a snapshot of the client's counters.
func (c *Client) Stats() Stats {
	return Stats{
		Calls:            c.stats.calls.Load(),
		CacheHits:        c.stats.cacheHits.Load(),
		Attempts:         c.stats.attempts.Load(),
		Retries:          c.stats.retries.Load(),
		Failures:         c.stats.failures.Load(),
		PromptTokens:     c.stats.promptTokens.Load(),
		CompletionTokens: c.stats.completionTokens.Load(),
	}
}

// Complete is a convenience for Chat with only messages: it returns the
// reply text.
func (c *Client) Complete(ctx context.Context, messages ...Message) (string, error) {
	r, err := c.Chat(ctx, Request{Messages: messages})
	if err != nil {
		return "", err
	}
	return r.Content, nil
}

// Resolve fills req's model and temperature from the client's config; the
// result is what Chat sends and what CacheKey hashes.
func (c *Client) Resolve(req Request) Request {
	if req.Model == "" {
		req.Model = c.cfg.Model
	}
	if req.Temperature == nil && c.cfg.Temperature != nil {
		t := *c.cfg.Temperature
		req.Temperature = &t
	}
	return req
}

// Chat sends req and returns the first choice, from the cache when the
// same request was answered before. Retryable failures are retried as
// Config describes; the error after the last attempt wraps the last
// failure (an *APIError, a *ReplyError or a network error). A cancelled
// ctx returns ctx.Err() promptly.
func (c *Client) Chat(ctx context.Context, req Request) (*Response, error) {
	return c.chat(ctx, req, chatOpts{})
}

// chatOpts changes how chat uses the cache.
type chatOpts struct {
	// skipRead asks the server even when the cache has an answer.
	skipRead bool
	// noStore leaves the answer out of the cache (ChatJSON stores only
	// answers that pass validation).
	noStore bool
}

func (c *Client) chat(ctx context.Context, req Request, o chatOpts) (*Response, error) {
	c.stats.calls.Add(1)
	req = c.Resolve(req)
	if len(req.Messages) == 0 {
		c.stats.failures.Add(1)
		return nil, errors.New("llm: request has no messages")
	}
	key := CacheKey(req)
	if c.cache != nil && c.cfg.Refresh != RefreshAll && !o.skipRead {
		r, ok, err := c.cache.Get(key)
		if err != nil {
			c.logf("llm: %v (asking the server again)", err)
		}
		if ok {
			c.stats.cacheHits.Add(1)
			return r, nil
		}
	}
	body, err := json.Marshal(req)
	if err != nil {
		c.stats.failures.Add(1)
		return nil, fmt.Errorf("llm: encode request: %w", err)
	}
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		c.stats.failures.Add(1)
		return nil, ctx.Err()
	}
	defer func() { <-c.sem }()

	var lastErr error
	attempts := 0
	for attempt := 0; attempt <= c.cfg.MaxRetries; attempt++ {
		if attempt > 0 {
			var api *APIError
			if errors.As(lastErr, &api) && api.RetryAfter > c.cfg.MaxRetryAfter {
				// Waiting an hour for a quota to reset is not a retry:
				// fail now with the server's own message.
				c.stats.failures.Add(1)
				return nil, fmt.Errorf("llm: %s at %s after %d attempt(s): %w; the server asks to wait %s before retrying, longer than the %s cap (--llm-max-retry-after)",
					req.Model, RedactURL(c.cfg.BaseURL), attempts, lastErr, api.RetryAfter.Round(time.Second), c.cfg.MaxRetryAfter)
			}
			c.stats.retries.Add(1)
			wait := c.backoff(attempt, lastErr)
			why := ""
			if api != nil && api.RetryAfter > 0 {
				why = fmt.Sprintf(" (the server's Retry-After %s, capped at %s)", api.RetryAfter.Round(time.Millisecond), c.cfg.MaxRetryAfter)
			}
			c.logf("llm: attempt %d/%d failed: %v; retrying in %s%s", attempt, c.cfg.MaxRetries+1, lastErr, wait.Round(time.Millisecond), why)
			if err := c.sleep(ctx, wait); err != nil {
				c.stats.failures.Add(1)
				return nil, fmt.Errorf("llm: %w (while waiting to retry after: %v)", err, lastErr)
			}
		}
		attempts++
		resp, err := c.attempt(ctx, body, req.MaxTokens)
		if err == nil {
			resp.Attempts = attempt + 1
			c.stats.promptTokens.Add(int64(resp.Usage.PromptTokens))
			c.stats.completionTokens.Add(int64(resp.Usage.CompletionTokens))
			if c.cache != nil && !o.noStore {
				if err := c.cache.Put(req, resp); err != nil {
					c.logf("llm: %v (answer not cached)", err)
				}
			}
			return resp, nil
		}
		if ctx.Err() != nil {
			c.stats.failures.Add(1)
			return nil, ctx.Err()
		}
		lastErr = err
		if !retryable(err) {
			break
		}
	}
	c.stats.failures.Add(1)
	return nil, fmt.Errorf("llm: %s at %s after %d attempt(s): %w", req.Model, RedactURL(c.cfg.BaseURL), attempts, lastErr)
}

// attempt sends one HTTP request with its own timeout and reads at most
// replyLimit(maxTokens) bytes of the reply.
func (c *Client) attempt(ctx context.Context, body []byte, maxTokens int) (*Response, error) {
	c.stats.attempts.Add(1)
	actx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	header := c.cfg.Header.Clone()
	if header == nil {
		header = http.Header{}
	}
	header.Set("Accept", "application/json")
	why := "the cap for a request without max_tokens"
	if maxTokens > 0 {
		why = fmt.Sprintf("the cap for max_tokens=%d: %d bytes a token plus %d KiB; a server that ignores max_tokens?", maxTokens, ReplyBytesPerToken, ReplyEnvelopeBytes>>10)
	}
	hresp, raw, err := post(actx, c.http, c.ep, "application/json", body, header, replyLimit(maxTokens), why)
	if err != nil {
		if ctx.Err() == nil && actx.Err() != nil {
			return nil, &timeoutError{url: c.ep.shown, d: c.cfg.Timeout}
		}
		if errors.Is(err, ErrReplyTooLarge) {
			return nil, fmt.Errorf("%s: %w", c.ep.shown, err)
		}
		if hresp != nil {
			return nil, &ReplyError{URL: c.ep.shown, Err: err}
		}
		return nil, err
	}
	if hresp.StatusCode < 200 || hresp.StatusCode > 299 {
		e := apiError(c.ep.shown, hresp, raw)
		e.Message, e.Body = c.redact(e.Message), c.redact(e.Body)
		return nil, e
	}
	r, err := decodeCompletion(c.ep.shown, raw)
	var re *ReplyError
	if errors.As(err, &re) {
		re.Body = c.redact(re.Body)
	}
	return r, err
}

// wireCompletion is the part of a chat-completions reply we read.
type wireCompletion struct {
	ID      string `json:"id"`
	Model   string `json:"model"`
	Choices []struct {
		Message struct {
			Role    string  `json:"role"`
			Content *string `json:"content"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage Usage `json:"usage"`
	Error *struct {
		Message string `json:"message"`
		Type    string `json:"type"`
		Code    any    `json:"code"`
	} `json:"error"`
}

func decodeCompletion(url string, raw []byte) (*Response, error) {
	var w wireCompletion
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, &ReplyError{URL: url, Body: snippet(raw, 200), Err: err}
	}
	if w.Error != nil {
		// Some servers answer 200 with an error object.
		return nil, &APIError{StatusCode: 500, Type: w.Error.Type, Code: fmt.Sprint(w.Error.Code), Message: w.Error.Message, URL: url}
	}
	if len(w.Choices) == 0 || w.Choices[0].Message.Content == nil {
		return nil, &ReplyError{URL: url, Body: snippet(raw, 200), Err: errors.New("no choices[0].message.content")}
	}
	return &Response{
		ID:           w.ID,
		Model:        w.Model,
		Content:      *w.Choices[0].Message.Content,
		FinishReason: w.Choices[0].FinishReason,
		Usage:        w.Usage,
	}, nil
}

func apiError(url string, hresp *http.Response, raw []byte) *APIError {
	e := &APIError{StatusCode: hresp.StatusCode, URL: url, RetryAfter: retryAfter(hresp.Header, time.Now())}
	var w struct {
		Error *struct {
			Message string `json:"message"`
			Type    string `json:"type"`
			Code    any    `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(raw, &w) == nil && w.Error != nil {
		e.Message, e.Type = w.Error.Message, w.Error.Type
		if w.Error.Code != nil {
			e.Code = fmt.Sprint(w.Error.Code)
		}
	} else {
		e.Body = snippet(bytes.TrimSpace(raw), 200)
	}
	return e
}

// retryAfter reads Retry-After (seconds or an HTTP date) and OpenAI's
// retry-after-ms; zero when absent or unreadable.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if v := h.Get("retry-after-ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// timeoutError is one attempt running past Config.Timeout.
type timeoutError struct {
	url string
	d   time.Duration
}

func (e *timeoutError) Error() string {
	return fmt.Sprintf("%s: no reply within %s (raise --llm-timeout)", e.url, e.d)
}

// Timeout marks the error as a timeout (net.Error style).
func (e *timeoutError) Timeout() bool { return true }

// retryable reports whether err is worth another attempt.
func retryable(err error) bool {
	var api *APIError
	if errors.As(err, &api) {
		return api.Temporary()
	}
	var reply *ReplyError
	if errors.As(err, &reply) {
		return true
	}
	var te *timeoutError
	if errors.As(err, &te) {
		return true
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true // connection refused/reset, DNS hiccups, timeouts
	}
	var oe *net.OpError
	return errors.As(err, &oe)
}

// backoff returns the wait before retry number attempt (1-based): the
// server's Retry-After when it gave one (capped at MaxRetryAfter, plus up
// to 10 % jitter so clients do not return in lockstep), else full jitter
// over an exponentially growing window. chat fails instead of retrying
// when the Retry-After is over the cap.
func (c *Client) backoff(attempt int, lastErr error) time.Duration {
	var api *APIError
	if errors.As(lastErr, &api) && api.RetryAfter > 0 {
		d := min(api.RetryAfter, c.cfg.MaxRetryAfter)
		return d + c.jitter(d/10)
	}
	window := c.cfg.MinBackoff << min(attempt-1, 30)
	if window > c.cfg.MaxBackoff || window <= 0 {
		window = c.cfg.MaxBackoff
	}
	return c.jitter(window)
}

// logf sends a line to Config.Logf with every credential redacted.
func (c *Client) logf(format string, args ...any) {
	if c.cfg.Logf != nil {
		c.cfg.Logf("%s", c.redact(fmt.Sprintf(format, args...)))
	}
}

// redact removes the client's credentials (and anything that looks like
// one) from s.
func (c *Client) redact(s string) string { return RedactText(s, c.secrets...) }

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
