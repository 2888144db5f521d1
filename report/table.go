package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Best says which value of a column is best (and shown in bold).
type Best int

const (
	// BestNone marks nothing in the column.
	BestNone Best = iota
	// BestMax marks the largest value (AUC, accuracy, Simulation).
	BestMax
	// BestMin marks the smallest value (EER, Simulation Rank).
	BestMin
)

// Cell is one table cell: a number (with an optional ± std or interval)
// or, when Value is NaN, the text Text ("–" when empty).
type Cell struct {
	// Value is the number shown; NaN for a text cell or a missing value.
	Value float64
	// Std, when not NaN, is shown as "± std".
	Std float64
	// Low and High, when both are not NaN, are shown as "[low, high]"
	// after the value (a confidence interval).
	Low, High float64
	// Text is shown for a text cell (Value NaN).
	Text string
}

// Num returns a numeric cell without spread ("–" when v is NaN).
func Num(v float64) Cell { return NumCI(v, math.NaN(), math.NaN()) }

// NumStd returns a "mean ± std" cell ("–" when mean is NaN).
func NumStd(mean, std float64) Cell {
	if math.IsNaN(mean) {
		return NaNCell()
	}
	return Cell{Value: mean, Std: std, Low: math.NaN(), High: math.NaN()}
}

// NumCI returns a "value [low, high]" cell ("–" when v is NaN).
func NumCI(v, low, high float64) Cell {
	if math.IsNaN(v) {
		return NaNCell()
	}
	return Cell{Value: v, Std: math.NaN(), Low: low, High: high}
}

// Text returns a text cell.
func Text(s string) Cell {
	return Cell{Value: math.NaN(), Std: math.NaN(), Low: math.NaN(), High: math.NaN(), Text: s}
}

// numeric reports whether the cell holds a number.
func (c Cell) numeric() bool { return !math.IsNaN(c.Value) && !math.IsInf(c.Value, 0) }

// Span is a group of adjacent columns under one heading.
type Span struct {
	Name string
	N    int
}

// spanOf returns, per column, its group's name ("" when none).
func (t *Table) spanOf() []string {
	out := make([]string, len(t.Columns))
	c := 0
	for _, sp := range t.Spans {
		for i := 0; i < sp.N && c < len(out); i++ {
			out[c] = sp.Name
			c++
		}
	}
	return out
}

// Row is one table row.
type Row struct {
	Cells []Cell
	// Paper marks a row of published numbers: shown in italics and never
	// marked best.
	Paper bool
	// Reference marks a row the others are measured against (the Real
	// conversations of a role-play table): never marked best. Tables set
	// it apart under its own Group heading, so that it looks the same in
	// LaTeX, HTML and Markdown.
	Reference bool
	// Group, when not empty, starts a new block of rows under this heading
	// (e.g. "Base level").
	Group string
}

// Table is a table of a result, written with one rounding as LaTeX, HTML
// and Markdown (so the notebook, the report page and the paper agree).
type Table struct {
	// Name is the file stem ("table2" → table2.tex) and the LaTeX label
	// (tab:table2).
	Name string
	// Title is the caption's first sentence; Caption follows it.
	Title, Caption string
	// Columns are the headers; a header "A/B" is not split.
	Columns []string
	// Spans, when set, group the columns under a first header row (LaTeX:
	// \multicolumn with \cmidrule; HTML: colspan); Markdown prefixes each
	// column with its group's name instead. The spans must add up to the
	// number of columns; an empty Name leaves its columns ungrouped.
	Spans []Span
	// Best says, per column, which value to set in bold (missing: none).
	Best []Best
	// BestPerGroup looks for the best value of a column within each block
	// of rows (a Group heading starts a block: Table 2's levels) instead of
	// over the whole table.
	BestPerGroup bool
	// Rows are the rows in order.
	Rows []Row
	// Digits is the number of decimals of every number (default 2;
	// Shortest writes each number with as few digits as it needs, e.g. ranks
	// "1" and "1.5").
	Digits int
	// Scale multiplies every number before it is shown (default 1; 100
	// shows fractions as percentages like the papers).
	Scale float64
	// Wide makes the LaTeX a two-column-wide table* scaled to the text width.
	Wide bool
}

// Shortest is the Digits value that writes numbers without padding.
const Shortest = -1

func (t *Table) digits() int {
	if t.Digits == 0 {
		return 2
	}
	return t.Digits
}

func (t *Table) scale() float64 {
	if t.Scale == 0 {
		return 1
	}
	return t.Scale
}

// Check reports a table whose rows do not fit its columns.
func (t *Table) Check() error {
	if t.Name == "" || strings.ContainsAny(t.Name, `/\ `) {
		return fmt.Errorf("report: table name %q must be a plain file stem", t.Name)
	}
	if len(t.Columns) == 0 {
		return fmt.Errorf("report: table %s has no columns", t.Name)
	}
	if len(t.Spans) > 0 {
		n := 0
		for _, sp := range t.Spans {
			n += sp.N
		}
		if n != len(t.Columns) {
			return fmt.Errorf("report: table %s: column spans cover %d of %d columns", t.Name, n, len(t.Columns))
		}
	}
	for i, r := range t.Rows {
		if len(r.Cells) > len(t.Columns) {
			return fmt.Errorf("report: table %s row %d has %d cells for %d columns", t.Name, i+1, len(r.Cells), len(t.Columns))
		}
	}
	return nil
}

// cell returns row r's cell in column c (a blank text cell when short).
func (t *Table) cell(r, c int) Cell {
	if c < len(t.Rows[r].Cells) {
		return t.Rows[r].Cells[c]
	}
	return Text("")
}

// bestRows returns, per column, the rows whose value is the column's best
// (ties all marked), after rounding as shown, over the whole table or,
// with BestPerGroup, within each block; paper and reference rows are left
// out, and nothing is marked when every row of a block ties.
func (t *Table) bestRows() []map[int]bool {
	out := make([]map[int]bool, len(t.Columns))
	blocks := [][2]int{{0, len(t.Rows)}}
	if t.BestPerGroup {
		blocks = blocks[:0]
		for r := range t.Rows {
			if r == 0 || t.Rows[r].Group != "" {
				blocks = append(blocks, [2]int{r, r})
			}
			blocks[len(blocks)-1][1] = r + 1
		}
	}
	counted := func(r, c int) bool {
		return !t.Rows[r].Paper && !t.Rows[r].Reference && t.cell(r, c).numeric()
	}
	for c := range t.Columns {
		if c >= len(t.Best) || t.Best[c] == BestNone {
			continue
		}
		for _, bl := range blocks {
			best := math.NaN()
			for r := bl[0]; r < bl[1]; r++ {
				if !counted(r, c) {
					continue
				}
				v := t.round(t.cell(r, c).Value)
				if math.IsNaN(best) || (t.Best[c] == BestMax && v > best) || (t.Best[c] == BestMin && v < best) {
					best = v
				}
			}
			if math.IsNaN(best) {
				continue
			}
			var marked []int
			for r := bl[0]; r < bl[1]; r++ {
				if counted(r, c) && t.round(t.cell(r, c).Value) == best {
					marked = append(marked, r)
				}
			}
			if len(marked) == bl[1]-bl[0] { // every row ties: nothing stands out
				continue
			}
			if out[c] == nil {
				out[c] = map[int]bool{}
			}
			for _, r := range marked {
				out[c][r] = true
			}
		}
	}
	return out
}

// round scales v and rounds it to the table's decimals, as shown.
func (t *Table) round(v float64) float64 {
	if t.digits() < 0 {
		return v * t.scale()
	}
	p := math.Pow(10, float64(t.digits()))
	return math.Round(v*t.scale()*p) / p
}

// parts returns the formatted value, spread ("± 0.01" as "0.01") and
// interval ("[a, b]" as "a", "b") of a cell, and whether it is numeric.
func (t *Table) parts(c Cell) (value, std, lo, hi string, num bool) {
	if !c.numeric() {
		return c.Text, "", "", "", false
	}
	f := func(v float64) string { return strconv.FormatFloat(v*t.scale(), 'f', t.digits(), 64) }
	value = f(c.Value)
	if !math.IsNaN(c.Std) {
		std = f(c.Std)
	}
	if !math.IsNaN(c.Low) && !math.IsNaN(c.High) {
		lo, hi = f(c.Low), f(c.High)
	}
	return value, std, lo, hi, true
}

// Plain returns cell (r, c) as plain text with the table's rounding
// ("0.85 ± 0.01", "47.72 [45.10, 50.33]", or the text).
func (t *Table) Plain(r, c int) string {
	v, s, lo, hi, num := t.parts(t.cell(r, c))
	if !num {
		return v
	}
	if s != "" {
		v += " ± " + s
	}
	if lo != "" {
		v += " [" + lo + ", " + hi + "]"
	}
	return v
}

// missing is how a missing number is shown.
const missing = "–"

// NaNCell returns a numeric column's missing-value cell ("–").
func NaNCell() Cell { return Text(missing) }
