package plots

import (
	"strings"
	"testing"
)

func TestNiceTicks(t *testing.T) {
	for _, c := range []struct {
		min, max float64
		want     string
	}{
		{0, 266, "0,50,100,150,200,250"},
		{0, 1, "0.0,0.2,0.4,0.6,0.8,1.0"},
		{0.45, 0.86, "0.5,0.6,0.7,0.8"},
		{-0.12, 0.33, "-0.1,0.0,0.1,0.2,0.3"},
		{1, 5, "1,2,3,4,5"}, {0, 0.06, "0.00,0.01,0.02,0.03,0.04,0.05,0.06"}, {0, 12.5, "0.0,2.5,5.0,7.5,10.0,12.5"},
		{0, 30000, "0,5000,10000,15000,20000,25000,30000"},
	} {
		var labels []string
		for _, tk := range (niceTicks{}).Ticks(c.min, c.max) {
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			}
		}
		if got := strings.Join(labels, ","); got != c.want {
			t.Errorf("[%v, %v]: %s, want %s", c.min, c.max, got, c.want)
		}
	}
	if ticks := (niceTicks{}).Ticks(1, 1); len(ticks) == 0 {
		t.Error("empty range: no ticks")
	}
}
