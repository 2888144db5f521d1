package importers

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

func init() {
	Register("friends-html", friendsHTML{})
}

// friendsHTML reads fangj's Friends transcripts, one HTML page per
// episode ("0101.html", "0212-0213.html", "0423uncut.html").
//
// Each page is rendered to lines of text as a browser would; a line
// "Name: text" is speech (the name in bold or not, any case), a line
// "[Scene: ...]" starts a new conversation, other bracketed lines are stage
// directions, and the lines before the first scene or speech (title,
// writers, transcribers) are credits. A handful of early pages mark scenes
// with short location lines ("(at Monica and Rachel's)", "[Central
// Perk]") instead of "[Scene: ...]": on pages with fewer than two
// "[Scene" markers such lines also start a scene.
//
// When an episode is present both cut and uncut ("0423.html" and
// "0423uncut.html"), only the uncut page is read, so no scene is counted
// twice.
type friendsHTML struct{}

// Describe implements Importer.
func (friendsHTML) Describe() string {
	return "Friends transcripts by fangj (season/*.html): `<b>Name:</b> text` lines, scenes start at `[Scene: ...]`; " +
		"source \"friends\", one scene = one conversation"
}

// Match implements Importer.
func (friendsHTML) Match(path string) bool {
	return hasExt(path, ".html", ".htm") && !strings.EqualFold(baseName(path), "index.html")
}

// Params implements Importer.
func (friendsHTML) Params() []Param { return nil }

// Read implements Importer.
func (f friendsHTML) Read(ctx context.Context, files []string, opts Options, c *Collector) error {
	enc, err := resolveEncoding(opts.Encoding, Auto)
	if err != nil {
		return err
	}
	// Prefer the uncut page of an episode present twice.
	uncut := map[string]bool{}
	for _, p := range files {
		if ep, isUncut := friendsEpisode(p); isUncut {
			uncut[ep] = true
		}
	}
	for i, p := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		ep, isUncut := friendsEpisode(p)
		if uncut[ep] && !isUncut {
			c.MarkRead(p)
			opts.logf("%s: episode %s is also given uncut; reading only the uncut page", p, ep)
		} else if err := readFriendsHTML(p, ep, enc, opts, c); err != nil {
			return err
		}
		if opts.Progress != nil {
			opts.Progress(i+1, len(files))
		}
	}
	return nil
}

var (
	friendsEpisodeRe = regexp.MustCompile(`^(\d{2})(\d{2})(?:-(\d{2})(\d{2}))?(uncut)?$`)
	friendsSceneRe   = regexp.MustCompile(`(?i)^[\[(]\s*scene\s*:?\s*(.*?)[\])]?$`)
	bracketLineRe    = regexp.MustCompile(`^\s*[\[(](.*)[\])]\s*$`)
	smallWords       = map[string]bool{"and": true, "of": true, "the": true, "a": true, "in": true, "at": true, "on": true}
)

// friendsEpisode names a page's episode "s01e01" (or "s02e12-13" for a
// double episode) and says whether it is an uncut version.
func friendsEpisode(path string) (episode string, uncut bool) {
	st := strings.ToLower(stem(path))
	m := friendsEpisodeRe.FindStringSubmatch(st)
	if m == nil {
		return st, false
	}
	episode = fmt.Sprintf("s%se%s", m[1], m[2])
	if m[3] != "" {
		episode += "-" + m[4]
	}
	return episode, m[5] != ""
}

// isLocationLine reports whether a whole-line direction reads like a place
// heading: short, and starting with "at"/"chez" or written as a title
// ("Central Perk", "Monica and Rachel's").
func isLocationLine(text string) (string, bool) {
	m := bracketLineRe.FindStringSubmatch(text)
	if m == nil {
		return "", false
	}
	inner := strings.Trim(strings.TrimSpace(m[1]), ".")
	words := strings.Fields(inner)
	if len(words) == 0 || len(words) > 6 {
		return "", false
	}
	first := strings.ToLower(words[0])
	if first == "at" || first == "chez" {
		return inner, true
	}
	for _, w := range words {
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsUpper(r) && !smallWords[strings.ToLower(w)] {
			return "", false
		}
	}
	return inner, true
}

func readFriendsHTML(path, episode, enc string, opts Options, c *Collector) error {
	doc, err := readText(path, enc, "a Friends transcript page (HTML)")
	if err != nil {
		return err
	}
	lines := htmlLines(doc)
	markers := 0
	for _, l := range lines {
		if friendsSceneRe.MatchString(l.Text) {
			markers++
		}
	}
	source := opts.SourceOr("friends")
	scene, heading, started := 0, "", false
	for _, tl := range lines {
		l := Line{Source: source, Episode: episode, Scene: heading, Pos: Pos{File: path, Line: tl.Line},
			ConversationID: fmt.Sprintf("%s-c%02d", episode, scene)}
		if m := friendsSceneRe.FindStringSubmatch(tl.Text); m != nil {
			scene, heading, started = scene+1, m[1], true
			continue
		}
		if markers < 2 && started {
			if h, ok := isLocationLine(tl.Text); ok {
				scene, heading = scene+1, h
				continue
			}
		}
		l.Text = tl.Text
		speaker, text, ok := splitSpeech(tl.Text)
		switch {
		case ok && isCredit(speaker):
			c.Drop(l, DropCredits)
		case ok:
			started = true
			if full, abbr := friendsAbbreviations[strings.ToUpper(speaker)]; abbr {
				speaker = full
			}
			l.Speaker, l.Text = speaker, text
			c.Add(l)
		case !started || isCredit(tl.Text):
			c.Drop(l, DropCredits)
		default:
			c.Drop(l, DropStageDirection)
		}
	}
	return nil
}

// friendsAbbreviations expands the four-letter labels some season-2 pages
// use for the main cast ("MNCA: ..."), so they are not new speakers.
var friendsAbbreviations = map[string]string{
	"CHAN": "Chandler", "MNCA": "Monica", "PHOE": "Phoebe", "RACH": "Rachel",
}
