package table2

// BaselineCosts are the committed cost models of the CPU baselines
// (DefaultEncoders), idle-equivalent seconds per round (see
// CalibrateRow). Measured 2026-12-02 on the shared 2-core machine at load
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
var BaselineCosts = map[string]RowCost{
	"liwc":      {PerEvalText: 2.6e-05, PerTrainText: 2e-05, Source: "committed (sv/table2_basecost.go)"},
	"lsm":       {PerEvalText: 9.3e-06, Source: "committed (sv/table2_basecost.go)"},
	"pos":       {Fixed: 1.2, PerEvalText: 9.9e-05, PerTrainText: 0.0001, Source: "committed (sv/table2_basecost.go)"},
	"glove":     {Fixed: 0.7, PerEvalText: 1.7e-05, PerTrainText: 4.6e-06, Source: "committed (sv/table2_basecost.go)"},
	"glove-sif": {Fixed: 0.058, PerEvalText: 1.5e-05, PerTrainText: 2.1e-05, Source: "committed (sv/table2_basecost.go)"},
	"tfidf":     {Fixed: 0.17, PerEvalText: 8.1e-05, PerTrainText: 9.9e-05, Source: "committed (sv/table2_basecost.go)"},
}
