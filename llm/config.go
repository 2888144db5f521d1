package llm

import (
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/roleprint/roleprint/data/assets"
)

// Environment variables read by ConfigFromEnv.
const (
	EnvBaseURL = "ROLEPRINT_LLM_BASE_URL"
	EnvModel   = "ROLEPRINT_LLM_MODEL"
	EnvAPIKey  = "ROLEPRINT_LLM_API_KEY"
	EnvCache   = "ROLEPRINT_LLM_CACHE"
	EnvTimeout = "ROLEPRINT_LLM_TIMEOUT"
	// EnvOpenAIBaseURL and EnvOpenAIKey are the OpenAI SDKs' variables,
	// used when the RolePrint ones are unset.
	EnvOpenAIBaseURL = "OPENAI_BASE_URL"
	EnvOpenAIKey     = "OPENAI_API_KEY"
)

// DefaultBaseURL is OpenAI's API root.
const DefaultBaseURL = "https://api.openai.com/v1"

// Config configures a Client. DefaultConfig gives the documented defaults;
// ConfigFromEnv fills it from the environment; RegisterFlags binds it to
// command-line flags. Start from one of those rather than a literal: New
// fills zero durations, BaseURL and MaxConcurrent with defaults, but a zero
// MaxRetries or JSONRetries means none.
type Config struct {
	// BaseURL is the API root ending in /v1; "chat/completions" is
	// joined to its path, and a query (?key=…) is kept. Default
	// DefaultBaseURL.
	BaseURL string
	// Model is the model name sent with every request (required).
	Model string
	// APIKey is sent as "Authorization: Bearer KEY" when not empty. Local
	// servers often need none.
	APIKey string
	// Temperature is used for requests that set none. Default 0, so
	// judges and distillation are as repeatable as the server allows.
	Temperature *float64
	// Timeout bounds one HTTP attempt (not the whole call with retries).
	// Default 120 s.
	Timeout time.Duration
	// MaxRetries is how many times a failed attempt is retried (so at most
	// MaxRetries+1 attempts). Default 6.
	MaxRetries int
	// MinBackoff and MaxBackoff bound the exponential backoff: before retry
	// n the client sleeps a uniformly random time in
	// [0, min(MaxBackoff, MinBackoff·2^n)] ("full jitter"). Defaults 1 s
	// and 60 s.
	MinBackoff, MaxBackoff time.Duration
	// MaxRetryAfter caps how long a server's Retry-After is waited for: a
	// reply that asks for longer fails at once with the server's message
	// (a quota that resets in an hour is not worth six waits). Default
	// 2 min.
	MaxRetryAfter time.Duration
	// JSONRetries is how many times ChatJSON asks again after a malformed
	// or invalid reply. Default 2.
	JSONRetries int
	// MaxConcurrent bounds the requests in flight. Default 4.
	MaxConcurrent int
	// CacheDir holds the on-disk cache; empty disables caching. Default
	// (ConfigFromEnv) $ROLEPRINT_LLM_CACHE, else "llm" in the RolePrint
	// cache folder; ROLEPRINT_LLM_CACHE=off disables it.
	CacheDir string
	// Refresh says which cached answers are asked again: RefreshNone
	// (default) replays every cached answer, RefreshFailed asks again
	// only where the cached reply fails validation (ChatJSON,
	// ChatChecked), RefreshAll skips reading the cache. New answers are
	// written in every mode.
	Refresh RefreshMode
	// HTTPClient is the client used; nil means a new http.Client.
	HTTPClient *http.Client
	// Header holds extra request headers (e.g. OpenAI-Organization).
	Header http.Header
	// Logf, when set, receives a line for each retry.
	Logf func(format string, args ...any)
}

// DefaultConfig returns the defaults documented on Config, without reading
// the environment (no model, no key, no cache).
func DefaultConfig() Config {
	return Config{
		BaseURL:       DefaultBaseURL,
		Temperature:   Float(0),
		Timeout:       120 * time.Second,
		MaxRetries:    6,
		MinBackoff:    time.Second,
		MaxBackoff:    60 * time.Second,
		MaxRetryAfter: 2 * time.Minute,
		JSONRetries:   2,
		MaxConcurrent: 4,
	}
}

// ConfigFromEnv returns DefaultConfig overridden by the environment
// variables listed in the package documentation. A malformed
// ROLEPRINT_LLM_TIMEOUT is an error.
func ConfigFromEnv() (Config, error) {
	c := DefaultConfig()
	if v := firstEnv(EnvBaseURL, EnvOpenAIBaseURL); v != "" {
		c.BaseURL = v
	}
	c.Model = os.Getenv(EnvModel)
	c.APIKey = firstEnv(EnvAPIKey, EnvOpenAIKey)
	switch v := os.Getenv(EnvCache); {
	case strings.EqualFold(v, "off") || strings.EqualFold(v, "none"):
		c.CacheDir = ""
	case v != "":
		c.CacheDir = v
	default:
		if p, err := assets.Path("llm"); err == nil {
			c.CacheDir = p
		}
	}
	if v := os.Getenv(EnvTimeout); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return c, fmt.Errorf("%s=%q: want a positive duration such as 90s", EnvTimeout, v)
		}
		c.Timeout = d
	}
	return c, nil
}

func firstEnv(names ...string) string {
	for _, n := range names {
		if v := os.Getenv(n); v != "" {
			return v
		}
	}
	return ""
}

// RegisterFlags adds the LLM flags to fs, with c's current values as
// defaults (call it on ConfigFromEnv's result so the environment shows
// through):
//
//	--llm-base-url URL   API root ending in /v1
//	--llm-model NAME     model name
//	--llm-key-env NAME   environment variable holding the API key
//	--llm-cache DIR      cache folder ("off" disables)
//	--llm-timeout D      timeout of one attempt
//	--llm-retries N      retries after a failed attempt
//	--llm-max-retry-after D  longest Retry-After waited for (longer: fail)
//	--llm-concurrency N  requests in flight
//	--llm-temperature T  sampling temperature
//	--llm-refresh[=all]  ask again where a cached reply fails validation
//	                     (=all: ignore every cached answer)
//
// The key is never a flag value (it would show in the process list); the
// returned function reads the variable --llm-key-env names and must be
// called after fs.Parse.
func (c *Config) RegisterFlags(fs *flag.FlagSet) (finish func() error) {
	keyEnv := ""
	if os.Getenv(EnvAPIKey) != "" {
		keyEnv = EnvAPIKey
	} else if os.Getenv(EnvOpenAIKey) != "" {
		keyEnv = EnvOpenAIKey
	}
	fs.StringVar(&c.BaseURL, "llm-base-url", c.BaseURL, "OpenAI-compatible API root ending in /v1 (env "+EnvBaseURL+")")
	fs.StringVar(&c.Model, "llm-model", c.Model, "model name (env "+EnvModel+")")
	fs.StringVar(&keyEnv, "llm-key-env", keyEnv, "environment variable that holds the API key (default "+EnvAPIKey+" or "+EnvOpenAIKey+")")
	cache := c.CacheDir
	if cache == "" {
		cache = "off"
	}
	fs.StringVar(&cache, "llm-cache", cache, "folder of the on-disk answer cache, or off (env "+EnvCache+")")
	fs.DurationVar(&c.Timeout, "llm-timeout", c.Timeout, "timeout of one HTTP attempt (env "+EnvTimeout+")")
	fs.IntVar(&c.MaxRetries, "llm-retries", c.MaxRetries, "retries after a failed attempt (429, 5xx, timeouts)")
	fs.DurationVar(&c.MaxRetryAfter, "llm-max-retry-after", c.MaxRetryAfter, "longest Retry-After (429/503) waited for; a server asking for longer fails the call with its message")
	fs.IntVar(&c.MaxConcurrent, "llm-concurrency", c.MaxConcurrent, "requests in flight at once")
	temp := 0.0
	if c.Temperature != nil {
		temp = *c.Temperature
	}
	fs.Float64Var(&temp, "llm-temperature", temp, "sampling temperature")
	fs.Var(&c.Refresh, "llm-refresh", "ask again for cached replies that fail validation; --llm-refresh=all ignores every cached answer (new answers are still cached)")
	return func() error {
		c.Temperature = Float(temp)
		if strings.EqualFold(cache, "off") || strings.EqualFold(cache, "none") {
			c.CacheDir = ""
		} else {
			c.CacheDir = cache
		}
		if keyEnv != "" {
			c.APIKey = os.Getenv(keyEnv)
			if c.APIKey == "" {
				return fmt.Errorf("--llm-key-env %s: that environment variable is empty", keyEnv)
			}
		}
		return nil
	}
}

// validate checks a Config and fills zero fields with defaults.
func (c *Config) validate() error {
	d := DefaultConfig()
	if c.BaseURL == "" {
		c.BaseURL = d.BaseURL
	}
	if !strings.HasPrefix(c.BaseURL, "http://") && !strings.HasPrefix(c.BaseURL, "https://") {
		return fmt.Errorf("llm: base URL %q: want http:// or https://", RedactURL(c.BaseURL))
	}
	if clean, key := splitUserinfo(c.BaseURL); key != "" || clean != c.BaseURL {
		// A key in the URL's userinfo is sent as the Bearer key (Go
		// would send it as Basic auth) and never shown.
		c.BaseURL = clean
		if c.APIKey == "" {
			c.APIKey = key
		}
	}
	if u, err := url.Parse(c.BaseURL); err == nil {
		// Trim the path, not the string: a query (?key=…) may follow it.
		u.Path = strings.TrimSuffix(strings.TrimRight(u.Path, "/"), "/chat/completions")
		u.RawPath = ""
		c.BaseURL = u.String()
	}
	if c.Model == "" {
		return fmt.Errorf("llm: no model: set --llm-model or %s", EnvModel)
	}
	if c.Timeout <= 0 {
		c.Timeout = d.Timeout
	}
	if c.MaxRetries < 0 {
		c.MaxRetries = 0
	}
	if c.MinBackoff <= 0 {
		c.MinBackoff = d.MinBackoff
	}
	if c.MaxBackoff < c.MinBackoff {
		c.MaxBackoff = max(c.MinBackoff, d.MaxBackoff)
	}
	if c.MaxRetryAfter <= 0 {
		c.MaxRetryAfter = d.MaxRetryAfter
	}
	if c.JSONRetries < 0 {
		c.JSONRetries = 0
	}
	if c.MaxConcurrent <= 0 {
		c.MaxConcurrent = d.MaxConcurrent
	}
	return nil
}

// RefreshMode selects the cached answers a client asks for again.
type RefreshMode string

// Refresh modes; see Config.Refresh.
const (
	RefreshNone   RefreshMode = ""
	RefreshFailed RefreshMode = "failed"
	RefreshAll    RefreshMode = "all"
)

// String returns the mode's flag spelling.
func (m *RefreshMode) String() string {
	if m == nil || *m == RefreshNone {
		return "false"
	}
	return string(*m)
}

// Set parses a flag value: true/failed, all, false/none.
func (m *RefreshMode) Set(v string) error {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "1", "failed", "yes":
		*m = RefreshFailed
	case "all":
		*m = RefreshAll
	case "false", "0", "none", "no", "":
		*m = RefreshNone
	default:
		return fmt.Errorf("want --llm-refresh (failed entries only), --llm-refresh=all or --llm-refresh=false, got %q", v)
	}
	return nil
}

// IsBoolFlag lets --llm-refresh stand alone (meaning failed).
func (m *RefreshMode) IsBoolFlag() bool { return true }
