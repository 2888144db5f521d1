package selfplay

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/roleprint/roleprint/internal/fsx"
	"github.com/roleprint/roleprint/llm"
)

// Manifest records how a generated corpus was made; it is written beside
// the output (OUT.manifest.json).
type Manifest struct {
	// Mode is "selfplay" or "interview".
	Mode string `json:"mode"`
	// Created is when the run finished (UTC).
	Created time.Time `json:"created"`
	// Output and Journal are the files written.
	Output  string `json:"output"`
	Journal string `json:"journal"`
	// Endpoint is the server and model, credentials redacted.
	Endpoint llm.Endpoint `json:"endpoint"`
	// Config is the resolved configuration: seeds, sampling settings
	// (temperature, top_p, max_tokens), templates, turn limits.
	Config Config `json:"config"`
	// Roles lists every role with the SHA-256 of its prompt and the text.
	Roles []RolePrompt `json:"roles"`
	// Questions are the interview questions.
	Questions []Question `json:"questions,omitempty"`
	// Scenes, Rows, Requests and Replayed count the output and the
	// requests paid in the last run and replayed from the journal.
	Scenes   []SceneResult `json:"scenes"`
	Rows     int           `json:"rows"`
	Requests int64         `json:"requests"`
	Replayed int64         `json:"replayed"`
	// PromptTokens and CompletionTokens add up the last run's usage.
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	// Ends counts scenes by how they ended (marker, empty, max_turns,
	// answered).
	Ends map[string]int `json:"ends"`
	// CutReplies counts replies cut at max_tokens over all scenes.
	CutReplies int `json:"cut_replies"`
}

// RolePrompt is a role's prompt in the manifest.
type RolePrompt struct {
	// Name and Source are the role's.
	Name   string `json:"name"`
	Source string `json:"source"`
	// SHA256 is the hex SHA-256 of Prompt, to compare runs at a glance.
	SHA256 string `json:"sha256"`
	// Prompt is the persona prompt as sent (before the scene instruction).
	Prompt string `json:"prompt"`
}

// NewManifest fills a manifest from a finished run.
func NewManifest(mode string, cfg Config, ep llm.Endpoint, roles []Role, questions []Question, res *Result) Manifest {
	cfg.fill(mode == "interview")
	m := Manifest{Mode: mode, Created: time.Now().UTC(), Endpoint: ep, Config: cfg, Questions: questions, Ends: map[string]int{}}
	for _, r := range roles {
		h := sha256.Sum256([]byte(r.Prompt))
		m.Roles = append(m.Roles, RolePrompt{Name: r.Name, Source: r.Source, SHA256: hex.EncodeToString(h[:]), Prompt: r.Prompt})
	}
	if res != nil {
		m.Scenes, m.Rows, m.Requests, m.Replayed = res.Scenes, len(res.Rows), res.Requests, res.Replayed
		m.PromptTokens, m.CompletionTokens = res.PromptTokens, res.CompletionTokens
		for _, s := range res.Scenes {
			m.Ends[s.End]++
			m.CutReplies += s.CutReplies
		}
	}
	return m
}

// WriteManifest writes m as indented JSON, atomically.
func WriteManifest(path string, m Manifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("manifest: %w", err)
	}
	return fsx.WriteFileAll(path, append(b, '\n'), 0o644)
}

// SidePath returns OUT's companion file: out with its extension replaced
// by suffix ("gen.parquet", ".manifest.json" → "gen.manifest.json").
func SidePath(out, suffix string) string {
	if i := strings.LastIndexByte(out, '.'); i > strings.LastIndexByte(out, '/') {
		out = out[:i]
	}
	return out + suffix
}
