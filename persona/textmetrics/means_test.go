package textmetrics

import (
	"math"
	"testing"
)

func TestMeanRougeMeteorAndMeanF(t *testing.T) {
	c := []string{"the cat sat", "a dog ran far"}
	r := []string{"the cat sat", "the bird flew"}
	rl, m, _ := MeanRougeMeteor(c, r, RougeOptions{}, DefaultMeteorOptions())
	wantR := (RougeL(c[0], r[0], RougeOptions{}).F + RougeL(c[1], r[1], RougeOptions{}).F) / 2
	wantM := (Meteor(c[0], r[0], DefaultMeteorOptions()).Score + Meteor(c[1], r[1], DefaultMeteorOptions()).Score) / 2
	if math.Abs(rl-wantR) > 1e-12 || math.Abs(m-wantM) > 1e-12 || rl <= 0 || rl >= 1 {
		t.Errorf("rouge %v (want %v), meteor %v (want %v)", rl, wantR, m, wantM)
	}
	if rl, _, _ := MeanRougeMeteor(nil, nil, RougeOptions{}, DefaultMeteorOptions()); !math.IsNaN(rl) {
		t.Errorf("empty: %v", rl)
	}
	if got := MeanF([]PRF{{F: 0.2}, {F: 0.6}}); math.Abs(got-0.4) > 1e-12 {
		t.Errorf("MeanF %v", got)
	}
}
