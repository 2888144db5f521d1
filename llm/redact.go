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
	// queryParamRE matches one name=value pair of a URL query inside
	// free text.
	queryParamRE = regexp.MustCompile(`([?&;])([A-Za-z0-9_.\-]+)=([^&#\s"'<>]*)`)
)

// secretNames are query parameter names (lower case, without "-" and
// "_") that carry credentials. SecretParam also treats any name that
// ends in "key" or contains "token", "secret", "passw" or "signature" as
// one.
var secretNames = map[string]bool{
	"key": true, "apikey": true, "token": true, "accesstoken": true, "secret": true,
	"password": true, "passwd": true, "pwd": true, "pass": true, "sig": true, "signature": true,
	"auth": true, "authorization": true, "credential": true, "credentials": true,
	"session": true, "sessionid": true, "jwt": true, "bearer": true,
}

// SecretParam reports whether a URL query parameter of this name carries
// a credential (key, api_key, token, access_token, secret, password, sig,
// signature, auth, X-Goog-Api-Key, ...), whose value is redacted.
func SecretParam(name string) bool {
	n := strings.NewReplacer("-", "", "_", "", ".", "").Replace(strings.ToLower(name))
	return secretNames[n] || strings.HasSuffix(n, "key") || strings.Contains(n, "token") ||
		strings.Contains(n, "secret") || strings.Contains(n, "passw") || strings.Contains(n, "signature")
}

// RedactURL returns u with its userinfo and the values of its
// credential-like query parameters (see SecretParam) replaced by
// REDACTED; the other parameters keep their order and spelling. Text that
// does not parse as a URL goes through RedactText.
func RedactURL(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Scheme == "" {
		return RedactText(u)
	}
	if p.User != nil {
		p.User = url.User(Redacted)
	}
	p.RawQuery = redactQuery(p.RawQuery)
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
// the values of credential-like query parameters (?key=…, &token=…),
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
	s = redactQuery(s)
	return keyRE.ReplaceAllString(s, Redacted)
}

// redactQuery replaces the values of credential-like name=value pairs
// that follow "?", "&" or ";" in s (a raw query or text holding URLs).
// A raw query passed alone has no leading "?", so its first pair is
// matched through a "?" added and removed here.
func redactQuery(s string) string {
	if s == "" {
		return s
	}
	bare := !strings.ContainsAny(s[:1], "?&;")
	if bare {
		s = "?" + s
	}
	s = queryParamRE.ReplaceAllStringFunc(s, func(m string) string {
		sub := queryParamRE.FindStringSubmatch(m)
		if !SecretParam(sub[2]) || sub[3] == "" || sub[3] == Redacted {
			return m
		}
		return sub[1] + sub[2] + "=" + Redacted
	})
	if bare {
		s = s[1:]
	}
	return s
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
	if u, err := url.Parse(c.BaseURL); err == nil {
		for k, vs := range u.Query() {
			if SecretParam(k) {
				s = append(s, vs...)
			}
		}
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
