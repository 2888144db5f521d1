package importers

import (
	"html"
	"strings"
)

// The transcript sites (fangj's Friends pages, the MIT Shakespeare) are
// hand-written 1990s HTML: unclosed tags, tags across lines, mailto links
// with "<" inside attribute values. What the importers need is the text
// and where lines break, so this file holds a small tag scanner rather than
// a DOM parser (none is among the project's dependencies, and a DOM would
// not help with the line structure these pages rely on).

// htmlToken is a tag or a run of text.
type htmlToken struct {
	// Tag is the lower-cased tag name ("b", "/b", "br"); empty for text.
	Tag string
	// Attrs is the raw attribute text of a tag.
	Attrs string
	// Text is the decoded text of a text token.
	Text string
	// Line is the 1-based source line where the token starts.
	Line int
}

// htmlTokens splits doc into tags and text. Comments and <script>/<style>
// contents are skipped; entities in text are decoded; quoted attribute
// values may contain ">" and "<".
func htmlTokens(doc string) []htmlToken {
	var out []htmlToken
	line := 1
	i := 0
	skipUntil := "" // closing tag of a script or style element
	for i < len(doc) {
		if doc[i] != '<' {
			j := strings.IndexByte(doc[i:], '<')
			if j < 0 {
				j = len(doc) - i
			}
			raw := doc[i : i+j]
			if skipUntil == "" {
				out = append(out, htmlToken{Text: html.UnescapeString(raw), Line: line})
			}
			line += strings.Count(raw, "\n")
			i += j
			continue
		}
		if strings.HasPrefix(doc[i:], "<!--") {
			end := strings.Index(doc[i+4:], "-->")
			if end < 0 {
				end = len(doc) - i - 4
			}
			line += strings.Count(doc[i:i+4+end], "\n")
			i += 4 + end + 3
			continue
		}
		// Find the end of the tag, honouring quoted attribute values.
		j, quote := i+1, byte(0)
		for ; j < len(doc); j++ {
			c := doc[j]
			if quote != 0 {
				if c == quote {
					quote = 0
				}
				continue
			}
			if c == '"' || c == '\'' {
				// A quote only opens inside an attribute value.
				if j > 0 && doc[j-1] == '=' {
					quote = c
				}
				continue
			}
			if c == '>' {
				break
			}
		}
		body := doc[i+1 : min(j, len(doc))]
		name, attrs := body, ""
		if k := strings.IndexAny(body, " \t\r\n/"); k > 0 {
			name, attrs = body[:k], body[k:]
		}
		name = strings.ToLower(name)
		if skipUntil == "" || name == skipUntil {
			if name == "script" || name == "style" {
				skipUntil = "/" + name
			} else if name == skipUntil {
				skipUntil = ""
			} else {
				out = append(out, htmlToken{Tag: name, Attrs: attrs, Line: line})
			}
		}
		line += strings.Count(doc[i:min(j+1, len(doc))], "\n")
		i = j + 1
	}
	return out
}

// blockTags end a line of text.
var blockTags = map[string]bool{
	"p": true, "/p": true, "br": true, "div": true, "/div": true, "hr": true,
	"h1": true, "/h1": true, "h2": true, "/h2": true, "h3": true, "/h3": true, "h4": true, "/h4": true,
	"tr": true, "/tr": true, "td": true, "li": true, "/li": true, "blockquote": true, "/blockquote": true,
	"title": true, "/title": true, "center": true, "/center": true, "table": true, "/table": true,
	"pre": true, "/pre": true, "dd": true, "dt": true,
}

// textLine is one line of an HTML page's text.
type textLine struct {
	Text string
	// Line is the source line where the text starts.
	Line int
}

// htmlLines renders doc as lines of text the way a browser breaks them:
// block tags end a line, other tags vanish, source line breaks are spaces.
// Lines are trimmed, white space collapsed, blank lines left out.
func htmlLines(doc string) []textLine {
	var out []textLine
	var b strings.Builder
	start := 0
	flush := func() {
		if s := collapseSpace(b.String()); s != "" {
			out = append(out, textLine{Text: s, Line: start})
		}
		b.Reset()
		start = 0
	}
	for _, t := range htmlTokens(doc) {
		if t.Tag != "" {
			if blockTags[t.Tag] {
				flush()
			}
			continue
		}
		if start == 0 && strings.TrimSpace(t.Text) != "" {
			start = t.Line + strings.Count(t.Text[:len(t.Text)-len(strings.TrimLeft(t.Text, " \t\r\n"))], "\n")
		}
		b.WriteString(t.Text)
	}
	flush()
	return out
}
