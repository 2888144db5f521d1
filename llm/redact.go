package llm

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
)

// Redacted replaces secrets in messages, manifests and cache entries.
const Redacted = "REDACTED"

// secretHeaders are request headers whose values are credentials.
var secretHeaders = []string{"Authorization", "Api-Key", "X-Api-Key", "Proxy-Authorization", "Openai-Api-Key"}

var (
	// userinfoRE matches the userinfo of a URL inside free text.
	userinfoRE = regexp.MustCompile(`(?i)\b([a-z][a-z0-9+.-]*://)[^/?#@\s"']+@`)
	// bearerRE matches an Authorization value inside free text.
	bearerRE = regexp.MustCompile(`\b(Bearer|Basic|bearer)\s+[A-Za-z0-9._~+/=-]{6,}`)
	// keyRE matches OpenAI-style secret keys (sk-…, sk-proj-…).
	keyRE = regexp.MustCompile(`\bsk-[A-Za-z0-9_-]{6,}`)
	// secretQuery are query parameters that carry keys.
	secretQuery = []string{"key", "api_key", "api-key", "apikey", "access_token", "token"}
)

// RedactURL returns u with its userinfo and key-bearing query parameters
// (key, api_key, access_token, ...) replaced by REDACTED. Text that does
// not parse as a URL goes through RedactText.
func RedactURL(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Scheme == "" {
		return RedactText(u)
	}
	if p.User != nil {
		p.User = url.User(Redacted)
	}
	if p.RawQuery != "" {
		q := p.Query()
		changed := false
		for k := range q {
			for _, s := range secretQuery {
				if strings.EqualFold(k, s) {
					q.Set(k, Redacted)
					changed = true
				}
			}
		}
		if changed {
			p.RawQuery = q.Encode()
		}
	}
	return p.String()
}

// RedactHeader returns a copy of h whose credential headers
// (Authorization, Api-Key, X-Api-Key, ...) read REDACTED.
func RedactHeader(h http.Header) http.Header {
	out := h.Clone()
	for _, k := range secretHeaders {
		if vs := out.Values(k); len(vs) > 0 {
			out.Del(k)
			for range vs {
				out.Add(k, Redacted)
			}
		}
	}
	return out
}

// RedactText replaces, in free text, the given secrets, URL userinfo,
// "Bearer …"/"Basic …" credentials and sk-… keys by REDACTED.
func RedactText(s string, secrets ...string) string {
	for _, sec := range secrets {
		if len(sec) >= 4 {
			s = strings.ReplaceAll(s, sec, Redacted)
		}
	}
	s = userinfoRE.ReplaceAllString(s, "${1}"+Redacted+"@")
	s = bearerRE.ReplaceAllStringFunc(s, func(m string) string {
		scheme, tok, _ := strings.Cut(m, " ")
		tok = strings.TrimSpace(tok)
		// A credential has a digit or is long; "Basic authentication" is prose.
		if len(tok) >= 20 || strings.ContainsAny(tok, "0123456789") {
			return scheme + " " + Redacted
		}
		return m
	})
	return keyRE.ReplaceAllString(s, Redacted)
}

// splitUserinfo removes the userinfo from a base URL and returns the
// credential it carried (the password, or the user name when there is
// no password), so "http://user:sk-…@host/v1" becomes "http://host/v1"
// with key "sk-…".
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

// Endpoint describes a client's configuration without secrets, for run
// manifests.
type Endpoint struct {
	// BaseURL is the API root, redacted.
	BaseURL string `json:"base_url"`
	// Model is the model name.
	Model string `json:"model"`
	// KeySet says whether an API key is configured (never the key).
	KeySet bool `json:"key_set"`
	// Temperature is the default sampling temperature.
	Temperature *float64 `json:"temperature,omitempty"`
	// Header lists the extra headers, credentials redacted.
	Header http.Header `json:"header,omitempty"`
}

// Endpoint returns the configuration's manifest-safe description.
func (c Config) Endpoint() Endpoint {
	e := Endpoint{BaseURL: RedactURL(c.BaseURL), Model: c.Model, KeySet: c.APIKey != "", Temperature: c.Temperature}
	if len(c.Header) > 0 {
		e.Header = RedactHeader(c.Header)
	}
	return e
}

// secrets lists the credential strings of cfg, for RedactText.
func (c Config) secrets() []string {
	var s []string
	if c.APIKey != "" {
		s = append(s, c.APIKey)
	}
	for _, k := range secretHeaders {
		for _, v := range c.Header.Values(k) {
			s = append(s, v)
			if f := strings.Fields(v); len(f) == 2 {
				s = append(s, f[1])
			}
		}
	}
	return s
}
