package report

import (
	"fmt"
	"html"
	"strings"
)

// Markdown returns the table as a GitHub-flavoured Markdown table with the
// same rounding as the LaTeX (best values in bold, paper rows in italics),
// titled with the title and followed by the caption.
func (t *Table) Markdown() string {
	var b strings.Builder
	if t.Title != "" {
		fmt.Fprintf(&b, "**%s**\n\n", mdEscape(t.Title))
	}
	head := make([]string, len(t.Columns))
	sep := make([]string, len(t.Columns))
	groups := t.spanOf()
	for i, c := range t.Columns {
		if groups[i] != "" {
			c = groups[i] + " " + c
		}
		head[i] = mdEscape(c)
		sep[i] = "---:"
		if i == 0 {
			sep[i] = "---"
		}
	}
	b.WriteString("| " + strings.Join(head, " | ") + " |\n| " + strings.Join(sep, " | ") + " |\n")
	best := t.bestRows()
	for r, row := range t.Rows {
		if row.Group != "" {
			g := make([]string, len(t.Columns))
			g[0] = "*" + mdEscape(row.Group) + "*"
			b.WriteString("| " + strings.Join(g, " | ") + " |\n")
		}
		cells := make([]string, len(t.Columns))
		for c := range t.Columns {
			s := mdEscape(t.Plain(r, c))
			if s == missing {
				cells[c] = s
				continue
			}
			if s != "" && best[c][r] {
				s = "**" + s + "**"
			}
			if s != "" && row.Paper {
				s = "*" + s + "*"
			}
			cells[c] = s
		}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	if t.Caption != "" {
		fmt.Fprintf(&b, "\n%s\n", mdEscape(t.Caption))
	}
	return b.String()
}

func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// HTML returns the table as an HTML <table> with the same rounding as the
// LaTeX: best values in <strong>, paper rows in <em> (class "paper"), the
// title as its caption and the caption in a <p> after it.
func (t *Table) HTML() string {
	var b strings.Builder
	fmt.Fprintf(&b, "<table class=\"rp-table\" id=\"%s\">\n", html.EscapeString(t.Name))
	if t.Title != "" {
		fmt.Fprintf(&b, "<caption>%s</caption>\n", html.EscapeString(t.Title))
	}
	b.WriteString("<thead>")
	if len(t.Spans) > 0 {
		b.WriteString("<tr class=\"spans\">")
		for _, sp := range t.Spans {
			fmt.Fprintf(&b, "<th colspan=\"%d\">%s</th>", sp.N, html.EscapeString(sp.Name))
		}
		b.WriteString("</tr>")
	}
	b.WriteString("<tr>")
	for _, c := range t.Columns {
		fmt.Fprintf(&b, "<th>%s</th>", html.EscapeString(c))
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	best := t.bestRows()
	for r, row := range t.Rows {
		if row.Group != "" {
			fmt.Fprintf(&b, "<tr class=\"group\"><th colspan=\"%d\">%s</th></tr>\n", len(t.Columns), html.EscapeString(row.Group))
		}
		if row.Paper {
			b.WriteString("<tr class=\"paper\">")
		} else {
			b.WriteString("<tr>")
		}
		for c := range t.Columns {
			s := html.EscapeString(t.Plain(r, c))
			if s != "" && s != missing && best[c][r] {
				s = "<strong>" + s + "</strong>"
			}
			if s != "" && s != missing && row.Paper {
				s = "<em>" + s + "</em>"
			}
			if c == 0 {
				fmt.Fprintf(&b, "<th scope=\"row\">%s</th>", s)
			} else {
				fmt.Fprintf(&b, "<td>%s</td>", s)
			}
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n</table>\n")
	if t.Caption != "" {
		fmt.Fprintf(&b, "<p class=\"caption\">%s</p>\n", html.EscapeString(t.Caption))
	}
	return b.String()
}
