package neural

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/roleprint/roleprint/data/pairs"
)

// BenchConfig configures one training + embedding benchmark of a model on
// a backend. Data are synthetic (random sentences over a fixed English word
// list), so timings do not depend on a corpus.
type BenchConfig struct {
	// Head is the set head ("mean" or "attention").
	Head string `json:"head"`
	// Backend is the backend name ("" = default).
	Backend string `json:"backend"`
	// Train sets the batch (BatchPairs, MicroBatchPairs, MaxUtterances,
	// MaxTokens, LearningRate); epochs and checkpoints are ignored.
	Train TrainConfig `json:"train"`
	// Steps is the number of timed optimizer steps. Default 5.
	Steps int `json:"steps"`
	// WarmupSteps run first, untimed (the first one builds and compiles the
	// graphs). Default 1.
	WarmupSteps int `json:"warmup_steps"`
	// EmbedTexts is the number of utterances embedded for the embedding
	// benchmark (0: skip). EmbedBatch is the batch size (default 256).
	EmbedTexts int `json:"embed_texts"`
	EmbedBatch int `json:"embed_batch"`
	// Seed seeds data and initialisation.
	Seed int64 `json:"seed"`
	// EmbedOnly skips training: only the embedding benchmark runs (on the
	// freshly initialised model).
	EmbedOnly bool `json:"embed_only,omitempty"`
}

// BenchResult is one benchmark row (JSON keys are stable snake_case).
type BenchResult struct {
	Encoder       string `json:"encoder"`
	Backend       string `json:"backend"`
	BatchPairs    int    `json:"batch_pairs"`
	MicroBatch    int    `json:"micro_batch_pairs"`
	MaxUtterances int    `json:"max_utterances"`
	MaxTokens     int    `json:"max_tokens"`
	Parameters    int    `json:"parameters"`
	// FirstStepSeconds is the first step's wall time: graph building,
	// compilation and one run.
	FirstStepSeconds float64 `json:"first_step_seconds"`
	// StepsPerSecond, PairsPerSecond and UtterancesPerSecond are measured
	// over the timed steps.
	StepsPerSecond      float64 `json:"steps_per_second"`
	PairsPerSecond      float64 `json:"pairs_per_second"`
	UtterancesPerSecond float64 `json:"utterances_per_second"`
	// EmbedPerSecond is utterances embedded per second (after a warm-up batch).
	EmbedPerSecond float64 `json:"embed_utterances_per_second,omitempty"`
	// PeakRSSMiB is the process's peak resident memory during the benchmark
	// (host memory; device memory of a GPU is not included).
	PeakRSSMiB float64 `json:"peak_rss_mib"`
	// Losses are the training losses of every step, warm-up included (equal
	// across backends for one seed, up to rounding).
	Losses []float64 `json:"losses"`
}

// benchWords is the vocabulary of the synthetic sentences.
var benchWords = strings.Fields(`i you he she we they it the a an and or but so because if when then well oh yeah
okay really just like know think want need go come get make take see look say tell talk ask give feel love
hate work money time day night home house room door car phone friend family mother father brother sister
baby man woman guy girl boy people thing something nothing everything always never maybe sure right wrong
good bad great nice fine terrible amazing weird crazy funny happy sad angry sorry thanks please hello hey
coffee dinner party wedding date job boss office meeting science physics theory experiment paper comic book
game movie music song money apartment couch table kitchen bathroom bed shall thee thou art hath doth lord
lady king queen sword love death night heaven heart eyes speak hear know fair sweet gentle noble what why
how where who which this that these those here there now today tomorrow yesterday again still already very
quite much many more most less little big small old new young long short high low first last next other`)

// benchCorpus builds nPairs random pairs over nSets synthetic sets of
// exactly utts utterances each.
func benchCorpus(seed int64, nSets, utts, nPairs, words int) *pairs.PairCorpus {
	rng := rand.New(rand.NewPCG(uint64(seed), 99))
	c := &pairs.PairCorpus{Sets: map[string]*pairs.UtteranceSet{}}
	for s := 0; s < nSets; s++ {
		texts := make([]string, utts)
		for u := range texts {
			w := make([]string, words/2+rng.IntN(words))
			for j := range w {
				w[j] = benchWords[rng.IntN(len(benchWords))]
			}
			texts[u] = strings.Join(w, " ")
		}
		id := "b" + strconv.Itoa(s)
		c.Sets[id] = &pairs.UtteranceSet{ID: id, Speaker: strconv.Itoa(s % 50), Texts: texts}
	}
	for i := 0; i < nPairs; i++ {
		a, b := rng.IntN(nSets), rng.IntN(nSets)
		c.Train = append(c.Train, pairs.Pair{ID: "p" + strconv.Itoa(i), A: "b" + strconv.Itoa(a), B: "b" + strconv.Itoa(b), Label: int8(i % 2)})
	}
	return c
}

// Bench trains m for WarmupSteps + Steps steps on synthetic pairs and
// embeds EmbedTexts utterances, timing both on cfg.Backend.
func Bench(ctx context.Context, m UtteranceModel, cfg BenchConfig) (*BenchResult, error) {
	if cfg.Steps <= 0 {
		cfg.Steps = 5
	}
	if cfg.WarmupSteps <= 0 {
		cfg.WarmupSteps = 1
	}
	if cfg.EmbedBatch <= 0 {
		cfg.EmbedBatch = 256
	}
	tc, err := cfg.Train.resolve(m)
	if err != nil {
		return nil, err
	}
	total := cfg.WarmupSteps + cfg.Steps
	tc.Epochs, tc.MaxSteps, tc.CheckpointDir, tc.SkipDev, tc.Seed = 1, total, "", true, cfg.Seed
	head, err := NewHead(cfg.Head)
	if err != nil {
		return nil, err
	}
	resetPeakRSS()
	net, err := NewNetwork(m, head, cfg.Backend, cfg.Seed)
	if err != nil {
		return nil, err
	}
	defer net.Close()
	res := &BenchResult{Encoder: m.Name(), Backend: net.BackendName, BatchPairs: tc.BatchPairs, MicroBatch: tc.MicroBatchPairs,
		MaxUtterances: tc.MaxUtterances, MaxTokens: tc.MaxTokens}
	for v := range net.Store.IterVariables() {
		res.Parameters += v.Shape().Size()
	}
	// Words per sentence chosen to fill about MaxTokens ids.
	nPairs := tc.BatchPairs * total
	nSets := min(2*nPairs, 4096)
	c := benchCorpus(cfg.Seed, nSets, tc.MaxUtterances, nPairs, max(tc.MaxTokens-2, 2))
	if !cfg.EmbedOnly {
		if err := benchTrain(ctx, net, c, tc, cfg, res); err != nil {
			return nil, err
		}
	}
	if cfg.EmbedTexts > 0 {
		// The first batch (untimed) compiles the embedding graphs; then
		// EmbedTexts utterances are timed.
		warm := min(cfg.EmbedBatch, cfg.EmbedTexts)
		var pool []string
		for _, s := range c.Sets {
			pool = append(pool, s.Texts...)
		}
		texts := make([]string, warm+cfg.EmbedTexts)
		for i := range texts {
			texts[i] = pool[i%len(pool)]
		}
		if _, err := net.EmbedUtterances(ctx, texts[:warm], cfg.EmbedBatch, nil); err != nil {
			return nil, err
		}
		t0 := time.Now()
		if _, err := net.EmbedUtterances(ctx, texts[warm:], cfg.EmbedBatch, nil); err != nil {
			return nil, err
		}
		if d := time.Since(t0).Seconds(); d > 0 {
			res.EmbedPerSecond = float64(cfg.EmbedTexts) / d
		}
	}
	res.PeakRSSMiB = peakRSSMiB()
	return res, nil
}

// benchTrain runs the timed training steps and fills res's training fields.
func benchTrain(ctx context.Context, net *Network, c *pairs.PairCorpus, tc TrainConfig, cfg BenchConfig, res *BenchResult) error {
	var stamps []time.Time
	start := time.Now()
	tc.OnStep = func(step int, _ float64) { stamps = append(stamps, time.Now()) }
	tr, err := Train(ctx, net, c, tc, nil)
	if err != nil {
		return err
	}
	if len(stamps) < cfg.WarmupSteps+1 {
		return fmt.Errorf("bench: training stopped after %d steps, want %d", len(stamps), cfg.WarmupSteps+cfg.Steps)
	}
	res.Losses = tr.Losses
	res.FirstStepSeconds = stamps[0].Sub(start).Seconds()
	timed := stamps[len(stamps)-1].Sub(stamps[cfg.WarmupSteps-1]).Seconds()
	if timed > 0 {
		res.StepsPerSecond = float64(len(stamps)-cfg.WarmupSteps) / timed
		res.PairsPerSecond = res.StepsPerSecond * float64(tc.BatchPairs)
		res.UtterancesPerSecond = res.PairsPerSecond * float64(2*tc.MaxUtterances)
	}
	return nil
}

// resetPeakRSS asks Linux to restart the peak-RSS counter (VmHWM) of this
// process; elsewhere it does nothing.
func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// peakRSSMiB returns VmHWM from /proc/self/status in MiB (0 when unknown).
func peakRSSMiB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(rest)
			if len(f) > 0 {
				kb, err := strconv.ParseFloat(f[0], 64)
				if err == nil {
					return kb / 1024
				}
			}
		}
	}
	return 0
}

// String renders the result on one line.
func (r *BenchResult) String() string {
	return fmt.Sprintf("%s on %s: %.3f steps/s, %.1f pairs/s, %.0f embed/s, peak %.0f MiB",
		r.Encoder, r.Backend, r.StepsPerSecond, r.PairsPerSecond, r.EmbedPerSecond, r.PeakRSSMiB)
}
