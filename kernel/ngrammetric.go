package kernel

import (
	"fmt"
	"path/filepath"
	"strings"

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
	cfg.CheckpointDir = filepath.Join(nb.table2Dir(), "checkpoints")
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
