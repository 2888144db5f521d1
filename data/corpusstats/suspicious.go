package corpusstats

import (
	"cmp"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/importers"
)

// DefaultSuspiciousExamples is how many examples each check lists.
const DefaultSuspiciousExamples = 5

// Suspicious counts content of a corpus that is likely an import defect:
// text checks count rows, speaker checks count distinct (source, speaker)
// pairs. A clean corpus has every count at zero.
type Suspicious struct {
	// Mojibake counts texts holding UTF-8 read as Windows-1252 ("Ã©").
	Mojibake TextFinding `json:"mojibake"`
	// ReplacementChar counts texts holding U+FFFD, a byte lost in decoding.
	ReplacementChar TextFinding `json:"replacement_char"`
	// EmptyText counts texts that are empty or white space only.
	EmptyText TextFinding `json:"empty_text"`
	// ControlChars counts texts holding control characters other than
	// tab and line ends (C0, DEL, C1).
	ControlChars TextFinding `json:"control_chars"`
	// InvalidRows counts rows that fail data.Utterance.Validate for
	// another reason than an empty text (a missing source, conversation
	// or speaker, a negative turn, a reversed time span); Problem says
	// which.
	InvalidRows TextFinding `json:"invalid_rows"`
	// IDSpeakers counts speakers named by a number or an opaque ID
	// ("50997", "a3f9c2e1"), not a name.
	IDSpeakers SpeakerFinding `json:"id_speakers"`
	// GroupSpeakers counts speakers that name a group ("Students",
	// "Ghosts", "All", "Everyone", "Both").
	GroupSpeakers SpeakerFinding `json:"group_speakers"`
	// Total is the sum of the seven counts.
	Total int `json:"total"`
}

// TextFinding is one text check: how many rows and a few of them.
type TextFinding struct {
	// Rows is how many rows the check flags.
	Rows int `json:"rows"`
	// Examples lists the first flagged rows.
	Examples []RowExample `json:"examples"`
}

// RowExample is one flagged row.
type RowExample struct {
	// File is the corpus file; Row the 0-based row within it.
	File string `json:"file"`
	Row  int    `json:"row"`
	// Source and Speaker place the row.
	Source  string `json:"source"`
	Speaker string `json:"speaker"`
	// Text is the row's text, cut to 80 characters.
	Text string `json:"text"`
	// Problem is what Validate says, for InvalidRows.
	Problem string `json:"problem,omitempty"`
}

// SpeakerFinding is one speaker check.
type SpeakerFinding struct {
	// Speakers is how many (source, speaker) pairs the check flags.
	Speakers int `json:"speakers"`
	// Rows is how many rows those speakers have.
	Rows int `json:"rows"`
	// Examples lists flagged speakers, most rows first.
	Examples []SpeakerExample `json:"examples"`
}

// SpeakerExample is one flagged speaker.
type SpeakerExample struct {
	Speaker    string `json:"speaker"`
	Source     string `json:"source"`
	Utterances int    `json:"utterances"`
	// File and Row name the speaker's first row.
	File string `json:"file"`
	Row  int    `json:"row"`
}

// SuspiciousScanner gathers Suspicious row by row.
type SuspiciousScanner struct {
	examples int
	s        Suspicious
	speakers map[key]*speakerSeen
}

type speakerSeen struct {
	first      SpeakerExample
	id, group  bool
	utterances int
}

// NewSuspiciousScanner returns an empty scanner listing up to examples
// examples per check (DefaultSuspiciousExamples when examples ≤ 0).
func NewSuspiciousScanner(examples int) *SuspiciousScanner {
	if examples <= 0 {
		examples = DefaultSuspiciousExamples
	}
	return &SuspiciousScanner{examples: examples, speakers: map[key]*speakerSeen{}}
}

// Add checks row (0-based) of file.
func (sc *SuspiciousScanner) Add(file string, row int, u *data.Utterance) {
	ex := func() RowExample {
		t := u.Text
		if utf8.RuneCountInString(t) > 80 {
			t = string([]rune(t)[:80]) + "…"
		}
		return RowExample{File: file, Row: row, Source: u.Source, Speaker: u.Speaker, Text: t}
	}
	empty := strings.TrimSpace(u.Text) == ""
	var problem string
	if err := u.Validate(); err != nil && !empty {
		problem = err.Error()
	}
	for _, c := range []struct {
		f    *TextFinding
		flag bool
	}{
		{&sc.s.Mojibake, importers.HasMojibake(u.Text)},
		{&sc.s.ReplacementChar, strings.ContainsRune(u.Text, utf8.RuneError)},
		{&sc.s.EmptyText, empty},
		{&sc.s.ControlChars, hasControl(u.Text)},
		{&sc.s.InvalidRows, problem != ""},
	} {
		if c.flag {
			c.f.Rows++
			if len(c.f.Examples) < sc.examples {
				e := ex()
				if c.f == &sc.s.InvalidRows {
					e.Problem = problem
				}
				c.f.Examples = append(c.f.Examples, e)
			}
		}
	}
	k := key{u.Source, u.Speaker}
	seen := sc.speakers[k]
	if seen == nil {
		seen = &speakerSeen{first: SpeakerExample{Speaker: u.Speaker, Source: u.Source, File: file, Row: row},
			id: LooksLikeID(u.Speaker), group: LooksLikeGroup(u.Speaker)}
		sc.speakers[k] = seen
	}
	seen.utterances++
}

// Result returns the findings so far.
func (sc *SuspiciousScanner) Result() *Suspicious {
	s := sc.s
	s.IDSpeakers, s.GroupSpeakers = SpeakerFinding{}, SpeakerFinding{}
	var ids, groups []SpeakerExample
	for _, seen := range sc.speakers {
		e := seen.first
		e.Utterances = seen.utterances
		if seen.id {
			ids = append(ids, e)
			s.IDSpeakers.Rows += e.Utterances
		}
		if seen.group {
			groups = append(groups, e)
			s.GroupSpeakers.Rows += e.Utterances
		}
	}
	for _, f := range []struct {
		dst  *SpeakerFinding
		list []SpeakerExample
	}{{&s.IDSpeakers, ids}, {&s.GroupSpeakers, groups}} {
		slices.SortFunc(f.list, func(a, b SpeakerExample) int {
			return cmp.Or(cmp.Compare(b.Utterances, a.Utterances), cmp.Compare(a.Source, b.Source), cmp.Compare(a.Speaker, b.Speaker))
		})
		f.dst.Speakers = len(f.list)
		f.dst.Examples = f.list[:min(len(f.list), sc.examples)]
	}
	for _, f := range []*TextFinding{&s.Mojibake, &s.ReplacementChar, &s.EmptyText, &s.ControlChars, &s.InvalidRows} {
		if f.Examples == nil {
			f.Examples = []RowExample{}
		}
	}
	s.Total = s.Mojibake.Rows + s.ReplacementChar.Rows + s.EmptyText.Rows + s.ControlChars.Rows + s.InvalidRows.Rows +
		s.IDSpeakers.Speakers + s.GroupSpeakers.Speakers
	return &s
}

// hasControl reports whether s holds a control character other than tab,
// line feed and carriage return.
func hasControl(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool {
		return (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || (r >= 0x7F && r <= 0x9F)
	})
}

var idRe = regexp.MustCompile(`^(\d+|[0-9a-fA-F-]{8,}|#\d+)$`)

// LooksLikeID reports whether a speaker is a number or an opaque ID
// rather than a name: all digits ("50997"), or a hexadecimal or UUID
// string of 8 characters or more that holds a digit. Labels built on
// purpose from a role and an ID ("client:12") are names here.
func LooksLikeID(speaker string) bool {
	s := strings.TrimSpace(speaker)
	return idRe.MatchString(s) && strings.ContainsAny(s, "0123456789")
}

// groupNouns are speaker labels that name a group of people.
var groupNouns = map[string]bool{
	"students": true, "pupils": true, "ghosts": true, "crowd": true, "class": true, "audience": true,
	"men": true, "women": true, "kids": true, "children": true, "boys": true, "girls": true, "guys": true,
	"voices": true, "others": true, "people": true, "twins": true, "gryffindors": true, "slytherins": true,
	"death eaters": true, "dementors": true, "goblins": true, "centaurs": true, "elves": true, "fans": true,
	"reporters": true, "soldiers": true, "guards": true, "servants": true, "lords": true, "citizens": true,
	"officers": true, "friends": true, "family": true, "group": true, "team": true, "choir": true,
	"gang": true, "onlookers": true, "spectators": true, "villagers": true,
	"townspeople": true, "players": true, "teachers": true, "parents": true, "weasleys": true,
	"dursleys": true, "ministry": true, "all": true, "both": true, "everyone": true, "everybody": true,
}

// LooksLikeGroup reports whether a speaker names a group rather than one
// person: a group noun ("Students", "Ghosts", "The Crowd", "All Three"),
// or two short names joined ("Ross and Joey", "Fred & George").
func LooksLikeGroup(speaker string) bool {
	s := strings.ToLower(strings.TrimSpace(speaker))
	s = strings.TrimPrefix(s, "the ")
	if groupNouns[s] {
		return true
	}
	if first, _, ok := strings.Cut(s, " "); ok && (first == "all" || first == "both") {
		return true
	}
	for _, sep := range []string{" and ", " & ", ", "} {
		if l, r, ok := strings.Cut(s, sep); ok && len(strings.Fields(l)) <= 2 && len(strings.Fields(r)) <= 2 {
			return true
		}
	}
	return false
}

// WriteSuspicious renders s as a short text section: one line per check
// with its count, and its examples below it; "none" when all are zero.
func WriteSuspicious(w io.Writer, s *Suspicious) error {
	var b strings.Builder
	b.WriteString("Suspicious content")
	if s.Total == 0 {
		b.WriteString(": none (no mojibake, U+FFFD, empty texts, control characters, invalid rows, ID or group speakers)\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	b.WriteString(":\n")
	for _, t := range []struct {
		name string
		f    TextFinding
	}{{"mojibake", s.Mojibake}, {"U+FFFD (lost bytes)", s.ReplacementChar}, {"empty texts", s.EmptyText},
		{"control characters", s.ControlChars}, {"invalid rows", s.InvalidRows}} {
		if t.f.Rows == 0 {
			continue
		}
		fmt.Fprintf(&b, "- %s: %d rows\n", t.name, t.f.Rows)
		for _, e := range t.f.Examples {
			fmt.Fprintf(&b, "    %s row %d (%s, %s): %q", e.File, e.Row, e.Source, e.Speaker, e.Text)
			if e.Problem != "" {
				fmt.Fprintf(&b, ": %s", e.Problem)
			}
			b.WriteString("\n")
		}
	}
	for _, t := range []struct {
		name string
		f    SpeakerFinding
	}{{"speakers that look like IDs", s.IDSpeakers}, {"speakers that name a group", s.GroupSpeakers}} {
		if t.f.Speakers == 0 {
			continue
		}
		fmt.Fprintf(&b, "- %s: %d speakers, %d rows\n", t.name, t.f.Speakers, t.f.Rows)
		for _, e := range t.f.Examples {
			fmt.Fprintf(&b, "    %q in %s: %d rows, first %s row %d\n", e.Speaker, e.Source, e.Utterances, e.File, e.Row)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
