package main

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/corpus"
	"github.com/roleprint/roleprint/data/pairs"
)

func init() {
	register(&command{
		Name:    "pairs",
		Summary: "build balanced speaker-verification pairs (train, dev, 9 test sets) from corpus files",
		Run:     runPairs,
	})
}

// pairsOutput is the --json object of `roleprint pairs`; its keys are
// documented in docs/pairs.md.
type pairsOutput struct {
	Out               string               `json:"out"`
	BaseNegatives     string               `json:"base_negatives"`
	Inputs            []string             `json:"inputs"`
	Utterances        int                  `json:"utterances"`
	Seed              int64                `json:"seed"`
	Variant           pairs.PairVariant    `json:"variant"`
	DatasetBy         string               `json:"dataset_by"`
	SpeakersSeen      int                  `json:"speakers_seen"`
	SpeakersUnseen    int                  `json:"speakers_unseen"`
	SpeakersDev       int                  `json:"speakers_dev"`
	Sets              int                  `json:"sets"`
	HeldConversations int                  `json:"held_conversations"`
	Splits            []pairs.SplitStats   `json:"splits"`
	Datasets          []pairs.DatasetSplit `json:"datasets"`
	Input             *pairs.InputCounts   `json:"input"`
	Notes             []string             `json:"notes"`
}

// listFlag is a comma-separated list flag; set tells whether it was given.
type listFlag struct {
	vals []string
	set  bool
}

func (l *listFlag) String() string { return strings.Join(l.vals, ",") }

func (l *listFlag) Set(s string) error {
	l.set = true
	l.vals = nil
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			l.vals = append(l.vals, v)
		}
	}
	return nil
}

// pairFlags holds the flags of the PairConfig knobs that are not plain
// numbers or booleans: apply moves them into the config after parsing.
type pairFlags struct {
	exclude, excludeAdd, aliases, aliasAdd, mainRoles, levels listFlag
	variant, datasetBy, baseNegatives                         string
	uniform                                                   bool
}

// bindPairFlags binds every knob of cfg to a flag of fs, with cfg's values
// as defaults.
func bindPairFlags(fs *flag.FlagSet, cfg *pairs.PairConfig) *pairFlags {
	f := &pairFlags{}
	fs.Int64Var(&cfg.Seed, "seed", cfg.Seed, "random seed; the same seed gives byte-identical files")
	fs.StringVar(&f.variant, "variant", string(cfg.Variant), "paper (balanced training, Seen-Seen paired anew) or code (the authors' script: 1:3 training, Seen-Seen sampled from training)")
	fs.StringVar(&f.baseNegatives, "base-negatives", cfg.BaseNegatives, "where Base negatives come from: source (another source than the anchor's, as the paper) or any (any other speaker, the old default)")
	fs.StringVar(&f.datasetBy, "dataset-by", cfg.DatasetBy, "unit for drawing unseen/dev speakers: corpus (all shakespeare/* plays are one dataset) or source (each play)")
	fs.IntVar(&cfg.MinConversationTurns, "min-turns", cfg.MinConversationTurns, "drop conversations with fewer utterances")
	fs.IntVar(&cfg.MinSetUtterances, "min-set-utterances", cfg.MinSetUtterances, "a set needs at least this many utterances")
	fs.IntVar(&cfg.MinSetWords, "min-set-words", cfg.MinSetWords, "a set needs at least this many words")
	fs.IntVar(&cfg.MinSpeakerSets, "min-speaker-sets", cfg.MinSpeakerSets, "drop speakers with fewer sets")
	fs.Var(&f.exclude, "exclude", "comma-separated generic roles to drop, replacing the defaults (globs like 'First *'; 'corpus:Name' scopes an entry; empty string: none)")
	fs.Var(&f.excludeAdd, "exclude-add", "comma-separated generic roles to drop in addition to the defaults")
	fs.Var(&f.aliases, "aliases", "comma-separated speaker aliases From=To merged before the filters, replacing the defaults ('corpus:From=To' scopes an entry; empty string: none)")
	fs.Var(&f.aliasAdd, "alias-add", "comma-separated speaker aliases From=To merged in addition to the defaults")
	fs.Var(&f.mainRoles, "main-roles", "comma-separated main roles never held out (default: the paper's Chandler, Rachel, Joey, Harry, Hermione, Ron, Voldemort, Sheldon, Penny, Leonard)")
	fs.BoolVar(&cfg.IncludeGenerated, "include-generated", cfg.IncludeGenerated, "keep agent-generated utterances as speakers of their own")
	fs.IntVar(&cfg.UnseenMaxSets, "unseen-max-sets", cfg.UnseenMaxSets, "only speakers with fewer sets can be unseen or dev")
	fs.IntVar(&cfg.UnseenPerDataset, "unseen-per-dataset", cfg.UnseenPerDataset, "at most this many unseen speakers per dataset")
	fs.IntVar(&cfg.UnseenDivisor, "unseen-divisor", cfg.UnseenDivisor, "at most candidates/N unseen (and dev) speakers per dataset")
	fs.IntVar(&cfg.DevPerDataset, "dev-per-dataset", cfg.DevPerDataset, "at most this many dev speakers per dataset")
	fs.BoolVar(&f.uniform, "uniform-unseen", !cfg.PreferCooccurring, "draw unseen/dev speakers uniformly (the paper's code) instead of preferring ones that share conversations")
	fs.IntVar(&cfg.HoldOut, "hold-out", cfg.HoldOut, "sets per seen speaker held out for Seen-Unseen")
	fs.IntVar(&cfg.HoldOutLarge, "hold-out-large", cfg.HoldOutLarge, "sets held out for speakers with at least --hold-out-large-from sets")
	fs.IntVar(&cfg.HoldOutLargeFrom, "hold-out-large-from", cfg.HoldOutLargeFrom, "see --hold-out-large")
	fs.Var(&f.levels, "train-levels", "comma-separated negative levels of the training pairs (base,hard,harder)")
	fs.IntVar(&cfg.TrainPairsPerAnchor, "train-pairs-per-anchor", cfg.TrainPairsPerAnchor, "positive/negative couples per training set and level")
	fs.IntVar(&cfg.TestPairsPerAnchor, "test-pairs-per-anchor", cfg.TestPairsPerAnchor, "positive/negative couples per anchor in test and dev splits")
	fs.IntVar(&cfg.MaxTrainPairs, "max-train", cfg.MaxTrainPairs, "cap on training pairs")
	fs.IntVar(&cfg.MaxTestPairs, "max-test", cfg.MaxTestPairs, "cap on pairs per test split")
	fs.IntVar(&cfg.MaxDevPairs, "max-dev", cfg.MaxDevPairs, "cap on dev pairs")
	fs.BoolVar(&cfg.AllowEmptySplits, "allow-empty", cfg.AllowEmptySplits, "write the corpus even when some split is empty (the reasons go to notes)")
	return f
}

// apply sets cfg's list and choice knobs from the parsed flags.
func (f *pairFlags) apply(cfg *pairs.PairConfig) {
	cfg.Variant = pairs.PairVariant(f.variant)
	cfg.DatasetBy = f.datasetBy
	cfg.BaseNegatives = f.baseNegatives
	cfg.PreferCooccurring = !f.uniform
	if f.exclude.set {
		cfg.ExcludeSpeakers = f.exclude.vals
	}
	cfg.ExcludeSpeakers = append(cfg.ExcludeSpeakers, f.excludeAdd.vals...)
	if f.aliases.set {
		cfg.Aliases = f.aliases.vals
	}
	cfg.Aliases = append(cfg.Aliases, f.aliasAdd.vals...)
	if f.mainRoles.set {
		cfg.MainRoles = f.mainRoles.vals
	}
	if f.levels.set {
		cfg.TrainLevels = nil
		for _, l := range f.levels.vals {
			cfg.TrainLevels = append(cfg.TrainLevels, pairs.Level(strings.ToLower(l)))
		}
	}
}

// runPairs reads corpus files (or the embedded default corpus), builds the
// pairs and writes the pair directory.
func runPairs(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "pairs", "[CORPUS.parquet...]")
	cfg := pairs.DefaultPairConfig()
	out := fs.String("out", "", "output directory (required): sets.parquet, train/dev/<exposure>-<level>.parquet, manifest.json")
	asJSON := fs.Bool("json", false, "print one JSON object (see docs/pairs.md) instead of the Table-5-like summary")
	outs := addOutputFlags(fs, false)
	pf := bindPairFlags(fs, &cfg)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return usagef("--out DIR is required")
	}
	pf.apply(&cfg)
	if err := cfg.Validate(); err != nil {
		return usagef("%v", err)
	}

	utts, inputs, err := readCorpusInputs(ctx, e, "pairs", fs.Args())
	if err != nil {
		return err
	}
	stage := ""
	var report func(done, total int)
	var finish func()
	cfg.Progress = func(s string, done, total int) {
		if s != stage {
			if finish != nil {
				finish()
			}
			stage = s
			report, finish = e.progress("pairs: " + s)
		}
		report(done, total)
	}
	c, err := pairs.BuildPairs(utts, cfg)
	if finish != nil {
		finish()
	}
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	start := time.Now()
	if err := pairs.WritePairDir(*out, c); err != nil {
		return err
	}
	if d := time.Since(start); d > time.Second {
		e.Logf("pairs: wrote %s in %s", *out, d.Round(10*time.Millisecond))
	}

	st := pairs.PairStats(c)
	info := pairs.PairCorpusInfo(c)
	if err := pairsWriteOutputs(e, outs, st, *out); err != nil {
		return err
	}
	res := pairsOutput{
		Out: *out, BaseNegatives: cfg.BaseNegatives, Inputs: inputs, Utterances: len(utts), Seed: cfg.Seed, Variant: cfg.Variant, DatasetBy: cfg.DatasetBy,
		SpeakersSeen: st.SpeakersSeen, SpeakersUnseen: st.SpeakersUnseen, SpeakersDev: st.SpeakersDev, Sets: st.Sets,
		HeldConversations: info.HeldConversations, Splits: st.Splits, Datasets: info.Datasets, Input: info.Input,
		Notes: info.Notes,
	}
	if res.Notes == nil {
		res.Notes = []string{}
	}
	if *asJSON {
		return e.JSON(res)
	}
	fmt.Fprintf(e.Stdout(), "Pairs from %d utterances (seed %d, variant %s) → %s\n\n", len(utts), cfg.Seed, cfg.Variant, *out)
	if err := st.WriteMarkdown(e.Stdout()); err != nil {
		return err
	}
	for _, d := range info.Datasets {
		fmt.Fprintf(e.Stdout(), "\n%s: %d speakers, %d candidates; unseen: %s; dev: %s", d.Name, d.Speakers, d.Candidates,
			orNone(d.Unseen), orNone(d.Dev))
	}
	fmt.Fprintln(e.Stdout())
	for _, n := range info.Notes {
		fmt.Fprintf(e.Stdout(), "note: %s\n", n)
	}
	return nil
}

func orNone(l []string) string {
	if len(l) == 0 {
		return "none"
	}
	return strings.Join(l, ", ")
}

// readCorpusInputs reads the corpus files of `roleprint pairs` and
// `roleprint train`, or the embedded default corpus when none is given,
// and returns the utterances and the inputs' names for the JSON output;
// command prefixes its progress and log lines.
func readCorpusInputs(ctx context.Context, e *env, command string, paths []string) ([]data.Utterance, []string, error) {
	if len(paths) == 0 {
		utts, err := corpus.Default()
		if err != nil {
			return nil, nil, err
		}
		e.Logf("%s: no corpus files given, using the embedded default corpus (%d utterances)", command, len(utts))
		return utts, []string{defaultCorpusName}, nil
	}
	report, finish := e.progress(command + ": read")
	defer finish()
	var utts []data.Utterance
	for i, p := range paths {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		err := data.ScanUtterances(p, func(batch []data.Utterance) error {
			utts = append(utts, batch...)
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
		report(i+1, len(paths))
	}
	return utts, paths, nil
}

// defaultCorpusName names the embedded corpus in the JSON inputs list.
const defaultCorpusName = "embedded:" + corpus.DefaultName
