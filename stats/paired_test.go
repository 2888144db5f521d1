package stats

import (
	"math"
	"testing"
)

func TestPairedDifference(t *testing.T) {
	ci, share, n := PairedDifference([]float64{-1, 0, 1, 2, math.NaN()}, 0.5)
	if n != 4 || share != 0.5 || !(ci[0] < ci[1]) || ci[0] < -1 || ci[1] > 2 {
		t.Errorf("interval %v, share %v, n %d; want 4 defined, half not above, inside [-1, 2]", ci, share, n)
	}
	if ci, share, n := PairedDifference([]float64{math.NaN()}, 0.95); n != 0 || share.Defined() || ci.Defined() {
		t.Errorf("no defined replicate: %v %v %d", ci, share, n)
	}
}
