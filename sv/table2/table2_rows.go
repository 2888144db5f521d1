package table2

import (
	"encoding/json"
	"math"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
)

// Row is one encoder on one test set, aggregated over rounds: the
// unit of every report (Markdown, CSV, Parquet, JSON). Metric values are
// fractions in [0, 1] (the Markdown table prints them ×100, as the paper);
// _std is the sample standard deviation over rounds (n−1 in the
// denominator, gonum's stat.MeanStdDev), NaN — null in JSON — with one
// round. Rounds counts the rounds with a defined value.
type Row struct {
	// Encoder is the row name; Exposure and Level name the test set.
	Encoder  string `json:"encoder" parquet:"encoder,dict"`
	Exposure string `json:"exposure" parquet:"exposure,dict"`
	Level    string `json:"level" parquet:"level,dict"`
	// AUC, ACC (accuracy) and F1 (macro-F1): ACC and F1 at the threshold
	// DecisionRule chooses on the dev pairs (of the row's level); _Mean
	// over rounds, _Std their sample standard deviation.
	AUCMean stats.Float `json:"auc_mean" parquet:"auc_mean"`
	AUCStd  stats.Float `json:"auc_std" parquet:"auc_std"`
	// AveragePrecision is the average precision of the test scores
	// (CellMetrics.AveragePrecision), mean and std over rounds.
	AveragePrecisionMean stats.Float `json:"average_precision_mean" parquet:"average_precision_mean"`
	AveragePrecisionStd  stats.Float `json:"average_precision_std" parquet:"average_precision_std"`
	ACCMean              stats.Float `json:"acc_mean" parquet:"acc_mean"`
	ACCStd               stats.Float `json:"acc_std" parquet:"acc_std"`
	F1Mean               stats.Float `json:"f1_mean" parquet:"f1_mean"`
	F1Std                stats.Float `json:"f1_std" parquet:"f1_std"`
	// BestACC and BestF1: at the best threshold on the test set itself.
	BestACCMean stats.Float `json:"best_acc_mean" parquet:"best_acc_mean"`
	BestACCStd  stats.Float `json:"best_acc_std" parquet:"best_acc_std"`
	BestF1Mean  stats.Float `json:"best_f1_mean" parquet:"best_f1_mean"`
	BestF1Std   stats.Float `json:"best_f1_std" parquet:"best_f1_std"`
	// DecisionRule states the row's decision rule (rowDecisionRule): the
	// dev pairs its threshold is chosen on, and any round where its level's
	// dev pairs could not choose one.
	DecisionRule string `json:"decision_rule" parquet:"decision_rule,dict"`
	// EER is the equal error rate.
	EERMean stats.Float `json:"eer_mean" parquet:"eer_mean"`
	EERStd  stats.Float `json:"eer_std" parquet:"eer_std"`
	// Rounds counts the rounds whose AUC is defined.
	Rounds int `json:"rounds" parquet:"rounds"`
	// Pairs is the mean number of test pairs per round.
	Pairs int `json:"pairs" parquet:"pairs"`
	// PaperModel names the row of the paper's Table 2 this encoder is set
	// beside (see PaperCounterpart), empty when none; PaperAUC, PaperACC
	// and PaperF1 are that row's published means (fractions, NaN when
	// none).
	PaperModel string      `json:"paper_model,omitempty" parquet:"paper_model,optional,dict"`
	PaperAUC   stats.Float `json:"paper_auc" parquet:"paper_auc"`
	PaperACC   stats.Float `json:"paper_acc" parquet:"paper_acc"`
	PaperF1    stats.Float `json:"paper_f1" parquet:"paper_f1"`
}

// aggregateRows turns per-round results into rows: for each encoder in
// order, each level (Base, Hard, Harder) and exposure (Seen-Seen,
// Seen-Unseen, Unseen-Unseen), the mean and standard deviation over rounds
// of each metric. Encoders without results are left out.
func aggregateRows(perRound []EncoderRound, order []string, crit stats.Criterion) []Row {
	var rows []Row
	for _, enc := range order {
		var rs []EncoderRound
		for _, r := range perRound {
			if r.Encoder == enc {
				rs = append(rs, r)
			}
		}
		if len(rs) == 0 {
			continue
		}
		for _, k := range allTestKeys() {
			row := aggregateCell(enc, k, rs)
			row.DecisionRule = rowDecisionRule(crit, k.Level, rs)
			rows = append(rows, row)
		}
	}
	return rows
}

func aggregateCell(enc string, k pairs.TestKey, rs []EncoderRound) Row {
	row := Row{Encoder: enc, Exposure: string(k.Exposure), Level: string(k.Level)}
	get := func(f func(CellMetrics) stats.Float) (mean, std stats.Float, n int) {
		var xs []float64
		for _, r := range rs {
			x := float64(f(r.Cells[k.String()]))
			if !math.IsNaN(x) {
				xs = append(xs, x)
			}
		}
		m, s := stats.MeanStd(xs)
		return stats.Float(m), stats.Float(s), len(xs)
	}
	row.AUCMean, row.AUCStd, row.Rounds = get(func(c CellMetrics) stats.Float { return c.AUC })
	row.AveragePrecisionMean, row.AveragePrecisionStd, _ = get(func(c CellMetrics) stats.Float { return c.AveragePrecision })
	row.ACCMean, row.ACCStd, _ = get(func(c CellMetrics) stats.Float { return c.ACC })
	row.F1Mean, row.F1Std, _ = get(func(c CellMetrics) stats.Float { return c.F1 })
	row.BestACCMean, row.BestACCStd, _ = get(func(c CellMetrics) stats.Float { return c.BestACC })
	row.BestF1Mean, row.BestF1Std, _ = get(func(c CellMetrics) stats.Float { return c.BestF1 })
	row.EERMean, row.EERStd, _ = get(func(c CellMetrics) stats.Float { return c.EER })
	var pairList int
	for _, r := range rs {
		pairList += r.Cells[k.String()].Pairs
	}
	row.Pairs = int(math.Round(float64(pairList) / float64(len(rs))))
	row.PaperAUC, row.PaperACC, row.PaperF1 = stats.Float(math.NaN()), stats.Float(math.NaN()), stats.Float(math.NaN())
	if pm := sv.PaperCounterpart(enc); pm != "" {
		if p, ok := PaperTable2Cell(pm, k); ok {
			row.PaperModel = pm
			row.PaperAUC, row.PaperACC, row.PaperF1 = fromPercent(p.AUC.Mean), fromPercent(p.ACC.Mean), fromPercent(p.F1.Mean)
		}
	}
	return row
}

// MarshalJSON writes the row's fields under their JSON names and repeats
// BestACCMean and BestACCStd as acc_best_mean and acc_best_std, the names
// `roleprint eval` gives the best-threshold accuracy, so that the two
// commands' rows read alike.
func (r Row) MarshalJSON() ([]byte, error) {
	type plain Row
	return json.Marshal(struct {
		plain
		AccBestMean stats.Float `json:"acc_best_mean"`
		AccBestStd  stats.Float `json:"acc_best_std"`
	}{plain(r), r.BestACCMean, r.BestACCStd})
}

// fromPercent turns a published percentage (two decimals) into a fraction
// without binary noise (52.56 → 0.5256, not 0.5256000000000001).
func fromPercent(p float64) stats.Float { return stats.Float(math.Round(p*100) / 10000) }
