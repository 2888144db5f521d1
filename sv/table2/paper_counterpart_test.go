package table2

import (
	"testing"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/sv"
)

// TestPaperCounterpartLIWC checks that the paper's LIWC row (LIWC
// categories scored by Language Style Matching) sits beside our "lsm" row,
// not beside the "liwc" style vector compared by cosine.
func TestPaperCounterpartLIWC(t *testing.T) {
	if got := sv.PaperCounterpart("lsm"); got != "LIWC" {
		t.Errorf("sv.PaperCounterpart(lsm) = %q, want LIWC", got)
	}
	if got := sv.PaperCounterpart("liwc"); got != "" {
		t.Errorf("sv.PaperCounterpart(liwc) = %q, want none", got)
	}
	if _, ok := PaperTable2Cell(sv.PaperCounterpart("lsm"), pairs.TestKey{Exposure: pairs.SeenSeen, Level: pairs.Base}); !ok {
		t.Error("no paper cell for lsm's counterpart")
	}
}
