package kernel

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"html"
	"image/color"
	"math"
	"slices"
	"strings"
	"text/template"
	"time"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/comms"
	"github.com/janpfeifer/gonb/gonbui/protocol"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv/table2"
	"github.com/roleprint/roleprint/sv/verifier"
)

// The demos are interactive cells for teaching: input widgets in the
// notebook send their value to the cell's program through GoNB's comms
// (the gonb_comm JavaScript API in the browser, comms.Listen here), and
// the program redraws an output block with Display.UpdateHTML. GoNB's
// widgets package has buttons, selects and sliders but no text area, and
// its widgets wait without limit for the browser's first value, which
// never comes under nbconvert; the widget here is written the way GoNB
// writes its own (HTML plus a JavaScript template, widgets.js), with a
// time limit on that first value.

//go:embed widgets.js
var widgetJS string

var widgetTmpl = template.Must(template.New("widgets.js").Parse(widgetJS))

var (
	// frontEndWait is how long a demo waits for the browser's first value
	// before it concludes that no front end runs the notebook (nbconvert).
	frontEndWait = 10 * time.Second
	// demoIdle ends a demo after this long without input, so that a
	// notebook left open does not hold its kernel busy for ever.
	demoIdle = 30 * time.Minute
)

// widget is one input element in the notebook and the comms address its
// value is sent to.
type widget struct {
	kind, htmlID, address string
}

// newWidget returns a widget of kind ("textarea", "range") with a fresh
// element id and address.
func newWidget(kind string) widget {
	id := gonbui.UniqueId()
	return widget{kind: kind, htmlID: "roleprint_" + kind + "_" + id, address: "/roleprint/" + kind + "/" + id}
}

// script is the widget's JavaScript: it binds the element to its address.
func (w widget) script() string {
	var b bytes.Buffer
	if err := widgetTmpl.Execute(&b, struct{ Kind, HTMLID, Address string }{w.kind, w.htmlID, w.address}); err != nil {
		panic(fmt.Sprintf("kernel: widgets.js template: %v", err)) // the embedded template is fixed
	}
	return b.String()
}

// textArea is the HTML of a text area widget with a label.
func (w widget) textArea(label, placeholder string) string {
	return fmt.Sprintf(`<label style="display:block;flex:1;min-width:18em"><b>%s</b><br><textarea id="%s" rows="8" style="width:100%%;font-family:monospace" placeholder="%s"></textarea></label>`,
		html.EscapeString(label), w.htmlID, html.EscapeString(placeholder))
}

// slider is the HTML of a range widget from 0 to max at value.
func (w widget) slider(label string, max, value int) string {
	return fmt.Sprintf(`<label><b>%s</b> <input type="range" id="%s" min="0" max="%d" value="%d" step="1" style="width:28em"/></label>`,
		html.EscapeString(label), w.htmlID, max, value)
}

// demoInput is one value from a widget: which one (its index) and what.
type demoInput[T protocol.CommValueTypes] struct {
	from  int
	value T
}

// serveDemo listens to the widgets' addresses and calls update with each
// value, the latest of each widget first when values come faster than
// update runs. It returns when no value arrives within frontEndWait (no
// browser: it says so on nb.Stdout), after demoIdle without input, or
// when ctx is done (ctx.Err()).
func serveDemo[T protocol.CommValueTypes](ctx context.Context, nb *Notebook, name string, ws []widget, update func(from int, value T)) error {
	in := make(chan demoInput[T])
	stop := make(chan struct{})
	defer close(stop)
	for i, w := range ws {
		c := comms.Listen[T](w.address).LatestOnly()
		go func() {
			defer c.Close()
			for {
				select {
				case v := <-c.C:
					select {
					case in <- demoInput[T]{i, v}:
					case <-stop:
						return
					}
				case <-stop:
					return
				}
			}
		}()
	}
	timer := time.NewTimer(frontEndWait)
	defer timer.Stop()
	answered := false
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
			if !answered {
				fmt.Fprintf(nb.Stdout, "%s: no browser front end answered within %v (as under nbconvert): the widgets need the notebook open in Jupyter\n", name, frontEndWait)
			} else {
				fmt.Fprintf(nb.Stdout, "%s: ended after %v without input (run the cell again to continue)\n", name, demoIdle)
			}
			return nil
		case v := <-in:
			answered = true
			update(v.from, v.value)
			timer.Reset(demoIdle)
		}
	}
}

// showWidgets shows body and binds the widgets; the returned function
// removes the binding script (so a saved notebook does not rerun it).
func showWidgets(d Display, body string, ws []widget) func() {
	d.HTML(body)
	var js strings.Builder
	for _, w := range ws {
		js.WriteString(w.script())
	}
	id := "roleprint-widgets-js-" + gonbui.UniqueId()
	d.UpdateHTML(id, "<script>"+js.String()+"</script>")
	return func() { d.UpdateHTML(id, "") }
}

// VerifyDemo shows two text areas in the notebook: as a teacher types or
// pastes lines into them (one utterance per line, blank lines ignored),
// the verifier bundle in bundleDir judges the two sets as `roleprint
// verify` does (Verifier.Verify) and the cell shows its score, P(same),
// verdict, whether both sets are within its training text, and the
// training speakers nearest to each set (Verifier.NearestSets; a bundle
// saved without its training speakers says so in one row).
//
// It serves the widgets until ctx is done, 30 minutes pass without input,
// or the cell is stopped; when no browser answers (nbconvert) it says so
// in one line and returns. Outside a notebook (nb.Display nil) it does
// nothing.
func (nb *Notebook) VerifyDemo(ctx context.Context, bundleDir string) error {
	d := nb.Display
	if d == nil {
		return nil
	}
	v, err := verifier.Load(ctx, bundleDir, verifier.LoadOptions{})
	if err != nil {
		return err
	}
	defer v.Close()
	a, b := newWidget("textarea"), newWidget("textarea")
	out := "roleprint-verify-" + gonbui.UniqueId()
	head := fmt.Sprintf(`<div><p>Verifier <code>%s</code> (%s): type or paste one utterance per line in each box.</p><div style="display:flex;gap:1em">%s%s</div></div>`,
		html.EscapeString(bundleDir), html.EscapeString(v.Spec.Name),
		a.textArea("Set A", "one utterance per line"), b.textArea("Set B", "one utterance per line"))
	texts := [2]string{}
	d.UpdateHTML(out, verifyHTML(ctx, v, texts[0], texts[1]))
	done := showWidgets(d, head, []widget{a, b})
	defer done()
	return serveDemo(ctx, nb, "VerifyDemo", []widget{a, b}, func(from int, value string) {
		texts[from] = value
		d.UpdateHTML(out, verifyHTML(ctx, v, texts[0], texts[1]))
	})
}

// demoLines splits a text area's text into utterances: one per line, a
// line's trailing carriage return removed, blank lines left out.
func demoLines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimRight(l, "\r")
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// verifyHTML judges the two texts' lines with v and renders the verdict.
func verifyHTML(ctx context.Context, v *verifier.Verifier, textA, textB string) string {
	a, b := demoLines(textA), demoLines(textB)
	if len(a) == 0 || len(b) == 0 {
		return fmt.Sprintf(`<p><i>Set A has %d utterances, set B %d: type or paste at least one line in each.</i></p>`, len(a), len(b))
	}
	r, err := v.Verify(ctx, a, b)
	if err != nil {
		return `<p style="color:#b00"><b>verify:</b> ` + html.EscapeString(err.Error()) + `</p>`
	}
	var near [][]verifier.Neighbor
	if v.HasSpeakers() {
		if near, err = v.NearestSets(ctx, demoNearest, a, b); err != nil {
			return `<p style="color:#b00"><b>nearest training speakers:</b> ` + html.EscapeString(err.Error()) + `</p>`
		}
	}
	return verdictHTML(v, len(a), len(b), r, near)
}

// demoNearest is the number of nearest training speakers VerifyDemo
// names per set (as `roleprint verify`).
const demoNearest = 3

// verdictHTML renders a verdict on na and nb utterances: the numbers
// `roleprint verify` prints, the domain checks and the nearest training
// speakers of set A and set B (near; nil when the bundle records none).
func verdictHTML(v *verifier.Verifier, na, nb int, r verifier.Result, near [][]verifier.Neighbor) string {
	var s strings.Builder
	verdict, cmp, colour := "different speakers", "<", "#555"
	if r.Same {
		verdict, cmp, colour = "same speaker", "≥", "#060"
	}
	fmt.Fprintf(&s, `<p style="font-size:120%%"><b style="color:%s">%s</b>: P(same) %.3f %s %.2f</p>`, colour, verdict, r.Probability, cmp, r.Threshold)
	s.WriteString(`<table><tbody>`)
	row := func(k, v string) {
		fmt.Fprintf(&s, `<tr><th style="text-align:left">%s</th><td style="text-align:left">%s</td></tr>`, k, v)
	}
	score := fmt.Sprintf("%.4f", r.Score)
	if r.Cosine == nil {
		score += " (not a cosine: a part scores pairs itself)"
	}
	row("score", score)
	row("P(same)", fmt.Sprintf("%.3f (same speaker at ≥ %.2f; score threshold %.4f)", r.Probability, r.Threshold, float64(r.ScoreThreshold)))
	row("utterances", fmt.Sprintf("A %d, B %d", na, nb))
	switch {
	case r.InDomain == nil:
		row("in domain", "unknown: the bundle records no training domain")
	default:
		in := "yes"
		if !*r.InDomain {
			in = `<b style="color:#b00">no</b>: outside the verifier's training text (` + html.EscapeString(strings.Join(v.Domain.CorpusNames(), ", ")) + `), not to be trusted`
		}
		row("in domain", in)
		row("set A", html.EscapeString(domainLine(r.A)))
		row("set B", html.EscapeString(domainLine(r.B)))
	}
	if len(near) == 2 {
		row("nearest to A", html.EscapeString(neighbors(near[0])))
		row("nearest to B", html.EscapeString(neighbors(near[1])))
		row("similarity", html.EscapeString(v.Speakers.Space))
	} else {
		row("nearest training speakers", "not available: "+html.EscapeString(verifier.ErrNoSpeakers.Error()))
	}
	if v.Spec.Demonstration != "" {
		row("note", "a demonstration bundle: "+html.EscapeString(v.Spec.Demonstration))
	}
	s.WriteString(`</tbody></table>`)
	return s.String()
}

// domainLine is a domain check as one line.
func domainLine(c *verifier.DomainCheck) string {
	if c == nil {
		return "not checked"
	}
	in := "in domain"
	if !c.InDomain {
		in = "outside"
	}
	return in + ": " + c.String()
}

// neighbors is "Name (corpus) 0.412, …".
func neighbors(n []verifier.Neighbor) string {
	s := make([]string, len(n))
	for i, x := range n {
		s[i] = x.String()
	}
	return strings.Join(s, ", ")
}

// ThresholdDemo shows the ROC curve of one Table 2 row (encoder) on one
// test set (k) of one round, with a slider over the thresholds: at each
// threshold the cell marks the point on the curve and shows ACC, macro-F1,
// TPR and FPR of deciding "same speaker" at or above it, as Table 2
// computes them (stats.ConfusionAt). The slider starts at the run's
// dev-chosen threshold, whose ACC and F1 are the row's Table 2 cell. It
// needs the pair scores (Config.KeepScores).
//
// It serves the slider as VerifyDemo serves its text areas; outside a
// notebook (nb.Display nil) it does nothing.
func (nb *Notebook) ThresholdDemo(ctx context.Context, t *table2.Result, k pairs.TestKey, round int, encoder string) error {
	d := nb.Display
	if d == nil {
		return nil
	}
	sw, dev, err := sweepOf(t, k, round, encoder)
	if err != nil {
		return err
	}
	title := fmt.Sprintf("%s on %s (round %d)", encoder, k, round)
	start := sw.position(dev)
	w := newWidget("range")
	out := "roleprint-threshold-" + gonbui.UniqueId()
	render := func(i int) {
		h, err := sw.html(i, dev, title)
		if err != nil {
			h = `<p style="color:#b00">` + html.EscapeString(err.Error()) + `</p>`
		}
		d.UpdateHTML(out, h)
	}
	render(start)
	done := showWidgets(d, `<div>`+w.slider("threshold", sw.Len()-1, start)+`</div>`, []widget{w})
	defer done()
	return serveDemo(ctx, nb, "ThresholdDemo", []widget{w}, func(_ int, i int) { render(i) })
}

// sweepOf finds encoder's pair scores on k in round and the dev-chosen
// threshold its ACC and F1 used (table2.DecisionRule: k's level).
func sweepOf(t *table2.Result, k pairs.TestKey, round int, encoder string) (*thresholdSweep, float64, error) {
	if t == nil {
		return nil, 0, fmt.Errorf("threshold demo: no Table 2 result")
	}
	for i := range t.PerRound {
		er := &t.PerRound[i]
		if er.Round != round || er.Encoder != encoder {
			continue
		}
		scores, labels, ok := er.TestScores(k)
		if !ok {
			return nil, 0, fmt.Errorf("threshold demo: %s in round %d has no pair scores of %s (run Table 2 with KeepScores)", encoder, round, k)
		}
		sw, err := newThresholdSweep(scores, labels)
		if err != nil {
			return nil, 0, fmt.Errorf("threshold demo: %s on %s, round %d: %w", encoder, k, round, err)
		}
		return sw, float64(er.Cells[k.String()].Threshold), nil
	}
	return nil, 0, fmt.Errorf("threshold demo: no row %q in round %d of this Table 2 result", encoder, round)
}

// thresholdSweep holds one test set's pair scores and labels and the
// thresholds a slider steps through: every distinct score (deciding
// "same" at or above it), then one above the highest (all "different").
type thresholdSweep struct {
	scores   []float64
	labels   []bool
	cuts     []float64 // ascending; the last is above every score
	fpr, tpr []float64 // the ROC curve (gonum stat.ROC)
	auc      float64   // stats.AUC, as Table 2's AUC column
}

// newThresholdSweep checks the scores (equal lengths, finite, both
// classes) and computes the ROC curve.
func newThresholdSweep(scores []float64, labels []bool) (*thresholdSweep, error) {
	if len(scores) != len(labels) {
		return nil, fmt.Errorf("%d scores but %d labels", len(scores), len(labels))
	}
	pos := 0
	for i, s := range scores {
		if math.IsNaN(s) || math.IsInf(s, 0) {
			return nil, fmt.Errorf("pair %d's score is %v", i+1, s)
		}
		if labels[i] {
			pos++
		}
	}
	if pos == 0 || pos == len(scores) {
		return nil, fmt.Errorf("an ROC needs same- and different-speaker pairs (%d of %d are same-speaker)", pos, len(scores))
	}
	cuts := slices.Clone(scores)
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	cuts = append(cuts, math.Nextafter(cuts[len(cuts)-1], math.Inf(1)))
	y, c := slices.Clone(scores), slices.Clone(labels)
	stat.SortWeightedLabeled(y, c, nil)
	tpr, fpr, _ := stat.ROC(nil, y, c, nil)
	return &thresholdSweep{scores: scores, labels: labels, cuts: cuts, fpr: fpr, tpr: tpr, auc: stats.AUC(scores, labels)}, nil
}

// Len is the number of slider positions.
func (s *thresholdSweep) Len() int { return len(s.cuts) }

// position is the slider position whose decisions equal deciding "same"
// at or above threshold: the lowest cut at or above it (the middle one
// for a NaN threshold).
func (s *thresholdSweep) position(threshold float64) int {
	if math.IsNaN(threshold) {
		return len(s.cuts) / 2
	}
	i, _ := slices.BinarySearch(s.cuts, threshold)
	return min(i, len(s.cuts)-1)
}

// rocPoint is the outcome of one threshold.
type rocPoint struct {
	Threshold     float64
	Confusion     stats.Confusion
	ACC, F1       float64
	TPR, FPR      float64
	Position, Max int
}

// at is the point of slider position i (clamped to the range).
func (s *thresholdSweep) at(i int) rocPoint {
	i = max(0, min(i, len(s.cuts)-1))
	c := stats.ConfusionAt(s.scores, s.labels, s.cuts[i])
	return rocPoint{Threshold: s.cuts[i], Confusion: c, ACC: c.Accuracy(), F1: c.MacroF1(),
		TPR: float64(c.TP) / float64(c.TP+c.FN), FPR: float64(c.FP) / float64(c.FP+c.TN), Position: i, Max: len(s.cuts) - 1}
}

// html renders slider position i: the ROC with the point marked (and the
// dev-chosen threshold's point, hollow) and a table of its numbers.
func (s *thresholdSweep) html(i int, dev float64, title string) (string, error) {
	p := s.at(i)
	var devPoint *rocPoint
	if !math.IsNaN(dev) {
		q := s.at(s.position(dev))
		devPoint = &q
	}
	svg, err := s.svg(p, devPoint, title)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(`<div style="display:flex;gap:1.5em;align-items:center">`)
	b.WriteString(svg)
	thr := fmt.Sprintf("score ≥ %.4f", p.Threshold)
	if p.Position == p.Max {
		thr = fmt.Sprintf("score > %.4f (every pair \"different\")", s.cuts[len(s.cuts)-2])
	}
	fmt.Fprintf(&b, `<table><tbody><tr><th style="text-align:left">same speaker at</th><td>%s</td></tr>`, html.EscapeString(thr))
	fmt.Fprintf(&b, `<tr><th style="text-align:left">ACC</th><td>%.2f</td></tr><tr><th style="text-align:left">macro-F1</th><td>%.2f</td></tr>`, 100*p.ACC, 100*p.F1)
	fmt.Fprintf(&b, `<tr><th style="text-align:left">TPR</th><td>%.3f</td></tr><tr><th style="text-align:left">FPR</th><td>%.3f</td></tr>`, p.TPR, p.FPR)
	fmt.Fprintf(&b, `<tr><th style="text-align:left">AUC</th><td>%.2f (any threshold)</td></tr>`, 100*s.auc)
	fmt.Fprintf(&b, `<tr><th style="text-align:left">TP FP TN FN</th><td>%d %d %d %d</td></tr>`, p.Confusion.TP, p.Confusion.FP, p.Confusion.TN, p.Confusion.FN)
	if devPoint != nil {
		fmt.Fprintf(&b, `<tr><th style="text-align:left">dev-chosen</th><td>score ≥ %.4f: ACC %.2f, F1 %.2f (Table 2)</td></tr>`, dev, 100*devPoint.ACC, 100*devPoint.F1)
	}
	b.WriteString(`</tbody></table></div>`)
	return b.String(), nil
}

// svg draws the ROC curve, the chance diagonal, the point p (filled) and
// the dev-chosen point (hollow, when not nil) with gonum/plot.
func (s *thresholdSweep) svg(p rocPoint, dev *rocPoint, title string) (string, error) {
	pl := plot.New()
	pl.Title.Text = title
	pl.X.Label.Text, pl.Y.Label.Text = "False positive rate", "True positive rate"
	pl.X.Min, pl.X.Max, pl.Y.Min, pl.Y.Max = 0, 1, 0, 1
	chance, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
	if err != nil {
		return "", err
	}
	chance.Color, chance.Dashes = plotter.DefaultLineStyle.Color, []vg.Length{vg.Points(3), vg.Points(2)}
	xy := make(plotter.XYs, len(s.fpr))
	for k := range xy {
		xy[k].X, xy[k].Y = s.fpr[k], s.tpr[k]
	}
	curve, err := plotter.NewLine(xy)
	if err != nil {
		return "", err
	}
	curve.Width = vg.Points(1.5)
	pl.Add(chance, curve)
	if dev != nil {
		d, err := plotter.NewScatter(plotter.XYs{{X: dev.FPR, Y: dev.TPR}})
		if err != nil {
			return "", err
		}
		d.GlyphStyle = draw.GlyphStyle{Shape: draw.RingGlyph{}, Radius: vg.Points(5), Color: color.Black}
		pl.Add(d)
		pl.Legend.Add("dev-chosen threshold", d)
	}
	pt, err := plotter.NewScatter(plotter.XYs{{X: p.FPR, Y: p.TPR}})
	if err != nil {
		return "", err
	}
	pt.GlyphStyle = draw.GlyphStyle{Shape: draw.CircleGlyph{}, Radius: vg.Points(4), Color: color.RGBA{R: 0xc0, A: 0xff}}
	pl.Add(pt)
	pl.Legend.Add("slider threshold", pt)
	pl.Legend.Top, pl.Legend.Left = false, false
	w, err := pl.WriterTo(4*vg.Inch, 4*vg.Inch, "svg")
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if _, err := w.WriteTo(&b); err != nil {
		return "", err
	}
	out := b.String()
	if i := strings.Index(out, "<svg"); i > 0 {
		out = out[i:] // inline: no XML declaration
	}
	return out, nil
}
