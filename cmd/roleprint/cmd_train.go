package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/roleprint/roleprint/internal/fsx"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
	"github.com/roleprint/roleprint/sv/backend"
	"github.com/roleprint/roleprint/sv/neural"
)

func init() {
	register(&command{
		Name:    "train",
		Summary: "fine-tune a GoMLX encoder with the contrastive loss on a pair dir or corpus files (checkpoints, resume)",
		Run:     runTrain,
	})
}

// trainOutput is the --json object of `roleprint train` (keys documented
// in docs/training.md).
type trainOutput struct {
	Encoder          string              `json:"encoder"`
	Backend          backend.Info        `json:"backend"`
	Inputs           []string            `json:"inputs"`
	Out              string              `json:"out"`
	Checkpoint       string              `json:"checkpoint"`
	TrainPairs       int                 `json:"train_pairs"`
	DevPairs         int                 `json:"dev_pairs"`
	Steps            int                 `json:"steps"`
	TotalSteps       int                 `json:"total_steps"`
	ResumedFrom      int                 `json:"resumed_from"`
	Seconds          float64             `json:"seconds"`
	PairsPerSecond   float64             `json:"pairs_per_second"`
	FirstLoss        float64             `json:"first_loss"`
	FinalLoss        float64             `json:"final_loss"`
	DevAUC           []float64           `json:"dev_auc,omitempty"`
	TestAUC          map[string]float64  `json:"test_auc,omitempty"`
	UntrainedTestAUC map[string]float64  `json:"untrained_test_auc,omitempty"`
	Config           map[string]any      `json:"config"`
	Result           *neural.TrainResult `json:"result"`
	Settings         map[string]string   `json:"settings"`
	Seed             int64               `json:"seed"`
	TestPairs        map[string]int      `json:"test_pairs,omitempty"`
	// Verifier is the bundle folder written (OUT/verifier), "" without dev pairs.
	Verifier string `json:"verifier,omitempty"`
}

// trainFlagSettings maps flags of `roleprint train` to encoder settings.
var trainFlagSettings = map[string]string{
	"epochs": neural.SetEpochs, "batch-pairs": neural.SetBatchPairs, "micro-batch-pairs": neural.SetMicroBatchPairs,
	"lr": neural.SetLearningRate, "max-steps": neural.SetMaxSteps, "checkpoint-every": neural.SetCheckpointEvery,
	"max-utterances": neural.SetMaxUtterances, "max-tokens": neural.SetMaxTokens, "head": neural.SetHeadKey,
}

// runTrain fine-tunes one encoder. Inputs: one pair directory (from
// `roleprint pairs`), or corpus Parquet files (pairs are built with the
// default pair configuration and --seed), or nothing (the embedded
// default corpus). Checkpoints go to --out; re-running the same command
// resumes from the newest one.
func runTrain(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "train", "[PAIRDIR | CORPUS.parquet...]")
	name := fs.String("encoder", neural.TransformerName, "trainable encoder: transformer, luar-scratch, luar, onnx (--set model=PATH), roberta, sbert, stel, use-lite, ...")
	out := fs.String("out", "", "output folder for checkpoints and train.json (required; an existing one is resumed)")
	set := settingsFlag(fs, "set", `encoder and training settings "key=value;..." (see docs/training.md)`)
	backendName := backend.AddFlag(fs)
	seed := fs.Int64("seed", 1, "seed for pair building, initialisation and training order")
	fs.Int("epochs", 0, "epochs (default 1; paper 5)")
	fs.Int("batch-pairs", 0, "pairs per optimizer step (default 32; paper 1024)")
	fs.Int("micro-batch-pairs", 0, "pairs per forward/backward pass; smaller values accumulate gradients (default: batch-pairs)")
	fs.Float64("lr", 0, "peak Adam learning rate (default: 1e-3 from scratch, 2e-5 pretrained)")
	fs.Int("max-steps", 0, "stop after this many optimizer steps (0: all epochs)")
	fs.Int("checkpoint-every", 0, "optimizer steps between checkpoints (default 50)")
	fs.Int("max-utterances", 0, "utterances per set per training step (default 8)")
	fs.Int("max-tokens", 0, "tokens per utterance (default: the model's)")
	fs.String("head", "", "set head: mean (paper) or attention (LUAR-style)")
	fresh := fs.Bool("fresh", false, "ignore checkpoints already in --out")
	eval := fs.String("eval", "unseen-unseen-base", `test sets to score after training ("all", "none", or comma-separated like unseen-unseen-base)`)
	compare := fs.Bool("compare-untrained", false, "also score the untrained encoder on the --eval test sets")
	asJSON := fs.Bool("json", false, "print one JSON object (keys in docs/training.md)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return usagef("--out DIR is required (checkpoints and train.json go there)")
	}
	settings, err := sv.ParseSettings(*set)
	if err != nil {
		return usagef("--set: %v", err)
	}
	fs.Visit(func(f *flag.Flag) {
		if key, ok := trainFlagSettings[f.Name]; ok {
			settings[key] = f.Value.String()
		}
	})
	evalKeys, err := trainEvalKeys(*eval)
	if err != nil {
		return usagef("--eval: %v", err)
	}
	base, _ := sv.SplitFineTuned(*name)
	if sv.HasOptions(base) && len(sv.SettingsFor(base, map[string]string{neural.SetCheckpointDir: ""})) == 0 {
		// Typed options without the trainer's keys: not a GoMLX encoder
		// (say so rather than reject the training flags' keys).
		return fmt.Errorf("encoder %s: %s cannot be fine-tuned by `roleprint train`, which trains the GoMLX encoders of sv/neural (transformer, luar-scratch, luar, onnx, ...)", base+sv.FineTunedSuffix, base)
	}
	settings[neural.SetCheckpointDir] = *out
	c, inputs, err := trainLoadPairs(ctx, e, fs.Args(), *seed)
	if err != nil {
		return err
	}
	info, err := backend.Describe(*backendName)
	if err != nil {
		return err
	}
	e.Logf("train %s on %d pairs (%d dev), backend %s", base, len(c.Train), len(c.Dev), info)
	opts := sv.EncoderOptions{Backend: info.Name, Seed: *seed, Settings: settings, Logf: e.Logf}
	enc, err := sv.NewEncoder(base+sv.FineTunedSuffix, opts)
	if err != nil {
		return err
	}
	defer trainCloseEncoder(enc)
	ne, ok := trainNeuralEncoder(enc)
	if !ok {
		return fmt.Errorf("encoder %s is not a GoMLX encoder of sv/neural; `roleprint train` trains those (transformer, luar-scratch, luar, onnx, ...)", base)
	}
	if *fresh {
		if err := trainRemoveCheckpoints(*out); err != nil {
			return err
		}
	}
	res := trainOutput{Encoder: base + sv.FineTunedSuffix, Backend: info, Inputs: inputs, Out: *out, TrainPairs: len(c.Train),
		DevPairs: len(c.Dev), Config: ne.Config(), Settings: settings, Seed: *seed}
	if *compare {
		untrained, err := sv.NewEncoder(base, opts.With(neural.SetCheckpointDir, ""))
		if err != nil {
			return err
		}
		res.UntrainedTestAUC, res.TestPairs, err = trainScoreTests(ctx, e, untrained, c, evalKeys)
		trainCloseEncoder(untrained)
		if err != nil {
			return err
		}
	}
	report, finish := e.progress("train " + base)
	err = enc.(sv.Trainable).Train(ctx, c, report)
	finish()
	if err != nil {
		if errors.Is(err, context.Canceled) {
			e.Logf("train: interrupted; a checkpoint is in %s, run the same command again to resume", *out)
		}
		return err
	}
	tr := ne.LastTrainResult()
	res.Result = tr
	res.Steps, res.TotalSteps, res.ResumedFrom = tr.Steps, tr.TotalSteps, tr.ResumedFrom
	res.Seconds, res.PairsPerSecond, res.DevAUC = tr.Seconds, tr.PairsPerSecond, tr.DevAUC
	if n := len(tr.Losses); n > 0 {
		res.FirstLoss, res.FinalLoss = tr.Losses[0], tr.Losses[n-1]
	}
	if files, _ := neural.ListCheckpoints(*out); len(files) > 0 {
		res.Checkpoint = files[len(files)-1]
	}
	if res.TestAUC, res.TestPairs, err = trainScoreTests(ctx, e, enc, c, evalKeys); err != nil {
		return err
	}
	if res.Verifier, err = trainSaveVerifier(ctx, e, enc, c, *out, res); err != nil {
		return err
	}
	if err := trainWriteJSON(filepath.Join(*out, "train.json"), res); err != nil {
		return err
	}
	if *asJSON {
		return e.JSON(res)
	}
	printTrain(e.Stdout(), &res, base, *out)
	return nil
}

// printTrain prints what training did: steps, loss, the test AUCs (beside
// the untrained encoder's with --compare) and how to embed with the
// checkpoint in out.
func printTrain(w io.Writer, res *trainOutput, base, out string) {
	fmt.Fprintf(w, "encoder      %s (%s)\n", res.Encoder, res.Backend.Name)
	fmt.Fprintf(w, "steps        %d/%d (resumed from %d) in %.1f s, %.1f pairs/s\n", res.Steps, res.TotalSteps, res.ResumedFrom, res.Seconds, res.PairsPerSecond)
	fmt.Fprintf(w, "loss         %.4f → %.4f\n", res.FirstLoss, res.FinalLoss)
	for _, k := range trainSortedKeys(res.TestAUC) {
		line := fmt.Sprintf("AUC %-22s %.4f", k, res.TestAUC[k])
		if u, ok := res.UntrainedTestAUC[k]; ok {
			line += fmt.Sprintf("  (untrained %.4f)", u)
		}
		fmt.Fprintln(w, line)
	}
	fmt.Fprintf(w, "checkpoint   %s\nembed with   roleprint embed --encoder %s --set weights=%s FILE\n", res.Checkpoint, base, out)
}

// neuralEncoder unwraps the sv view of a neural encoder.
func trainNeuralEncoder(enc sv.Encoder) (*neural.Encoder, bool) {
	switch v := enc.(type) {
	case *neural.Encoder:
		return v, true
	case interface{ Unwrap() *neural.Encoder }:
		return v.Unwrap(), true
	}
	return nil, false
}

func trainCloseEncoder(enc sv.Encoder) {
	if c, ok := enc.(sv.Closer); ok {
		_ = c.Close()
	}
}

// trainRemoveCheckpoints deletes the checkpoint files of dir (for
// --fresh). A file with a checkpoint's name that is not a RolePrint
// checkpoint (no magic line) is not ours: nothing is deleted.
func trainRemoveCheckpoints(dir string) error {
	files, err := neural.ListCheckpoints(dir)
	if err != nil {
		return err
	}
	for _, f := range files {
		if _, err := neural.ReadCheckpointState(f); err != nil {
			return fmt.Errorf("--fresh: %w: refusing to delete it (move it away to start afresh)", err)
		}
	}
	for _, f := range files {
		if err := os.Remove(f); err != nil {
			return err
		}
	}
	return nil
}

// trainEvalKeys parses --eval.
func trainEvalKeys(s string) ([]pairs.TestKey, error) {
	s = strings.TrimSpace(s)
	switch s {
	case "", "none":
		return nil, nil
	case "all":
		var keys []pairs.TestKey
		for _, x := range pairs.Exposures {
			for _, l := range pairs.Levels {
				keys = append(keys, pairs.TestKey{Exposure: x, Level: l})
			}
		}
		return keys, nil
	}
	known := map[string]pairs.TestKey{}
	for _, x := range pairs.Exposures {
		for _, l := range pairs.Levels {
			k := pairs.TestKey{Exposure: x, Level: l}
			known[k.String()] = k
		}
	}
	var keys []pairs.TestKey
	for _, item := range strings.Split(s, ",") {
		k, ok := known[strings.TrimSpace(item)]
		if !ok {
			return nil, fmt.Errorf("unknown test set %q (like unseen-unseen-base, seen-seen-hard; or all, none)", item)
		}
		keys = append(keys, k)
	}
	return keys, nil
}

// trainScoreTests returns the ROC AUC of cosine scores on each test set.
func trainScoreTests(ctx context.Context, e *env, enc sv.Encoder, c *pairs.PairCorpus, keys []pairs.TestKey) (map[string]float64, map[string]int, error) {
	if len(keys) == 0 {
		return nil, nil, nil
	}
	aucs, counts := map[string]float64{}, map[string]int{}
	for _, k := range keys {
		pairList := c.Tests[k]
		if len(pairList) == 0 {
			continue
		}
		var sets []*pairs.UtteranceSet
		for _, p := range pairList {
			sets = append(sets, c.Set(p.A), c.Set(p.B))
		}
		report, finish := e.progress("embed " + k.String())
		vecs, err := sv.EmbedSets(ctx, enc, sets, report)
		finish()
		if err != nil {
			return nil, nil, err
		}
		scores := make([]float64, len(pairList))
		labels := make([]bool, len(pairList))
		for i, p := range pairList {
			scores[i] = sv.ScorePair(enc, vecs[p.A], vecs[p.B])
			labels[i] = p.Label == 1
		}
		aucs[k.String()] = stats.AUC(scores, labels)
		counts[k.String()] = len(pairList)
	}
	return aucs, counts, nil
}

// trainLoadPairs reads a pair directory, or builds pairs from corpus
// Parquet files (or the embedded default corpus) with the default pair
// configuration and seed.
func trainLoadPairs(ctx context.Context, e *env, paths []string, seed int64) (*pairs.PairCorpus, []string, error) {
	if len(paths) == 1 {
		if st, err := os.Stat(paths[0]); err == nil && st.IsDir() {
			c, err := pairs.ReadPairDir(paths[0])
			return c, paths, err
		}
	}
	utts, inputs, err := readCorpusInputs(ctx, e, "train", paths)
	if err != nil {
		return nil, nil, err
	}
	cfg := pairs.DefaultPairConfig()
	cfg.Seed = seed
	c, err := pairs.BuildPairs(utts, cfg)
	if err != nil {
		return nil, nil, err
	}
	return c, inputs, nil
}

// trainWriteJSON writes v as indented JSON to path atomically, creating
// its folder.
func trainWriteJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return fsx.WriteFileAll(path, append(b, '\n'), 0o644)
}

func trainSortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
