package speech

import (
	"math"
	"strings"
	"testing"
)

func TestBin(t *testing.T) {
	L, M, H, U := Low, Medium, High, Unknown
	cases := []struct {
		in   []float64
		want []Level
	}{
		{[]float64{5}, []Level{M}},
		{[]float64{1, 2}, []Level{M, M}},
		{[]float64{3, 1, 2}, []Level{H, L, M}},
		{[]float64{5, 1, 4, 2, 3}, []Level{H, L, M, M, M}},
		{[]float64{10, 1, 9, 2, 8, 3, 7, 4, 6, 5}, []Level{H, L, H, L, M, M, M, M, M, M}},
		{[]float64{1, 1, 2, 3, 4}, []Level{M, M, M, M, H}},    // tied lowest pair: average rank 1.5 > 1
		{[]float64{math.NaN(), 3, 1, 2}, []Level{U, H, L, M}}, // NaN is not ranked
	}
	for _, tc := range cases {
		got := Bin(tc.in, DefaultBinConfig())
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("Bin(%v) = %v, want %v", tc.in, got, tc.want)
				break
			}
		}
	}
	// 20/60/20 over 100 characters.
	vals := make([]float64, 100)
	for i := range vals {
		vals[(i*37)%100] = float64(i)
	}
	count := map[Level]int{}
	for _, l := range Bin(vals, DefaultBinConfig()) {
		count[l]++
	}
	if count[Low] != 20 || count[Medium] != 60 || count[High] != 20 {
		t.Errorf("100 characters binned %v, want 20/60/20", count)
	}
}

func TestBuildProfilesPools(t *testing.T) {
	nan := math.NaN()
	by := map[string][]*Features{
		"A": {
			{DurationS: 1, F0MeanHz: 100, VoicedFrames: 10, IntensityMeanDB: 60, Syllables: 4},
			{DurationS: 3, F0MeanHz: 200, VoicedFrames: 30, IntensityMeanDB: 70, Syllables: 8},
		},
		"B": {{DurationS: 2, F0MeanHz: nan, VoicedFrames: 0, IntensityMeanDB: 50, Syllables: 2}},
		"C": {{DurationS: 2, F0MeanHz: 300, VoicedFrames: 5, IntensityMeanDB: 80, Syllables: 20}},
	}
	ps, err := BuildProfiles(by, DefaultBinConfig())
	if err != nil {
		t.Fatal(err)
	}
	a := ps[0]
	wantDB := 10 * math.Log10((1e6*1+1e7*3)/4)
	if a.Character != "A" || a.Utterances != 2 || a.DurationS != 4 || math.Abs(a.F0MeanHz-175) > 1e-9 ||
		math.Abs(a.IntensityMeanDB-wantDB) > 1e-9 || a.SpeakingRateSylS != 3 {
		t.Errorf("A pooled to %+v (want F0 175, %.3f dB, 3 syl/s)", a, wantDB)
	}
	b := ps[1]
	if !math.IsNaN(b.F0MeanHz) || b.Pitch != Unknown || !strings.Contains(b.Tags(), "Pitch: Unknown (mean F0 not measured)") {
		t.Errorf("B: %+v, tags %q", b, b.Tags())
	}
	// Energy of 3 characters: one Low, one Medium, one High.
	if ps[1].Energy != Low || ps[0].Energy != Medium || ps[2].Energy != High || ps[2].Rate != High {
		t.Errorf("bins: %+v", ps)
	}
	if got := ps[2].Tags(); got != "Pitch: Medium (mean F0 300 Hz); Energy: High (80.0 dB); Speaking rate: High (10.0 syllables/s)" {
		t.Errorf("tags %q", got)
	}
	if out := RenderProfiles(ps); strings.Count(out, "\n") != 3 || !strings.HasPrefix(out, "A: Pitch: ") {
		t.Errorf("RenderProfiles:\n%s", out)
	}
	if _, err := BuildProfiles(nil, DefaultBinConfig()); err == nil {
		t.Error("no characters: no error")
	}
}
