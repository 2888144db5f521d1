package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/roleprint/roleprint/internal/fsx"
	"github.com/roleprint/roleprint/plots"
	"gonum.org/v1/plot/vg"
)

// DefaultFormats are the figure formats written when none are asked for.
func DefaultFormats() []plots.Format { return []plots.Format{plots.PNG, plots.SVG} }

// ParseFormats parses a --figures value: comma-separated formats among
// png, svg and pdf ("none" or "" writes no figures).
func ParseFormats(s string) ([]plots.Format, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "none" {
		return nil, nil
	}
	var out []plots.Format
	seen := map[plots.Format]bool{}
	for _, p := range strings.Split(s, ",") {
		p = strings.ToLower(strings.TrimSpace(p))
		if p == "" {
			continue
		}
		f := plots.Format(p)
		if f != plots.PNG && f != plots.SVG && f != plots.PDF {
			return nil, fmt.Errorf("unknown figure format %q (want png, svg, pdf or none)", p)
		}
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out, nil
}

// Width is a figure's width in a paper.
type Width int

const (
	// OneColumn is one column of a two-column paper (3.5 in).
	OneColumn Width = iota
	// TwoColumn spans both columns (7 in).
	TwoColumn
)

// SizeFor returns the export size of a figure of width w whose height is
// aspect × its width (0: the default 5:7 for one column, 3:7 for two).
func SizeFor(w Width, aspect float64) plots.Size {
	s := plots.ColumnSize()
	if w == TwoColumn {
		s = plots.WideSize()
	}
	if aspect > 0 {
		s.Height = s.Width * vg.Length(aspect)
	}
	return s
}

// FigureFile is one figure written by a Writer.
type FigureFile struct {
	// Name is the file stem; Caption says what it shows.
	Name, Caption string
	// Files are the paths written, relative to the Writer's folder
	// ("figures/roc-base.png").
	Files []string
	// Width is the paper width the figure was sized for.
	Width Width
	// Figure is the figure drawn, for checks (plots.Inspect).
	Figure plots.Figure `json:"-"`
}

// File returns the figure's file of format f, relative to the folder ("" when
// not written).
func (ff FigureFile) File(f plots.Format) string {
	for _, p := range ff.Files {
		if strings.HasSuffix(p, "."+string(f)) {
			return p
		}
	}
	return ""
}

// Writer writes a run's figures and tables into one folder: figures under
// figures/ in each of Formats, tables as NAME.tex and NAME.md beside each
// other. It remembers what it wrote, in order, for the HTML page and the
// collected LaTeX file. The zero value writes nothing; make one with
// NewWriter.
type Writer struct {
	// Dir is the output folder.
	Dir string
	// Formats are the figure formats (nil: no figures).
	Formats []plots.Format
	// Logf, when set, is told about each file written.
	Logf func(format string, args ...any)
	// NoMarkdown writes tables as .tex only (for jobs that write their
	// own, richer Markdown under the same name, like reproduce's table2.md).
	NoMarkdown bool
	// Figures are the figure options: sizes and resolution of every
	// figure written, rows and paper marks of the Table 2 figures.
	FigureOptions FigureOptions

	figures []FigureFile
	tables  []*Table
	written []string
	errs    []string
}

// NewWriter returns a Writer into dir (created when missing) writing
// figures in formats.
func NewWriter(dir string, formats []plots.Format) (*Writer, error) {
	if dir == "" {
		return nil, fmt.Errorf("report: no output folder")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	return &Writer{Dir: dir, Formats: formats}, nil
}

// Figure writes f as figures/NAME.FORMAT for every format, sized for w at
// aspect (see SizeFor and FigureOptions.Size). An error names the figure; the Writer keeps
// going with the next one.
func (w *Writer) Figure(name, caption string, f plots.Figure, width Width, aspect float64) error {
	if len(w.Formats) == 0 {
		return nil
	}
	paths, err := plots.SaveAll(filepath.Join(w.Dir, "figures"), name, f, w.FigureOptions.Size(width, aspect), w.Formats...)
	if err != nil {
		return fmt.Errorf("report: figure %s: %w", name, err)
	}
	ff := FigureFile{Name: name, Caption: caption, Width: width, Figure: f}
	for _, p := range paths {
		rel, _ := filepath.Rel(w.Dir, p)
		ff.Files = append(ff.Files, filepath.ToSlash(rel))
		w.written = append(w.written, filepath.ToSlash(rel))
	}
	w.figures = append(w.figures, ff)
	w.logf("figure %s: %s", name, strings.Join(ff.Files, ", "))
	return nil
}

// TryFigure is Figure for a figure built by a constructor that may fail:
// a build or write error is recorded (see Errors) and logged, not returned,
// so that one figure a run cannot draw (a test set without negatives, a
// model without distributions) does not cost the others.
func (w *Writer) TryFigure(name, caption string, build func() (plots.Figure, error), width Width, aspect float64) {
	if len(w.Formats) == 0 {
		return
	}
	f, err := build()
	if err == nil {
		err = w.Figure(name, caption, f, width, aspect)
	}
	if err != nil {
		w.errs = append(w.errs, fmt.Sprintf("%s: %v", name, err))
		w.logf("figure %s left out: %v", name, err)
	}
}

// Table writes t as NAME.tex and NAME.md (only .tex with NoMarkdown).
func (w *Writer) Table(t *Table) error {
	if err := t.Check(); err != nil {
		return err
	}
	files := []string{t.Name + ".tex"}
	if !w.NoMarkdown {
		files = append(files, t.Name+".md")
	}
	for _, f := range files {
		body := t.LaTeX()
		if strings.HasSuffix(f, ".md") {
			body = t.Markdown()
		}
		if err := fsx.WriteFileAll(filepath.Join(w.Dir, f), []byte(body), 0o644); err != nil {
			return fmt.Errorf("report: %w", err)
		}
	}
	w.tables = append(w.tables, t)
	w.written = append(w.written, files...)
	w.logf("table %s: %s", t.Name, strings.Join(files, ", "))
	return nil
}

// Figures returns the figures written so far, in order.
func (w *Writer) Figures() []FigureFile { return append([]FigureFile(nil), w.figures...) }

// Tables returns the tables written so far, in order.
func (w *Writer) Tables() []*Table { return append([]*Table(nil), w.tables...) }

// Files returns every file written so far, relative to Dir.
func (w *Writer) Files() []string { return append([]string(nil), w.written...) }

// Errors returns the figures left out by TryFigure and why.
func (w *Writer) Errors() []string { return append([]string(nil), w.errs...) }

// WriteLaTeX writes every table written so far into one file at path (for
// \input in a paper: the tables one after the other, needing only the
// packages of LaTeXPackages).
func (w *Writer) WriteLaTeX(path string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%% RolePrint tables: \\input this file in a document with %s\n\n", LaTeXPackages)
	for _, t := range w.tables {
		b.WriteString(t.LaTeX())
		b.WriteString("\n")
	}
	if err := fsx.WriteFileAll(path, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	w.logf("LaTeX tables: %s", path)
	return nil
}

func (w *Writer) logf(format string, args ...any) {
	if w.Logf != nil {
		w.Logf("report: "+format, args...)
	}
}
