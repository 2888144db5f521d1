package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/plots"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
	"github.com/roleprint/roleprint/sv/table2"
	"gonum.org/v1/plot/vg"
)

// FigureOptions choose what a run's figures show and how large they are
// printed (the --figure-rows, --figure-size and --dpi flags). The zero
// value is the default: the default rows (FigureRows), one column 3.5 in
// wide, two columns 7 in, 300 DPI, no paper marks.
type FigureOptions struct {
	// Rows are rows (encoders) the Table 2 figures draw besides the
	// default selection; "all" draws every row.
	Rows []string
	// PaperMarks marks the paper's published values on the Table 2 bars.
	// Set it only where the run measured what the paper did (its corpora):
	// the paper never used the embedded corpus.
	PaperMarks bool
	// ColumnWidth is the width of a one-column figure in inches (0: 3.5);
	// two-column figures are twice as wide. Heights scale with the width
	// unless Height (inches) fixes every figure's height.
	ColumnWidth, Height float64
	// DPI is the resolution of PNG figures (0: 300).
	DPI int
	// DistributionSets, when set, says which sets the role-play
	// distributions (Figures 1–2) were drawn from, for their captions,
	// when they are not the sets the report scored ("chunked sets of 8
	// utterances …"); empty: the scored sets.
	DistributionSets string
}

// Size returns the export size of a figure of width w whose height is
// aspect × its width (see SizeFor), with the options applied.
func (o FigureOptions) Size(w Width, aspect float64) plots.Size {
	s := SizeFor(w, aspect)
	if o.ColumnWidth > 0 {
		f := vg.Length(o.ColumnWidth) * vg.Inch / plots.ColumnWidth
		s.Width, s.Height = s.Width*f, s.Height*f
	}
	if o.Height > 0 {
		s.Height = vg.Length(o.Height) * vg.Inch
	}
	if o.DPI > 0 {
		s.DPI = o.DPI
	}
	return s
}

// ParseFigureSize parses a --figure-size value, "W" or "WxH" in inches: the
// width of a one-column figure (two-column figures are twice as wide) and,
// optionally, the height of every figure. Each must lie in 1–20 in.
func ParseFigureSize(s string) (width, height float64, err error) {
	s = strings.TrimSpace(strings.ToLower(s))
	if s == "" {
		return 0, 0, nil
	}
	ws, hs, hasH := strings.Cut(s, "x")
	parse := func(v, what string) (float64, error) {
		x, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), "in"), 64)
		if err != nil || math.IsNaN(x) || x < 1 || x > 20 {
			return 0, fmt.Errorf("figure size %q: %s %q must be a number of inches in 1–20 (e.g. 3.5 or 3.5x2.5)", s, what, v)
		}
		return x, nil
	}
	if width, err = parse(ws, "width"); err != nil {
		return 0, 0, err
	}
	if hasH {
		if height, err = parse(hs, "height"); err != nil {
			return 0, 0, err
		}
	}
	return width, height, nil
}

// FigureRows returns the rows the Table 2 figures of res draw, in table
// order: the best untuned row and the best fine-tuned row (highest mean
// AUC over the nine test sets), for each paper model one of our rows set
// beside it (table2.PaperCounterpart; the best when several are), and the
// rows named in extra ("all": every row). A row whose every cell equals
// an earlier selected row's (same scores: mixed_ft when it fused one part)
// is drawn once; same lists such rows as "b = a". An unknown name in extra
// is an error naming the rows.
func FigureRows(res *table2.Result, extra []string) (rows, same []string, err error) {
	order := encoderOrder(res.Rows)
	mean := map[string]float64{}
	for _, enc := range order {
		var sum float64
		n := 0
		for _, r := range res.Rows {
			if r.Encoder == enc && r.AUCMean.Defined() {
				sum += float64(r.AUCMean)
				n++
			}
		}
		mean[enc] = math.NaN()
		if n > 0 {
			mean[enc] = sum / float64(n)
		}
	}
	pick := map[string]bool{}
	best := func(keep func(string) bool) string {
		out := ""
		for _, enc := range order {
			if keep(enc) && !math.IsNaN(mean[enc]) && (out == "" || mean[enc] > mean[out]) {
				out = enc
			}
		}
		return out
	}
	isFT := func(enc string) bool { _, ft := sv.SplitFineTuned(enc); return ft }
	pick[best(func(e string) bool { return !isFT(e) })] = true
	pick[best(isFT)] = true
	for _, enc := range order {
		if pm := sv.PaperCounterpart(enc); pm != "" {
			pick[best(func(e string) bool { return sv.PaperCounterpart(e) == pm })] = true
		}
	}
	for _, name := range extra {
		name = strings.TrimSpace(name)
		switch {
		case name == "":
		case name == "all":
			for _, enc := range order {
				pick[enc] = true
			}
		case slices.Contains(order, name):
			pick[name] = true
		default:
			return nil, nil, fmt.Errorf("figure rows: no row %q in this run (rows: %s)", name, strings.Join(order, ", "))
		}
	}
	for _, enc := range order {
		if !pick[enc] {
			continue
		}
		dup := ""
		for _, kept := range rows {
			if sameCells(res, kept, enc) {
				dup = kept
				break
			}
		}
		if dup != "" {
			same = append(same, enc+" = "+dup)
			continue
		}
		rows = append(rows, enc)
	}
	return rows, same, nil
}

// sameCells reports whether rows a and b of res are the same: the same
// pair scores in every round that kept them (Config.KeepScores), or,
// without kept scores, the same metrics on every test set.
func sameCells(res *table2.Result, a, b string) bool {
	compared := false
	for _, ea := range res.PerRound {
		if ea.Encoder != a {
			continue
		}
		for _, eb := range res.PerRound {
			if eb.Encoder != b || eb.Round != ea.Round {
				continue
			}
			for _, l := range pairs.Levels {
				for _, e := range pairs.Exposures {
					k := pairs.TestKey{Exposure: e, Level: l}
					sa, _, okA := ea.TestScores(k)
					sb, _, okB := eb.TestScores(k)
					if okA != okB || okA && !slices.Equal(sa, sb) {
						return false
					}
					compared = compared || okA
				}
			}
		}
	}
	if compared {
		return true
	}
	same := func(x, y stats.Float) bool { return x == y || !x.Defined() && !y.Defined() }
	for _, l := range pairs.Levels {
		for _, e := range pairs.Exposures {
			ra, okA := findRow(res.Rows, a, e, l)
			rb, okB := findRow(res.Rows, b, e, l)
			if okA != okB {
				return false
			}
			if okA && !(same(ra.AUCMean, rb.AUCMean) && same(ra.AUCStd, rb.AUCStd) && same(ra.AveragePrecisionMean, rb.AveragePrecisionMean) &&
				same(ra.ACCMean, rb.ACCMean) && same(ra.F1Mean, rb.F1Mean) && same(ra.EERMean, rb.EERMean)) {
				return false
			}
		}
	}
	return true
}

// RowLooks gives every row of res a fixed look index (plots.Style.Series):
// the figure rows first, in order, so that they take the palette's
// distinct solid colours, then the others. Every figure of a run uses it,
// so a row keeps its colour and dashes everywhere.
func RowLooks(res *table2.Result, figureRows []string) map[string]int {
	looks := map[string]int{}
	for _, enc := range append(append([]string(nil), figureRows...), encoderOrder(res.Rows)...) {
		if _, ok := looks[enc]; !ok {
			looks[enc] = len(looks)
		}
	}
	return looks
}

// ManifestOutputs returns the "outputs" a run's manifest (JSON) lists, nil
// when the file does not exist or when its "command" is not a run of
// subcommand (the second word; "" accepts any): a folder that another
// command wrote into keeps that command's files.
func ManifestOutputs(path, subcommand string) ([]string, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	var m struct {
		Command []string `json:"command"`
		Outputs []string `json:"outputs"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("report: %s: not a manifest (%v); delete it or choose another output folder", path, err)
	}
	if subcommand != "" && (len(m.Command) < 2 || m.Command[1] != subcommand) {
		return nil, nil
	}
	return m.Outputs, nil
}

// RemoveStale deletes what a previous run's manifest listed (previous) in
// dir and this run did not write (current), and returns it. An entry is a
// file, or a folder the run writes as a whole when it ends in "/" (a
// verifier bundle: "verifier/"). It never deletes anything else: a listed
// path that is absolute or leaves dir, a link, a folder listed without
// "/", or a file listed with one is left alone.
func RemoveStale(dir string, previous, current []string) ([]string, error) {
	keep := map[string]bool{}
	for _, c := range current {
		keep[filepath.Clean(filepath.FromSlash(c))] = true
	}
	var removed []string
	for _, p := range previous {
		folder := strings.HasSuffix(p, "/")
		rel := filepath.Clean(filepath.FromSlash(p))
		if keep[rel] || !filepath.IsLocal(rel) {
			continue
		}
		path := filepath.Join(dir, rel)
		fi, err := os.Lstat(path)
		if err != nil || folder && !fi.IsDir() || !folder && !fi.Mode().IsRegular() {
			continue
		}
		remove := os.Remove
		if folder {
			remove = os.RemoveAll
		}
		if err := remove(path); err != nil {
			return removed, fmt.Errorf("report: removing %s, written by the previous run: %w", path, err)
		}
		removed = append(removed, p)
	}
	return removed, nil
}
