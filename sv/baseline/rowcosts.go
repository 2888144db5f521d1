package baseline

import "github.com/roleprint/roleprint/sv"

// baselineCosts are the committed cost models of the CPU baselines
// (sv/table2's DefaultEncoders), idle-equivalent seconds per round (see
// sv/table2's calibration). Measured 2026-12-02 on the shared 2-core machine at load
// 4–6 from the per-encoder timings (fit_s, embed_s, total_s) of two
// one-round runs, scaled by the runs' CPU time over their wall time (0.58:
// the baselines run on one core, which the load halved),
//
//	roleprint reproduce --encoders liwc,lsm,pos,glove,glove-sif,tfidf --mixed none --rounds 1
//	roleprint reproduce --encoders liwc,lsm,pos,glove,glove-sif,tfidf --mixed none --rounds 1 \
//	    annomi.parquet friends.parquet shakespeare.parquet tbbt.parquet
//
// (the embedded corpus: 9,243 eval utterances and 7,849 training texts;
// the four shared corpora: 19,415 and 66,121): fitting is linear in the
// training texts, embedding in the eval utterances, Fixed is loading
// (GloVe's vectors). pos tags each text once per process (its cache), so
// its per-round figures are 0.6 of the first round's, which is what three
// rounds average.
var baselineCosts = map[string]sv.RowCost{
	"liwc":      {PerEvalText: 2.6e-05, PerTrainText: 2e-05, Source: "committed (sv/baseline/rowcosts.go)"},
	"lsm":       {PerEvalText: 9.3e-06, Source: "committed (sv/baseline/rowcosts.go)"},
	"pos":       {Fixed: 1.2, PerEvalText: 9.9e-05, PerTrainText: 0.0001, Source: "committed (sv/baseline/rowcosts.go)"},
	"glove":     {Fixed: 0.7, PerEvalText: 1.7e-05, PerTrainText: 4.6e-06, Source: "committed (sv/baseline/rowcosts.go)"},
	"glove-sif": {Fixed: 0.058, PerEvalText: 1.5e-05, PerTrainText: 2.1e-05, Source: "committed (sv/baseline/rowcosts.go)"},
	"tfidf":     {Fixed: 0.17, PerEvalText: 8.1e-05, PerTrainText: 9.9e-05, Source: "committed (sv/baseline/rowcosts.go)"},
}

// registerBaselineRows makes the baselines candidates of the default Table
// 2 run, in the table's order: cheap on any backend, all in the quick
// preset; the GloVe rows need `roleprint setup glove`.
func registerBaselineRows() {
	for _, n := range []string{NameStyle, NameLSM, NamePOS, NameGloVe, NameGloVeSIF, NameTFIDF} {
		r := sv.Row{Name: n, Quick: true, Costs: map[string]sv.RowCost{"": baselineCosts[n]}}
		if n == NameGloVe || n == NameGloVeSIF {
			r.Assets = []string{"glove"}
		}
		sv.RegisterRow(r)
	}
}
