package script

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"github.com/roleprint/roleprint/data"

	"github.com/roleprint/roleprint/internal/fsx"
)

// ParseOptions tune Parse. The zero value is usable.
type ParseOptions struct {
	// Source is recorded on every scene; default the script name.
	Source string
	// Episode is recorded on every scene.
	Episode string
	// DropNarration leaves narration out of the scenes.
	DropNarration bool
	// MaxNameWords bounds the words of a speaker name in "Name: text"
	// lines. Default 4.
	MaxNameWords int
}

var (
	// "Scene: ...", "[Scene: ...]", "(Scene: ...)"
	reSceneColon = regexp.MustCompile(`^[\[(]?\s*(?i:scene)\s*[:.\-–]\s*(.*?)[\])]?\s*$`)
	// INT. / EXT. / INT./EXT. / I/E sluglines
	reSlug = regexp.MustCompile(`^(?:INT|EXT|INT\./EXT|INT/EXT|I/E|EST)[\.\s]\s*(.*)$`)
	// SCENE II. ... / ACT I, SCENE 1 / ACT 2
	reActScene = regexp.MustCompile(`^(?i:(?:act\s+[ivxlc\d]+\s*[,.:]?\s*)?scene\s+[ivxlc\d]+\b)\.?\s*(.*)$`)
	reAct      = regexp.MustCompile(`^(?i:act\s+[ivxlc\d]+)\.?\s*$`)
	// "Name: text" with an optional parenthetical after the name.
	reSpeaker = regexp.MustCompile(`^([\p{Lu}][\p{L}\p{M}0-9'’.\-&/ ]*?)\s*(\([^)]*\))?\s*:\s*(.*)$`)
	// A screenplay cue: a capitalised name alone, with optional (V.O.)...
	reCue = regexp.MustCompile(`^([\p{Lu}][\p{Lu}0-9'’.\-& ]*?)\s*(\([^)]*\))?\s*$`)
	// Inline directions.
	reParen   = regexp.MustCompile(`\([^()]*\)|\[[^\[\]]*\]`)
	reSpaces  = regexp.MustCompile(`\s+`)
	notSpeech = map[string]bool{
		"written by": true, "teleplay by": true, "story by": true, "teleplay": true, "story": true,
		"directed by": true, "transcribed by": true, "credits": true, "note": true, "notes": true,
		"summary": true, "title": true, "episode": true, "transcript": true, "cast": true, "time": true,
		"fade in": true, "fade out": true, "cut to": true, "dissolve to": true, "the end": true,
	}
)

// ParseFile parses a script file; the script is named after the file
// (without extension) unless opts.Source is set.
func ParseFile(path string, opts ParseOptions) (*Script, error) {
	f, err := fsx.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	s, err := Parse(f, name, opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// Parse reads screenplay-like text (see the package documentation). The
// error names the line of a read failure; text it cannot classify becomes
// narration rather than an error, so Parse fails only on unreadable input
// or input without a single speaker line.
func Parse(r io.Reader, name string, opts ParseOptions) (*Script, error) {
	if opts.MaxNameWords <= 0 {
		opts.MaxNameWords = 4
	}
	if opts.Source == "" {
		opts.Source = name
	}
	p := &parser{opts: opts, s: &Script{Name: name}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 4<<20)
	n := 0
	for sc.Scan() {
		n++
		p.line(n, sc.Text())
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", n+1, err)
	}
	p.flush()
	p.endScene()
	speakers := 0
	for _, s := range p.s.Scenes {
		for _, l := range s.Lines {
			if !l.IsNarration() {
				speakers++
			}
		}
	}
	if speakers == 0 {
		return nil, fmt.Errorf("no speaker lines in %d lines: expected \"Name: text\" lines or screenplay cues (a capitalised name on its own line)", n)
	}
	return p.s, nil
}

type parser struct {
	opts ParseOptions
	s    *Script
	cur  *Scene
	// pending narration paragraph or screenplay speech
	kind     int // 0 none, 1 narration, 2 cue speech
	cue      string
	buf      []string
	bufStart int
}

func (p *parser) scene() *Scene {
	if p.cur == nil {
		p.cur = &Scene{Source: p.opts.Source, Episode: p.opts.Episode}
	}
	return p.cur
}

func (p *parser) endScene() {
	if p.cur == nil {
		return
	}
	if len(p.cur.Lines) > 0 {
		p.cur.ID = fmt.Sprintf("%s/%03d", p.s.Name, len(p.s.Scenes))
		p.s.Scenes = append(p.s.Scenes, *p.cur)
	}
	p.cur = nil
}

func (p *parser) add(l Line) {
	if l.IsNarration() && p.opts.DropNarration {
		return
	}
	if strings.TrimSpace(l.Text) == "" {
		return
	}
	sc := p.scene()
	sc.Lines = append(sc.Lines, l)
}

// flush ends a pending narration paragraph or screenplay speech.
func (p *parser) flush() {
	text := strings.TrimSpace(strings.Join(p.buf, " "))
	switch p.kind {
	case 1:
		p.add(Line{Speaker: Narrator, Text: cleanNarration(text), SourceLine: p.bufStart})
	case 2:
		if t := cleanSpeech(text); t != "" {
			p.add(Line{Speaker: p.cue, Text: t, SourceLine: p.bufStart})
		}
	}
	p.kind, p.buf, p.cue = 0, nil, ""
}

func (p *parser) line(n int, raw string) {
	t := strings.TrimSpace(strings.Map(func(r rune) rune {
		if r == '\u00a0' || r == '\t' {
			return ' '
		}
		return r
	}, raw))
	if t == "" {
		p.flush()
		return
	}
	if h, ok := heading(t); ok {
		p.flush()
		p.endScene()
		p.scene().Heading = h
		return
	}
	if p.kind == 2 { // screenplay dialogue continues until a blank line
		if isParenthetical(t) {
			return
		}
		if _, ok := p.cueName(t); !ok {
			p.buf = append(p.buf, t)
			return
		}
	}
	if m := reSpeaker.FindStringSubmatch(t); m != nil {
		if name, ok := p.speakerName(m[1]); ok && strings.TrimSpace(m[3]) != "" {
			p.flush()
			if text := cleanSpeech(m[3]); text != "" {
				p.add(Line{Speaker: name, Text: text, SourceLine: n})
			} else {
				p.add(Line{Speaker: Narrator, Text: cleanNarration(m[3]), SourceLine: n})
			}
			return
		}
		if name := strings.ToLower(strings.TrimSpace(m[1])); notSpeech[name] {
			p.flush()
			return // metadata such as "Written by: ..."
		}
	}
	if name, ok := p.cueName(t); ok {
		p.flush()
		p.kind, p.cue, p.bufStart = 2, name, n
		return
	}
	if p.kind != 1 {
		p.flush()
		p.kind, p.bufStart = 1, n
	}
	p.buf = append(p.buf, t)
}

// cueName recognises a screenplay cue: an all-capitals name of at most
// MaxNameWords words with at least two letters.
func (p *parser) cueName(t string) (string, bool) {
	m := reCue.FindStringSubmatch(t)
	if m == nil {
		return "", false
	}
	letters := 0
	for _, r := range m[1] {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	if letters < 2 {
		return "", false
	}
	return p.speakerName(m[1])
}

// speakerName normalises a candidate name and rejects what is not one.
func (p *parser) speakerName(s string) (string, bool) {
	s = strings.TrimSpace(reSpaces.ReplaceAllString(s, " "))
	s = strings.Trim(s, ".-&/ ")
	if s == "" || notSpeech[strings.ToLower(s)] {
		return "", false
	}
	if len(strings.Fields(s)) > p.opts.MaxNameWords {
		return "", false
	}
	return data.DisplayCharacterName(s), true
}

func heading(t string) (string, bool) {
	if m := reSceneColon.FindStringSubmatch(t); m != nil {
		return strings.TrimSpace(m[1]), true
	}
	if m := reSlug.FindStringSubmatch(t); m != nil {
		return strings.TrimSpace(t), true
	}
	if m := reActScene.FindStringSubmatch(t); m != nil && len(t) < 120 {
		return strings.TrimSpace(t), true
	}
	if reAct.MatchString(t) {
		return t, true
	}
	return "", false
}

func isParenthetical(t string) bool {
	return strings.HasPrefix(t, "(") && strings.HasSuffix(t, ")")
}

// cleanSpeech removes inline stage directions and normalises space.
func cleanSpeech(s string) string {
	for {
		r := reParen.ReplaceAllString(s, " ")
		if r == s {
			break
		}
		s = r
	}
	s = strings.TrimSpace(reSpaces.ReplaceAllString(s, " "))
	if strings.Trim(s, ".,;:!?-–—… ") == "" {
		return ""
	}
	return s
}

// cleanNarration strips the brackets around a stage direction.
func cleanNarration(s string) string {
	s = strings.TrimSpace(reSpaces.ReplaceAllString(s, " "))
	for {
		t := strings.TrimRight(s, ".;, ")
		if len(t) >= 2 && (t[0] == '(' && t[len(t)-1] == ')' || t[0] == '[' && t[len(t)-1] == ']') {
			s = strings.TrimSpace(t[1 : len(t)-1])
			continue
		}
		return s
	}
}

// ParseGlob parses the files matching pattern (filepath.Glob), in sorted
// order, into one script called name; no match is an error naming the
// pattern.
func ParseGlob(name, pattern string, opts ParseOptions) (*Script, error) {
	files, err := filepath.Glob(pattern)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("script: no file matches %s", pattern)
	}
	sort.Strings(files)
	s := &Script{Name: name}
	for _, f := range files {
		part, err := ParseFile(f, opts)
		if err != nil {
			return nil, err
		}
		s.Append(part)
	}
	return s, nil
}
