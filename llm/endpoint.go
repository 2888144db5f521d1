package llm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// endpoint is one resolved API URL: the base URL with the endpoint's path
// joined to its path (its query kept), the key its userinfo carried, and
// the redacted form every message shows.
type endpoint struct {
	url   string
	shown string
	key   string
}

// newEndpoint joins path ("chat/completions", "audio/speech") to base, an
// API root such as http://host/v1 or http://host/v1?key=K. A base that
// already ends in path is taken as it is. The userinfo is removed and its
// credential returned as the key (key, when set, wins), because Go would
// send it as Basic auth while OpenAI-compatible servers want a Bearer key.
func newEndpoint(base, path, key string) (endpoint, error) {
	clean, k := splitUserinfo(base)
	u, err := url.Parse(clean)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return endpoint{}, fmt.Errorf("base URL %q: want http:// or https://HOST/...", RedactURL(base))
	}
	if key == "" {
		key = k
	}
	u.Path = strings.TrimSuffix(strings.TrimRight(u.Path, "/"), "/"+path)
	u.RawPath = ""
	full := u.JoinPath(path)
	s := full.String()
	return endpoint{url: s, shown: RedactURL(s), key: key}, nil
}

// redact removes the endpoint's key and its query's credentials from s.
func (ep endpoint) redact(s string) string {
	secrets := []string{ep.key}
	if u, err := url.Parse(ep.url); err == nil {
		for k, vs := range u.Query() {
			if SecretParam(k) {
				secrets = append(secrets, vs...)
			}
		}
	}
	return RedactText(s, secrets...)
}

// splitUserinfo removes the userinfo from a base URL and returns the
// credential it carried (the password, or the user name when there is
// no password), so "http://user:sk-…@host/v1" becomes "http://host/v1"
// with key "sk-…". Text that is not an http(s) URL is returned as it is.
func splitUserinfo(base string) (clean, key string) {
	p, err := url.Parse(base)
	if err != nil || p.User == nil {
		return base, ""
	}
	if pw, ok := p.User.Password(); ok {
		key = pw
	} else {
		key = p.User.Username()
	}
	p.User = nil
	return p.String(), key
}

// Bytes allowed per requested token when a reply body is capped by the
// request's max_tokens, and the allowance for the JSON envelope. A token
// is a few bytes of UTF-8 text; JSON escaping (\uXXXX is 6 bytes for one
// character), log probabilities and reasoning fields can multiply that,
// so the factor is generous: it stops a server that ignores max_tokens
// (20 MB for a 256-token request), not an honest long reply.
const (
	ReplyBytesPerToken = 64
	ReplyEnvelopeBytes = 64 << 10
	// MaxReplyBytes caps a chat reply when the request sets no max_tokens.
	MaxReplyBytes = 64 << 20
)

// replyLimit is the largest chat-completions body accepted for a request
// with maxTokens (0: no limit asked for).
func replyLimit(maxTokens int) int64 {
	if maxTokens <= 0 {
		return MaxReplyBytes
	}
	return min(int64(maxTokens)*ReplyBytesPerToken+ReplyEnvelopeBytes, MaxReplyBytes)
}

// ErrReplyTooLarge is returned (wrapped) when a reply body is larger than
// the cap for its request; it is not retried.
var ErrReplyTooLarge = errors.New("reply body too large")

// readCapped reads at most limit bytes of r; a longer body is an error
// naming the cap and why it is what it is.
func readCapped(r io.Reader, limit int64, why string) ([]byte, error) {
	raw, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return raw, err
	}
	if int64(len(raw)) > limit {
		return nil, fmt.Errorf("%w: more than %s (%s)", ErrReplyTooLarge, byteSize(limit), why)
	}
	return raw, nil
}

func byteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KiB", float64(n)/1024)
	}
	return fmt.Sprintf("%d bytes", n)
}

// post sends one POST to ep with the Bearer key and extra headers and
// reads the reply body up to limit bytes. A transport error comes back
// with the URL redacted (a *url.Error names the full URL, query included).
func post(ctx context.Context, hc *http.Client, ep endpoint, contentType string, body []byte, header http.Header, limit int64, why string) (*http.Response, []byte, error) {
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, ep.url, bytes.NewReader(body))
	if err != nil {
		return nil, nil, redactError(err)
	}
	hreq.Header.Set("Content-Type", contentType)
	if ep.key != "" {
		hreq.Header.Set("Authorization", "Bearer "+ep.key)
	}
	for k, vs := range header {
		for _, v := range vs {
			hreq.Header.Add(k, v)
		}
	}
	if hc == nil {
		hc = http.DefaultClient
	}
	hresp, err := hc.Do(hreq)
	if err != nil {
		return nil, nil, redactError(err)
	}
	defer hresp.Body.Close()
	raw, err := readCapped(hresp.Body, limit, why)
	if err != nil {
		return hresp, nil, redactError(err)
	}
	return hresp, raw, nil
}

// redactError rewrites the URL of every *url.Error in err's chain to its
// redacted form, in place, so printing err shows no credential.
func redactError(err error) error {
	for e := err; e != nil; e = errors.Unwrap(e) {
		if ue, ok := e.(*url.Error); ok {
			ue.URL = RedactURL(ue.URL)
		}
	}
	return err
}
