package script

import (
	"fmt"
	"sort"
	"strings"

	"github.com/roleprint/roleprint/data"
)

// Narrator is the speaker of narration lines (action, stage directions).
const Narrator = "NARRATOR"

// Line is one speaker line or one narration paragraph.
type Line struct {
	// Speaker is the normalised speaker name, or Narrator.
	Speaker string `json:"speaker"`
	// Text is the spoken text (stage directions removed) or the narration.
	Text string `json:"text"`
	// SourceLine is the 1-based line of the input where it starts (0 when
	// the line came from a corpus row).
	SourceLine int `json:"source_line,omitempty"`
}

// IsNarration reports whether the line is narration.
func (l Line) IsNarration() bool { return l.Speaker == Narrator }

// Scene is a run of lines under one heading (or one corpus conversation).
type Scene struct {
	// ID identifies the scene within its script: "NAME/003", or the
	// conversation id for corpus rows.
	ID string `json:"id"`
	// Source is the corpus or file the scene comes from.
	Source string `json:"source"`
	// Episode is optional episode metadata.
	Episode string `json:"episode,omitempty"`
	// Heading is the scene heading text without its "Scene:" marker.
	Heading string `json:"heading,omitempty"`
	// Lines are the scene's lines in order.
	Lines []Line `json:"lines"`
}

// Script is a parsed script or corpus: scenes in order.
type Script struct {
	// Name is the file or corpus name.
	Name string `json:"name"`
	// Scenes are the scenes in order.
	Scenes []Scene `json:"scenes"`
}

// SpeakerCount is a speaker and how many lines it has.
type SpeakerCount struct {
	Speaker string `json:"speaker"`
	Lines   int    `json:"lines"`
	Words   int    `json:"words"`
}

// Speakers returns the speakers (narration excluded) with at least
// minLines lines, most lines first, ties by name.
func (s *Script) Speakers(minLines int) []SpeakerCount {
	m := map[string]*SpeakerCount{}
	for _, sc := range s.Scenes {
		for _, l := range sc.Lines {
			if l.IsNarration() {
				continue
			}
			c := m[l.Speaker]
			if c == nil {
				c = &SpeakerCount{Speaker: l.Speaker}
				m[l.Speaker] = c
			}
			c.Lines++
			c.Words += len(strings.Fields(l.Text))
		}
	}
	var out []SpeakerCount
	for _, c := range m {
		if c.Lines >= minLines {
			out = append(out, *c)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Lines != out[j].Lines {
			return out[i].Lines > out[j].Lines
		}
		return out[i].Speaker < out[j].Speaker
	})
	return out
}

// NumLines counts all lines (narration included).
func (s *Script) NumLines() int {
	n := 0
	for _, sc := range s.Scenes {
		n += len(sc.Lines)
	}
	return n
}

// Append adds other's scenes after s's.
func (s *Script) Append(other *Script) {
	s.Scenes = append(s.Scenes, other.Scenes...)
}

// FromUtterances groups corpus rows into scenes: one scene per (Source,
// ConversationID), in order of first appearance, lines ordered by Turn.
// Rows carry no narration, so the scenes have none either.
func FromUtterances(name string, utts []data.Utterance) *Script {
	type key struct{ src, conv string }
	idx := map[key]int{}
	s := &Script{Name: name}
	type row struct {
		turn int32
		line Line
	}
	var rows [][]row
	for _, u := range utts {
		k := key{u.Source, u.ConversationID}
		i, ok := idx[k]
		if !ok {
			i = len(s.Scenes)
			idx[k] = i
			id := u.ConversationID
			if u.Source != "" {
				id = u.Source + "/" + u.ConversationID
			}
			s.Scenes = append(s.Scenes, Scene{ID: id, Source: u.Source, Episode: u.Episode, Heading: u.Scene})
			rows = append(rows, nil)
		}
		rows[i] = append(rows[i], row{u.Turn, Line{Speaker: u.Speaker, Text: strings.TrimSpace(u.Text)}})
	}
	for i := range s.Scenes {
		r := rows[i]
		sort.SliceStable(r, func(a, b int) bool { return r[a].turn < r[b].turn })
		for _, x := range r {
			s.Scenes[i].Lines = append(s.Scenes[i].Lines, x.line)
		}
	}
	return s
}

// Utterances converts the script back to corpus rows, one conversation
// per scene; narration is left out unless withNarration.
func (s *Script) Utterances(source string, withNarration bool) []data.Utterance {
	var out []data.Utterance
	for _, sc := range s.Scenes {
		src := sc.Source
		if source != "" {
			src = source
		}
		turn := int32(0)
		for _, l := range sc.Lines {
			if l.IsNarration() && !withNarration {
				continue
			}
			out = append(out, data.Utterance{Source: src, ConversationID: sc.ID, Episode: sc.Episode, Scene: sc.Heading, Turn: turn, Speaker: l.Speaker, Text: l.Text})
			turn++
		}
	}
	return out
}

// String summarises the script for logs.
func (s *Script) String() string {
	return fmt.Sprintf("%s: %d scenes, %d lines, %d speakers", s.Name, len(s.Scenes), s.NumLines(), len(s.Speakers(1)))
}
