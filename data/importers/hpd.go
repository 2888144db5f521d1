package importers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

func init() {
	Register("hpd", &FileFormat{
		Description: "Harry Potter Dialogue dataset (Chen et al. 2023) JSON ({\"Session-N\": {position, scene, speakers, " +
			"dialogue: [\"Name: text\", ...], positive_response, ...}}, e.g. en_test_set.json); source \"hpd\", " +
			"each session a conversation, speakers as the release labels them",
		Extensions: []string{".json"},
		Parameters: []Param{{Name: "responses", Default: "false",
			Doc: "also import each session's positive_response as Harry Potter's closing turn (the dataset's reference " +
				"replies, machine-translated in the English set, not lines of the books)"}},
		ReadFile: readHPD,
	})
}

const hpdExpect = `a JSON object of sessions {"Session-1": {"position": "Book1-chapter2", "scene": ..., "dialogue": ["Name: text", ...]}}`

// hpdSession is one session of the dataset; attributes, relations and
// negative responses are not read.
type hpdSession struct {
	Position         string   `json:"position"`
	Scene            string   `json:"scene"`
	Speakers         []string `json:"speakers"`
	Dialogue         []string `json:"dialogue"`
	PositiveResponse string   `json:"positive_response"`
}

// hpdRelationsKey starts the key of each session that names the
// character the dataset is built around ("relations with Harry"): the one
// who gives the sessions' positive_response.
const hpdRelationsKey = "relations with "

// readHPD reads one HPD file. Sessions are read in file order; each is a
// conversation named by its key ("Session-1"), with its position
// ("Book1-chapter2") as Episode and its scene description as Scene. A
// dialogue line "Name: text" is split at its first colon; the name is
// normalised like every speaker label (group labels such as "Harry and
// Ron" dropped as multiple_speakers, an empty name as no_speaker) and kept
// as the release writes it, as its sessions' "speakers" lists do ("Harry",
// "Ron"); a one-word label is merged into the one longer label of the
// file that starts with it ("Colin" into "Colin Creevey"), never by a
// list of known characters. Second spellings the release uses for one
// person ("Filth" for Filch) stay apart here; data.SpeakerAliases merges
// them when pairs are built. With responses, the positive_response is
// spoken by the character the session's "relations with NAME" key names.
// A line without a colon is an error naming the session.
func readHPD(ctx context.Context, path string, opts Options, c *Collector) error {
	enc, err := resolveEncoding(opts.Encoding, UTF8)
	if err != nil {
		return err
	}
	responses, err := strconv.ParseBool(opts.Param("responses", "false"))
	if err != nil {
		return Errorf(Pos{File: path}, "setting responses=%q: expected true or false", opts.Param("responses", ""))
	}
	doc, err := readText(path, enc, hpdExpect)
	if err != nil {
		return err
	}
	b := []byte(doc)
	source := opts.SourceOr("hpd")
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return Errorf(Pos{File: path, Line: 1}, "expected %s", hpdExpect)
	}
	type hpdLine struct {
		l     Line
		label string
	}
	var lines []hpdLine
	for dec.More() {
		if err := ctx.Err(); err != nil {
			return err
		}
		off := int(dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return jsonError(path, b, err, hpdExpect)
		}
		key, _ := tok.(string)
		if strings.TrimSpace(key) == "" {
			return Errorf(Pos{File: path, Line: lineAt(b, off+1)}, "a session with an empty name; expected %s", hpdExpect)
		}
		var raw map[string]json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return jsonError(path, b, err, hpdExpect)
		}
		pos := Pos{File: path, Line: lineAt(b, off+1)}
		var s hpdSession
		if err := hpdFields(raw, &s); err != nil {
			return Errorf(pos, "session %q: %v; expected %s", key, err, hpdExpect)
		}
		if s.Dialogue == nil {
			return Errorf(pos, "session %q has no \"dialogue\" list; expected %s", key, hpdExpect)
		}
		for i, r := range s.Dialogue {
			name, text, ok := strings.Cut(r, ":")
			if !ok {
				return Errorf(hpdLinePos(b, off, r, pos), "session %q, dialogue line %d %q: expected \"Name: text\"", key, i+1, clip(r, 60))
			}
			lines = append(lines, hpdLine{Line{Source: source, ConversationID: key, Episode: s.Position, Scene: s.Scene, Text: text, Pos: pos}, name})
		}
		if responses && strings.TrimSpace(s.PositiveResponse) != "" {
			responder := ""
			for k := range raw {
				if strings.HasPrefix(k, hpdRelationsKey) {
					responder = strings.TrimSpace(strings.TrimPrefix(k, hpdRelationsKey))
				}
			}
			if responder == "" {
				return Errorf(pos, "session %q has a positive_response but no %q key naming who gives it; expected %s", key, hpdRelationsKey+"NAME", hpdExpect)
			}
			lines = append(lines, hpdLine{Line{Source: source, ConversationID: key, Episode: s.Position, Scene: s.Scene,
				Text: s.PositiveResponse, Pos: pos}, responder})
		}
	}
	if _, err := dec.Token(); err != nil && !errors.Is(err, io.EOF) {
		return jsonError(path, b, err, hpdExpect)
	}
	// One-word labels that start exactly one longer label of the file.
	labels := map[string]bool{}
	for _, l := range lines {
		if name, reason := normalizeSpeaker(l.label); reason == "" {
			labels[name] = true
		}
	}
	longer := map[string]string{} // one-word label → its longer label, "" when several
	for name := range labels {
		first, _, more := strings.Cut(name, " ")
		if !more || !labels[first] {
			continue
		}
		if _, seen := longer[first]; seen {
			longer[first] = ""
		} else {
			longer[first] = name
		}
	}
	for _, l := range lines {
		name, reason := normalizeSpeaker(l.label)
		if reason != "" {
			c.Drop(l.l, reason)
			continue
		}
		if full := longer[name]; full != "" {
			name = full
		}
		l.l.Speaker = name
		l.l.SpeakerIsID = true
		c.Add(l.l)
	}
	return nil
}

// hpdFields fills s from a session's JSON fields.
func hpdFields(raw map[string]json.RawMessage, s *hpdSession) error {
	for k, dst := range map[string]any{"position": &s.Position, "scene": &s.Scene, "speakers": &s.Speakers,
		"dialogue": &s.Dialogue, "positive_response": &s.PositiveResponse} {
		if v, ok := raw[k]; ok && string(v) != "null" {
			if err := json.Unmarshal(v, dst); err != nil {
				return fmt.Errorf("field %q: %v", k, err)
			}
		}
	}
	return nil
}

// hpdLinePos locates a dialogue string of the session starting at byte
// off: the line where its JSON form first occurs after off, or the
// session's position when the file spells it otherwise (other escapes).
func hpdLinePos(b []byte, off int, s string, session Pos) Pos {
	var q bytes.Buffer
	enc := json.NewEncoder(&q)
	enc.SetEscapeHTML(false)
	if enc.Encode(s) != nil {
		return session
	}
	if i := bytes.Index(b[off:], bytes.TrimSpace(q.Bytes())); i >= 0 {
		return Pos{File: session.File, Line: lineAt(b, off+i)}
	}
	return session
}

// clip shortens s to at most n runes for a message.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
