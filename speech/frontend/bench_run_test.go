package frontend

import (
	"context"
	"github.com/roleprint/roleprint/speech"
	"math"
	"path/filepath"
	"testing"
)

// TestRunBenchAsGiven checks the bookkeeping of RunBench without Praat:
// the files as given, one timing per run, the audio total, the reason
// Praat was not timed.
func TestRunBenchAsGiven(t *testing.T) {
	files, _ := filepath.Glob("../testdata/espeak/voice-*.wav")
	if len(files) < 2 {
		t.Skip("no fixtures")
	}
	files = files[:2]
	var want float64
	for _, f := range files {
		s, err := speech.ReadWAV(f)
		if err != nil {
			t.Fatal(err)
		}
		want += s.Duration()
	}
	res, err := RunBench(context.Background(), files, BenchConfig{AsGiven: true, Runs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Files != 2 || math.Abs(res.AudioSeconds-want) > 1e-9 || len(res.Timings) != 2 || res.Runs != 2 {
		t.Errorf("files %d audio %.3f s (want %.3f) timings %d runs %d", res.Files, res.AudioSeconds, want, len(res.Timings), res.Runs)
	}
	if res.PraatSkipped == "" || res.PraatSeconds != 0 || res.Speedup != 0 {
		t.Errorf("Praat not asked for, yet skipped=%q praat_s=%v speedup=%v", res.PraatSkipped, res.PraatSeconds, res.Speedup)
	}
	if res.OursSeconds <= 0 || math.Abs(res.OursRealTime-res.AudioSeconds/res.OursSeconds) > 1e-9 {
		t.Errorf("ours %.3f s, × real time %.1f", res.OursSeconds, res.OursRealTime)
	}
	if _, err := RunBench(context.Background(), nil, BenchConfig{}); err == nil {
		t.Error("no clips: want an error")
	}
}
