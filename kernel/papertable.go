package kernel

import (
	"errors"

	"github.com/roleprint/roleprint/report"
)

// showPaperTable shows a report table: HTML in a notebook (the same
// rounding, bold best values and italic paper rows as its LaTeX),
// Markdown elsewhere.
func (nb *Notebook) showPaperTable(t *report.Table) error {
	if t == nil {
		return nb.Report(errors.New("kernel: nil table"))
	}
	return nb.showRendered(t)
}

// PaperTable shows a paper table (see showPaperTable) and saves it as
// name.tex and name.md under Dir/tables, so that the table a notebook
// shows and the table a paper \inputs are the same numbers.
func (nb *Notebook) PaperTable(name string, t *report.Table) error {
	if err := nb.showPaperTable(t); err != nil {
		return err
	}
	return nb.saveTable(name, map[string]string{".tex": t.LaTeX(), ".md": t.Markdown()})
}
