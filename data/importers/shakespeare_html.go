package importers

import (
	"context"
	"regexp"
	"strings"
)

func init() {
	Register("shakespeare-html", &FileFormat{
		Description: "Shakespeare plays as HTML (the Moby / MIT edition, <play>/full.html): <h3>ACT/SCENE</h3> headings, " +
			"<A NAME=speechN><b>SPEAKER</b></a><blockquote> speeches; source \"shakespeare/<play>\", one scene = one conversation",
		Extensions: []string{".html", ".htm"},
		Exclude:    []string{"index.html"},
		ReadFile:   readShakespeare,
	})
}

var (
	lineAnchorRe   = regexp.MustCompile(`(?i)name\s*=\s*"?(\d+)\.(\d+)\.\d+`)
	speechAnchorRe = regexp.MustCompile(`(?i)name\s*=\s*"?speech\d+`)
	playTitleRe    = regexp.MustCompile(`(?i)\s*:\s*entire play\s*$`)
	slugDropRe     = regexp.MustCompile(`[^a-z0-9]+`)
)

// slug lower-cases s and joins its words with "-": "Henry IV, part 1" →
// "henry-iv-part-1".
func slug(s string) string {
	s = strings.ReplaceAll(strings.ToLower(s), "'", "")
	return strings.Trim(slugDropRe.ReplaceAllString(s, "-"), "-")
}

// readShakespeare reads one play. The source is "shakespeare/<slug of the
// page title>" ("shakespeare/hamlet", "shakespeare/henry-iv-part-1"), so
// the same play found twice (the MIT tree holds some plays both at the top
// and under Comedy/History/Tragedy) is read once. A conversation is a
// scene, with the ID "<act>.<scene>" of the edition's line anchors
// ("1.2"; prologues and inductions are scene 0: "1.0", "0.0"). A speech
// (all its verse lines) is one utterance; italic stage directions inside
// it and bracketed ones ("[Aside]") are removed. Speaker identities are
// per play: "First Citizen" of Coriolanus is not the one of Julius Caesar.
func readShakespeare(_ context.Context, path string, opts Options, c *Collector) error {
	enc, err := resolveEncoding(opts.Encoding, Auto)
	if err != nil {
		return err
	}
	doc, err := readText(path, enc, "a Shakespeare play page (HTML)")
	if err != nil {
		return err
	}
	toks := htmlTokens(doc)
	title := ""
	for i, t := range toks {
		if t.Tag == "title" && i+1 < len(toks) && toks[i+1].Tag == "" {
			title = collapseSpace(playTitleRe.ReplaceAllString(collapseSpace(toks[i+1].Text), ""))
			break
		}
	}
	if title == "" {
		title = stem(path)
		if strings.EqualFold(title, "full") {
			title = baseName(strings.TrimSuffix(path, "/"+baseName(path)))
		}
	}
	source := opts.SourceOr("shakespeare") + "/" + slug(title)

	var (
		act, scene    string // headings
		conv          = "0.0"
		speaker       string
		inSpeech      bool
		inBold        bool
		inItalic      bool
		inHeading     bool
		heading       strings.Builder
		text          strings.Builder
		speechPos     Pos
		speechConv    string
		directionText strings.Builder
		directionPos  Pos
	)
	flushDirection := func() {
		if strings.TrimSpace(directionText.String()) != "" {
			c.Drop(Line{Source: source, ConversationID: conv, Pos: directionPos, Text: directionText.String()}, DropStageDirection)
		}
		directionText.Reset()
	}
	flushSpeech := func() {
		if !inSpeech {
			return
		}
		inSpeech = false
		if speechConv == "" {
			speechConv = conv
		}
		c.Add(Line{Source: source, ConversationID: speechConv, Episode: act, Scene: scene,
			Speaker: speaker, Text: text.String(), Pos: speechPos})
		text.Reset()
	}
	for _, t := range toks {
		switch t.Tag {
		case "":
			switch {
			case inHeading:
				heading.WriteString(t.Text)
			case inItalic:
				if directionText.Len() == 0 {
					directionPos = Pos{File: path, Line: t.Line}
				}
				directionText.WriteString(t.Text)
			case inBold && inSpeech && speaker == "":
				speaker = collapseSpace(t.Text)
				if full, ok := shakespeareLabelFixes[strings.ToUpper(speaker)]; ok {
					speaker = full
				}
			case inSpeech:
				text.WriteString(t.Text)
			}
		case "h3", "h2":
			flushSpeech()
			inHeading = true
			heading.Reset()
		case "/h3", "/h2":
			inHeading = false
			h := collapseSpace(heading.String())
			if strings.HasPrefix(strings.ToUpper(h), "ACT ") {
				act = h
			} else if h != "" {
				scene = h
			}
		case "a":
			if speechAnchorRe.MatchString(t.Attrs) {
				flushSpeech()
				flushDirection()
				inSpeech = true
				speaker, speechConv = "", ""
				speechPos = Pos{File: path, Line: t.Line}
			} else if m := lineAnchorRe.FindStringSubmatch(t.Attrs); m != nil {
				conv = m[1] + "." + m[2]
				if inSpeech && speechConv == "" {
					speechConv = conv
				}
				text.WriteByte(' ')
			}
		case "b":
			inBold = true
		case "/b":
			inBold = false
		case "i":
			inItalic = true
		case "/i":
			inItalic = false
			text.WriteByte(' ')
			flushDirection()
		case "/blockquote":
			flushSpeech()
		case "br", "p":
			text.WriteByte(' ')
		}
	}
	flushSpeech()
	flushDirection()
	// A page without speeches adds nothing: Import then reports an
	// explicitly named file, and skips one found in a folder.
	return nil
}

// shakespeareLabelFixes repairs speaker labels the MIT edition truncates:
// The Comedy of Errors prints the twin Antipholi as "OF SYRACUSE" and
// "OF EPHESUS".
var shakespeareLabelFixes = map[string]string{
	"OF SYRACUSE": "ANTIPHOLUS OF SYRACUSE",
	"OF EPHESUS":  "ANTIPHOLUS OF EPHESUS",
}
