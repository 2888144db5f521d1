// Package nbcheck checks executed Jupyter notebooks for failures that
// `jupyter nbconvert --execute --allow-errors` lets through: a GoNB cell
// that fails to compile, panics, exits non-zero or fails a %test does not
// fail nbconvert, so CI reads the executed notebook and fails on
//
//   - any output of type "error" (GoNB reports compile errors and non-zero
//     exits this way);
//   - a stream or text line that starts with "panic:", "--- FAIL",
//     "exit status N", "error" / "Error", or contains "error:" (what
//     log.Fatal, kernel.Notebook.Report and most Go errors print);
//   - a code cell that was never executed (the run stopped early);
//   - fewer images (image/png, image/svg+xml outputs) than the notebook's
//     metadata asks for: {"roleprint": {"min_images": N}} marks a notebook
//     meant to draw.
package nbcheck

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
)

// Problem is one failure found in a notebook.
type Problem struct {
	// Cell is the 1-based index of the cell among all cells (0 for the
	// notebook as a whole).
	Cell int `json:"cell"`
	// Kind is "error_output", "error_line", "not_executed" or "missing_images".
	Kind string `json:"kind"`
	// Detail is the offending line or a description.
	Detail string `json:"detail"`
}

// String formats the problem as "cell N: kind: detail".
func (p Problem) String() string {
	if p.Cell == 0 {
		return fmt.Sprintf("%s: %s", p.Kind, p.Detail)
	}
	return fmt.Sprintf("cell %d: %s: %s", p.Cell, p.Kind, p.Detail)
}

// Report is the result of checking one notebook.
type Report struct {
	Notebook  string    `json:"notebook"`
	Cells     int       `json:"cells"`
	CodeCells int       `json:"code_cells"`
	Executed  int       `json:"executed"`
	Images    int       `json:"images"`
	MinImages int       `json:"min_images"`
	Problems  []Problem `json:"problems"`
}

// OK reports whether the notebook passed.
func (r *Report) OK() bool { return len(r.Problems) == 0 }

// notebook is the part of the nbformat 4 schema the checker reads.
type notebook struct {
	Cells    []cell `json:"cells"`
	Metadata struct {
		RolePrint struct {
			MinImages int `json:"min_images"`
		} `json:"roleprint"`
	} `json:"metadata"`
	NBFormat int `json:"nbformat"`
}

type cell struct {
	CellType       string          `json:"cell_type"`
	Source         multiline       `json:"source"`
	ExecutionCount *int            `json:"execution_count"`
	Outputs        []output        `json:"outputs"`
	Metadata       json.RawMessage `json:"metadata"`
}

type output struct {
	OutputType string               `json:"output_type"`
	Name       string               `json:"name"`
	Text       multiline            `json:"text"`
	Data       map[string]multiline `json:"data"`
	EName      string               `json:"ename"`
	EValue     string               `json:"evalue"`
}

// multiline is nbformat's "string or list of strings".
type multiline string

func (m *multiline) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*m = multiline(s)
		return nil
	}
	var parts []string
	if err := json.Unmarshal(b, &parts); err == nil {
		*m = multiline(strings.Join(parts, ""))
		return nil
	}
	// Other JSON values (e.g. application/json data): keep their text.
	*m = multiline(b)
	return nil
}

// errorLine matches the lines that mark a failure.
var errorLine = regexp.MustCompile(`(?i)^\s*panic:|^--- FAIL|^\s*exit status \d+|^\s*error\b|\berror:`)

// Check reads an executed notebook from r and returns its report. name
// labels the report. It fails only when r is not a notebook.
func Check(r io.Reader, name string) (*Report, error) {
	var nb notebook
	if err := json.NewDecoder(r).Decode(&nb); err != nil {
		return nil, fmt.Errorf("nbcheck: %s: not a notebook: %w", name, err)
	}
	if nb.NBFormat != 4 {
		return nil, fmt.Errorf("nbcheck: %s: nbformat %d, want 4", name, nb.NBFormat)
	}
	rep := &Report{Notebook: name, Cells: len(nb.Cells), MinImages: nb.Metadata.RolePrint.MinImages}
	for i, c := range nb.Cells {
		idx := i + 1
		if c.CellType != "code" {
			continue
		}
		rep.CodeCells++
		if c.ExecutionCount == nil {
			if strings.TrimSpace(string(c.Source)) != "" {
				rep.Problems = append(rep.Problems, Problem{idx, "not_executed", firstLine(stripMagics(string(c.Source)))})
			}
		} else {
			rep.Executed++
		}
		for _, o := range c.Outputs {
			switch o.OutputType {
			case "error":
				rep.Problems = append(rep.Problems, Problem{idx, "error_output", strings.TrimSpace(o.EName + ": " + firstLine(o.EValue))})
			case "stream":
				rep.checkLines(idx, string(o.Text))
			case "display_data", "execute_result", "update_display_data":
				for mime, v := range o.Data {
					switch {
					case mime == "image/png" || mime == "image/svg+xml":
						if strings.TrimSpace(string(v)) != "" {
							rep.Images++
						}
					case mime == "text/plain" || mime == "text/markdown":
						rep.checkLines(idx, string(v))
					}
				}
			}
		}
	}
	if rep.Images < rep.MinImages {
		rep.Problems = append(rep.Problems, Problem{0, "missing_images",
			fmt.Sprintf("%d image outputs, the notebook's metadata asks for at least %d", rep.Images, rep.MinImages)})
	}
	return rep, nil
}

// checkLines adds a problem for each failure line of text.
func (r *Report) checkLines(cell int, text string) {
	for _, line := range strings.Split(text, "\n") {
		if errorLine.MatchString(line) {
			r.Problems = append(r.Problems, Problem{cell, "error_line", strings.TrimSpace(line)})
		}
	}
}

// CheckFile checks the executed notebook at path.
func CheckFile(path string) (*Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("nbcheck: %w", err)
	}
	defer f.Close()
	return Check(f, path)
}

// firstLine returns the first non-empty line of s, shortened.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			if len(l) > 160 {
				l = l[:160] + "…"
			}
			return l
		}
	}
	return ""
}

// stripMagics drops GoNB's "%%" / "%name" lines so that a cell is named by
// its first line of code.
func stripMagics(src string) string {
	var keep []string
	for _, l := range strings.Split(src, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "%") {
			keep = append(keep, l)
		}
	}
	if len(keep) == 0 {
		return src
	}
	return strings.Join(keep, "\n")
}
