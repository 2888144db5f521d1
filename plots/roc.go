package plots

import (
	"fmt"

	"gonum.org/v1/gonum/integrate"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"
)

// Labelled is a scored, labelled sample: the similarity of each test pair
// and whether the pair really is one speaker (positive).
type Labelled interface {
	Len() int
	// Scored returns the score of item i and whether it is a positive.
	Scored(i int) (score float64, positive bool)
}

// LabelledScores is a [Labelled] held in two parallel slices.
type LabelledScores struct {
	Scores   []float64
	Positive []bool
}

// Len implements Labelled.
func (l LabelledScores) Len() int { return len(l.Scores) }

// Scored implements Labelled.
func (l LabelledScores) Scored(i int) (float64, bool) { return l.Scores[i], l.Positive[i] }

// Curve is one named ROC curve.
type Curve struct {
	Name string
	Data Labelled
}

// ROC draws receiver-operating-characteristic curves, the AUC of each in
// the legend, and the chance diagonal.
type ROC struct {
	// Title, XLabel and YLabel label the figure (defaults: no title,
	// "False positive rate", "True positive rate").
	Title, XLabel, YLabel string
	// AUCDigits is the number of decimals of the AUC in the legend (default 3).
	AUCDigits int
	// AUCScale multiplies the AUC shown (default 1; 100 shows it ×100,
	// like tables that print percentages).
	AUCScale float64
	// Chance draws the dashed y = x line (default true).
	Chance bool
	// Legend places the legend (default LegendAuto: inside, bottom right).
	Legend LegendPosition
	// Style is the look (default PaperStyle).
	Style Style

	names    []string
	tpr, fpr [][]float64
	auc      []float64
}

// NewROC computes the ROC curve of each labelled sample with gonum's
// stat.ROC (every distinct score a threshold, so ties are exact) and its
// area by the trapezoidal rule. Each sample needs both classes, equal-length
// data and finite scores.
func NewROC(curves ...Curve) (*ROC, error) {
	if len(curves) == 0 {
		return nil, errorf("roc: no curves")
	}
	r := &ROC{XLabel: "False positive rate", YLabel: "True positive rate", AUCDigits: 3, Chance: true, Style: PaperStyle()}
	for ci, cv := range curves {
		if cv.Data == nil || cv.Data.Len() == 0 {
			return nil, errorf("roc: curve %d (%q) has no data", ci, cv.Name)
		}
		if ls, ok := cv.Data.(LabelledScores); ok && len(ls.Scores) != len(ls.Positive) {
			return nil, errorf("roc: curve %d (%q): %d scores but %d labels", ci, cv.Name, len(ls.Scores), len(ls.Positive))
		}
		n := cv.Data.Len()
		y := make([]float64, n)
		classes := make([]bool, n)
		var pos int
		for i := range n {
			y[i], classes[i] = cv.Data.Scored(i)
			if !finite(y[i]) {
				return nil, errorf("roc: curve %d (%q): score %d is %v", ci, cv.Name, i, y[i])
			}
			if classes[i] {
				pos++
			}
		}
		if pos == 0 || pos == n {
			return nil, errorf("roc: curve %d (%q) needs both positives and negatives (has %d of %d positive)", ci, cv.Name, pos, n)
		}
		stat.SortWeightedLabeled(y, classes, nil)
		tpr, fpr, _ := stat.ROC(nil, y, classes, nil)
		r.names = append(r.names, cv.Name)
		r.tpr = append(r.tpr, tpr)
		r.fpr = append(r.fpr, fpr)
		r.auc = append(r.auc, integrate.Trapezoidal(fpr, tpr))
	}
	return r, nil
}

// AUC returns the area under curve i.
func (r *ROC) AUC(i int) float64 { return r.auc[i] }

// Len returns the number of curves.
func (r *ROC) Len() int { return len(r.auc) }

// Render draws the figure on c.
func (r *ROC) Render(c draw.Canvas) error {
	b, err := r.build(withMargin(c), false)
	if err != nil {
		return err
	}
	b.draw(c)
	return nil
}

// build implements panel. Alone, the legend names each curve with its AUC;
// under a grid's shared legend the panel lists its curves' AUCs inside,
// bottom right, beside the curves' line styles.
func (r *ROC) build(c draw.Canvas, shared bool) (*built, error) {
	st := r.Style.orDefault()
	p := st.newPlot(r.Title, r.XLabel, r.YLabel, gridBoth)
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
	b := &built{p: p, st: st}
	var chance diagonal
	if r.Chance {
		chance = diagonal{style: chanceStyle()}
		p.Add(chance)
		b.chance = true
	}
	digits := r.AUCDigits
	if digits <= 0 {
		digits = 3
	}
	scale := r.AUCScale
	if scale <= 0 {
		scale = 1
	}
	idx := st.looks(r.names)
	for i := range r.auc {
		xy := make(plotter.XYs, len(r.fpr[i]))
		for k := range xy {
			xy[k].X, xy[k].Y = r.fpr[i][k], r.tpr[i][k]
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, errorf("roc: curve %q: %w", r.names[i], err)
		}
		l.LineStyle = st.Line(idx[i])
		p.Add(l)
		b.series = append(b.series, st.look(r.names[i], idx[i]))
		auc := fmt.Sprintf("%.*f", digits, scale*r.auc[i])
		if shared {
			b.entries = append(b.entries, legendEntry{name: r.names[i], thumbs: []plot.Thumbnailer{l}})
			p.Legend.Add("AUC "+auc, l)
			continue
		}
		b.entries = append(b.entries, legendEntry{name: fmt.Sprintf("%s (AUC %s)", r.names[i], auc), thumbs: []plot.Thumbnailer{l}})
	}
	if r.Chance {
		b.entries = append(b.entries, legendEntry{name: fmt.Sprintf("chance (AUC %g)", scale*0.5), thumbs: []plot.Thumbnailer{chance}})
	}
	b.pos = r.Legend
	if b.pos == LegendAuto {
		b.pos = LegendBottomRight
	}
	if shared {
		b.pos = LegendHidden
		placeLegendInside(p, LegendBottomRight)
	}
	return b, nil
}
