package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/roleprint/roleprint/sv/neural"
)

// vsFlags are the flags of `bench train|embed --vs torch`.
type vsFlags struct {
	vs, python, script *string
	runs, threads      *int
}

// vsOnlyFlags are not passed on to the RolePrint child process.
var vsOnlyFlags = map[string]bool{"cpuprofile": true, "memprofile": true, "vs": true, "python": true, "torch-script": true, "runs": true, "threads": true, "json": true}

func addVsFlags(fs *flag.FlagSet) *vsFlags {
	return &vsFlags{
		vs:      fs.String("vs", "", `peer to measure against in the same run: "torch" (scripts/torch-reference.py, PyTorch eager on the CPU)`),
		python:  fs.String("python", "", "Python with PyTorch for --vs torch (default /usr/bin/python3 when present, else python3 on PATH)"),
		script:  fs.String("torch-script", "scripts/torch-reference.py", "the PyTorch reference script"),
		runs:    fs.Int("runs", 3, "alternating runs of each side with --vs (medians are reported)"),
		threads: fs.Int("threads", 0, "PyTorch threads with --vs torch (0: the number of CPUs, as ONNX Runtime uses)"),
	}
}

// benchVsRun is one child process's measurement.
type benchVsRun struct {
	// Tool is "roleprint" or "torch".
	Tool           string  `json:"tool"`
	StepsPerSecond float64 `json:"steps_per_second,omitempty"`
	PairsPerSecond float64 `json:"pairs_per_second,omitempty"`
	EmbedPerSecond float64 `json:"embed_utterances_per_second,omitempty"`
	// PeakRSSMiB is the child process's peak resident memory (getrusage).
	PeakRSSMiB  float64 `json:"peak_rss_mib"`
	WallSeconds float64 `json:"wall_s"`
}

// benchVsOutput is the --json object of `bench train|embed --vs torch`.
type benchVsOutput struct {
	Bench   string `json:"bench"`
	Preset  string `json:"preset"`
	Backend string `json:"backend"`
	Runs    int    `json:"runs"`
	// Ours and Torch hold the medians over the runs.
	Ours  benchVsRun `json:"ours"`
	Torch benchVsRun `json:"torch"`
	// SpeedRatio is the median over rounds of RolePrint's steps/s ÷
	// PyTorch's (bench train); EmbedRatio the same for utterances/s;
	// MemoryRatio RolePrint's median peak RSS ÷ PyTorch's.
	SpeedRatio  float64 `json:"speed_ratio,omitempty"`
	EmbedRatio  float64 `json:"embed_ratio,omitempty"`
	MemoryRatio float64 `json:"memory_ratio,omitempty"`
	// TorchVersion and TorchThreads describe the peer.
	TorchVersion string `json:"torch_version,omitempty"`
	TorchThreads int    `json:"torch_threads,omitempty"`
	// TorchBLAS lists the BLAS libraries PyTorch loaded (Debian's reference
	// libblas.so.3 makes it an order of magnitude slower than OpenBLAS).
	TorchBLAS []string `json:"torch_blas,omitempty"`
	// TorchSkipped says why PyTorch was not measured.
	TorchSkipped string       `json:"torch_skipped,omitempty"`
	Timings      []benchVsRun `json:"timings"`
	Load         string       `json:"load,omitempty"`
}

// runBenchVs measures `bench what` (train or embed) in a RolePrint child
// process and the PyTorch reference, alternating, Runs times each.
func runBenchVs(ctx context.Context, e *env, what string, fs *flag.FlagSet, v *vsFlags, f *benchFlags, asJSON bool) error {
	if *v.vs != "torch" {
		return usagef("--vs %q: only torch is supported", *v.vs)
	}
	if *v.runs < 1 {
		return usagef("--runs %d: need at least 1", *v.runs)
	}
	if *f.set != "" {
		return usagef("--vs torch runs the preset's model in PyTorch; --set would make the two differ")
	}
	if enc := fs.Lookup("encoder"); enc != nil && enc.Value.String() != neural.TransformerName {
		return usagef("--vs torch compares the %s encoder only", neural.TransformerName)
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	oursArgs := []string{"bench", what, "--json"}
	fs.Visit(func(fl *flag.Flag) {
		if !vsOnlyFlags[fl.Name] {
			oursArgs = append(oursArgs, "--"+fl.Name+"="+fl.Value.String())
		}
	})
	out := benchVsOutput{Bench: what, Preset: *f.preset, Runs: *v.runs, Load: benchLoad()}
	torchArgs, skip := torchCommand(ctx, what, v, f)
	out.TorchSkipped = skip
	if skip != "" {
		e.Logf("bench: PyTorch skipped: %s", skip)
	}
	var ours, theirs []benchVsRun
	var speed, embed []float64
	for r := 0; r < *v.runs; r++ {
		var o benchTrainOutput
		run, err := benchChild(ctx, e, append([]string{self}, oursArgs...), &o)
		if err != nil {
			return fmt.Errorf("roleprint child: %w", err)
		}
		run.Tool = "roleprint"
		if o.Result != nil {
			run.StepsPerSecond, run.PairsPerSecond, run.EmbedPerSecond = o.Result.StepsPerSecond, o.Result.PairsPerSecond, o.Result.EmbedPerSecond
		}
		out.Backend = o.Backend.Name
		ours = append(ours, run)
		out.Timings = append(out.Timings, run)
		e.Logf("bench: run %d/%d roleprint: %.3f steps/s, %.1f embed/s, %.0f MiB", r+1, *v.runs, run.StepsPerSecond, run.EmbedPerSecond, run.PeakRSSMiB)
		if torchArgs == nil {
			continue
		}
		var t torchReport
		trun, err := benchChild(ctx, e, torchArgs, &t)
		if err != nil {
			return fmt.Errorf("torch reference: %w", err)
		}
		trun.Tool = "torch"
		if len(t.Runs) > 0 {
			trun.StepsPerSecond, trun.PairsPerSecond = t.Runs[0].StepsPerSecond, t.Runs[0].PairsPerSecond
		}
		trun.EmbedPerSecond = t.EmbedPerSecond
		out.TorchVersion, out.TorchThreads, out.TorchBLAS = t.TorchVersion, t.Threads, t.BLAS
		theirs = append(theirs, trun)
		out.Timings = append(out.Timings, trun)
		e.Logf("bench: run %d/%d torch: %.3f steps/s, %.1f embed/s, %.0f MiB", r+1, *v.runs, trun.StepsPerSecond, trun.EmbedPerSecond, trun.PeakRSSMiB)
		if trun.StepsPerSecond > 0 {
			speed = append(speed, run.StepsPerSecond/trun.StepsPerSecond)
		}
		if trun.EmbedPerSecond > 0 {
			embed = append(embed, run.EmbedPerSecond/trun.EmbedPerSecond)
		}
	}
	out.Ours, out.Torch = medianRun("roleprint", ours), medianRun("torch", theirs)
	out.SpeedRatio, out.EmbedRatio = medianOf(speed), medianOf(embed)
	if out.Torch.PeakRSSMiB > 0 {
		out.MemoryRatio = out.Ours.PeakRSSMiB / out.Torch.PeakRSSMiB
	}
	if asJSON {
		return e.JSON(out)
	}
	printBenchVs(e, out)
	return nil
}

// torchReport is the part of torch-reference.py's JSON read here.
type torchReport struct {
	TorchVersion string   `json:"torch_version"`
	Threads      int      `json:"threads"`
	BLAS         []string `json:"blas"`
	Runs         []struct {
		StepsPerSecond float64 `json:"steps_per_second"`
		PairsPerSecond float64 `json:"pairs_per_second"`
	} `json:"runs"`
	EmbedPerSecond float64 `json:"embed_utterances_per_second"`
}

// torchCommand returns the PyTorch reference's command line, or nil and
// the reason it cannot run (no Python, no torch, no script).
func torchCommand(ctx context.Context, what string, v *vsFlags, f *benchFlags) ([]string, string) {
	py := *v.python
	if py == "" {
		py = "python3"
		if _, err := os.Stat("/usr/bin/python3"); err == nil {
			py = "/usr/bin/python3"
		}
	}
	bin, err := exec.LookPath(py)
	if err != nil {
		return nil, fmt.Sprintf("%s not found", py)
	}
	if _, err := os.Stat(*v.script); err != nil {
		return nil, fmt.Sprintf("%s: %v (run from the repository root or give --torch-script)", *v.script, err)
	}
	if msg, err := exec.CommandContext(ctx, bin, "-c", "import torch").CombinedOutput(); err != nil {
		return nil, fmt.Sprintf("%s cannot import torch (apt-get install python3-torch): %s", bin, strings.TrimSpace(lastLine(string(msg))))
	}
	threads := *v.threads
	if threads <= 0 {
		threads = runtime.NumCPU()
	}
	// The same utterances per embedding call as RolePrint makes (it caps
	// the call at neural.EmbedTokenBudget padded tokens).
	tokens := *f.tokens
	if tokens <= 0 {
		fmt.Sscan(benchPresets[*f.preset][neural.SetMaxTokens], &tokens)
	}
	embedBatch := *f.embedBatch
	if tokens > 0 {
		embedBatch = min(embedBatch, max(8, neural.EmbedTokenBudget/tokens))
	}
	args := []string{bin, *v.script, "--preset", *f.preset, "--no-compile", "--threads", fmt.Sprint(threads),
		"--steps", fmt.Sprint(max(*f.steps, 1)), "--warmup", fmt.Sprint(max(*f.warmup, 1)),
		"--embed-batch", fmt.Sprint(embedBatch)}
	for flagName, n := range map[string]int{"--batch-pairs": *f.batch, "--max-utterances": *f.utts, "--max-tokens": *f.tokens} {
		if n > 0 {
			args = append(args, flagName, fmt.Sprint(n))
		}
	}
	if *f.embed > 0 {
		args = append(args, "--embed", fmt.Sprint(*f.embed))
	}
	if what == "embed" {
		args = append(args, "--no-train")
	}
	return args, ""
}

// benchChild runs argv, decodes its stdout (one JSON object) into dst and
// returns its wall time and peak RSS. The child's stderr goes to ours.
func benchChild(ctx context.Context, e *env, argv []string, dst any) (benchVsRun, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = os.Stderr
	t0 := time.Now()
	err := cmd.Run()
	run := benchVsRun{WallSeconds: time.Since(t0).Seconds()}
	if err != nil {
		return run, fmt.Errorf("%s: %w", strings.Join(argv, " "), err)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		run.PeakRSSMiB = float64(ru.Maxrss) / 1024 // KiB on Linux
	}
	if err := json.Unmarshal(stdout.Bytes(), dst); err != nil {
		return run, fmt.Errorf("%s: output is not one JSON object: %w", argv[0], err)
	}
	return run, nil
}

// medianRun returns the per-field medians of runs.
func medianRun(tool string, runs []benchVsRun) benchVsRun {
	field := func(get func(benchVsRun) float64) float64 {
		var x []float64
		for _, r := range runs {
			x = append(x, get(r))
		}
		return medianOf(x)
	}
	return benchVsRun{Tool: tool,
		StepsPerSecond: field(func(r benchVsRun) float64 { return r.StepsPerSecond }),
		PairsPerSecond: field(func(r benchVsRun) float64 { return r.PairsPerSecond }),
		EmbedPerSecond: field(func(r benchVsRun) float64 { return r.EmbedPerSecond }),
		PeakRSSMiB:     field(func(r benchVsRun) float64 { return r.PeakRSSMiB }),
		WallSeconds:    field(func(r benchVsRun) float64 { return r.WallSeconds })}
}

// medianOf returns the median of x, 0 when empty.
func medianOf(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	s := slices.Clone(x)
	slices.Sort(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func printBenchVs(e *env, o benchVsOutput) {
	w := e.Stdout()
	fmt.Fprintf(w, "bench %s --vs torch, preset %s, %d alternating runs, load average %s\n", o.Bench, o.Preset, o.Runs, o.Load)
	for _, r := range o.Timings {
		if o.Bench == "embed" {
			fmt.Fprintf(w, "  %-9s %8.1f embed utts/s %7.0f MiB peak RSS %6.1f s wall\n", r.Tool, r.EmbedPerSecond, r.PeakRSSMiB, r.WallSeconds)
			continue
		}
		fmt.Fprintf(w, "  %-9s %8.3f steps/s %8.1f pairs/s %8.1f embed utts/s %7.0f MiB peak RSS %6.1f s wall\n",
			r.Tool, r.StepsPerSecond, r.PairsPerSecond, r.EmbedPerSecond, r.PeakRSSMiB, r.WallSeconds)
	}
	fmt.Fprintf(w, "roleprint (%s) median: %.3f steps/s, %.1f pairs/s, %.1f embed utts/s, %.0f MiB\n",
		o.Backend, o.Ours.StepsPerSecond, o.Ours.PairsPerSecond, o.Ours.EmbedPerSecond, o.Ours.PeakRSSMiB)
	if o.TorchSkipped != "" {
		fmt.Fprintf(w, "torch skipped: %s\n", o.TorchSkipped)
		return
	}
	fmt.Fprintf(w, "torch %s (%d threads, eager) median: %.3f steps/s, %.1f pairs/s, %.1f embed utts/s, %.0f MiB\n",
		o.TorchVersion, o.TorchThreads, o.Torch.StepsPerSecond, o.Torch.PairsPerSecond, o.Torch.EmbedPerSecond, o.Torch.PeakRSSMiB)
	fmt.Fprintf(w, "torch BLAS: %s\n", strings.Join(o.TorchBLAS, ", "))
	if o.Bench == "embed" {
		fmt.Fprintf(w, "ratio roleprint/torch (median of rounds): embedding %.2f×, peak memory %.2f×\n", o.EmbedRatio, o.MemoryRatio)
		return
	}
	fmt.Fprintf(w, "ratio roleprint/torch (median of rounds): speed %.2f×, embedding %.2f×, peak memory %.2f×\n",
		o.SpeedRatio, o.EmbedRatio, o.MemoryRatio)
}

// benchLoad returns the 1-minute load average, or "".
func benchLoad() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	if f := strings.Fields(string(b)); len(f) > 0 {
		return f[0]
	}
	return ""
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
