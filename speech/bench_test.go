package speech

import (
	"os"
	"path/filepath"
	"testing"
)

// benchSound concatenates the committed espeak fixtures into about
// seconds of 16 kHz speech.
func benchSound(tb testing.TB, seconds float64) *Sound {
	tb.Helper()
	files, _ := filepath.Glob("testdata/espeak/*.wav")
	if len(files) == 0 {
		tb.Skip("no fixtures")
	}
	out := &Sound{Rate: DefaultRate, Name: "bench"}
	for out.Duration() < seconds {
		for _, f := range files {
			s, err := Load(f, DefaultRate)
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
	s.Samples = s.Samples[:60*DefaultRate]
	cfg := DefaultConfig()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Analyze(s, "", cfg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPitchMinute measures ToPitch alone on one minute.
func BenchmarkPitchMinute(b *testing.B) {
	s := benchSound(b, 60)
	s.Samples = s.Samples[:60*DefaultRate]
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := ToPitch(s, DefaultPitchConfig()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIntensityMinute measures ToIntensity alone on one minute.
func BenchmarkIntensityMinute(b *testing.B) {
	s := benchSound(b, 60)
	s.Samples = s.Samples[:60*DefaultRate]
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := ToIntensity(s, DefaultIntensityConfig()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMFCCMinute measures ToMFCC alone on one minute.
func BenchmarkMFCCMinute(b *testing.B) {
	s := benchSound(b, 60)
	s.Samples = s.Samples[:60*DefaultRate]
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := ToMFCC(s, DefaultMFCCConfig()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadWAVMinute measures decoding one minute of 16-bit WAV.
func BenchmarkReadWAVMinute(b *testing.B) {
	s := benchSound(b, 60)
	s.Samples = s.Samples[:60*DefaultRate]
	path := filepath.Join(b.TempDir(), "m.wav")
	if err := WriteWAV(path, s, 16); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := ReadWAV(path); err != nil {
			b.Fatal(err)
		}
	}
	_ = os.Remove(path)
}
