package kernel

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"gonum.org/v1/plot"

	"github.com/roleprint/roleprint/internal/fsx"
	"github.com/roleprint/roleprint/plots"
	"github.com/roleprint/roleprint/report"
)

// HTML is an HTML fragment to show as is.
type HTML string

// Markdown is Markdown text to show rendered.
type Markdown string

// Show displays x in the notebook, or prints / writes it outside one:
//
//   - *report.Table (a paper table): HTML with the rounding of its LaTeX in
//     a notebook, Markdown elsewhere;
//   - *Table, Table, Tabler, or a slice of structs (see TableOf): sortable
//     HTML in a notebook, Markdown on standard output elsewhere;
//   - plots.Figure or *plot.Plot: an inline image in a notebook (PNG at
//     InlineDPI, or SVG); elsewhere PNG and SVG files under Dir/figures;
//   - Audio: an HTML5 player; elsewhere a WAV file under Dir/audio;
//   - SideBySide: two utterance sets in two columns (text columns elsewhere);
//   - HTML: shown as is; elsewhere written under Dir/html;
//   - Markdown: rendered; elsewhere printed;
//   - error: an "error:" line on standard error;
//   - anything else: printed with fmt.Println.
//
// Errors while showing are reported on standard error and returned.
func (nb *Notebook) Show(x any) error {
	switch v := x.(type) {
	case nil:
		return nil
	case error:
		return nb.Report(v)
	case *Table:
		return nb.showTable(v)
	case Table:
		return nb.showTable(&v)
	case Tabler:
		return nb.showTable(v.Table())
	case *report.Table:
		return nb.showPaperTable(v)
	case plots.Figure:
		return nb.showFigure("", v)
	case *plot.Plot:
		return nb.showFigure("", plots.FromPlot(v))
	case Audio:
		return nb.showAudio(v)
	case *Audio:
		return nb.showAudio(*v)
	case SideBySide:
		return nb.showSideBySide(v)
	case *SideBySide:
		return nb.showSideBySide(*v)
	case HTML:
		return nb.showHTML("", string(v))
	case Markdown:
		if nb.Display != nil {
			nb.Display.Markdown(string(v))
		} else {
			fmt.Fprintln(nb.stdout(), string(v))
		}
		return nil
	case string:
		fmt.Fprintln(nb.stdout(), v)
		return nil
	}
	if k := reflect.Indirect(reflect.ValueOf(x)).Kind(); k == reflect.Slice || k == reflect.Array {
		if t, err := TableOf(x); err == nil {
			return nb.showTable(t)
		}
	}
	fmt.Fprintln(nb.stdout(), x)
	return nil
}

// Show displays x with the default notebook context (see Notebook.Show).
func Show(x any) error { return Default().Show(x) }

func (nb *Notebook) showTable(t *Table) error {
	if t == nil {
		return nb.Report(errors.New("kernel: nil table"))
	}
	return nb.showRendered(t)
}

// rendered is a table that renders as HTML and as Markdown (Table,
// report.Table).
type rendered interface {
	HTML() string
	Markdown() string
}

// showRendered shows t as HTML in a notebook, as Markdown elsewhere;
// showTable and showPaperTable share it after their nil checks.
func (nb *Notebook) showRendered(t rendered) error {
	if nb.Display != nil {
		nb.Display.HTML(t.HTML())
		return nil
	}
	fmt.Fprintln(nb.stdout(), t.Markdown())
	return nil
}

// Table shows t and saves it as name.md and name.csv under Dir/tables.
func (nb *Notebook) Table(name string, t *Table) error {
	if err := nb.showTable(t); err != nil {
		return err
	}
	if t == nil {
		return nil
	}
	return nb.saveTable(name, map[string]string{".md": t.Markdown(), ".csv": t.CSV()})
}

// saveTable checks name and writes each body (keyed by extension) to
// Dir/tables/name+ext atomically; Table and PaperTable share it.
func (nb *Notebook) saveTable(name string, bodies map[string]string) error {
	if err := checkName(name); err != nil {
		return nb.Report(err)
	}
	for ext, body := range bodies {
		p, err := nb.Path("tables", name+ext)
		if err == nil {
			if werr := fsx.WriteFile(p, []byte(body), 0o644); werr != nil {
				err = fmt.Errorf("kernel: %w", werr)
			}
		}
		if err != nil {
			return nb.Report(err)
		}
	}
	return nil
}

// Figure shows f and saves it as Dir/figures/name.png and .svg (see
// FigureFormats) at FigureSize, printing where.
func (nb *Notebook) Figure(name string, f plots.Figure) error {
	return nb.FigureSized(name, f, nb.FigureSize)
}

// FigureSized is Figure at a given size (e.g. plots.WideSize() for panels).
func (nb *Notebook) FigureSized(name string, f plots.Figure, size plots.Size) error {
	if err := checkName(name); err != nil {
		return nb.Report(err)
	}
	if f == nil {
		return nb.Report(errors.New("kernel: nil figure " + name))
	}
	formats := nb.FigureFormats
	if len(formats) == 0 {
		formats = []plots.Format{plots.PNG, plots.SVG}
	}
	if err := os.MkdirAll(nb.Dir, 0o755); err != nil {
		return nb.Report(fmt.Errorf("kernel: %w", err))
	}
	paths, err := plots.SaveAll(filepath.Join(nb.Dir, "figures"), name, f, size, formats...)
	if err != nil {
		return nb.Report(err)
	}
	if nb.Display != nil {
		if err := nb.inline(f, size); err != nil {
			return nb.Report(err)
		}
	}
	fmt.Fprintf(nb.stdout(), "figure %s saved: %s\n", name, strings.Join(paths, ", "))
	return nil
}

// showFigure shows f inline, or outside a notebook saves it under a
// generated name and says where.
func (nb *Notebook) showFigure(name string, f plots.Figure) error {
	if nb.Display == nil {
		if name == "" {
			name = nb.nextName("figure")
		}
		return nb.Figure(name, f)
	}
	return nb.Report(nb.inline(f, nb.FigureSize))
}

// inline sends f to the notebook at the figure's physical size and
// InlineDPI.
func (nb *Notebook) inline(f plots.Figure, size plots.Size) error {
	dpi := nb.InlineDPI
	if dpi <= 0 {
		dpi = 150
	}
	size.DPI = dpi
	if nb.InlineSVG {
		var buf bytes.Buffer
		if err := plots.EncodeWith(&buf, f, plots.SVG, size, plots.EncodeOptions{}); err != nil {
			return err
		}
		nb.Display.SVG(buf.String())
		return nil
	}
	b, err := plots.Bytes(f, plots.PNG, size)
	if err != nil {
		return err
	}
	nb.Display.PNG(b)
	return nil
}

// showHTML shows h, or writes it to Dir/html/name.html and says where.
func (nb *Notebook) showHTML(name, h string) error {
	if nb.Display != nil {
		nb.Display.HTML(h)
		return nil
	}
	if name == "" {
		name = nb.nextName("output")
	}
	p, err := nb.Path("html", name+".html")
	if err == nil {
		if werr := fsx.WriteFile(p, []byte("<!doctype html>\n<meta charset=\"utf-8\">\n"+h+"\n"), 0o644); werr != nil {
			err = fmt.Errorf("kernel: %w", werr)
		}
	}
	if err != nil {
		return nb.Report(err)
	}
	fmt.Fprintf(nb.stdout(), "HTML written to %s\n", p)
	return nil
}

// checkName rejects names that are not plain file names.
func checkName(name string) error {
	if name == "" || strings.ContainsAny(name, `/\`) || name == "." || name == ".." {
		return fmt.Errorf("kernel: output name %q must be a plain file name", name)
	}
	return nil
}
