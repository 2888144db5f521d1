package main

import (
	"context"
	"io"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"time"

	"github.com/roleprint/roleprint/internal/fsx"
)

// startPeakHeapProfile writes a pprof heap profile to path every time the
// Go heap reaches a new peak (polled every 250 ms), so that the file ends
// up describing the allocations live at the run's largest heap. It returns
// a function that stops the sampler and writes a last profile if the heap
// grew since. Errors only go to logf: profiling never fails a run.
func startPeakHeapProfile(ctx context.Context, path string, logf func(string, ...any)) (stop func()) {
	if path == "" {
		return func() {}
	}
	runtime.MemProfileRate = 64 << 10 // finer than the default 512 KiB for clearer attribution
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak uint64
	write := func() {
		err := fsx.Write(path, 0o600, func(w io.Writer) error {
			return pprof.Lookup("heap").WriteTo(w, 0)
		})
		if err != nil {
			logf("memprofile: %v", err)
		}
	}
	check := func() {
		metrics.Read(sample)
		if v := sample[0].Value.Uint64(); v > peak+peak/20 { // ≥ 5 % above the last written peak
			peak = v
			write()
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				check()
			}
		}
	}()
	return func() {
		cancel()
		<-done
		check()
		logf("memprofile: %s (peak live heap %.0f MiB)", path, float64(peak)/(1<<20))
	}
}

// startCPUProfile starts a Go CPU profile into path ("" does nothing) and
// returns the function that stops it and closes the file.
func startCPUProfile(path string) (stop func() error, err error) {
	if path == "" {
		return func() error { return nil }, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() error { pprof.StopCPUProfile(); return f.Close() }, nil
}
