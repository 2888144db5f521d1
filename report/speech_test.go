package report

import (
	"math"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/plots"
	"github.com/roleprint/roleprint/speech"
)

func TestProfileFigure(t *testing.T) {
	var ps []speech.Profile
	f0 := []float64{110, 240, 180, 130, 200}
	for i, name := range []string{"A", "B", "C", "D", "E"} {
		ps = append(ps, speech.Profile{Character: name, Utterances: 3, DurationS: float64(10 - i), F0MeanHz: f0[i],
			IntensityMeanDB: 60 + float64(i), SpeakingRateSylS: 3 + 0.1*float64(i)})
	}
	lv := speech.Bin(f0, speech.DefaultBinConfig())
	for i := range ps {
		ps[i].Pitch, ps[i].Energy, ps[i].Rate = lv[i], speech.Medium, speech.Medium // Energy, Rate: empty Low/High bins
	}
	g, err := ProfileFigure(ps, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Panels) != 3 {
		t.Fatalf("%d panels", len(g.Panels))
	}
	if _, err := plots.Bytes(g, plots.PNG, SizeFor(TwoColumn, 0.4)); err != nil {
		t.Fatal(err)
	}
	// One speaker order in every panel (by mean F0: A D C E B), one legend,
	// and the pitch bins' edges midway between neighbouring bins (Low A
	// 110 | Medium 130…200 | High B 240).
	for i, p := range g.Panels {
		if got := strings.Join(p.(*plots.Lines).XTicks, ""); got != "ADCEB" {
			t.Errorf("panel %d orders the speakers %s, want ADCEB", i, got)
		}
	}
	if e := g.Panels[0].(*plots.Lines).Guides; len(e) != 2 || e[0] != 120 || e[1] != 220 {
		t.Errorf("pitch bin edges %v, want [120 220]", e)
	}
	lay, err := plots.Inspect(g, SizeFor(TwoColumn, 0.4))
	if err != nil || lay.Legends != 1 {
		t.Errorf("legends: %d (%v), want one", lay.Legends, err)
	}
	ps[0].F0MeanHz = math.NaN()
	if _, err := ProfileFigure(ps[:1], 0); err == nil {
		t.Error("one character accepted")
	}
	tb := ProfileTable(ps)
	if tb.Plain(1, 3) != "240.0" || tb.Plain(1, 4) != "High" || tb.Plain(0, 3) != "–" {
		t.Errorf("table cells %q %q %q", tb.Plain(1, 3), tb.Plain(1, 4), tb.Plain(0, 3))
	}
}
