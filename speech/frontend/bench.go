package frontend

import (
	"context"
	"fmt"
	"github.com/roleprint/roleprint/speech"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// BenchConfig configures RunBench.
type BenchConfig struct {
	// Minutes is how much audio to analyse, made by repeating the clips
	// into ChunkMinutes-long files (default 60). Zero with AsGiven set
	// analyses the clips themselves.
	Minutes float64
	// AsGiven analyses the given files as they are (both tools read the
	// same files) instead of building Minutes of audio from them.
	AsGiven bool
	// ChunkMinutes is the length of each built benchmark file (default 1).
	ChunkMinutes float64
	// Runs is how many times each tool measures the files, alternating
	// RolePrint and Praat (default 3); the result reports medians.
	Runs int
	// PraatScript is scripts/praat-measure.praat; when it and the praat
	// binary exist, Praat measures the same files and the ratio is
	// reported. Empty skips Praat.
	PraatScript string
	// Praat is the Praat binary (default "praat" on PATH).
	Praat string
	// Features configures the analysis (default DefaultConfig).
	Features speech.Config
	// Logf, when set, receives progress notes.
	Logf func(format string, args ...any)
}

// BenchRun is one timed pass of one tool over all files.
type BenchRun struct {
	// Tool is "roleprint" or "praat".
	Tool string `json:"tool"`
	// Seconds is the wall time, CPU the user + system CPU time.
	Seconds float64 `json:"wall_s"`
	CPU     float64 `json:"cpu_s"`
}

// BenchResult reports a benchmark run. RolePrint runs in-process with
// GOMAXPROCS 1; Praat runs as a child pinned to one CPU with taskset when
// taskset exists. Times are medians over the alternating runs; CPU seconds
// (user + system) are less sensitive to other load than wall times.
type BenchResult struct {
	// AudioSeconds of audio were analysed, in Files files.
	AudioSeconds float64 `json:"audio_s"`
	Files        int     `json:"files"`
	// Runs is the number of alternating runs per tool.
	Runs int `json:"runs"`
	// OursSeconds is RolePrint's median wall time, OursCPU its median CPU time.
	OursSeconds float64 `json:"ours_s"`
	OursCPU     float64 `json:"ours_cpu_s"`
	// OursRealTime is AudioSeconds / OursSeconds (× real time).
	OursRealTime float64 `json:"ours_x_realtime"`
	// PerHour is OursSeconds scaled to one hour of audio.
	PerHour float64 `json:"ours_s_per_hour"`
	// PraatSeconds is Praat's median wall time on the same files (0 when
	// Praat was not run), PraatCPU its median CPU time and PraatRealTime
	// AudioSeconds / PraatSeconds.
	PraatSeconds  float64 `json:"praat_s"`
	PraatCPU      float64 `json:"praat_cpu_s"`
	PraatRealTime float64 `json:"praat_x_realtime,omitempty"`
	// Speedup is the median over runs of Praat's wall time / RolePrint's
	// wall time of the same round; SpeedupCPU the same for CPU time.
	Speedup    float64 `json:"speedup"`
	SpeedupCPU float64 `json:"speedup_cpu,omitempty"`
	// PraatPinned says whether Praat ran under taskset on one CPU.
	PraatPinned bool `json:"praat_pinned"`
	// PraatVersion is the version Praat reported; PraatSkipped why Praat
	// was not timed, when it was not.
	PraatVersion string `json:"praat_version,omitempty"`
	PraatSkipped string `json:"praat_skipped,omitempty"`
	// Timings lists every run in order.
	Timings []BenchRun `json:"timings"`
	// Load is the 1-minute load average when the run started (Linux),
	// since timings on a shared machine are inflated.
	Load string `json:"load,omitempty"`
}

// RunBench times AnalyzeFile against Praat's praat-measure.praat (pitch,
// intensity and syllable nuclei, summaries only) on the same WAV files,
// alternating the two Runs times. Without AsGiven, the files are Minutes
// of audio made by concatenating the given clips (16 kHz) into
// ChunkMinutes-long WAV files in a temporary folder.
func RunBench(ctx context.Context, clips []string, cfg BenchConfig) (*BenchResult, error) {
	if cfg.Minutes <= 0 && !cfg.AsGiven {
		cfg.Minutes = 60
	}
	if cfg.ChunkMinutes <= 0 {
		cfg.ChunkMinutes = 1
	}
	if cfg.Runs <= 0 {
		cfg.Runs = 3
	}
	if cfg.Features.Rate == 0 && cfg.Features.Pitch.Floor == 0 {
		cfg.Features = speech.DefaultConfig()
	}
	logf := cfg.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	if len(clips) == 0 {
		return nil, fmt.Errorf("bench: no audio clips given")
	}
	dir, err := os.MkdirTemp("", "roleprint-speech-bench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	files, audio, err := benchFiles(dir, clips, cfg)
	if err != nil {
		return nil, err
	}
	res := &BenchResult{AudioSeconds: audio, Files: len(files), Runs: cfg.Runs, Load: loadAverage()}
	logf("bench: %d files, %.1f s of audio, %d alternating runs; load average %s", len(files), audio, cfg.Runs, res.Load)

	praat, err := benchPraat(dir, files, cfg)
	if err != nil {
		return nil, err
	}
	if praat == nil {
		res.PraatSkipped = "no Praat script given"
		if cfg.PraatScript != "" {
			res.PraatSkipped = "praat binary not found"
		}
		logf("bench: %s; RolePrint only", res.PraatSkipped)
	} else {
		res.PraatPinned = len(praat.pin) > 0
	}
	var ours, oursCPU, theirs, theirsCPU, ratio, ratioCPU []float64
	for r := 0; r < cfg.Runs; r++ {
		w, c, err := benchOurs(ctx, files, cfg.Features)
		if err != nil {
			return nil, err
		}
		ours, oursCPU = append(ours, w), append(oursCPU, c)
		res.Timings = append(res.Timings, BenchRun{Tool: "roleprint", Seconds: w, CPU: c})
		logf("bench: run %d/%d: roleprint %.2f s wall, %.2f s CPU", r+1, cfg.Runs, w, c)
		if praat == nil {
			continue
		}
		pw, pc, err := praat.run(ctx)
		if err != nil {
			return nil, err
		}
		theirs, theirsCPU = append(theirs, pw), append(theirsCPU, pc)
		res.Timings = append(res.Timings, BenchRun{Tool: "praat", Seconds: pw, CPU: pc})
		ratio = append(ratio, pw/w)
		if c > 0 {
			ratioCPU = append(ratioCPU, pc/c)
		}
		logf("bench: run %d/%d: praat %.2f s wall, %.2f s CPU (ratio %.2f×)", r+1, cfg.Runs, pw, pc, pw/w)
	}
	res.OursSeconds, res.OursCPU = benchMedian(ours), benchMedian(oursCPU)
	if res.OursSeconds > 0 {
		res.OursRealTime = audio / res.OursSeconds
	}
	res.PerHour = res.OursSeconds * 3600 / audio
	if praat != nil {
		res.PraatSeconds, res.PraatCPU = benchMedian(theirs), benchMedian(theirsCPU)
		res.PraatRealTime = audio / res.PraatSeconds
		res.Speedup, res.SpeedupCPU = benchMedian(ratio), benchMedian(ratioCPU)
		if ref, err := LoadPraatReference(praat.out); err == nil {
			res.PraatVersion = ref.PraatVersion
		}
	}
	return res, nil
}

// benchFiles returns the WAV files to measure and their total duration in
// seconds: the clips themselves (AsGiven) or Minutes of 16 kHz audio built
// from them in dir.
func benchFiles(dir string, clips []string, cfg BenchConfig) ([]string, float64, error) {
	if cfg.AsGiven {
		var total float64
		var files []string
		for _, c := range clips {
			s, err := speech.ReadWAV(c)
			if err != nil {
				return nil, 0, err
			}
			total += s.Duration()
			abs, err := filepath.Abs(c)
			if err != nil {
				return nil, 0, err
			}
			files = append(files, abs)
		}
		return files, total, nil
	}
	var pool []float64
	for _, c := range clips {
		s, err := speech.Load(c, speech.DefaultRate)
		if err != nil {
			return nil, 0, err
		}
		pool = append(pool, s.Samples...)
	}
	if len(pool) == 0 {
		return nil, 0, fmt.Errorf("bench: the clips hold no samples")
	}
	chunk := int(cfg.ChunkMinutes * 60 * speech.DefaultRate)
	total := int(cfg.Minutes * 60 * speech.DefaultRate)
	var files []string
	for off, k := 0, 0; off < total; k++ {
		n := min(chunk, total-off)
		s := &speech.Sound{Rate: speech.DefaultRate, Samples: make([]float64, n)}
		for i := range s.Samples {
			s.Samples[i] = pool[(off+i)%len(pool)]
		}
		path := filepath.Join(dir, fmt.Sprintf("bench-%03d.wav", k))
		if err := speech.WriteWAV(path, s, 16); err != nil {
			return nil, 0, err
		}
		files = append(files, path)
		off += n
	}
	return files, float64(total) / speech.DefaultRate, nil
}

// benchOurs analyses every file once on one core (GOMAXPROCS 1) and
// returns the wall and CPU seconds.
func benchOurs(ctx context.Context, files []string, cfg speech.Config) (wall, cpu float64, err error) {
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	runtime.GC()
	cpu0 := processCPU()
	t0 := time.Now()
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return 0, 0, err
		}
		if _, err := speech.AnalyzeFile(f, "", cfg); err != nil {
			return 0, 0, err
		}
	}
	return time.Since(t0).Seconds(), processCPU() - cpu0, nil
}

// praatBench runs praat-measure.praat over a file list.
type praatBench struct {
	bin, script, list, out string
	pin                    []string // taskset -c CPU, or nil
}

// benchPraat prepares the Praat runs, or returns nil when Praat is not to
// be (or cannot be) run.
func benchPraat(dir string, files []string, cfg BenchConfig) (*praatBench, error) {
	if cfg.PraatScript == "" {
		return nil, nil
	}
	name := cfg.Praat
	if name == "" {
		name = "praat"
	}
	bin, err := exec.LookPath(name)
	if err != nil {
		return nil, nil
	}
	script, err := filepath.Abs(cfg.PraatScript)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(script); err != nil {
		return nil, fmt.Errorf("bench: Praat script: %w", err)
	}
	p := &praatBench{bin: bin, script: script, list: filepath.Join(dir, "list.txt"), out: filepath.Join(dir, "praat.json")}
	var names strings.Builder
	for _, f := range files {
		names.WriteString(f + "\n")
	}
	if err := os.WriteFile(p.list, []byte(names.String()), 0o644); err != nil {
		return nil, err
	}
	if ts, err := exec.LookPath("taskset"); err == nil {
		p.pin = []string{ts, "-c", firstAllowedCPU()}
	}
	return p, nil
}

// run times one Praat pass; CPU time is the child's user + system time.
func (p *praatBench) run(ctx context.Context) (wall, cpu float64, err error) {
	args := append(append([]string{}, p.pin...), p.bin, "--run", p.script, p.list, p.out, "0")
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	t0 := time.Now()
	output, err := cmd.CombinedOutput()
	wall = time.Since(t0).Seconds()
	if err != nil {
		return 0, 0, fmt.Errorf("bench: praat: %v: %s", err, output)
	}
	if st := cmd.ProcessState; st != nil {
		cpu = (st.UserTime() + st.SystemTime()).Seconds()
	}
	return wall, cpu, nil
}

// firstAllowedCPU returns the first CPU this process may run on (from
// /proc/self/status), or "0".
func firstAllowedCPU() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "0"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Cpus_allowed_list:"); ok {
			v = strings.TrimSpace(v)
			if i := strings.IndexAny(v, ",-"); i > 0 {
				v = v[:i]
			}
			if v != "" {
				return v
			}
		}
	}
	return "0"
}

// benchMedian is median with 0 for no runs.
func benchMedian(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	return speech.PraatQuantile(x, 0.5)
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
