package speech

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/data"
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

// corpusFixture builds utterances pointing at the committed clips; HORATIO
// speaks two spans of one file.
func corpusFixture() []data.Utterance {
	f := func(x float64) *float64 { return &x }
	u := func(speaker, file string, turn int32) data.Utterance {
		return data.Utterance{Source: "espeak", ConversationID: "c1", Turn: turn, Speaker: speaker,
			Text: "She sells sea shells by the shore.", AudioPath: file}
	}
	utts := []data.Utterance{
		u("HAMLET", "espeak/rate-en-m3-p50-s100.wav", 0),
		u("HAMLET", "espeak/rate-en-m3-p50-s180.wav", 1),
		u("OPHELIA", "espeak/voice-en-f2-p70-a.wav", 2),
		u("OPHELIA", "espeak/voice-en-f2-p70-b.wav", 3),
		u("GHOST", "espeak/voice-enus-m1-p30-a.wav", 4),
		u("GHOST", "espeak/voice-enus-m1-p30-b.wav", 5),
		u("HORATIO", "espeak/voice-gb-klatt-p90-a.wav", 6),
		u("HORATIO", "espeak/voice-gb-klatt-p90-b.wav", 7),
		{Source: "espeak", ConversationID: "c1", Turn: 8, Speaker: "HORATIO", Text: "no audio"},
	}
	utts[7].StartS, utts[7].EndS = f(0.2), f(1.8)
	return utts
}

func TestProfileCorpus(t *testing.T) {
	cfg := DefaultCorpusConfig()
	cfg.BaseDir = "testdata"
	var calls int
	cfg.Progress = func(done, total int) { calls++ }
	profiles, res, err := ProfileCorpus(context.Background(), corpusFixture(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 8 || calls == 0 {
		t.Fatalf("%d results (want 8: the row without audio is left out), %d progress calls", len(res), calls)
	}
	if res[7].End != 1.8 || math.Abs(res[7].Features.DurationS-1.6) > 1e-3 {
		t.Errorf("span row: %+v", res[7])
	}
	if len(profiles) != 4 {
		t.Fatalf("%d profiles", len(profiles))
	}
	// The bins must follow the order of the pooled values.
	check := func(name string, get func(Profile) float64, lvl func(Profile) Level) {
		var lo, hi Profile
		for i, p := range profiles {
			if i == 0 || get(p) < get(lo) {
				lo = p
			}
			if i == 0 || get(p) > get(hi) {
				hi = p
			}
		}
		if lvl(lo) != Low || lvl(hi) != High {
			t.Errorf("%s: lowest %s is %v, highest %s is %v", name, lo.Character, lvl(lo), hi.Character, lvl(hi))
		}
	}
	check("pitch", func(p Profile) float64 { return p.F0MeanHz }, func(p Profile) Level { return p.Pitch })
	check("energy", func(p Profile) float64 { return p.IntensityMeanDB }, func(p Profile) Level { return p.Energy })
	check("rate", func(p Profile) float64 { return p.SpeakingRateSylS }, func(p Profile) Level { return p.Rate })
	for _, p := range profiles {
		t.Logf("%s: %s", p.Character, p.Tags())
	}
	tags, err := ProfileTags(context.Background(), corpusFixture(), cfg)
	if err != nil || len(tags) != 4 || !strings.HasPrefix(tags["OPHELIA"], "Pitch: ") {
		t.Errorf("ProfileTags: %v %v", tags, err)
	}
}

func TestCorpusErrors(t *testing.T) {
	utts := corpusFixture()
	utts[3].AudioPath = "espeak/missing.wav"
	cfg := DefaultCorpusConfig()
	cfg.BaseDir = "testdata"
	_, _, err := ProfileCorpus(context.Background(), utts, cfg)
	if err == nil || !strings.Contains(err.Error(), "row 3") || !strings.Contains(err.Error(), "missing.wav") {
		t.Fatalf("missing audio: %v", err)
	}
	cfg.SkipBad = true
	profiles, res, err := ProfileCorpus(context.Background(), utts, cfg)
	if err != nil || len(profiles) != 4 || res[3].Skipped == "" || res[3].Err == nil {
		t.Fatalf("SkipBad: %v, %d profiles, row 3 %+v", err, len(profiles), res[3])
	}
	if _, err := AnalyzeUtterances(context.Background(), utts[8:], cfg, false); err == nil {
		t.Error("no audio at all: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := AnalyzeUtterances(ctx, corpusFixture(), cfg, false); err == nil {
		t.Error("cancelled context: no error")
	}
}

func TestSelectReferences(t *testing.T) {
	cfg := DefaultCorpusConfig()
	cfg.BaseDir = "testdata"
	refs, err := SelectReferences(context.Background(), corpusFixture(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(refs) != 4 {
		t.Fatalf("%d references", len(refs))
	}
	for _, r := range refs {
		if r.Clips != 2 || math.IsNaN(r.MeanCosine) || !strings.HasPrefix(filepath.Base(r.Audio), map[string]string{
			"HAMLET": "rate-", "OPHELIA": "voice-en-f2", "GHOST": "voice-enus", "HORATIO": "voice-gb"}[r.Character]) {
			t.Errorf("reference %+v", r)
		}
		if r.EndS <= r.StartS {
			t.Errorf("%s: span [%g, %g]", r.Character, r.StartS, r.EndS)
		}
	}
}
