package kernel

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"html"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// Table is a titled table of formatted cells, shown as sortable HTML in a
// notebook and as Markdown elsewhere.
type Table struct {
	// Title is shown above the table (optional).
	Title string
	// Columns are the column headers.
	Columns []string
	// Rows are the cells, one slice per row (short rows are padded).
	Rows [][]string
	// Caption is shown under the table (sources, notes; optional).
	Caption string
	// Digits is the number of significant digits Add uses for floats
	// (default 4).
	Digits int
}

// Tabler is implemented by result types that know how to show themselves
// as a table.
type Tabler interface {
	Table() *Table
}

// NewTable returns an empty table with the given column headers.
func NewTable(title string, columns ...string) *Table {
	return &Table{Title: title, Columns: columns}
}

// Add appends a row, formatting each value: floats with Digits significant
// digits (NaN as "–"), durations rounded, Stringers with String, others
// with %v. It returns t for chaining.
func (t *Table) Add(cells ...any) *Table {
	row := make([]string, len(cells))
	for i, c := range cells {
		row[i] = formatCell(reflect.ValueOf(c), t.digits())
	}
	t.Rows = append(t.Rows, row)
	return t
}

func (t *Table) digits() int {
	if t.Digits <= 0 {
		return 4
	}
	return t.Digits
}

// formatCell formats one value for a table cell.
func formatCell(v reflect.Value, digits int) string {
	if !v.IsValid() {
		return ""
	}
	if v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return ""
		}
		if s, ok := v.Interface().(fmt.Stringer); ok {
			return s.String()
		}
		return formatCell(v.Elem(), digits)
	}
	if v.CanInterface() {
		switch x := v.Interface().(type) {
		case time.Duration:
			return x.Round(time.Millisecond).String()
		case time.Time:
			return x.Format(time.RFC3339)
		case fmt.Stringer:
			return x.String()
		case error:
			return x.Error()
		}
	}
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		if math.IsNaN(f) {
			return "–"
		}
		if f == math.Trunc(f) && math.Abs(f) < 1e15 {
			return strconv.FormatFloat(f, 'f', -1, 64)
		}
		return strconv.FormatFloat(f, 'g', digits, 64)
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return fmt.Sprintf("%d bytes", v.Len())
		}
		parts := make([]string, 0, v.Len())
		for i := 0; i < v.Len() && i < 8; i++ {
			parts = append(parts, formatCell(v.Index(i), digits))
		}
		if v.Len() > 8 {
			parts = append(parts, fmt.Sprintf("… (%d)", v.Len()))
		}
		return strings.Join(parts, ", ")
	}
	if v.CanInterface() {
		return fmt.Sprint(v.Interface())
	}
	return v.String()
}

// TableOf builds a table from a slice (or array) of structs or pointers to
// structs: one column per exported field (named by its json tag when it
// has one; "-" skips it; embedded structs are flattened), one row per
// element. columns, when given, selects and orders the columns by those
// names. A *Table or Tabler is returned as is.
func TableOf(rows any, columns ...string) (*Table, error) {
	switch x := rows.(type) {
	case *Table:
		return x, nil
	case Table:
		return &x, nil
	case Tabler:
		return x.Table(), nil
	}
	v := reflect.ValueOf(rows)
	for v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() != reflect.Slice && v.Kind() != reflect.Array {
		return nil, fmt.Errorf("kernel: cannot make a table of %T (want a slice of structs)", rows)
	}
	et := v.Type().Elem()
	for et.Kind() == reflect.Pointer {
		et = et.Elem()
	}
	if et.Kind() != reflect.Struct {
		return nil, fmt.Errorf("kernel: cannot make a table of %T (elements are not structs)", rows)
	}
	fields := tableFields(et, nil)
	if len(fields) == 0 {
		return nil, fmt.Errorf("kernel: %T has no exported fields to show", rows)
	}
	if len(columns) > 0 {
		byName := map[string]tableField{}
		for _, f := range fields {
			byName[f.name] = f
		}
		var sel []tableField
		for _, c := range columns {
			f, ok := byName[c]
			if !ok {
				names := make([]string, len(fields))
				for i, f := range fields {
					names[i] = f.name
				}
				return nil, fmt.Errorf("kernel: %T has no column %q (columns: %s)", rows, c, strings.Join(names, ", "))
			}
			sel = append(sel, f)
		}
		fields = sel
	}
	t := &Table{}
	for _, f := range fields {
		t.Columns = append(t.Columns, f.name)
	}
	for i := 0; i < v.Len(); i++ {
		e := v.Index(i)
		for e.Kind() == reflect.Pointer {
			if e.IsNil() {
				break
			}
			e = e.Elem()
		}
		row := make([]string, len(fields))
		if e.Kind() == reflect.Struct {
			for j, f := range fields {
				fv, err := e.FieldByIndexErr(f.index)
				if err == nil {
					row[j] = formatCell(fv, t.digits())
				}
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

type tableField struct {
	name  string
	index []int
}

// tableFields lists the exported fields of struct type t, flattening
// embedded structs.
func tableFields(t reflect.Type, prefix []int) []tableField {
	var out []tableField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		idx := append(append([]int(nil), prefix...), i)
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct && f.Type.Kind() != reflect.Pointer {
				out = append(out, tableFields(ft, idx)...)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, tableField{name: name, index: idx})
	}
	return out
}

// cell returns cell (r, c), or "" for a short row.
func (t *Table) cell(r, c int) string {
	if c < len(t.Rows[r]) {
		return t.Rows[r][c]
	}
	return ""
}

// numericColumn reports whether every non-empty cell of column c starts
// with a number (such columns are right-aligned and sort numerically).
func (t *Table) numericColumn(c int) bool {
	seen := false
	for r := range t.Rows {
		s := strings.TrimSpace(t.cell(r, c))
		if s == "" || s == "–" || s == "-" {
			continue
		}
		if _, ok := leadingNumber(s); !ok {
			return false
		}
		seen = true
	}
	return seen
}

// leadingNumber parses the number at the start of s ("85.96 ± 1.2" → 85.96,
// "12 %" → 12, "23/95" → 23).
func leadingNumber(s string) (float64, bool) {
	end := 0
	for end < len(s) && strings.ContainsRune("+-0123456789.eE", rune(s[end])) {
		end++
	}
	for end > 0 {
		if f, err := strconv.ParseFloat(s[:end], 64); err == nil {
			return f, true
		}
		end--
	}
	return 0, false
}

// Markdown returns the table as GitHub-flavoured Markdown (title in bold
// above, caption in italics below).
func (t *Table) Markdown() string {
	var b strings.Builder
	if t.Title != "" {
		fmt.Fprintf(&b, "**%s**\n\n", mdEscape(t.Title))
	}
	b.WriteString("|")
	for _, c := range t.Columns {
		b.WriteString(" " + mdEscape(c) + " |")
	}
	b.WriteString("\n|")
	for c := range t.Columns {
		if t.numericColumn(c) {
			b.WriteString("---:|")
		} else {
			b.WriteString("---|")
		}
	}
	b.WriteString("\n")
	for r := range t.Rows {
		b.WriteString("|")
		for c := range t.Columns {
			b.WriteString(" " + mdEscape(t.cell(r, c)) + " |")
		}
		b.WriteString("\n")
	}
	if t.Caption != "" {
		fmt.Fprintf(&b, "\n*%s*\n", mdEscape(t.Caption))
	}
	return b.String()
}

func mdEscape(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}

// CSV returns the table as CSV (header row first).
func (t *Table) CSV() string {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write(t.Columns)
	for r := range t.Rows {
		row := make([]string, len(t.Columns))
		for c := range row {
			row[c] = t.cell(r, c)
		}
		_ = w.Write(row)
	}
	w.Flush()
	return buf.String()
}

// sortScript sorts a table by the clicked header (numeric columns by their
// leading number); clicking again reverses. Defined once per page. Written
// by hand: a dozen lines are lighter than loading a table library into
// every notebook output.
const sortScript = `<script>
window.rpSortTable = window.rpSortTable || function(th) {
  var table = th.closest('table'), body = table.tBodies[0];
  var col = Array.prototype.indexOf.call(th.parentNode.children, th);
  var num = th.classList.contains('rp-num');
  var dir = th.getAttribute('data-dir') === 'asc' ? -1 : 1;
  Array.prototype.forEach.call(th.parentNode.children, function(h) { h.removeAttribute('data-dir'); });
  th.setAttribute('data-dir', dir === 1 ? 'asc' : 'desc');
  var rows = Array.prototype.slice.call(body.rows);
  rows.sort(function(a, b) {
    var x = a.cells[col].textContent.trim(), y = b.cells[col].textContent.trim();
    if (num) {
      var fx = parseFloat(x), fy = parseFloat(y);
      if (isNaN(fx)) fx = -Infinity; if (isNaN(fy)) fy = -Infinity;
      return dir * (fx - fy);
    }
    return dir * x.localeCompare(y);
  });
  rows.forEach(function(r) { body.appendChild(r); });
};
</script>`

const tableStyle = `<style>
table.rp-table { border-collapse: collapse; font-size: 0.9em; margin: 0.3em 0; }
table.rp-table th, table.rp-table td { padding: 0.2em 0.6em; border-bottom: 1px solid #ddd; }
table.rp-table th { cursor: pointer; border-bottom: 2px solid #444; text-align: left; user-select: none; }
table.rp-table th.rp-num, table.rp-table td.rp-num { text-align: right; font-variant-numeric: tabular-nums; }
table.rp-table th[data-dir=asc]::after { content: " ▲"; }
table.rp-table th[data-dir=desc]::after { content: " ▼"; }
table.rp-table caption { caption-side: top; font-weight: bold; text-align: left; padding-bottom: 0.3em; }
.rp-caption { font-size: 0.85em; color: #555; font-style: italic; }
</style>`

// HTML returns the table as an HTML fragment whose columns sort when their
// header is clicked.
func (t *Table) HTML() string {
	var b strings.Builder
	b.WriteString(tableStyle)
	b.WriteString(sortScript)
	b.WriteString(`<table class="rp-table">`)
	if t.Title != "" {
		b.WriteString("<caption>" + html.EscapeString(t.Title) + "</caption>")
	}
	num := make([]bool, len(t.Columns))
	b.WriteString("<thead><tr>")
	for c, name := range t.Columns {
		num[c] = t.numericColumn(c)
		class := ""
		if num[c] {
			class = ` class="rp-num"`
		}
		fmt.Fprintf(&b, `<th%s onclick="rpSortTable(this)" title="click to sort">%s</th>`, class, html.EscapeString(name))
	}
	b.WriteString("</tr></thead><tbody>")
	for r := range t.Rows {
		b.WriteString("<tr>")
		for c := range t.Columns {
			class := ""
			if num[c] {
				class = ` class="rp-num"`
			}
			fmt.Fprintf(&b, "<td%s>%s</td>", class, html.EscapeString(t.cell(r, c)))
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</tbody></table>")
	if t.Caption != "" {
		b.WriteString(`<div class="rp-caption">` + html.EscapeString(t.Caption) + "</div>")
	}
	return b.String()
}

// MatrixTable builds a table of values[r][c] with one row per row name
// (its first column headed corner) and one column per column name, for
// pivots such as an ablation over context lengths.
func MatrixTable(title, corner string, rows, columns []string, values [][]float64) *Table {
	t := NewTable(title, append([]string{corner}, columns...)...)
	for r, name := range rows {
		cells := []any{name}
		for c := range columns {
			var v any = ""
			if r < len(values) && c < len(values[r]) {
				v = values[r][c]
			}
			cells = append(cells, v)
		}
		t.Add(cells...)
	}
	return t
}
