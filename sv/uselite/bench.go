package uselite

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/roleprint/roleprint/sv/backend"
	"github.com/roleprint/roleprint/sv/neural"
)

// BenchConfig sets up an embedding-throughput measurement.
type BenchConfig struct {
	// Backend is the GoMLX backend ("" = sv/backend's default).
	Backend string
	// Texts are the sentences embedded in each pass.
	Texts []string
	// BatchSize is sentences per graph call. Default 64.
	BatchSize int
	// Passes is the number of timed passes over Texts. Default 1.
	Passes int
}

// BenchResult is an embedding-throughput measurement. The first (warm-up)
// pass compiles a graph per batch shape and is timed separately.
type BenchResult struct {
	Backend   string `json:"backend"`
	Sentences int    `json:"sentences"`
	// MeanPieces is the mean number of pieces per sentence (cut at 128).
	MeanPieces float64 `json:"mean_pieces"`
	BatchSize  int     `json:"batch_size"`
	Passes     int     `json:"passes"`
	// WarmupSeconds is the first pass: graph building, compilation, run.
	WarmupSeconds float64 `json:"warmup_seconds"`
	// Seconds is the mean wall time of a timed pass.
	Seconds            float64 `json:"seconds"`
	SentencesPerSecond float64 `json:"sentences_per_second"`
	PiecesPerSecond    float64 `json:"pieces_per_second"`
	// CPUs and LoadAverage describe the machine when the run ended (a
	// loaded machine inflates timings).
	CPUs        int    `json:"cpus"`
	LoadAverage string `json:"load_average,omitempty"`
}

// Bench embeds cfg.Texts with m through sv/neural's encoder (the path of
// the registered "use-lite" encoder): one warm-up pass, then cfg.Passes
// timed passes.
func Bench(ctx context.Context, m *Model, cfg BenchConfig) (*BenchResult, error) {
	if len(cfg.Texts) == 0 {
		return nil, fmt.Errorf("use-lite bench: no sentences")
	}
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = 64
	}
	if cfg.Passes <= 0 {
		cfg.Passes = 1
	}
	canon, err := backend.Resolve(cfg.Backend)
	if err != nil {
		return nil, err
	}
	enc, err := neural.NewEncoder(&Utterance{Model: m}, neural.EncoderConfig{Backend: canon, BatchSize: cfg.BatchSize, Head: "mean"})
	if err != nil {
		return nil, err
	}
	defer enc.Close()
	res := &BenchResult{Backend: canon, Sentences: len(cfg.Texts), BatchSize: cfg.BatchSize, Passes: cfg.Passes, CPUs: runtime.GOMAXPROCS(0)}
	pieces := 0
	for _, ids := range m.Tokenize(cfg.Texts) {
		pieces += len(ids)
	}
	res.MeanPieces = float64(pieces) / float64(len(cfg.Texts))
	start := time.Now()
	if _, err := enc.Encode(ctx, cfg.Texts, nil); err != nil {
		return nil, err
	}
	res.WarmupSeconds = time.Since(start).Seconds()
	start = time.Now()
	for range cfg.Passes {
		if _, err := enc.Encode(ctx, cfg.Texts, nil); err != nil {
			return nil, err
		}
	}
	res.Seconds = time.Since(start).Seconds() / float64(cfg.Passes)
	res.SentencesPerSecond = float64(len(cfg.Texts)) / res.Seconds
	res.PiecesPerSecond = float64(pieces) / res.Seconds
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		f := strings.Fields(string(b))
		if len(f) >= 3 {
			res.LoadAverage = strings.Join(f[:3], " ")
		}
	}
	return res, nil
}
