package llm

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
)

// Part is one piece of a multi-part message: text or audio. OpenAI's chat
// API (and vLLM, LiteLLM and other servers that accept audio) take
// content as a list of such parts; a message with Parts is sent that way,
// one without as a plain string.
type Part struct {
	// Type is "text" or "input_audio".
	Type string `json:"type"`
	// Text is the text of a "text" part.
	Text string `json:"text,omitempty"`
	// InputAudio is the audio of an "input_audio" part.
	InputAudio *InputAudio `json:"input_audio,omitempty"`
}

// InputAudio is base64-encoded audio in an "input_audio" part.
type InputAudio struct {
	// Data is the base64 (standard alphabet) encoding of the file bytes.
	Data string `json:"data"`
	// Format is the container, "wav" or "mp3".
	Format string `json:"format"`
}

// TextPart returns a text part.
func TextPart(s string) Part { return Part{Type: "text", Text: s} }

// AudioPart returns an input_audio part holding the bytes of an audio
// file of the given format ("wav", "mp3").
func AudioPart(file []byte, format string) Part {
	return Part{Type: "input_audio", InputAudio: &InputAudio{Data: base64.StdEncoding.EncodeToString(file), Format: format}}
}

// UserParts returns a user message made of parts. Its Content is the
// text of the text parts, for logs and for code that reads only text.
func UserParts(parts ...Part) Message {
	m := Message{Role: "user", Parts: parts}
	m.Content = m.text()
	return m
}

// HasAudio reports whether the message carries an input_audio part.
func (m Message) HasAudio() bool {
	for _, p := range m.Parts {
		if p.Type == "input_audio" {
			return true
		}
	}
	return false
}

// text joins the text parts with blank lines.
func (m Message) text() string {
	var ts []string
	for _, p := range m.Parts {
		if p.Type == "text" {
			ts = append(ts, p.Text)
		}
	}
	return strings.Join(ts, "\n\n")
}

// wireMessage is a message on the wire: content is a string or a list of
// parts.
type wireMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// MarshalJSON writes content as a string, or as a list of parts when the
// message has Parts.
func (m Message) MarshalJSON() ([]byte, error) {
	var content []byte
	var err error
	if len(m.Parts) > 0 {
		content, err = json.Marshal(m.Parts)
	} else {
		content, err = json.Marshal(m.Content)
	}
	if err != nil {
		return nil, err
	}
	return json.Marshal(wireMessage{Role: m.Role, Content: content})
}

// UnmarshalJSON reads content given as a string or as a list of parts
// (then Content is the text of the text parts).
func (m *Message) UnmarshalJSON(b []byte) error {
	var w wireMessage
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*m = Message{Role: w.Role}
	c := strings.TrimSpace(string(w.Content))
	switch {
	case c == "" || c == "null":
	case c[0] == '"':
		return json.Unmarshal(w.Content, &m.Content)
	case c[0] == '[':
		if err := json.Unmarshal(w.Content, &m.Parts); err != nil {
			return fmt.Errorf("message content parts: %w", err)
		}
		m.Content = m.text()
	default:
		return fmt.Errorf("message content: want a string or a list of parts, got %.20s", c)
	}
	return nil
}
