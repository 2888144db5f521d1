package speech

import (
	"math/rand"
	"testing"
)

// TestPCM16FastPathMatchesGoAudio decodes 16-bit files of one to three
// channels (full-scale random samples, extremes included) both with the
// hand-written fast path and with go-audio/wav, and requires identical
// samples.
func TestPCM16FastPathMatchesGoAudio(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for _, ch := range []int{1, 2, 3} {
		frames := make([][]float64, 4001)
		for i := range frames {
			frames[i] = make([]float64, ch)
			for c := range frames[i] {
				frames[i][c] = float64(rng.Intn(65536)-32768) / 32768
			}
		}
		frames[0][0], frames[1][0] = -1, 32767.0/32768
		b := buildWAV(t, wavSpec{tag: 1, channels: ch, rate: 16000, bits: 16, frames: frames})
		l, err := scanWAV(b, false)
		if err != nil {
			t.Fatal(err)
		}
		want, err := decodePCM(b, l)
		if err != nil {
			t.Fatal(err)
		}
		s, err := DecodeWAV(b, "x.wav", ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Samples) != len(want) {
			t.Fatalf("%d channels: %d samples, go-audio %d", ch, len(s.Samples), len(want))
		}
		for i := range want {
			if s.Samples[i] != want[i] {
				t.Fatalf("%d channels: sample %d = %v, go-audio %v", ch, i, s.Samples[i], want[i])
			}
		}
	}
}
