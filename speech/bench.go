package speech

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"time"
)

// BenchConfig configures RunBench.
type BenchConfig struct {
	// Minutes is how much audio to analyse (default 60).
	Minutes float64
	// ChunkMinutes is the length of each benchmark file (default 1): the
	// audio is analysed file by file, as a corpus of long utterances.
	ChunkMinutes float64
	// PraatScript is scripts/praat-measure.praat; when it and the praat
	// binary exist, Praat measures the same files and the ratio is
	// reported. Empty skips Praat.
	PraatScript string
	// Praat is the Praat binary (default "praat" on PATH).
	Praat string
	// Features configures the analysis (default DefaultConfig).
	Features Config
	// Logf, when set, receives progress notes.
	Logf func(format string, args ...any)
}

// BenchResult reports a benchmark run. Times are wall-clock seconds on one
// core (GOMAXPROCS 1 during the run); CPU seconds are the process's user +
// system time over the same span, less sensitive to other load.
type BenchResult struct {
	// AudioSeconds of audio were analysed, in Files files.
	AudioSeconds float64 `json:"audio_s"`
	Files        int     `json:"files"`
	// OursSeconds is RolePrint's wall time, OursCPU its CPU time.
	OursSeconds float64 `json:"ours_s"`
	OursCPU     float64 `json:"ours_cpu_s"`
	// PerHour is OursSeconds scaled to one hour of audio.
	PerHour float64 `json:"ours_s_per_hour"`
	// PraatSeconds is Praat's wall time on the same files (0 when Praat was
	// not run) and PraatCPU its CPU time; Speedup = PraatSeconds /
	// OursSeconds.
	PraatSeconds float64 `json:"praat_s"`
	PraatCPU     float64 `json:"praat_cpu_s"`
	Speedup      float64 `json:"speedup"`
	// PraatVersion is the version Praat reported.
	PraatVersion string `json:"praat_version,omitempty"`
	// Load is the 1-minute load average when the run started (Linux),
	// since timings on a shared machine are inflated.
	Load string `json:"load,omitempty"`
}

// RunBench times Analyze on Minutes of audio made by concatenating the
// given clips (16 kHz after resampling) into ChunkMinutes-long WAV files in
// a temporary folder, reading each file back and analysing it, one core.
// With a Praat script and binary it then times Praat's measurement
// (praat-measure.praat without frame dumps) on the same files.
func RunBench(ctx context.Context, clips []string, cfg BenchConfig) (*BenchResult, error) {
	if cfg.Minutes <= 0 {
		cfg.Minutes = 60
	}
	if cfg.ChunkMinutes <= 0 {
		cfg.ChunkMinutes = 1
	}
	if cfg.Features.Rate == 0 && cfg.Features.Pitch.Floor == 0 {
		cfg.Features = DefaultConfig()
	}
	logf := cfg.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	if len(clips) == 0 {
		return nil, fmt.Errorf("bench: no audio clips given")
	}
	var pool []float64
	for _, c := range clips {
		s, err := Load(c, DefaultRate)
		if err != nil {
			return nil, err
		}
		pool = append(pool, s.Samples...)
	}
	dir, err := os.MkdirTemp("", "roleprint-speech-bench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	chunk := int(cfg.ChunkMinutes * 60 * DefaultRate)
	total := int(cfg.Minutes * 60 * DefaultRate)
	var files []string
	for off, k := 0, 0; off < total; k++ {
		n := min(chunk, total-off)
		s := &Sound{Rate: DefaultRate, Samples: make([]float64, n)}
		for i := range s.Samples {
			s.Samples[i] = pool[(off+i)%len(pool)]
		}
		path := filepath.Join(dir, fmt.Sprintf("bench-%03d.wav", k))
		if err := WriteWAV(path, s, 16); err != nil {
			return nil, err
		}
		files = append(files, path)
		off += n
	}
	res := &BenchResult{AudioSeconds: float64(total) / DefaultRate, Files: len(files), Load: loadAverage()}
	logf("bench: %d files, %.0f s of audio; load average %s", len(files), res.AudioSeconds, res.Load)

	prev := runtime.GOMAXPROCS(1)
	runtime.GC()
	cpu0 := processCPU()
	t0 := time.Now()
	for i, f := range files {
		if err := ctx.Err(); err != nil {
			runtime.GOMAXPROCS(prev)
			return nil, err
		}
		if _, err := AnalyzeFile(f, "", cfg.Features); err != nil {
			runtime.GOMAXPROCS(prev)
			return nil, err
		}
		if (i+1)%10 == 0 {
			logf("bench: ours %d/%d files", i+1, len(files))
		}
	}
	res.OursSeconds = time.Since(t0).Seconds()
	res.OursCPU = processCPU() - cpu0
	runtime.GOMAXPROCS(prev)
	res.PerHour = res.OursSeconds * 3600 / res.AudioSeconds

	if cfg.PraatScript == "" {
		return res, nil
	}
	praat := cfg.Praat
	if praat == "" {
		praat = "praat"
	}
	bin, err := exec.LookPath(praat)
	if err != nil {
		logf("bench: %s not found, Praat not timed", praat)
		return res, nil
	}
	script, err := filepath.Abs(cfg.PraatScript)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(script); err != nil {
		return nil, fmt.Errorf("bench: Praat script: %w", err)
	}
	list := filepath.Join(dir, "list.txt")
	var names []byte
	for _, f := range files {
		names = append(names, filepath.Base(f)+"\n"...)
	}
	if err := os.WriteFile(list, names, 0o644); err != nil {
		return nil, err
	}
	out := filepath.Join(dir, "praat.json")
	cmd := exec.CommandContext(ctx, bin, "--run", script, list, out, "0")
	logf("bench: running %s on the same files", bin)
	t0 = time.Now()
	output, err := cmd.CombinedOutput()
	res.PraatSeconds = time.Since(t0).Seconds()
	if err != nil {
		return nil, fmt.Errorf("bench: praat: %v: %s", err, output)
	}
	if st := cmd.ProcessState; st != nil {
		res.PraatCPU = (st.UserTime() + st.SystemTime()).Seconds()
	}
	if ref, err := LoadPraatReference(out); err == nil {
		res.PraatVersion = ref.PraatVersion
	}
	res.Speedup = res.PraatSeconds / res.OursSeconds
	return res, nil
}

// loadAverage returns the 1-minute load average from /proc/loadavg, or "".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	var one string
	fmt.Sscan(string(b), &one)
	return one
}
