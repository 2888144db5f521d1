package frontend

import (
	"github.com/roleprint/roleprint/speech"
	"os"
	"path/filepath"
	"testing"
)

// benchSound concatenates the committed espeak fixtures into about
// seconds of 16 kHz speech.
func benchSound(tb testing.TB, seconds float64) *speech.Sound {
	tb.Helper()
	files, _ := filepath.Glob("../testdata/espeak/*.wav")
	if len(files) == 0 {
		tb.Skip("no fixtures")
	}
	out := &speech.Sound{Rate: speech.DefaultRate, Name: "bench"}
	for out.Duration() < seconds {
		for _, f := range files {
			s, err := speech.Load(f, speech.DefaultRate)
			if err != nil {
				tb.Fatal(err)
			}
			out.Samples = append(out.Samples, s.Samples...)
		}
	}
	return out
}

// BenchmarkAnalyzeMinute measures Analyze (pitch, intensity, syllables,
// pauses) on one minute of 16 kHz speech; multiply ns/op by 60 for an hour.
func BenchmarkAnalyzeMinute(b *testing.B) {
	s := benchSound(b, 60)
	s.Samples = s.Samples[:60*speech.DefaultRate]
	cfg := speech.DefaultConfig()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := speech.Analyze(s, "", cfg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPitchMinute measures ToPitch alone on one minute.
func BenchmarkPitchMinute(b *testing.B) {
	s := benchSound(b, 60)
	s.Samples = s.Samples[:60*speech.DefaultRate]
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := speech.ToPitch(s, speech.DefaultPitchConfig()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIntensityMinute measures ToIntensity alone on one minute.
func BenchmarkIntensityMinute(b *testing.B) {
	s := benchSound(b, 60)
	s.Samples = s.Samples[:60*speech.DefaultRate]
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := speech.ToIntensity(s, speech.DefaultIntensityConfig()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMFCCMinute measures ToMFCC alone on one minute.
func BenchmarkMFCCMinute(b *testing.B) {
	s := benchSound(b, 60)
	s.Samples = s.Samples[:60*speech.DefaultRate]
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := speech.ToMFCC(s, speech.DefaultMFCCConfig()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadWAVMinute measures decoding one minute of 16-bit WAV.
func BenchmarkReadWAVMinute(b *testing.B) {
	s := benchSound(b, 60)
	s.Samples = s.Samples[:60*speech.DefaultRate]
	path := filepath.Join(b.TempDir(), "m.wav")
	if err := speech.WriteWAV(path, s, 16); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := speech.ReadWAV(path); err != nil {
			b.Fatal(err)
		}
	}
	_ = os.Remove(path)
}
