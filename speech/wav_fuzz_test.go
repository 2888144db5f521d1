package speech

import (
	"math"
	"testing"
)

// FuzzReadWAV feeds arbitrary bytes to the WAV reader: it must return a
// Sound or an error, never panic, and a Sound it returns must be sane.
// Run with `go test -fuzz=FuzzReadWAV ./speech/`; the inputs found by a
// 60 s run are committed under testdata/fuzz/FuzzReadWAV and replayed by
// every `go test`.
func FuzzReadWAV(f *testing.F) {
	for _, spec := range []wavSpec{
		{tag: 1, bits: 8, channels: 1, rate: 8000},
		{tag: 1, bits: 16, channels: 2, rate: 16000, preChunks: []string{"LIST"}},
		{tag: 1, bits: 24, channels: 1, rate: 44100, extensible: true},
		{tag: 1, bits: 32, channels: 3, rate: 48000, oddChunk: true},
		{tag: 3, bits: 32, channels: 1, rate: 22050},
		{tag: 3, bits: 64, channels: 2, rate: 16000, extensible: true},
	} {
		spec.frames = testFrames(20, spec.channels, float64(spec.rate))
		f.Add(buildWAV(f, spec), false)
	}
	f.Add([]byte("RIFF\x00\x00\x00\x00WAVE"), true)
	f.Add([]byte("RIFF\xff\xff\xff\xffWAVEfmt \x10\x00\x00\x00"), true)
	f.Fuzz(func(t *testing.T, b []byte, lenient bool) {
		s, err := DecodeWAV(b, "fuzz.wav", ReadOptions{AllowTruncated: lenient})
		if err != nil {
			if s != nil {
				t.Fatal("both a Sound and an error")
			}
			return
		}
		if !(s.Rate > 0) || len(s.Samples) == 0 || len(s.Samples) > len(b) {
			t.Fatalf("implausible sound: %g Hz, %d samples from %d bytes", s.Rate, len(s.Samples), len(b))
		}
		for i, v := range s.Samples {
			if math.IsNaN(v) || math.IsInf(v, 0) || (!s.Source.Float && math.Abs(v) > 1) {
				t.Fatalf("sample %d = %g", i, v)
			}
		}
	})
}
