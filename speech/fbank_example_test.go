package speech_test

import (
	"fmt"

	"github.com/roleprint/roleprint/speech"
)

// Kaldi-compatible 80-bin log-mel filter banks, the input of WeSpeaker's
// and 3D-Speaker's speaker-embedding models.
func ExampleComputeFbank() {
	s, err := speech.ReadWAV("testdata/espeak/rate-en-m3-p50-s300.wav")
	if err != nil {
		panic(err)
	}
	fb, err := speech.ComputeFbank(s, speech.DefaultFbankConfig())
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d frames × %d bins, every %.0f ms\n", len(fb.Frames), len(fb.Frames[0]), 1000*fb.Shift)
	// Output:
	// 103 frames × 80 bins, every 10 ms
}
