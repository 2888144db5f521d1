package main

import (
	"context"
	"flag"
	"slices"
	"strings"
	"testing"
)

func TestTorchCommandSkipsWithoutPython(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	f := addBenchFlags(fs)
	v := addVsFlags(fs)
	if err := fs.Parse([]string{"--python", "/nonexistent/python3"}); err != nil {
		t.Fatal(err)
	}
	args, skip := torchCommand(context.Background(), "train", v, f)
	if args != nil || !strings.Contains(skip, "/nonexistent/python3") {
		t.Errorf("args %v, skip %q: want no command and a reason naming the interpreter", args, skip)
	}
}

func TestTorchCommandMatchesShapes(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	f := addBenchFlags(fs)
	v := addVsFlags(fs)
	// `true` stands in for Python: torchCommand only checks that the
	// interpreter exists and that `-c "import torch"` exits 0.
	if err := fs.Parse([]string{"--python", "true", "--torch-script", "cmd_bench_vs.go", "--batch-pairs", "4",
		"--max-tokens", "128", "--embed", "100", "--embed-batch", "256", "--threads", "3"}); err != nil {
		t.Fatal(err)
	}
	args, skip := torchCommand(context.Background(), "embed", v, f)
	if skip != "" {
		t.Fatalf("skipped: %s", skip)
	}
	at := func(flag string) string {
		i := slices.Index(args, flag)
		if i < 0 || i+1 >= len(args) {
			return ""
		}
		return args[i+1]
	}
	// 2048-token budget / 128 tokens = 16 utterances per call, as RolePrint.
	if at("--batch-pairs") != "4" || at("--max-tokens") != "128" || at("--embed") != "100" ||
		at("--embed-batch") != "16" || at("--threads") != "3" || !slices.Contains(args, "--no-train") {
		t.Errorf("torch command %v", args)
	}
}

func TestMedianRun(t *testing.T) {
	m := medianRun("x", []benchVsRun{{StepsPerSecond: 3, PeakRSSMiB: 10}, {StepsPerSecond: 1, PeakRSSMiB: 30}, {StepsPerSecond: 2, PeakRSSMiB: 20}})
	if m.StepsPerSecond != 2 || m.PeakRSSMiB != 20 || m.Tool != "x" {
		t.Errorf("median %+v", m)
	}
	if medianOf(nil) != 0 || medianOf([]float64{1, 4}) != 2.5 {
		t.Error("medianOf edge cases")
	}
}
