// Package llm is RolePrint's one LLM/HTTP layer: a small client for
// OpenAI-compatible servers (OpenAI, vLLM, llama.cpp's server, Ollama's
// /v1, LiteLLM, ...) for chat completions (Client), transcription
// (Transcribe) and speech (Speak), and the prompt template sets (Prompts)
// of the judges and the LLM verifier. persona and speech/frontend use it;
// it imports neither.
//
// It is written by hand over net/http rather than on an HTTP retry
// library: none is in go.mod, and the rules here are specific to these
// APIs (which statuses and reply errors are worth a retry, Retry-After
// and retry-after-ms with a cap that fails instead of waiting, a cache
// that stores only replies that pass validation, redaction of keys in
// userinfo, query and headers).
//
// It is built for long evaluation runs that must not pay twice:
//
//   - Config comes from code, from flags (Config.RegisterFlags) or from the
//     environment (ConfigFromEnv): ROLEPRINT_LLM_BASE_URL (or
//     OPENAI_BASE_URL), ROLEPRINT_LLM_MODEL, ROLEPRINT_LLM_API_KEY (or
//     OPENAI_API_KEY), ROLEPRINT_LLM_CACHE, ROLEPRINT_LLM_TIMEOUT.
//   - Every attempt has its own timeout; 408, 409, 429, 5xx replies,
//     timeouts, dropped connections and unreadable reply bodies are retried
//     with exponential backoff and full jitter, honouring Retry-After (and
//     retry-after-ms) up to Config.MaxRetryAfter; a server that asks for
//     longer fails the call with its message. Other statuses fail at once
//     with the server's message.
//   - Reply bodies are capped: a chat reply by the request's max_tokens
//     (ReplyBytesPerToken per token plus ReplyEnvelopeBytes, MaxReplyBytes
//     without max_tokens), transcripts and speech by MaxTranscriptBytes and
//     MaxSpeechBytes; a larger body is ErrReplyTooLarge, not retried.
//   - Successful replies are stored in an on-disk cache keyed by a SHA-256
//     of the request (model, messages, temperature, top_p, max_tokens,
//     seed, stop, response_format and an optional CacheTag). Each entry is
//     written to a temporary file and renamed into place, so an
//     interrupted run resumes from the answers it already paid for and a
//     crash never leaves a half-written entry.
//   - ChatJSON caches only replies that pass validation (a reply cut at
//     the token limit never does); a cached reply that fails validation is
//     reported with its file, and Config.Refresh = RefreshFailed
//     (--llm-refresh) asks again for such entries only, RefreshAll
//     (--llm-refresh=all) for every request.
//   - Credentials never appear in errors, log lines, manifests or cache
//     entries: a key in the base URL's userinfo is sent as the Bearer key
//     and dropped from the URL; a key in its query stays there (endpoint
//     paths are joined to the URL's path with url.JoinPath, the query
//     kept); RedactURL, RedactHeader and RedactText clean what is printed,
//     including the values of credential-like query parameters
//     (SecretParam) and the URL inside a wrapped *url.Error;
//     Config.Endpoint is the manifest-safe view.
//   - Messages can carry text and input_audio parts (UserParts,
//     AudioPart) for models that listen.
//   - Cancelling the context stops a request and any backoff sleep at once.
//   - ChatJSON asks for a JSON object, parses it strictly and, when the
//     reply is malformed or fails validation, asks again naming the error.
//
// Client is safe for concurrent use; Config.MaxConcurrent bounds the
// requests in flight. Package llm/llmtest has a loopback fake server that
// behaves like the API (including 429s, 5xx, slow replies and malformed
// bodies) for tests.
package llm
