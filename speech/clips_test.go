package speech

import (
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/stats"
)

func TestClipName(t *testing.T) {
	if got := ClipName("a/b/voice-en-f2-p70-a.wav"); got != "voice-en-f2-p70-a" {
		t.Errorf("ClipName = %q", got)
	}
}

// TestRateSweepOf checks the name parsing and the order on hand-made
// features: non-rate clips and unparsable settings are left out.
func TestRateSweepOf(t *testing.T) {
	f := func(name string, rate float64) *Features { return &Features{File: name, SpeakingRateSylS: rate} }
	r := RateSweepOf([]*Features{f("rate-x-p50-s300", 6), f("voice-x-s100", 9), f("rate-x-s100", 2), f("rate-x-sfast", 7),
		f("pause-x", 1), f("rate-y-s180", 4)})
	if !slices.Equal(r.Setting, []float64{100, 180, 300}) || !slices.Equal(r.Measured, []float64{2, 4, 6}) {
		t.Errorf("sweep %+v, want settings 100,180,300 and rates 2,4,6", r)
	}
	if x, y := r.XY(1); r.Len() != 3 || x != 180 || y != 4 {
		t.Errorf("Len %d, XY(1) = %g, %g", r.Len(), x, y)
	}
	if r := RateSweepOf(nil); r.Len() != 0 {
		t.Errorf("empty sweep has %d points", r.Len())
	}
}

func TestGroupFeatures(t *testing.T) {
	a, b, c := &Features{File: "voice-v-a"}, &Features{File: "rate-w"}, &Features{File: "voice-v-b"}
	g := GroupFeatures([]*Features{a, b, c}, func(f *Features) string { return strings.Split(f.File, "-")[0] })
	if len(g) != 2 || !slices.Equal(g["voice"], []*Features{a, c}) || !slices.Equal(g["rate"], []*Features{b}) {
		t.Errorf("groups %v", g)
	}
}

// TestClipFilesOnESpeak runs the file helpers on the eSpeak rate clips and
// checks them against the per-file functions they wrap.
func TestClipFilesOnESpeak(t *testing.T) {
	paths, _ := filepath.Glob("testdata/espeak/rate-*.wav")
	if len(paths) != 5 {
		t.Fatalf("%d rate clips, want 5", len(paths))
	}
	fs, err := AnalyzeFiles(paths, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range fs {
		one, err := AnalyzeFile(paths[i], "", DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		if f.File != ClipName(paths[i]) || f.SpeakingRateSylS != one.SpeakingRateSylS || f.F0MeanHz != one.F0MeanHz {
			t.Errorf("clip %d: %s rate %g F0 %g, AnalyzeFile gives rate %g F0 %g", i, f.File, f.SpeakingRateSylS, f.F0MeanHz, one.SpeakingRateSylS, one.F0MeanHz)
		}
	}
	r := RateSweepOf(fs)
	if !slices.Equal(r.Setting, []float64{100, 140, 180, 230, 300}) {
		t.Errorf("settings %v", r.Setting)
	}
	if rho := stats.Spearman(r.Setting, r.Measured); rho < 0.9 {
		t.Errorf("Spearman %.3f between setting and measured rate, want >= 0.9 (rates %v)", rho, r.Measured)
	}

	tracks, err := PitchFiles(paths[:2], DefaultPitchConfig(), func(p string) string { return "x" + ClipName(p) })
	if err != nil {
		t.Fatal(err)
	}
	s, _ := Load(paths[1], 0)
	want, _ := ToPitch(s, DefaultPitchConfig())
	if len(tracks) != 2 || tracks[1].Name != "x"+ClipName(paths[1]) || !slices.Equal(tracks[1].Pitch.F0, want.F0) || tracks[1].Pitch.T1 != want.T1 {
		t.Errorf("PitchFiles: %d tracks, second %q with %d frames; want x%s with ToPitch's %d", len(tracks), tracks[1].Name, len(tracks[1].Pitch.F0), ClipName(paths[1]), len(want.F0))
	}
	if d, _ := PitchFiles(paths[:1], DefaultPitchConfig(), nil); d[0].Name != ClipName(paths[0]) {
		t.Errorf("default name %q", d[0].Name)
	}

	refs, err := SelectReferenceFiles(paths, DefaultEmbedConfig())
	if err != nil {
		t.Fatal(err)
	}
	var embs [][]float64
	for _, p := range paths {
		s, _ := Load(p, 0)
		e, _ := Embed(s, DefaultEmbedConfig())
		embs = append(embs, e)
	}
	best, sims, _ := SelectReference(embs)
	marked := 0
	for i, r := range refs {
		if r.Clip != ClipName(paths[i]) || math.Abs(r.MeanCosine-sims[i]) > 1e-12 || r.Reference != (i == best) {
			t.Errorf("row %d %+v; want %s, %g, reference %v", i, r, ClipName(paths[i]), sims[i], i == best)
		}
		if r.Reference {
			marked++
		}
	}
	if b, err := json.Marshal(ClipReference{Clip: "x", MeanCosine: math.NaN()}); err != nil || string(b) != `{"clip":"x","mean_cosine":null,"reference":false}` {
		t.Errorf("NaN mean cosine as JSON: %s, %v; want null", b, err)
	}
	if marked != 1 {
		t.Errorf("%d references marked, want 1", marked)
	}
	for name, err := range map[string]error{
		"AnalyzeFiles": func() error {
			_, err := AnalyzeFiles([]string{paths[0], "testdata/espeak/none.wav"}, DefaultConfig())
			return err
		}(),
		"PitchFiles": func() error {
			_, err := PitchFiles([]string{"testdata/espeak/none.wav"}, DefaultPitchConfig(), nil)
			return err
		}(),
		"SelectReferenceFiles": func() error {
			_, err := SelectReferenceFiles([]string{"testdata/espeak/none.wav"}, DefaultEmbedConfig())
			return err
		}(),
	} {
		if err == nil || !strings.Contains(err.Error(), "none.wav") {
			t.Errorf("%s on a missing file: error %v, want one naming it", name, err)
		}
	}
}
