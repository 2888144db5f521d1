package main

import (
	"context"
	"fmt"
	"github.com/roleprint/roleprint/speech/frontend"
)

// runSpeechBench is `roleprint speech bench`: RolePrint's feature
// extraction against Praat on the same files, alternating runs, one core.
func runSpeechBench(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "speech bench", "FILES.wav...")
	asJSON := fs.Bool("json", false, "print the timings as one JSON object")
	minutes := fs.Float64("minutes", 60, "minutes of audio to build by repeating the files (0: measure the files as given)")
	runs := fs.Int("runs", 3, "alternating runs of each tool (medians are reported)")
	script := fs.String("praat-script", "scripts/praat-measure.praat", `Praat script timed on the same files ("" skips Praat)`)
	praat := fs.String("praat", "praat", "Praat binary")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("give WAV files (e.g. speech/testdata/espeak/*.wav)")
	}
	if *runs < 1 {
		return usagef("--runs %d: need at least 1", *runs)
	}
	res, err := frontend.RunBench(ctx, fs.Args(), frontend.BenchConfig{Minutes: *minutes, AsGiven: *minutes == 0,
		Runs: *runs, PraatScript: *script, Praat: *praat, Logf: e.Logf})
	if err != nil {
		return err
	}
	if *asJSON {
		return e.JSON(res)
	}
	out := e.Stdout()
	fmt.Fprintf(out, "audio %.1f s in %d files; %d alternating runs; load average %s\n", res.AudioSeconds, res.Files, res.Runs, res.Load)
	for _, t := range res.Timings {
		fmt.Fprintf(out, "  %-9s %7.2f s wall %7.2f s CPU\n", t.Tool, t.Seconds, t.CPU)
	}
	fmt.Fprintf(out, "roleprint: median %.2f s wall, %.2f s CPU, one core: %.0f× real time (%.2f s per hour of audio)\n",
		res.OursSeconds, res.OursCPU, res.OursRealTime, res.PerHour)
	if res.PraatSeconds == 0 {
		fmt.Fprintf(out, "praat not timed: %s\n", res.PraatSkipped)
		return nil
	}
	pin := "not pinned (no taskset)"
	if res.PraatPinned {
		pin = "pinned to one CPU"
	}
	fmt.Fprintf(out, "praat %s: median %.2f s wall, %.2f s CPU, %s: %.0f× real time\n",
		res.PraatVersion, res.PraatSeconds, res.PraatCPU, pin, res.PraatRealTime)
	fmt.Fprintf(out, "ratio praat/roleprint (median of rounds): %.2f× wall, %.2f× CPU\n", res.Speedup, res.SpeedupCPU)
	return nil
}
