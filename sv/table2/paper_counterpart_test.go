package table2

import (
	"testing"

	"github.com/roleprint/roleprint/data/pairs"
)

// TestPaperCounterpartLIWC checks that the paper's LIWC row (LIWC
// categories scored by Language Style Matching) sits beside our "lsm" row,
// not beside the "liwc" style vector compared by cosine.
func TestPaperCounterpartLIWC(t *testing.T) {
	if got := PaperCounterpart("lsm"); got != "LIWC" {
		t.Errorf("PaperCounterpart(lsm) = %q, want LIWC", got)
	}
	if got := PaperCounterpart("liwc"); got != "" {
		t.Errorf("PaperCounterpart(liwc) = %q, want none", got)
	}
	if _, ok := PaperTable2Cell(PaperCounterpart("lsm"), pairs.TestKey{Exposure: pairs.SeenSeen, Level: pairs.Base}); !ok {
		t.Error("no paper cell for lsm's counterpart")
	}
}
