package distill

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/roleprint/roleprint/llm"
	"github.com/roleprint/roleprint/persona/script"
)

// PromptVersion enters the llm backend's fingerprint; bump it whenever a
// prompt below changes.
const PromptVersion = "llm-prompts/v1"

// LLM is the language-model backend. Statistics that need no model
// (style numbers, co-occurrence counts, keywords) come from an embedded
// Extractive backend; judgements come from the model, as JSON with the
// rationale first.
type LLM struct {
	client *llm.Client
	ext    *Extractive
}

// NewLLM returns the llm backend over client.
func NewLLM(client *llm.Client) *LLM { return &LLM{client: client, ext: NewExtractive()} }

// Name returns "llm".
func (l *LLM) Name() string { return "llm" }

// Fingerprint is PromptVersion, the model and the temperature.
func (l *LLM) Fingerprint() string {
	t := "default"
	if c := l.client.Config(); c.Temperature != nil {
		t = fmt.Sprint(*c.Temperature)
	}
	return fmt.Sprintf("%s/%s/t=%s", PromptVersion, l.client.Model(), t)
}

// Extractive returns false.
func (l *LLM) Extractive() bool { return false }

// Prepare prepares the embedded extractive statistics.
func (l *LLM) Prepare(ctx context.Context, c *Corpus) error { return l.ext.Prepare(ctx, c) }

const systemDistill = "You help build character personas from a script for role-play research. " +
	"You answer with exactly one JSON object in the format asked for, and nothing else."

func (l *LLM) ask(ctx context.Context, task, user string, out any, validate func() error) error {
	req := llm.Request{Messages: []llm.Message{
		llm.System(systemDistill + " Task: " + task + "."),
		llm.User(user),
	}}
	_, err := l.client.ChatJSON(ctx, req, out, validate)
	if err != nil {
		return fmt.Errorf("%s: %w", task, err)
	}
	return nil
}

func nonEmpty(field, v string) error {
	if strings.TrimSpace(v) == "" {
		return fmt.Errorf("%q is empty", field)
	}
	return nil
}

// Event asks for a summary of the chunk and its participants.
func (l *LLM) Event(ctx context.Context, ch script.Chunk, known []string) (Event, error) {
	base, err := l.ext.Event(ctx, ch, known)
	if err != nil {
		return base, err
	}
	var out struct {
		Summary    string   `json:"summary"`
		Characters []string `json:"characters"`
	}
	user := fmt.Sprintf(`Summarise what happens in this part of a scene (part %d of %d) in two or three sentences, naming who does what, and list the characters who take part.

%s
Reply with JSON: {"summary": "...", "characters": ["Name", ...]}`, ch.Index+1, ch.Of, ch.Text())
	err = l.ask(ctx, "event-summary", user, &out, func() error { return nonEmpty("summary", out.Summary) })
	if err != nil {
		return base, err
	}
	base.Summary = strings.TrimSpace(out.Summary)
	base.Characters = participants(base.Speakers, out.Characters, known)
	base.Backend = l.Name()
	return base, nil
}

func eventList(events []Event) string {
	var b strings.Builder
	for i, e := range events {
		fmt.Fprintf(&b, "%d. %s\n", i+1, e.Summary)
	}
	return b.String()
}

func lineList(character string, lines []string) string {
	var b strings.Builder
	for _, s := range lines {
		fmt.Fprintf(&b, "%s: %s\n", character, s)
	}
	return b.String()
}

// Personality asks for traits and a description, rationale first.
func (l *LLM) Personality(ctx context.Context, character string, events []Event, lines []string) (Personality, error) {
	p, err := l.ext.Personality(ctx, character, events, lines)
	if err != nil {
		return p, err
	}
	var out struct {
		Rationale   string   `json:"rationale"`
		Traits      []string `json:"traits"`
		Description string   `json:"description"`
	}
	user := fmt.Sprintf(`Describe the personality of %s from the events below and some of their lines. First reason about the evidence, then answer.

Events involving %s:
%s
Some of %s's lines:
%s
Reply with JSON: {"rationale": "your reasoning", "traits": ["3 to 8 adjectives"], "description": "one paragraph about %s's personality"}`,
		character, character, eventList(events), character, lineList(character, sample(lines, 40)), character)
	err = l.ask(ctx, "personality", user, &out, func() error {
		if len(out.Traits) == 0 || len(out.Traits) > 12 {
			return fmt.Errorf("want 3 to 8 traits, got %d", len(out.Traits))
		}
		return nonEmpty("description", out.Description)
	})
	if err != nil {
		return p, err
	}
	p.Traits, p.Rationale, p.Description, p.Backend = out.Traits, out.Rationale, out.Description, l.Name()
	return p, nil
}

var sentiments = map[string]bool{"positive": true, "negative": true, "mixed": true, "neutral": true}

// Relationship asks how the pair relate, rationale first.
func (l *LLM) Relationship(ctx context.Context, a, b string, shared []Event, c *Corpus) (Relationship, error) {
	r, err := l.ext.Relationship(ctx, a, b, shared, c)
	if err != nil {
		return r, err
	}
	var out struct {
		Rationale    string `json:"rationale"`
		Relationship string `json:"relationship"`
		Sentiment    string `json:"sentiment"`
	}
	user := fmt.Sprintf(`Describe the relationship between %s and %s from the events they share. First reason about the evidence, then answer.

Shared events:
%s
Reply with JSON: {"rationale": "your reasoning", "relationship": "one paragraph", "sentiment": "positive|negative|mixed|neutral"}`, a, b, eventList(shared))
	err = l.ask(ctx, "relationship", user, &out, func() error {
		out.Sentiment = strings.ToLower(strings.TrimSpace(out.Sentiment))
		if !sentiments[out.Sentiment] {
			return fmt.Errorf("sentiment %q is not positive, negative, mixed or neutral", out.Sentiment)
		}
		return nonEmpty("relationship", out.Relationship)
	})
	if err != nil {
		return r, err
	}
	r.Rationale, r.Description, r.Sentiment, r.Backend = out.Rationale, out.Relationship, out.Sentiment, l.Name()
	return r, nil
}

// Style asks for a description of how the character speaks, given the
// measured statistics and a sample of lines.
func (l *LLM) Style(ctx context.Context, character string, lines []string) (Style, error) {
	s, err := l.ext.Style(ctx, character, lines)
	if err != nil {
		return s, err
	}
	stats, _ := json.Marshal(s.Stats)
	var out struct {
		Description  string   `json:"description"`
		Catchphrases []string `json:"catchphrases"`
	}
	user := fmt.Sprintf(`Describe the linguistic style of %s: vocabulary, sentence length and structure, register, humour, verbal habits and catchphrases.

Measured statistics of all %d lines: %s
Characteristic phrases found by statistics: %s
Some of %s's lines:
%s
Reply with JSON: {"description": "one paragraph", "catchphrases": ["..."]}`,
		character, len(lines), stats, quoteList(s.Phrases), character, lineList(character, sample(lines, 60)))
	err = l.ask(ctx, "linguistic-style", user, &out, func() error { return nonEmpty("description", out.Description) })
	if err != nil {
		return s, err
	}
	s.Description, s.Backend = out.Description, l.Name()
	if len(out.Catchphrases) > 0 {
		s.Catchphrases = out.Catchphrases
	}
	return s, nil
}

// Prompt asks for the second-person role-play prompt.
func (l *LLM) Prompt(ctx context.Context, p Profile) (Persona, error) {
	c := p.Personality.Character
	var rel strings.Builder
	for _, r := range p.Relationships {
		fmt.Fprintf(&rel, "- %s and %s (%s): %s\n", r.A, r.B, r.Sentiment, r.Description)
	}
	var out struct {
		Prompt string `json:"prompt"`
	}
	covers, acoustic := "personality, relationships, linguistic style and a few key events", ""
	if p.Acoustic != "" {
		covers = "personality, relationships, linguistic style, acoustic characteristics (how the voice sounds) and a few key events"
		acoustic = "Acoustic characteristics (measured on the character's recordings): " + p.Acoustic + "\n"
	}
	user := fmt.Sprintf(`Write a role-play system prompt that makes a model speak as %s. Write it in the second person ("You are %s. You ..."), covering %s, and ending with an instruction to stay in character.

Personality (%s): %s
Relationships:
%s
Linguistic style: %s
%sKey events:
%s
Reply with JSON: {"prompt": "..."}`,
		c, c, covers, strings.Join(p.Personality.Traits, ", "), p.Personality.Description, rel.String(), p.Style.Description, acoustic, eventList(p.Events))
	err := l.ask(ctx, "role-prompt", user, &out, func() error {
		if err := nonEmpty("prompt", out.Prompt); err != nil {
			return err
		}
		if !strings.Contains(strings.ToLower(out.Prompt), "you") {
			return fmt.Errorf("the prompt is not in the second person (no \"you\")")
		}
		return nil
	})
	if err != nil {
		return Persona{}, err
	}
	return Persona{Character: c, Prompt: strings.TrimSpace(out.Prompt), Backend: l.Name()}, nil
}
