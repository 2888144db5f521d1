package plots

import (
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

func TestColumnHeightAndSquareSize(t *testing.T) {
	if got := ColumnHeight(2.8); got.Width != ColumnWidth || got.Height != 2.8*vg.Inch || got.DPI != 300 {
		t.Errorf("ColumnHeight(2.8) = %+v", got)
	}
	if got := TextHeight(2.2); got.Width != TextWidth || got.Height != 2.2*vg.Inch {
		t.Errorf("TextHeight(2.2) = %+v", got)
	}
	if got := SquareSize(); got.Width != got.Height || got.Width != ColumnWidth {
		t.Errorf("SquareSize() = %+v", got)
	}
}

func TestLinesOfBuildsOneSeriesPerRow(t *testing.T) {
	l, err := LinesOf([]float64{4, 6}, []string{"a", "b"}, [][]float64{{1, 2}, {3, 4}})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.series) != 2 || l.series[1].name != "b" {
		t.Fatalf("series %+v", l.series)
	}
	if x, y := l.series[1].xy.XY(1); x != 6 || y != 4 {
		t.Errorf("b's second point (%v, %v), want (6, 4)", x, y)
	}
	if _, err := LinesOf([]float64{4, 6}, []string{"a"}, [][]float64{{1}}); err == nil || !strings.Contains(err.Error(), `"a"`) {
		t.Errorf("short series: %v", err)
	}
}
