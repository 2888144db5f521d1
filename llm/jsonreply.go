package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// MalformedError is a reply that still did not parse (or validate) after
// Config.JSONRetries follow-up requests. None of the replies was cached,
// so a rerun asks again.
type MalformedError struct {
	// Reply is the last reply text.
	Reply string
	// Err is what was wrong with it.
	Err error
	// Tries is the number of replies read.
	Tries int
	// Entry is the cache file an accepted reply would have been stored
	// in ("" without a cache).
	Entry string
}

// Error says how many replies were read, what was wrong, how the last one
// began and that nothing was cached.
func (e *MalformedError) Error() string {
	msg := fmt.Sprintf("llm: reply not usable after %d tries: %v; last reply starts %q", e.Tries, e.Err, snippet([]byte(e.Reply), 160))
	if e.Entry != "" {
		msg += fmt.Sprintf(" (not cached, so a rerun asks again; cache entry %s)", e.Entry)
	}
	return msg
}

// Unwrap returns what was wrong with the last reply.
func (e *MalformedError) Unwrap() error { return e.Err }

// CachedReplyError is a cached reply that fails validation (an entry
// written by an older RolePrint, or a validator made stricter since). It
// is not replayed as an answer; Config.Refresh = RefreshFailed
// (--llm-refresh) asks again for such entries only.
type CachedReplyError struct {
	// Entry is the cache file.
	Entry string
	// Err is what is wrong with the reply.
	Err error
}

// Error names the entry, the problem and how to refresh.
func (e *CachedReplyError) Error() string {
	return fmt.Sprintf("llm: cached reply %s fails validation: %v; run again with --llm-refresh to ask again for failed entries only (--llm-refresh=all asks again for every request), or delete the file", e.Entry, e.Err)
}

// Unwrap returns what is wrong with the reply.
func (e *CachedReplyError) Unwrap() error { return e.Err }

// ErrCutOff is the validation error of a reply that the server ended at
// the token limit (finish_reason "length"): its JSON is incomplete even
// when it happens to parse.
var ErrCutOff = errors.New("reply cut off at the token limit (finish_reason=length; raise max_tokens)")

// ChatJSON sends req, extracts the JSON object from the reply (see
// ExtractJSON), decodes it into out (reset to its zero value before each
// reply, so nothing of a rejected reply survives) and, when validate is
// not nil, calls it on the decoded value; a reply cut at the token limit
// (finish_reason "length") is rejected too (ErrCutOff). When any step
// fails, the reply and a user message naming the error are appended to
// the conversation and the model is asked again, up to Config.JSONRetries
// times.
//
// Only a reply that passes is cached, under the original request's key,
// so a resumed run replays it without paying; rejected replies and
// follow-ups are never cached, so a failed call is asked again on the
// next run (a *MalformedError). A cached reply that fails validation is
// returned as a *CachedReplyError without a request unless Config.Refresh
// is RefreshFailed or RefreshAll. The last response is returned with the
// error, if any.
func (c *Client) ChatJSON(ctx context.Context, req Request, out any, validate func() error) (*Response, error) {
	if req.ResponseFormat == nil {
		req.ResponseFormat = &ResponseFormat{Type: "json_object"}
	}
	check := func(r *Response) error {
		resetValue(out)
		if r.FinishReason == "length" {
			return ErrCutOff
		}
		err := DecodeJSON(r.Content, out)
		if err == nil && validate != nil {
			err = validate()
		}
		return err
	}
	return c.chatChecked(ctx, req, check, c.cfg.JSONRetries, func(err error) string {
		return fmt.Sprintf("Your reply could not be used: %v. Reply again with only one JSON object in the requested format, and nothing else.", err)
	})
}

// ChatChecked is Chat with ChatJSON's cache rules for replies that are not
// JSON: check (e.g. a verdict parser) decides whether a reply is usable;
// only a usable reply is cached, a cached unusable one is a
// *CachedReplyError unless Config.Refresh asks again, and an unusable
// fresh reply is a *MalformedError (no follow-up request is made).
func (c *Client) ChatChecked(ctx context.Context, req Request, check func(*Response) error) (*Response, error) {
	return c.chatChecked(ctx, req, check, 0, nil)
}

// chatChecked sends req and accepts the first reply that passes check,
// asking up to retries follow-ups (the reply and followUp(err) appended).
func (c *Client) chatChecked(ctx context.Context, req Request, check func(*Response) error, retries int, followUp func(error) string) (*Response, error) {
	orig := c.Resolve(req)
	key := CacheKey(orig)
	entry := ""
	if c.cache != nil {
		entry = c.cache.Path(key)
		if c.cfg.Refresh != RefreshAll {
			r, ok, err := c.cache.Get(key)
			if err != nil {
				c.logf("llm: %v (asking the server again)", err)
			}
			if ok {
				err := check(r)
				if err == nil {
					c.stats.calls.Add(1)
					c.stats.cacheHits.Add(1)
					return r, nil
				}
				if c.cfg.Refresh != RefreshFailed {
					c.stats.calls.Add(1)
					c.stats.failures.Add(1)
					return r, &CachedReplyError{Entry: entry, Err: err}
				}
				c.logf("llm: cached reply %s fails validation (%v); asking again", entry, err)
			}
		}
	}
	msgs := append([]Message(nil), req.Messages...)
	var last *Response
	var lastErr error
	for try := 0; try <= retries; try++ {
		req.Messages = msgs
		resp, err := c.chat(ctx, req, chatOpts{skipRead: true, noStore: true})
		if err != nil {
			return last, err
		}
		last = resp
		err = check(resp)
		if err == nil {
			if c.cache != nil {
				if err := c.cache.Put(orig, resp); err != nil {
					c.logf("llm: %v (answer not cached)", err)
				}
			}
			return resp, nil
		}
		lastErr = err
		if followUp != nil {
			msgs = append(msgs, Assistant(resp.Content), User(followUp(err)))
		}
	}
	return last, &MalformedError{Reply: last.Content, Err: lastErr, Tries: retries + 1, Entry: entry}
}

// resetValue sets *out to its zero value, so that a reply is decoded
// into a clean value: encoding/json merges into existing maps and keeps
// fields a reply leaves out, which would let a follow-up reply that omits
// a field pass validation with the rejected reply's value.
func resetValue(out any) {
	v := reflect.ValueOf(out)
	if v.Kind() == reflect.Pointer && !v.IsNil() {
		v.Elem().Set(reflect.Zero(v.Elem().Type()))
	}
}

// DecodeJSON extracts the JSON object in reply and decodes it into out
// strictly: the object must be complete and of the right types, and
// nothing but whitespace may follow it inside its code fence.
func DecodeJSON(reply string, out any) error {
	obj, err := ExtractJSON(reply)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(obj)))
	if err := dec.Decode(out); err != nil {
		return fmt.Errorf("invalid JSON object: %w", err)
	}
	return nil
}

// ExtractJSON returns the first complete JSON object in s: the content of
// a ```json fence when there is one, otherwise the first balanced {...}
// (braces inside strings are skipped). Models often wrap JSON in prose or
// fences; an object that never closes is an error.
func ExtractJSON(s string) (string, error) {
	if i := strings.Index(s, "```"); i >= 0 {
		rest := s[i+3:]
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
			rest = rest[nl+1:]
			if j := strings.Index(rest, "```"); j >= 0 {
				if obj, err := balanced(rest[:j]); err == nil {
					return obj, nil
				}
			}
		}
	}
	return balanced(s)
}

var errNoObject = errors.New("no JSON object in the reply")

// balanced returns the first balanced {...} of s.
func balanced(s string) (string, error) {
	start := strings.IndexByte(s, '{')
	if start < 0 {
		return "", errNoObject
	}
	depth := 0
	inStr, esc := false, false
	for i := start; i < len(s); i++ {
		ch := s[i]
		switch {
		case esc:
			esc = false
		case inStr && ch == '\\':
			esc = true
		case ch == '"':
			inStr = !inStr
		case inStr:
		case ch == '{':
			depth++
		case ch == '}':
			depth--
			if depth == 0 {
				return s[start : i+1], nil
			}
		}
	}
	return "", errors.New("JSON object not closed (reply cut short?)")
}
