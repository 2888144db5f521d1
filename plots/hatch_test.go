package plots

import (
	"image/color"
	"testing"
)

// TestHatchFollowsPalettePasses checks that bar series reusing a palette
// colour get another hatching, and that the ink contrasts with the fill.
func TestHatchFollowsPalettePasses(t *testing.T) {
	st := PaperStyle()
	n := len(st.Palette)
	for i, want := range map[int]Hatch{0: HatchNone, n - 1: HatchNone, n: HatchForward, 2 * n: HatchBackward, 3 * n: HatchCross, 4 * n: HatchNone} {
		if got := st.Hatch(i); got != want {
			t.Errorf("series %d: hatch %d, want %d", i, got, want)
		}
	}
	if st.Color(1) == st.Color(1+n) && st.Hatch(1) == st.Hatch(1+n) {
		t.Error("series 1 and 1+len(palette) look the same")
	}
	if hatchInk(color.Black) != color.White || hatchInk(okabeYellow) != color.Black {
		t.Error("hatch ink does not contrast with its fill")
	}
}
