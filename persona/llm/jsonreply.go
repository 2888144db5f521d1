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
// Config.JSONRetries follow-up requests.
type MalformedError struct {
	// Reply is the last reply text.
	Reply string
	// Err is what was wrong with it.
	Err error
	// Tries is the number of replies read.
	Tries int
}

// Error says how many replies were read, what was wrong and how the last
// one began.
func (e *MalformedError) Error() string {
	return fmt.Sprintf("llm: reply not usable after %d tries: %v; last reply starts %q", e.Tries, e.Err, snippet([]byte(e.Reply), 160))
}

// Unwrap returns what was wrong with the last reply.
func (e *MalformedError) Unwrap() error { return e.Err }

// ChatJSON sends req, extracts the JSON object from the reply (see
// ExtractJSON), decodes it into out (reset to its zero value before each
// reply, so nothing of a rejected reply survives) and, when validate is not nil, calls
// it on the decoded value. When any step fails, the reply and a user
// message naming the error are appended to the conversation and the model
// is asked again, up to Config.JSONRetries times; each follow-up is its
// own cached request, so a resumed run replays the same exchange without
// paying for it. The last response is returned with the error, if any.
func (c *Client) ChatJSON(ctx context.Context, req Request, out any, validate func() error) (*Response, error) {
	if req.ResponseFormat == nil {
		req.ResponseFormat = &ResponseFormat{Type: "json_object"}
	}
	msgs := append([]Message(nil), req.Messages...)
	var last *Response
	var lastErr error
	for try := 0; try <= c.cfg.JSONRetries; try++ {
		req.Messages = msgs
		resp, err := c.Chat(ctx, req)
		if err != nil {
			return last, err
		}
		last = resp
		resetValue(out)
		err = DecodeJSON(resp.Content, out)
		if err == nil && validate != nil {
			err = validate()
		}
		if err == nil {
			return resp, nil
		}
		lastErr = err
		msgs = append(msgs, Assistant(resp.Content),
			User(fmt.Sprintf("Your reply could not be used: %v. Reply again with only one JSON object in the requested format, and nothing else.", err)))
	}
	return last, &MalformedError{Reply: last.Content, Err: lastErr, Tries: c.cfg.JSONRetries + 1}
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
