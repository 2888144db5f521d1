package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/roleprint/roleprint/sv"
	"github.com/roleprint/roleprint/sv/backend"
	"github.com/roleprint/roleprint/sv/neural"
)

func init() {
	register(&command{
		Name:    "bench",
		Summary: "benchmarks: `bench train` / `bench embed` (steps/s, pairs/s, utterances/s, memory; --vs torch) and `bench backends` (go vs onnx vs xla ratios)",
		Run:     runBench,
	})
}

func runBench(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return usagef("usage: roleprint bench train|embed|backends [flags] (see `roleprint bench train -h`)")
	}
	switch args[0] {
	case "train":
		return runBenchTrain(ctx, e, "train", args[1:])
	case "embed":
		return runBenchTrain(ctx, e, "embed", args[1:])
	case "backends":
		return runBenchBackends(ctx, e, args[1:])
	}
	return usagef("unknown bench %q: use train, embed or backends", args[0])
}

// Benchmark presets: the CPU default configuration and the paper-scale GPU
// configuration (6 layers, 384 wide, 1024 pairs × 2 sets × 5 utterances ×
// 32 tokens per step).
var benchPresets = map[string]map[string]string{
	"cpu": {"layers": "2", "dim": "128", "heads": "4", "ffn_dim": "512", "max_len": "32",
		neural.SetBatchPairs: "32", neural.SetMaxUtterances: "8", neural.SetMaxTokens: "32"},
	"paper": {"layers": "6", "dim": "384", "heads": "6", "ffn_dim": "1536", "max_len": "32",
		neural.SetBatchPairs: "1024", neural.SetMaxUtterances: "5", neural.SetMaxTokens: "32"},
}

// benchFlags are the flags shared by both benchmarks.
type benchFlags struct {
	preset, set                      *string
	steps, warmup, embed, embedBatch *int
	batch, micro, utts, tokens       *int
	seed                             *int64
	asJSON                           *bool
	embedOnly                        bool // bench embed: no training steps
}

func addBenchFlags(fs *flag.FlagSet) *benchFlags {
	return &benchFlags{
		preset:     fs.String("preset", "cpu", "configuration: cpu (2 layers, 128-d, 32 pairs × 2 × 8 utterances × 32 tokens) or paper (6 layers, 384-d, 1024 pairs × 2 × 5 × 32)"),
		set:        settingsFlag(fs, "set", `extra encoder settings "key=value;..." (override the preset)`),
		steps:      fs.Int("steps", 5, "timed training steps"),
		warmup:     fs.Int("warmup", 1, "untimed steps first (the first compiles the graphs)"),
		embed:      fs.Int("embed", 512, "utterances to embed for the embedding benchmark (0: skip)"),
		embedBatch: fs.Int("embed-batch", 256, "utterances per embedding batch (capped at neural.EmbedTokenBudget = 2048 padded tokens per call)"),
		batch:      fs.Int("batch-pairs", 0, "pairs per step (overrides the preset)"),
		micro:      fs.Int("micro-batch-pairs", 0, "pairs per forward/backward pass (gradient accumulation)"),
		utts:       fs.Int("max-utterances", 0, "utterances per set (overrides the preset)"),
		tokens:     fs.Int("max-tokens", 0, "tokens per utterance (overrides the preset)"),
		seed:       fs.Int64("seed", 1, "seed of the synthetic data and the initialisation"),
		asJSON:     fs.Bool("json", false, "print one JSON object (keys in docs/training.md)"),
	}
}

// benchOne builds encoder name on backendName with the flags' settings and
// runs neural.Bench.
func benchOne(ctx context.Context, e *env, name, backendName string, f *benchFlags) (*neural.BenchResult, error) {
	settings, ok := benchPresets[*f.preset]
	if !ok {
		return nil, usagef("--preset %q: use cpu or paper", *f.preset)
	}
	s := map[string]string{}
	for k, v := range settings {
		s[k] = v
	}
	extra, err := sv.ParseSettings(*f.set)
	if err != nil {
		return nil, usagef("--set: %v", err)
	}
	for k, v := range extra {
		s[k] = v
	}
	for key, v := range map[string]int{neural.SetBatchPairs: *f.batch, neural.SetMicroBatchPairs: *f.micro,
		neural.SetMaxUtterances: *f.utts, neural.SetMaxTokens: *f.tokens} {
		if v > 0 {
			s[key] = fmt.Sprint(v)
		}
	}
	if t, ok := s[neural.SetMaxTokens]; ok {
		if _, given := extra["max_len"]; !given {
			s["max_len"] = t
		}
	}
	enc, err := sv.NewEncoder(name, sv.EncoderOptions{Backend: backendName, Seed: *f.seed, Settings: s, Logf: e.Logf})
	if err != nil {
		return nil, err
	}
	defer trainCloseEncoder(enc)
	ne, ok := trainNeuralEncoder(enc)
	if !ok {
		return nil, fmt.Errorf("encoder %s is not a GoMLX encoder of sv/neural", name)
	}
	cfg := ne.EncoderConfig()
	e.Logf("bench %s on %s (%s preset)...", name, backendName, *f.preset)
	return neural.Bench(ctx, ne.Model(), neural.BenchConfig{Head: cfg.Head, Backend: backendName, Train: cfg.Train,
		Steps: *f.steps, WarmupSteps: *f.warmup, EmbedTexts: *f.embed, EmbedBatch: *f.embedBatch, Seed: *f.seed,
		EmbedOnly: f.embedOnly})
}

// benchTrainOutput is the --json object of `roleprint bench train`.
type benchTrainOutput struct {
	Preset  string              `json:"preset"`
	Backend backend.Info        `json:"backend"`
	Result  *neural.BenchResult `json:"result"`
}

func runBenchTrain(ctx context.Context, e *env, what string, args []string) error {
	fs := newFlags(e, "bench "+what, "")
	name := fs.String("encoder", neural.TransformerName, "GoMLX encoder to benchmark (transformer, luar-scratch, luar, onnx, use-lite, ...)")
	backendName := backend.AddFlag(fs)
	f := addBenchFlags(fs)
	vs := addVsFlags(fs)
	cpuProfile := fs.String("cpuprofile", "", "write a Go CPU profile of the benchmark to this file (ONNX Runtime's own threads show as cgo calls)")
	memProfile := fs.String("memprofile", "", "write a Go heap profile at the benchmark's peak live heap to this file")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("bench %s takes no files", what)
	}
	defer startPeakHeapProfile(ctx, *memProfile, e.Logf)()
	f.embedOnly = what == "embed"
	if f.embedOnly && *f.embed <= 0 {
		return usagef("bench embed: --embed must be at least 1")
	}
	if *vs.vs != "" {
		return runBenchVs(ctx, e, what, fs, vs, f, *f.asJSON)
	}
	info, err := backend.Describe(*backendName)
	if err != nil {
		return err
	}
	stopProfile, err := startCPUProfile(*cpuProfile)
	if err != nil {
		return err
	}
	r, err := benchOne(ctx, e, *name, info.Name, f)
	if perr := stopProfile(); err == nil {
		err = perr
	}
	if err != nil {
		return err
	}
	if *f.asJSON {
		return e.JSON(benchTrainOutput{Preset: *f.preset, Backend: info, Result: r})
	}
	fmt.Fprintf(e.Stdout(), "backend: %s\n\n", info)
	printBenchTable(e, []*neural.BenchResult{r}, nil)
	return nil
}

// benchRatio compares one backend's row with the go backend's.
type benchRatio struct {
	Encoder string `json:"encoder"`
	Backend string `json:"backend"`
	// TrainSpeedup and EmbedSpeedup are steps/s and embeddings/s relative to go.
	TrainSpeedup float64 `json:"train_speedup_vs_go"`
	EmbedSpeedup float64 `json:"embed_speedup_vs_go,omitempty"`
	// MaxLossDiff is the largest |loss − go's loss| over the steps (same seed).
	MaxLossDiff float64 `json:"max_loss_diff_vs_go"`
}

// benchBackendsOutput is the --json object of `roleprint bench backends`.
type benchBackendsOutput struct {
	Preset string                `json:"preset"`
	Rows   []*neural.BenchResult `json:"rows"`
	Ratios []benchRatio          `json:"ratios"`
	Notes  []string              `json:"notes,omitempty"`
}

func runBenchBackends(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "bench backends", "")
	encoders := fs.String("encoders", neural.TransformerName, "comma-separated GoMLX encoders")
	backends := fs.String("backends", "", "comma-separated backends (default: go, onnx when installed, xla:cuda when configured)")
	f := addBenchFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var out benchBackendsOutput
	out.Preset = *f.preset
	list := splitList(*backends)
	if len(list) == 0 {
		list = []string{backend.Go}
		if _, err := backend.ONNXRuntimeLibrary(); err == nil {
			list = append(list, backend.ONNX)
		} else {
			out.Notes = append(out.Notes, "onnx skipped: "+err.Error())
		}
		if backend.CUDAPluginConfigured() {
			list = append(list, backend.XLACUDA)
		}
	}
	if list[0] != backend.Go {
		list = append([]string{backend.Go}, list...) // ratios are relative to go
	}
	for _, name := range splitList(*encoders) {
		var ref *neural.BenchResult
		for _, b := range list {
			r, err := benchOne(ctx, e, name, b, f)
			if err != nil {
				return err
			}
			out.Rows = append(out.Rows, r)
			if b == backend.Go {
				ref = r
				continue
			}
			ratio := benchRatio{Encoder: name, Backend: r.Backend}
			if ref.StepsPerSecond > 0 {
				ratio.TrainSpeedup = r.StepsPerSecond / ref.StepsPerSecond
			}
			if ref.EmbedPerSecond > 0 {
				ratio.EmbedSpeedup = r.EmbedPerSecond / ref.EmbedPerSecond
			}
			for i := range r.Losses {
				if i < len(ref.Losses) {
					ratio.MaxLossDiff = math.Max(ratio.MaxLossDiff, math.Abs(r.Losses[i]-ref.Losses[i]))
				}
			}
			out.Ratios = append(out.Ratios, ratio)
		}
	}
	if *f.asJSON {
		return e.JSON(out)
	}
	printBenchTable(e, out.Rows, out.Ratios)
	for _, n := range out.Notes {
		fmt.Fprintln(e.Stdout(), "note:", n)
	}
	return nil
}

func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// printBenchTable prints rows (and ratios to go, when given) as a table.
func printBenchTable(e *env, rows []*neural.BenchResult, ratios []benchRatio) {
	w := tabwriter.NewWriter(e.Stdout(), 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "encoder\tbackend\tbatch (pairs×2×utts×tokens)\tparams\tfirst step s\tsteps/s\tpairs/s\tembed utts/s\tpeak RSS MiB\tspeed-up vs go\tmax |Δloss|\t")
	for _, r := range rows {
		speed, dloss := "", ""
		for _, q := range ratios {
			if q.Encoder == r.Encoder && q.Backend == r.Backend {
				speed = fmt.Sprintf("train %.2f×", q.TrainSpeedup)
				if q.EmbedSpeedup > 0 {
					speed += fmt.Sprintf(", embed %.2f×", q.EmbedSpeedup)
				}
				dloss = fmt.Sprintf("%.1e", q.MaxLossDiff)
			}
		}
		fmt.Fprintf(w, "%s\t%s\t%d×2×%d×%d\t%.2fM\t%.1f\t%.3f\t%.1f\t%.0f\t%.0f\t%s\t%s\t\n", r.Encoder, r.Backend,
			r.BatchPairs, r.MaxUtterances, r.MaxTokens, float64(r.Parameters)/1e6, r.FirstStepSeconds,
			r.StepsPerSecond, r.PairsPerSecond, r.EmbedPerSecond, r.PeakRSSMiB, speed, dloss)
	}
	_ = w.Flush()
}
