package sv

import "sync"

var (
	counterpartMu sync.RWMutex
	counterparts  = map[string]string{}
)

// RegisterPaperCounterpart sets the paper's Table 2 model shown beside
// encoder in reports. The package that defines a row calls it in init
// (for example ("lsm", "LIWC"), or a Hub checkpoint's row beside the
// paper's model of that checkpoint), so a model package names its
// counterpart without importing the Table 2 runner.
func RegisterPaperCounterpart(encoder, paperModel string) {
	counterpartMu.Lock()
	defer counterpartMu.Unlock()
	counterparts[encoder] = paperModel
}

// PaperCounterpart returns the paper's model set beside encoder, or "":
// "lsm" sits beside LIWC (the paper's LIWC row is LIWC categories scored
// by LSM), "mixed" and "mixed_ft" beside Mixed Features, names of the
// paper's pretrained models ("luar", "sbert_ft", ...) beside theirs;
// "liwc" (our LIWC-like vector under cosine) beside none.
func PaperCounterpart(encoder string) string {
	counterpartMu.RLock()
	defer counterpartMu.RUnlock()
	return counterparts[encoder]
}
