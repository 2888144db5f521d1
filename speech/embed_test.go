package speech

import (
	"math"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/stats"
)

func TestMFCCOfSine(t *testing.T) {
	// A pure tone puts its energy into the filters around its frequency:
	// the strongest log filter energy, rebuilt from the cepstrum, must sit
	// at 1 kHz, and the DCT must be orthonormal.
	d := dctMatrix(26, 26)
	for i := range d {
		for j := range d {
			var dot float64
			for m := range d[i] {
				dot += d[i][m] * d[j][m]
			}
			if want := map[bool]float64{true: 1, false: 0}[i == j]; math.Abs(dot-want) > 1e-12 {
				t.Fatalf("DCT rows %d·%d = %g", i, j, dot)
			}
		}
	}
	cfg := DefaultMFCCConfig()
	cfg.Coeffs = cfg.Filters // keep everything so the log spectrum can be rebuilt
	m, err := ToMFCC(sine(16000, 1000, 0.5, 0.5), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if want := 1 + (8000-400)/160; len(m.Frames) != want {
		t.Fatalf("%d frames, want %d", len(m.Frames), want)
	}
	frame := m.Frames[len(m.Frames)/2]
	best, bestV := 0, math.Inf(-1)
	for k := 0; k < cfg.Filters; k++ {
		var v float64
		for i, c := range frame {
			v += d[i][k] * c // inverse of the orthonormal DCT
		}
		if v > bestV {
			best, bestV = k, v
		}
	}
	edges := make([]float64, cfg.Filters+2)
	lo, hi := hzToMel(cfg.LowHz), hzToMel(8000)
	for i := range edges {
		edges[i] = melToHz(lo + (hi-lo)*float64(i)/float64(cfg.Filters+1))
	}
	if c := edges[best+1]; math.Abs(c-1000) > 0.5*(edges[best+2]-edges[best]) {
		t.Errorf("strongest filter centred at %.0f Hz, want about 1000 Hz", c)
	}
	// deltas of a linear ramp are its slope (away from the ends).
	ramp := make([][]float64, 10)
	for i := range ramp {
		ramp[i] = []float64{2 * float64(i)}
	}
	if dd := deltas(ramp, 2); math.Abs(dd[5][0]-2) > 1e-12 {
		t.Errorf("delta of slope-2 ramp = %g", dd[5][0])
	}
}

// TestEmbeddingsSeparateVoices uses the committed espeak-ng clips: three
// voices speak two different sentences each, a fourth voice one sentence
// at five rates and another with a pause. After standardisation over all clips, pairs of one voice
// must be more similar than pairs of two voices: AUC ≥ 0.85 and a clear gap
// between the mean cosines.
func TestEmbeddingsSeparateVoices(t *testing.T) {
	files, _ := filepath.Glob("testdata/espeak/*.wav")
	sort.Strings(files)
	voice := func(f string) string {
		b := filepath.Base(f)
		if strings.HasPrefix(b, "rate-") || strings.HasPrefix(b, "pause-") {
			return "en-m3"
		}
		return strings.TrimSuffix(strings.TrimSuffix(b, "-a.wav"), "-b.wav")
	}
	cfg := DefaultEmbedConfig()
	var embs [][]float64
	for _, f := range files {
		s, err := ReadWAV(f)
		if err != nil {
			t.Fatal(err)
		}
		e, err := Embed(s, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if len(e) != 57 {
			t.Fatalf("embedding has %d dimensions, want 57", len(e))
		}
		embs = append(embs, e)
	}
	st, err := FitStandardizer(embs)
	if err != nil {
		t.Fatal(err)
	}
	for i := range embs {
		embs[i] = WeighBlocks(st.Apply(embs[i]), cfg.BlockWeights)
	}
	var same, diff []float64
	for i := range embs {
		for j := i + 1; j < len(embs); j++ {
			c := stats.Cosine(embs[i], embs[j])
			if voice(files[i]) == voice(files[j]) {
				same = append(same, c)
			} else {
				diff = append(diff, c)
			}
		}
	}
	var auc float64
	for _, a := range same {
		for _, b := range diff {
			if a > b {
				auc++
			} else if a == b {
				auc += 0.5
			}
		}
	}
	auc /= float64(len(same) * len(diff))
	ms, _ := stats.MeanStd(same)
	md, _ := stats.MeanStd(diff)
	t.Logf("AUC %.3f; mean cosine same voice %.3f, different voices %.3f", auc, ms, md)
	if auc < 0.85 || ms-md < 0.3 {
		t.Errorf("AUC %.3f (want ≥ 0.85), gap %.3f (want ≥ 0.3)", auc, ms-md)
	}
}

func TestSelectReference(t *testing.T) {
	// Three clips at −10°, 0° and +10° in a plane and an outlier at right
	// angles to all three: the central clip wins.
	r := math.Pi / 18
	embs := [][]float64{{math.Cos(r), -math.Sin(r), 0}, {1, 0, 0}, {math.Cos(r), math.Sin(r), 0}, {0, 0, 1}}
	best, sims, err := SelectReference(embs)
	if err != nil || best != 1 {
		t.Fatalf("best %d (%v), want 1; sims %v", best, err, sims)
	}
	if !(sims[3] < sims[0]) {
		t.Errorf("outlier mean similarity %.3f not below %.3f", sims[3], sims[0])
	}
	if b, s, _ := SelectReference(embs[:1]); b != 0 || !math.IsNaN(s[0]) {
		t.Errorf("single clip: %d %v", b, s)
	}
	if _, _, err := SelectReference(nil); err == nil {
		t.Error("no clips: no error")
	}
	if c := stats.Cosine([]float64{1, 2}, []float64{2, 4}); math.Abs(c-1) > 1e-12 {
		t.Errorf("Cosine parallel = %g", c)
	}
}
