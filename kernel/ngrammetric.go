package kernel

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/roleprint/roleprint/plots"
	"github.com/roleprint/roleprint/sv"
	"github.com/roleprint/roleprint/sv/baseline"
	"github.com/roleprint/roleprint/sv/table2"
)

// Table2NgramMetric is notebook 03's first run: the default fine-tuned
// row, ngram-metric_ft, beside its untrained self (ngram-metric, tfidf
// and topic-masked tfidf with weights 1) and tfidf, with the preset's
// settings (the recipe `roleprint config ngram-metric_ft` prints); no
// mixed row. Quick mode runs it on the embedded corpus. The full run
// shares its (round, row) checkpoints with notebook 02's default run,
// which has the same rows and settings.
var Table2NgramMetric = Table2Run{
	Name:          "table2-ngram",
	Encoders:      []string{baseline.NameTFIDF, baseline.NameNgramMetric, baseline.NameNgramMetric + sv.FineTunedSuffix},
	Mixed:         []string{},
	QuickEmbedded: true,
}

// NgramMetricWeights reads the trained weights of row (an n-gram metric
// row, "ngram-metric_ft") in round (1-based) of t, a result of RunTable2,
// from the run's training folder under the output root's table2/
// checkpoints: each channel's features and weights (TopWeights) and the
// training curve on the dev pairs. The folder is shared by the notebooks
// of one output root, so weights that another run trained since (their
// training summary is not the row's) are an error saying how to recompute.
func (nb *Notebook) NgramMetricWeights(t *table2.Result, row string, round int) (*baseline.NgramMetricWeights, error) {
	var er *table2.EncoderRound
	for i := range t.PerRound {
		if p := &t.PerRound[i]; p.Encoder == row && p.Round == round {
			er = p
		}
	}
	if er == nil {
		return nil, nb.Report(fmt.Errorf("%s: no round %d of row %s in this run", baseline.NameNgramMetric, round, row))
	}
	cfg := t.Config
	cfg.CheckpointDir = nb.table2Checkpoints()
	w, err := baseline.ReadNgramMetricWeights(filepath.Join(cfg.EncoderWorkDir(round, row), "checkpoints"))
	if err != nil {
		return nil, nb.Report(fmt.Errorf("%s round %d: %w", row, round, err))
	}
	if w.Trained == "" || !strings.Contains(er.About, w.Trained) {
		return nil, nb.Report(fmt.Errorf("%s round %d: %s holds weights another run trained (its summary %q is not in the row's %q); recompute with %s=1",
			row, round, w.Path, w.Trained, er.About, FreshEnv))
	}
	return w, nil
}

// NgramMetricRounds is NgramMetricWeights for every round of t, in round
// order.
func (nb *Notebook) NgramMetricRounds(t *table2.Result, row string) ([]*baseline.NgramMetricWeights, error) {
	var out []*baseline.NgramMetricWeights
	for r := 1; r <= len(t.Rounds); r++ {
		w, err := nb.NgramMetricWeights(t, row, r)
		if err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, nil
}

// CurvePoint is one epoch of one round's training curve (TableOf).
type CurvePoint struct {
	Round     int     `json:"round"`
	Epoch     int     `json:"epoch"`
	TrainLoss float64 `json:"train_loss"`
	DevAUC    float64 `json:"dev_auc"`
	// Kept marks the epoch whose weights the row keeps (best dev AUC).
	Kept bool `json:"kept"`
}

// CurvePoints lists the training curves of rounds (rounds[i] is round
// i+1), epoch 0 being the untrained weights (no training loss).
func CurvePoints(rounds []*baseline.NgramMetricWeights) []CurvePoint {
	var out []CurvePoint
	for i, w := range rounds {
		for _, p := range w.Curve {
			out = append(out, CurvePoint{Round: i + 1, Epoch: p.Epoch, TrainLoss: p.TrainLoss, DevAUC: p.DevAUC, Kept: p.Epoch == w.BestEpoch})
		}
	}
	return out
}

// CurveFigure draws the dev AUC after each epoch, one line per round
// (rounds[i] is round i+1; epoch 0 is the untrained weights), with a gap
// where early stopping ended a round sooner than another. Rounds without a
// curve are an error.
func CurveFigure(rounds []*baseline.NgramMetricWeights) (*plots.Lines, error) {
	epochs := 0
	for i, w := range rounds {
		if len(w.Curve) == 0 {
			return nil, fmt.Errorf("round %d: %s holds no training curve (weights written without one)", i+1, w.Path)
		}
		epochs = max(epochs, w.Curve[len(w.Curve)-1].Epoch+1)
	}
	xs := make([]float64, epochs)
	for e := range xs {
		xs[e] = float64(e)
	}
	names := make([]string, len(rounds))
	ys := make([][]float64, len(rounds))
	for i, w := range rounds {
		names[i] = fmt.Sprintf("round %d (kept epoch %d)", i+1, w.BestEpoch)
		ys[i] = make([]float64, epochs)
		for e := range ys[i] {
			ys[i][e] = math.NaN()
		}
		for _, p := range w.Curve {
			ys[i][p.Epoch] = p.DevAUC
		}
	}
	l, err := plots.LinesOf(xs, names, ys)
	if err != nil {
		return nil, err
	}
	l.XLabel, l.YLabel = "Epoch (0 = untrained)", "Dev AUC"
	l.Legend = plots.LegendBelow
	return l, nil
}

// FeatureWeightsTable is a table of trained feature weights (TopWeights'
// lists) with every space of a feature shown as "␣", so that the word
// boundaries inside character n-grams stay visible in HTML, which collapses
// white space.
func FeatureWeightsTable(title string, fw []baseline.FeatureWeight) *Table {
	t := NewTable(title, "channel", "feature", "weight")
	for _, f := range fw {
		t.Add(f.Channel, strings.ReplaceAll(f.Feature, " ", "␣"), f.Weight)
	}
	return t
}
