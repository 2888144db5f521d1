package importers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/roleprint/roleprint/data"
)

func init() {
	Register("hpd", &FileFormat{
		Description: "Harry Potter Dialogue dataset (Chen et al. 2023) JSON ({\"Session-N\": {position, scene, speakers, " +
			"dialogue: [\"Name: text\", ...], positive_response, ...}}, e.g. en_test_set.json); source \"hpd\", " +
			"each session a conversation, speakers under their full names (Harry → Harry Potter)",
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

// hpdResponder is who speaks the sessions' positive_response: the dataset
// is built to align agents with Harry.
const hpdResponder = "Harry Potter"

// readHPD reads one HPD file. Sessions are read in file order; each is a
// conversation named by its key ("Session-1"), with its position
// ("Book1-chapter2") as Episode and its scene description as Scene. A
// dialogue line "Name: text" is split at its first colon; the name is
// normalised like every speaker label (group labels such as "Harry and
// Ron" dropped as multiple_speakers, an empty name as no_speaker) and then
// given its full name from data.CharacterAliasGroups, the merging the
// dataset's paper applies (Harry → Harry Potter, Ron → Ron Weasley,
// Hermione → Hermione Granger), which also merges the set's misspelled
// labels ("Filth" for Filch, "Ollivanders"). A label the table does not
// list ("Classmate 1", "Weasley", said by both Mr. and Mrs. Weasley) is
// kept as written. A line without a colon is an error naming the session.
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
		var s hpdSession
		if err := dec.Decode(&s); err != nil {
			return jsonError(path, b, err, hpdExpect)
		}
		pos := Pos{File: path, Line: lineAt(b, off+1)}
		if s.Dialogue == nil {
			return Errorf(pos, "session %q has no \"dialogue\" list; expected %s", key, hpdExpect)
		}
		for i, raw := range s.Dialogue {
			name, text, ok := strings.Cut(raw, ":")
			if !ok {
				return Errorf(hpdLinePos(b, off, raw, pos), "session %q, dialogue line %d %q: expected \"Name: text\"", key, i+1, clip(raw, 60))
			}
			hpdAdd(c, Line{Source: source, ConversationID: key, Episode: s.Position, Scene: s.Scene, Text: text, Pos: pos}, name)
		}
		if responses && strings.TrimSpace(s.PositiveResponse) != "" {
			hpdAdd(c, Line{Source: source, ConversationID: key, Episode: s.Position, Scene: s.Scene,
				Text: s.PositiveResponse, Pos: pos}, hpdResponder)
		}
	}
	if _, err := dec.Token(); err != nil && !errors.Is(err, io.EOF) {
		return jsonError(path, b, err, hpdExpect)
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

// hpdAdd normalises a speaker label, gives it its full name and adds the
// line, or drops it for the label's reason.
func hpdAdd(c *Collector, l Line, label string) {
	name, reason := normalizeSpeaker(label)
	if reason != "" {
		c.Drop(l, reason)
		return
	}
	l.Speaker, _ = data.FullCharacterName(name)
	l.SpeakerIsID = true
	c.Add(l)
}

// clip shortens s to at most n runes for a message.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
