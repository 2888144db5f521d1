package speech

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/roleprint/roleprint/stats"
)

func TestIntensityOfSine(t *testing.T) {
	// A sine of amplitude A has mean power A²/2: 10·log10(A²/2 / 4e-10) dB.
	for _, amp := range []float64{0.5, 0.05, 0.005} {
		in, err := ToIntensity(sine(16000, 300, amp, 1), DefaultIntensityConfig())
		if err != nil {
			t.Fatal(err)
		}
		want := 10 * math.Log10(amp*amp/2/4e-10)
		for _, m := range []Averaging{AverageEnergy, AverageDB, AverageSones} {
			if got := in.Mean(m); math.Abs(got-want) > 0.05 {
				t.Errorf("amplitude %g: %s mean %.3f dB, want %.3f", amp, m, got, want)
			}
		}
		if math.Abs(in.T1+float64(len(in.DB)-1)/2*in.Step-0.5) > 1e-9 {
			t.Errorf("frames not centred in the sound")
		}
	}
	// Energy averaging weights loud frames: half loud, half 20 dB softer.
	s := sine(16000, 300, 0.5, 2)
	for i := len(s.Samples) / 2; i < len(s.Samples); i++ {
		s.Samples[i] *= 0.1
	}
	in, _ := ToIntensity(s, DefaultIntensityConfig())
	if e, d := in.Mean(AverageEnergy), in.Mean(AverageDB); !(e > d+5) {
		t.Errorf("energy mean %.2f dB should exceed the dB mean %.2f by several dB", e, d)
	}
	if _, err := ToIntensity(sine(16000, 300, 0.5, 0.05), DefaultIntensityConfig()); err == nil {
		t.Error("50 ms sound: no error (window is 64 ms)")
	}
}

func TestSilencesAndPauses(t *testing.T) {
	// tone 0.5 s, silence 0.5 s, tone 0.5 s, silence 0.2 s, tone 0.5 s.
	var samples []float64
	add := func(dur float64, on bool) {
		s := sine(16000, 200, 0.5, dur)
		for _, v := range s.Samples {
			if !on {
				v = 0
			}
			samples = append(samples, v)
		}
	}
	add(0.5, true)
	add(0.5, false)
	add(0.5, true)
	add(0.2, false)
	add(0.5, true)
	s := &Sound{Rate: 16000, Samples: samples}
	iv, err := DetectSilences(s, SilenceConfig{Intensity: DefaultIntensityConfig(), ThresholdDB: -25, MinSilence: 0.3, MinSounding: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	if len(iv) != 3 || iv[0].Silent || !iv[1].Silent || iv[2].Silent {
		t.Fatalf("intervals %+v, want sounding, silent (the 0.2 s gap is too short), sounding", iv)
	}
	if math.Abs(iv[1].Start-0.5) > 0.03 || math.Abs(iv[1].End-1.0) > 0.03 { // the 64 ms window blurs edges
		t.Errorf("silence at [%.3f, %.3f], want about [0.5, 1.0]", iv[1].Start, iv[1].End)
	}
	syl := &Syllables{Intervals: iv, Duration: s.Duration()}
	if pr := syl.PauseRatio(); math.Abs(pr-0.5/2.2) > 0.02 || syl.Pauses() != 1 {
		t.Errorf("pause ratio %.3f (want %.3f), pauses %d", pr, 0.5/2.2, syl.Pauses())
	}
}

func TestCountWords(t *testing.T) {
	for text, want := range map[string]int{
		"":                              0,
		"Hello, world!":                 2,
		"Don't stop — well-known rock.": 4,
		"  'Tis  the 2nd time...  ":     4,
		"C'est déjà l'été":              3,
	} {
		if got := countWords(text); got != want {
			t.Errorf("countWords(%q) = %d, want %d", text, got, want)
		}
	}
}

// TestSpeakingRateTracksEspeakRate checks the acceptance criterion on the
// committed rate series (one text, espeak-ng -s 100…300): Spearman ≥ 0.9
// between the measured speaking rate and the -s setting.
func TestSpeakingRateTracksEspeakRate(t *testing.T) {
	files, _ := filepath.Glob("testdata/espeak/rate-*.wav")
	if len(files) < 5 {
		t.Fatalf("rate fixtures missing: %v", files)
	}
	rho, rows := rateCorrelation(t, files, "She sells sea shells by the shore.")
	for _, r := range rows {
		t.Log(r)
	}
	// One text at every rate: the duration alone would rank the files, so
	// also require that the nuclei are the sentence's syllables (7; de
	// Jong & Wempe's detector may merge or miss a couple), not a constant.
	for _, f := range files {
		feat, err := AnalyzeFile(f, "", DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		if feat.Syllables < 5 || feat.Syllables > 9 {
			t.Errorf("%s: %d syllable nuclei, the sentence has 7", filepath.Base(f), feat.Syllables)
		}
	}
	t.Logf("Spearman(speaking rate, -s) = %.3f over %d files", rho, len(files))
	if rho < 0.9 {
		t.Errorf("Spearman %.3f, want ≥ 0.9", rho)
	}
}

var espeakRate = regexp.MustCompile(`-s(\d+)`)

// rateCorrelation analyses files named ...-sNNN... and returns Spearman's
// correlation of syllables/s with NNN.
func rateCorrelation(t *testing.T, files []string, transcript string) (float64, []string) {
	t.Helper()
	var setting, measured []float64
	var rows []string
	sort.Strings(files)
	for _, f := range files {
		m := espeakRate.FindStringSubmatch(filepath.Base(f))
		if m == nil {
			t.Fatalf("%s: no -sNNN in the name", f)
		}
		s, _ := strconv.Atoi(m[1])
		feat, err := AnalyzeFile(f, transcript, DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		setting = append(setting, float64(s))
		measured = append(measured, feat.SpeakingRateSylS)
		rows = append(rows, strings.Join([]string{filepath.Base(f),
			strconv.Itoa(feat.Syllables) + " syllables",
			strconv.FormatFloat(feat.SpeakingRateSylS, 'f', 2, 64) + " syl/s",
			strconv.FormatFloat(feat.WordsPerS, 'f', 2, 64) + " words/s"}, "  "))
	}
	return stats.Spearman(setting, measured), rows
}

func TestAnalyzeFeaturesJSON(t *testing.T) {
	f, err := AnalyzeFile("testdata/espeak/voice-en-f2-p70-a.wav", "She sells sea shells by the shore.", DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if f.Words != 7 || math.Abs(f.WordsPerS-7/f.DurationS) > 1e-9 || f.VoicedFrames == 0 || !(f.F0MeanHz > 150) {
		t.Errorf("features %+v", f)
	}
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"file", "duration_s", "f0_mean_hz", "f0_median_hz", "f0_std_hz", "voiced_fraction",
		"intensity_mean_db", "speaking_rate_syl_s", "pause_ratio"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	// Undefined values are null, not an encoding error.
	silent := &Sound{Rate: 16000, Samples: make([]float64, 8000), Name: "silence"}
	f, err = Analyze(silent, "", DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	b, err = json.Marshal(f)
	if err != nil || !strings.Contains(string(b), `"f0_mean_hz":null`) || !strings.Contains(string(b), `"words_per_s":null`) {
		t.Errorf("silence JSON %s, %v", b, err)
	}
}

// TestSpeakingRateExtra reports the speaking-rate correlation on the
// validation set named by ROLEPRINT_SPEECH_PRAAT_REF (its WAVs are named
// VOICE-pPITCH-sRATE.wav; one text per voice and pitch): Spearman over each
// 5-rate series and over all files pooled.
func TestSpeakingRateExtra(t *testing.T) {
	path := os.Getenv("ROLEPRINT_SPEECH_PRAAT_REF")
	if path == "" {
		t.Skip("ROLEPRINT_SPEECH_PRAAT_REF not set")
	}
	files, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*-s*.wav"))
	if len(files) == 0 {
		t.Skip("no VOICE-pPITCH-sRATE.wav files next to the reference")
	}
	series := map[string][]string{}
	for _, f := range files {
		key := espeakRate.ReplaceAllString(filepath.Base(f), "")
		series[key] = append(series[key], f)
	}
	var sum, worst float64 = 0, 1
	for _, fs := range series {
		rho, _ := rateCorrelation(t, fs, "")
		sum += rho
		worst = math.Min(worst, rho)
	}
	pooled, _ := rateCorrelation(t, files, "")
	t.Logf("%d series: mean Spearman %.3f, worst %.3f; pooled over %d files %.3f", len(series), sum/float64(len(series)), worst, len(files), pooled)
	if pooled < 0.9 {
		t.Errorf("pooled Spearman %.3f, want ≥ 0.9", pooled)
	}
}
