package table2

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/roleprint/roleprint/data/assets"
	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/internal/options"
	"github.com/roleprint/roleprint/sv"
)

// Preset is a named Table 2 recipe: settings written as on the command
// line ("k=v;..."), applied by the one mechanism of internal/options, so a
// preset is nothing but a list of keys `roleprint config` documents:
//
//   - "ROW.key" (a registered encoder, or x_ft) is an encoder setting of
//     that row (Config.RowSettings; "x.key" applies to x and x_ft),
//     below every --set the user gives;
//   - "pairs.key" is a pairs.PairConfig setting by its JSON name;
//   - any other key is a Config field by its JSON name ("rounds",
//     "fit_max_texts", "encoders" and "mixed" as lists separated by "|").
type Preset struct {
	// Name is what --preset takes ("cpu").
	Name string `json:"name"`
	// Doc says in a sentence what the preset is for and what it cost when
	// measured.
	Doc string `json:"doc"`
	// Base is a preset applied first ("" for none).
	Base string `json:"base,omitempty"`
	// Quick selects the quick default rows: only the rows marked
	// sv.Row.Quick (the CPU baselines).
	Quick bool `json:"quick,omitempty"`
	// Settings are the preset's own keys, "k=v;...".
	Settings string `json:"settings"`
}

// DefaultPreset is the preset `roleprint reproduce` and kernel's
// notebooks run when none is named, and whose row settings RunConfig uses
// when Config.RowSettings is nil.
const DefaultPreset = "cpu"

// cpuRowSettings are the fine-tuned rows' CPU budgets. transformer_ft:
// one epoch of 32-pair batches (86 steps on the embedded corpus), capped
// at 150 steps so that larger corpora stay near a minute per round on ONNX
// Runtime; the trainer's other defaults (8 utterances × 32 tokens per set,
// lr 1e-3) apply. use-lite_ft: docs/use-lite.md's recipe, which beat the
// frozen model on the shared corpora: 200 steps of 16 pairs × 4 utterances
// × 32 pieces at lr 1e-4.
const cpuRowSettings = ngramMetricFTSettings + "transformer_ft.epochs=1;transformer_ft.batch_pairs=32;transformer_ft.max_steps=150;" +
	"use-lite_ft.max_steps=200;use-lite_ft.batch_pairs=16;use-lite_ft.max_utterances=4;use-lite_ft.max_tokens=32;use-lite_ft.lr=1e-4"

// ngramMetricFTSettings are the default fine-tuned row's recipe (every
// preset): ngram-metric_ft centres each set on its predicted corpus's
// training mean (a word-unigram naive Bayes source model fitted on the
// training texts), adds a word-unigram channel beside the char and
// topic-masked ones and a soft group channel (the source model's
// posterior at temperature 5: two sets of one show score higher, a set of
// a show it never saw is not sent wholesale to one), then
// trains the per-feature weights with Hard and Harder negatives weighted 3×
// at lr 0.005 (the group channel already separates shows, so training
// spends itself on speakers of one show; dev keeps the best epoch), and
// scores pairs by s-norm against a cohort of 150 training sets per
// predicted corpus plus 4 × the group term (cohort=150; the group term's
// weight was dev's choice). Measured on the four shared corpora, 3 rounds
// (docs/training.md): Unseen-Unseen Base / Hard AUC 97.86 ± 0.13 /
// 67.79 ± 0.89 against 98.65 / 65.12 without the s-norm, the global
// recipe's 88.87 / 57.72 and tfidf's 84.38 / 61.52. The untrained
// "ngram-metric" row keeps the plain features (tfidf + masked tfidf), so
// the table shows what everything learned from the training split adds.
// Adapted to a corpus it was not trained on (eval, score), the bundle
// embeds each set as one document by its character n-grams alone
// (adapt_pool=doc, adapt_channels=char): on held-out corpora it ranks
// Hard pairs better than the mean of the three channels' text vectors
// (docs/training.md, "Transfer to unseen corpora").
const ngramMetricFTSettings = "ngram-metric_ft.center_by=corpus;ngram-metric_ft.word_weight=1;ngram-metric_ft.group_weight=1;" +
	"ngram-metric_ft.hard_weight=3;ngram-metric_ft.lr=0.005;ngram-metric_ft.group_temperature=5;ngram-metric_ft.cohort=150;" +
	"ngram-metric_ft.adapt_pool=doc;ngram-metric_ft.adapt_channels=char;"

var presets = []Preset{
	{Name: "cpu", Settings: cpuRowSettings,
		Doc: "the default: the paper's protocol (3 rounds) with the fine-tuned rows' CPU budgets (transformer_ft 150 steps, use-lite_ft 200); the embedded corpus takes about 8 min on 2 cores"},
	{Name: "quick", Base: "cpu", Quick: true,
		Settings: "rounds=1;fit_max_texts=20000;pairs.max_train_pairs=20000;pairs.max_test_pairs=1000;pairs.max_dev_pairs=600",
		Doc:      "smoke run (under a minute on 2 cores): 1 round, capped pairs and fitting texts, no fine-tuned or GoMLX rows unless named with --encoders"},
	{Name: "paper", Settings: ngramMetricFTSettings + "rounds=3;transformer.layers=6;transformer.dim=384;transformer.heads=6;transformer.ffn_dim=1536;" +
		"transformer_ft.epochs=5;transformer_ft.batch_pairs=1024;transformer_ft.lr=2e-5;transformer_ft.max_steps=0;" +
		"use-lite_ft.epochs=5;use-lite_ft.batch_pairs=1024;use-lite_ft.lr=2e-5;use-lite_ft.max_steps=0",
		Doc: "the paper's scale: 6 × 384-d transformer, 5 epochs of 1024-pair batches at lr 2e-5 without a step cap (a GPU job; not yet run)"},
	{Name: "best-cpu", Base: "cpu",
		Settings: "encoders=tfidf|transformer|transformer_ft;mixed=;pairs.base_negatives=any;" +
			"transformer.glove=true;transformer.ngram_buckets=131072;transformer_ft.max_steps=0;transformer_ft.epochs=1",
		Doc: "the best CPU recipe measured (docs/training.md): the transformer with GloVe and character n-gram features fine-tuned one epoch, 83.41 ± 1.28 Unseen-Unseen Base AUC vs TF-IDF's 80.67 ± 3.37 on the four shared corpora (34 min for 3 rounds with --backend onnx before the exact embedding gradients; now about 32 min of training a round, and --dry-run estimates it)"},
	{Name: "gpu-ft", Base: "cpu",
		Settings: "encoders=tfidf|transformer|transformer_ft;mixed=tfidf|transformer_ft;" +
			"transformer.ngram_buckets=131072;transformer_ft.epochs=5;transformer_ft.batch_pairs=64;transformer_ft.max_steps=0",
		Doc: "scripts/gpu-session.sh's fine-tuning run (--backend xla:cuda): n-gram transformer, 5 epochs of 64-pair batches"},
	{Name: "transfer", Base: "cpu", Settings: "encoders=ngram-metric_ft|tfidf;mixed=;rounds=1;transfer=true",
		Doc: "the transfer table: the default fine-tuned row (ngram-metric_ft, its Table 2 recipe) and tfidf, one in-domain round, then leave-one-corpus-out folds (ngram-metric_ft trained on all corpora but one, evaluated on that one as `roleprint eval` does) and the verifier bundle's P(same) calibrated on the folds' held-out scores; needs 2 corpora or more (the four default corpora: 15 min on 2 loaded cores)"},
}

// Presets returns the named presets, in the order `roleprint config`
// lists them.
func Presets() []Preset { return slices.Clone(presets) }

// PresetNamed returns the preset name; an unknown name is an error listing
// the known ones.
func PresetNamed(name string) (Preset, error) {
	for _, p := range presets {
		if p.Name == name {
			return p, nil
		}
	}
	names := make([]string, len(presets))
	for i, p := range presets {
		names[i] = p.Name
	}
	return Preset{}, fmt.Errorf("unknown preset %q (known: %s)", name, strings.Join(names, ", "))
}

// Resolved returns the preset's settings with its bases', base first
// (a later key wins).
func (p Preset) Resolved() (map[string]string, error) {
	out := map[string]string{}
	if p.Base != "" {
		b, err := PresetNamed(p.Base)
		if err != nil {
			return nil, fmt.Errorf("preset %s: base: %w", p.Name, err)
		}
		if out, err = b.Resolved(); err != nil {
			return nil, err
		}
	}
	kv, err := options.Parse(p.Settings)
	if err != nil {
		return nil, fmt.Errorf("preset %s: %w", p.Name, err)
	}
	maps.Copy(out, kv)
	return out, nil
}

// PresetResult says what Apply changed beyond the settings themselves.
type PresetResult struct {
	// TableKeys are the Config keys the preset set ("encoders" among
	// them means the preset names its rows).
	TableKeys []string
}

// Apply applies the preset onto cfg (Config keys and RowSettings)
// and pairs (the "pairs." keys; pairs may be nil when the preset has
// none). Keys are checked: an unknown one is an error naming the preset,
// the key and the valid keys.
func (p Preset) Apply(cfg *Config, pairs *pairs.PairConfig) (PresetResult, error) {
	var res PresetResult
	kv, err := p.Resolved()
	if err != nil {
		return res, err
	}
	table := map[string]string{}
	pairKV := map[string]string{}
	for _, k := range slices.Sorted(maps.Keys(kv)) {
		v := kv[k]
		if rest, ok := strings.CutPrefix(k, "pairs."); ok {
			pairKV[rest] = v
			continue
		}
		if row, key, ok := SplitRowSetting(k); ok {
			// A row this program does not build (use-lite without
			// sv/uselite) keeps its settings unchecked: it never runs.
			if registered(strings.TrimSuffix(row, sv.FineTunedSuffix)) {
				if err := sv.CheckScopedSetting(row, key); err != nil {
					return res, fmt.Errorf("preset %s: %w", p.Name, err)
				}
			}
			if cfg.RowSettings == nil {
				cfg.RowSettings = map[string]map[string]string{}
			}
			if cfg.RowSettings[row] == nil {
				cfg.RowSettings[row] = map[string]string{}
			}
			cfg.RowSettings[row][key] = v
			continue
		}
		table[k] = v
		res.TableKeys = append(res.TableKeys, k)
	}
	if err := options.Apply(cfg, table); err != nil {
		return res, fmt.Errorf("preset %s: %w", p.Name, err)
	}
	if len(pairKV) > 0 {
		if pairs == nil {
			return res, fmt.Errorf("preset %s sets pair keys but no pair configuration was given", p.Name)
		}
		if err := options.Apply(pairs, pairKV); err != nil {
			return res, fmt.Errorf("preset %s: pairs: %w", p.Name, err)
		}
	}
	sort.Strings(res.TableKeys)
	cfg.Preset = p.Name
	return res, nil
}

// DefaultRowSettings returns the encoder settings DefaultPreset gives row
// name (for "x_ft", x's and then x_ft's own; nil when none).
func DefaultRowSettings(name string) map[string]string {
	var cfg Config
	p, _ := PresetNamed(DefaultPreset)
	if _, err := p.Apply(&cfg, nil); err != nil {
		return nil
	}
	return cfg.RowSettingsFor(name)
}

// RowSettingsFor returns the merged RowSettings of row name: for "x_ft",
// those of x and then of x_ft (nil when none).
func (c *Config) RowSettingsFor(name string) map[string]string {
	base, _ := sv.SplitFineTuned(name)
	var out map[string]string
	for _, n := range []string{base, name} {
		if len(c.RowSettings[n]) == 0 {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		maps.Copy(out, c.RowSettings[n])
		if n == base && base == name {
			break
		}
	}
	return out
}

// ResolvedComponents returns the resolved options of each encoder of run
// that registered them, with round 1's EncoderOptions (see
// Result.Components). A row whose asset is missing is left out (the run
// skips or fails it with its own message); another error is returned.
func (c *Config) ResolvedComponents(run []string) (map[string]any, error) {
	out := map[string]any{}
	for _, n := range run {
		o, err := sv.ResolveOptions(n, c.EncoderOptions(n, c.Seed))
		var missing *assets.MissingError
		if errors.As(err, &missing) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if o != nil {
			out[n] = o
		}
	}
	return out, nil
}
