package report

import (
	"encoding/json"
	"fmt"
	"html"
	"path/filepath"
	"strings"
	"time"

	"github.com/roleprint/roleprint/internal/fsx"
	"github.com/roleprint/roleprint/plots"
)

// HTMLFile is the name of the run's HTML report.
const HTMLFile = "report.html"

// Page is the content of a run's report.html beyond what the Writer
// wrote (its tables and figures).
type Page struct {
	// Title heads the page ("RolePrint reproduce: Table 2").
	Title string
	// Command is the command line that made the run.
	Command []string
	// Facts are short key–value lines shown first (corpus, rounds, seeds,
	// encoders, wall time), in order.
	Facts [][2]string
	// Notes are remarks on the run (skipped rows, left-out figures).
	Notes []string
	// Manifest is shown in full as indented JSON (versions, seeds,
	// resolved configuration, timings); nil leaves it out.
	Manifest any
	// Generated is the time stamp shown (default now).
	Generated time.Time
}

// pageCSS keeps the page readable on screen and in print.
const pageCSS = `body{font-family:"Liberation Sans",Arial,Helvetica,sans-serif;max-width:72em;margin:2em auto;padding:0 1em;color:#222;line-height:1.4}
h1{font-size:1.5em}h2{font-size:1.2em;border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}
div.table-wrap{overflow-x:auto}
table.rp-table{border-collapse:collapse;margin:1em 0;font-size:.85em}
table.rp-table caption{text-align:left;font-weight:bold;margin-bottom:.3em}
table.rp-table th,table.rp-table td{padding:.2em .6em;text-align:right;white-space:nowrap}
table.rp-table th[scope=row],table.rp-table thead th:first-child{text-align:left}
table.rp-table th[scope=row]{font-weight:normal}
table.rp-table thead{border-top:2px solid #222;border-bottom:1px solid #222}
table.rp-table tbody{border-bottom:2px solid #222}
table.rp-table tr.spans th{text-align:center;border-bottom:1px solid #888}
table.rp-table tr.group th{text-align:left;font-style:italic;border-top:1px solid #888}
table.rp-table tr.paper{color:#555}
.caption{font-size:.85em;color:#444;max-width:50em}
figure{margin:1.5em 0}figure img{max-width:100%;height:auto;border:1px solid #eee}
figure.one img{width:36em}figure.two img{width:100%}
figcaption{font-size:.85em;color:#444}
dl.facts{display:grid;grid-template-columns:max-content auto;gap:.2em 1em}dl.facts dt{font-weight:bold}
pre{background:#f6f6f6;padding:1em;overflow:auto;font-size:.8em}
.downloads{font-size:.8em}`

// pageScript marks the body with how the figures loaded, for readers and
// for the headless-browser test: data-figures="loaded" when every <img>
// decoded with a non-zero natural width, "broken" otherwise, with
// data-figures-ok / data-figures-total counts.
const pageScript = `function rpCheck(){var im=document.images,ok=0,done=0;for(var i=0;i<im.length;i++){if(im[i].complete){done++;if(im[i].naturalWidth>0)ok++;}}
if(done<im.length)return false;var b=document.body;b.setAttribute("data-figures-total",im.length);b.setAttribute("data-figures-ok",ok);
b.setAttribute("data-figures",ok===im.length?"loaded":"broken");return true}
window.addEventListener("load",function(){if(!rpCheck()){var t=setInterval(function(){if(rpCheck())clearInterval(t)},50)}});`

// WriteHTML writes the run's report.html into the Writer's folder: the
// facts and command, every table written (ours and the paper's rows, with
// the LaTeX rounding), every figure (as a relative link to its SVG, or PNG
// when no SVG was written, with links to each format), the notes and the
// manifest. The page needs nothing but the folder: open it locally or
// share the folder.
func (w *Writer) WriteHTML(p Page) (string, error) {
	var b strings.Builder
	title := p.Title
	if title == "" {
		title = "RolePrint report"
	}
	gen := p.Generated
	if gen.IsZero() {
		gen = time.Now()
	}
	fmt.Fprintf(&b, "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>%s</title>\n<style>\n%s\n</style>\n<script>\n%s\n</script>\n</head>\n<body>\n",
		html.EscapeString(title), pageCSS, pageScript)
	fmt.Fprintf(&b, "<h1>%s</h1>\n<p>Generated %s.</p>\n", html.EscapeString(title), gen.UTC().Format(time.RFC3339))
	if len(p.Facts) > 0 || len(p.Command) > 0 {
		b.WriteString("<dl class=\"facts\">\n")
		if len(p.Command) > 0 {
			fmt.Fprintf(&b, "<dt>Command</dt><dd><code>%s</code></dd>\n", html.EscapeString(strings.Join(p.Command, " ")))
		}
		for _, f := range p.Facts {
			fmt.Fprintf(&b, "<dt>%s</dt><dd>%s</dd>\n", html.EscapeString(f[0]), html.EscapeString(f[1]))
		}
		b.WriteString("</dl>\n")
	}
	if len(w.tables) > 0 {
		b.WriteString("<h2 id=\"tables\">Tables</h2>\n<p class=\"caption\">Bold: the best of our rows per column. Italics: the paper's published numbers. " +
			"The same tables as LaTeX: ")
		for i, t := range w.tables {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "<a href=\"%s.tex\">%s.tex</a>", html.EscapeString(t.Name), html.EscapeString(t.Name))
		}
		b.WriteString(".</p>\n")
		for _, t := range w.tables {
			b.WriteString("<div class=\"table-wrap\">\n" + t.HTML() + "</div>\n")
		}
	}
	if len(w.figures) > 0 {
		b.WriteString("<h2 id=\"figures\">Figures</h2>\n")
		for _, f := range w.figures {
			src := f.File(plots.SVG)
			if src == "" {
				src = f.File(plots.PNG)
			}
			class := "one"
			if f.Width == TwoColumn {
				class = "two"
			}
			fmt.Fprintf(&b, "<figure class=\"%s\" id=\"fig-%s\">\n", class, html.EscapeString(f.Name))
			if src != "" {
				fmt.Fprintf(&b, "<img src=\"%s\" alt=\"%s\">\n", html.EscapeString(src), html.EscapeString(f.Caption))
			}
			fmt.Fprintf(&b, "<figcaption>%s <span class=\"downloads\">", html.EscapeString(f.Caption))
			for _, file := range f.Files {
				fmt.Fprintf(&b, " <a href=\"%s\">%s</a>", html.EscapeString(file), strings.TrimPrefix(filepath.Ext(file), "."))
			}
			b.WriteString("</span></figcaption>\n</figure>\n")
		}
	}
	notes := append(append([]string(nil), p.Notes...), w.errs...)
	if len(notes) > 0 {
		b.WriteString("<h2 id=\"notes\">Notes</h2>\n<ul>\n")
		for _, n := range notes {
			fmt.Fprintf(&b, "<li>%s</li>\n", html.EscapeString(n))
		}
		b.WriteString("</ul>\n")
	}
	if p.Manifest != nil {
		js, err := json.MarshalIndent(p.Manifest, "", "  ")
		if err != nil {
			return "", fmt.Errorf("report: encoding the manifest: %w", err)
		}
		b.WriteString("<h2 id=\"manifest\">Manifest</h2>\n<p class=\"caption\">Versions, seeds, the resolved configuration and timings of this run.</p>\n<details open><summary>manifest</summary>\n<pre>")
		b.WriteString(html.EscapeString(string(js)))
		b.WriteString("</pre>\n</details>\n")
	}
	b.WriteString("</body>\n</html>\n")
	path := filepath.Join(w.Dir, HTMLFile)
	if err := fsx.WriteFileAll(path, []byte(b.String()), 0o644); err != nil {
		return "", fmt.Errorf("report: %w", err)
	}
	w.written = append(w.written, HTMLFile)
	w.logf("HTML report: %s", path)
	return path, nil
}
