package report

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// LaTeXPackages are the packages a document needs to \input the tables.
const LaTeXPackages = `\usepackage{booktabs}\usepackage{graphicx}`

// latexSymbols maps the non-ASCII characters our tables use to LaTeX that
// pdflatex typesets without extra packages.
var latexSymbols = map[rune]string{
	'↑': `$\uparrow$`, '↓': `$\downarrow$`, '–': `--`, '—': `---`, '±': `$\pm$`, '×': `$\times$`,
	'ρ': `$\rho$`, 'τ': `$\tau$`, '≥': `$\geq$`, '≤': `$\leq$`, '→': `$\rightarrow$`, '…': `\ldots{}`,
	'’': `'`, '‘': "`", '“': "``", '”': "''", '\u00a0': `~`, '\u2009': `\,`, '·': `$\cdot$`, 'α': `$\alpha$`, '−': `$-$`, 'Δ': `$\Delta$`,
	'é': `\'e`, 'è': "\\`e", 'ë': `\"e`, 'ü': `\"u`, 'ö': `\"o`, 'ä': `\"a`, 'ï': `\"i`, 'ç': `\c{c}`,
	'á': `\'a`, 'í': `\'i`, 'ó': `\'o`, 'ú': `\'u`, 'ñ': `\~n`, 'É': `\'E`,
}

// TeX escapes s for LaTeX text: the special characters get their escapes,
// the symbols our tables use become math or accents, and characters
// pdflatex cannot typeset without extra fonts (e.g. CJK role names) become
// "?".
func TeX(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\textbackslash{}`)
		case '&', '%', '$', '#', '_', '{', '}':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '~':
			b.WriteString(`\textasciitilde{}`)
		case '^':
			b.WriteString(`\textasciicircum{}`)
		case '<':
			b.WriteString(`\textless{}`)
		case '>':
			b.WriteString(`\textgreater{}`)
		case '|':
			b.WriteString(`\textbar{}`)
		default:
			if r < utf8.RuneSelf {
				b.WriteRune(r)
			} else if t, ok := latexSymbols[r]; ok {
				b.WriteString(t)
			} else {
				b.WriteByte('?')
			}
		}
	}
	return b.String()
}

// texCell returns cell (r, c) as LaTeX: "0.85\,$\pm$\,0.01", in bold when
// best, in italics on a paper row.
func (t *Table) texCell(r, c int, best bool) string {
	v, s, lo, hi, num := t.parts(t.cell(r, c))
	var out string
	if !num {
		out = TeX(v)
	} else {
		out = v
		if s != "" {
			out += `\,{\scriptsize$\pm$` + s + `}`
		}
		if lo != "" {
			out += ` {\scriptsize[` + lo + `, ` + hi + `]}`
		}
	}
	if out == "" || out == TeX(missing) {
		return out
	}
	if best {
		out = `\textbf{` + out + `}`
	}
	if t.Rows[r].Paper {
		out = `\textit{` + out + `}`
	}
	return out
}

// LaTeX returns the table as a LaTeX table (or table*, when Wide)
// environment with a booktabs tabular, its caption and the label
// tab:NAME. It needs the packages of [LaTeXPackages].
func (t *Table) LaTeX() string {
	var b strings.Builder
	env := "table"
	if t.Wide {
		env = "table*"
	}
	fmt.Fprintf(&b, "%% %s, written by RolePrint (needs %s)\n", t.Name, LaTeXPackages)
	fmt.Fprintf(&b, "\\begin{%s}[t]\n\\centering\n\\small\n\\setlength{\\tabcolsep}{4pt}\n", env)
	if t.Wide {
		b.WriteString("\\resizebox{\\textwidth}{!}{%\n")
	} else {
		b.WriteString("\\resizebox{\\ifdim\\width>\\columnwidth\\columnwidth\\else\\width\\fi}{!}{%\n")
	}
	align := "l" + strings.Repeat("r", max(0, len(t.Columns)-1))
	fmt.Fprintf(&b, "\\begin{tabular}{%s}\n\\toprule\n", align)
	if len(t.Spans) > 0 {
		var top, rules []string
		col := 1
		for _, sp := range t.Spans {
			if sp.Name == "" {
				for i := 0; i < sp.N; i++ {
					top = append(top, "")
				}
			} else {
				top = append(top, fmt.Sprintf(`\multicolumn{%d}{c}{%s}`, sp.N, TeX(sp.Name)))
				rules = append(rules, fmt.Sprintf(`\cmidrule(lr){%d-%d}`, col, col+sp.N-1))
			}
			col += sp.N
		}
		b.WriteString(strings.Join(top, " & ") + ` \\` + "\n" + strings.Join(rules, "") + "\n")
	}
	head := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		head[i] = TeX(c)
	}
	b.WriteString(strings.Join(head, " & ") + ` \\` + "\n\\midrule\n")
	best := t.bestRows()
	for r, row := range t.Rows {
		if row.Group != "" {
			if r > 0 {
				b.WriteString("\\midrule\n")
			}
			fmt.Fprintf(&b, "\\multicolumn{%d}{l}{\\textit{%s}} \\\\\n", len(t.Columns), TeX(row.Group))
		}
		cells := make([]string, len(t.Columns))
		for c := range t.Columns {
			cells[c] = t.texCell(r, c, best[c][r])
		}
		b.WriteString(strings.Join(cells, " & ") + ` \\` + "\n")
	}
	b.WriteString("\\bottomrule\n\\end{tabular}}\n")
	caption := TeX(t.Title)
	if t.Caption != "" {
		caption += " " + TeX(t.Caption)
	}
	fmt.Fprintf(&b, "\\caption{%s}\n\\label{tab:%s}\n\\end{%s}\n", caption, t.Name, env)
	return b.String()
}

// LaTeXDocument returns a minimal standalone document that \inputs each of
// the given .tex files (paths as LaTeX should see them), for checking that
// they compile or for a quick PDF of every table.
func LaTeXDocument(files ...string) string {
	var b strings.Builder
	b.WriteString("\\documentclass{article}\n\\usepackage[T1]{fontenc}\n" + LaTeXPackages + "\n\\begin{document}\n")
	for _, f := range files {
		fmt.Fprintf(&b, "\\input{%s}\n\\clearpage\n", f)
	}
	b.WriteString("\\end{document}\n")
	return b.String()
}
