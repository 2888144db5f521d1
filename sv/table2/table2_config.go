package table2

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
)

// DefaultEncoders are the rows of DefaultConfig: the CPU-cheap
// baselines of package sv/baseline (which must be imported for its
// encoders to be registered). Encoders whose assets are not installed are
// skipped with a note unless Config.SkipMissing is false.
// `roleprint reproduce` chooses its rows with selectDefaultRows instead,
// which adds GoMLX rows (fine-tuned encoders, USE-Lite) when this
// machine's assets and backend can afford them (see sv.Row).
var DefaultEncoders = []string{"liwc", "lsm", "pos", "glove", "glove-sif", "tfidf"}

// Config configures RunConfig, the experiment behind the paper's
// Table 2: every encoder × exposure × level, over several rounds. Use
// DefaultConfig and change what you need; every field documents its
// default. The resolved config is written into the run manifest.
type Config struct {
	// Encoders are the rows, by registered name (see EncoderNames). A name
	// "x_ft" builds x, fine-tunes it on the round's training pairs (it must
	// be Trainable) and reports it as "x_ft". Default DefaultEncoders.
	Encoders []string `json:"encoders"`
	// Mixed lists the encoders whose L2-normalised set embeddings are
	// concatenated into the "mixed" row (the paper's Mixed Features); parts
	// not among Encoders are computed too and get rows of their own. Empty
	// means no mixed row. Default DefaultMixedParts.
	Mixed []string `json:"mixed"`
	// Rounds is how many times the experiment is repeated with different
	// seeds (new speaker split, pairs and training); rows report mean ± std
	// over rounds. Default 3, as in the paper.
	Rounds int `json:"rounds"`
	// Seed is the first round's seed; round r (1-based) uses Seed+r−1 for
	// its pairs and its encoders. Default 1.
	Seed int64 `json:"seed"`
	// Criterion is what the decision threshold maximises on the dev pairs
	// of a test set's level before ACC and F1 are measured on the test set
	// (DecisionRule). Default MaxAccuracy.
	Criterion stats.Criterion `json:"criterion"`
	// Backend, CacheDir and BatchSize are passed to every encoder (see
	// EncoderOptions). Defaults: "" (the encoders' defaults).
	Backend   string `json:"backend,omitempty"`
	CacheDir  string `json:"cache_dir,omitempty"`
	BatchSize int    `json:"batch_size,omitempty"`
	// Settings are encoder settings: "key" applies to every encoder,
	// "name.key" only to encoder name (or name_ft), overriding a global
	// key ("tfidf.max_features" → "50000"). Default none.
	Settings map[string]string `json:"settings,omitempty"`
	// FitMaxTexts caps the distinct training texts given to a Fitter's Fit,
	// taken evenly across them; 0 gives all. Default 0.
	FitMaxTexts int `json:"fit_max_texts,omitempty"`
	// SkipMissing skips an encoder whose asset is not installed (its
	// factory returned an *assets.MissingError), noting it in the result,
	// instead of failing the run. Default true.
	SkipMissing bool `json:"skip_missing"`
	// Explicit lists rows (and mixed parts) the user named: they must run,
	// so a missing asset fails the run even with SkipMissing. Default none.
	Explicit []string `json:"explicit,omitempty" opt:"-"`
	// RowSettings are encoder settings per row name ("x" also applies to
	// "x_ft"), below every entry of Settings (see EncoderOptions); presets
	// write them (Preset.Apply). RunConfig fills it, when nil, with
	// DefaultPreset's settings of the rows it runs (for example the CPU
	// training budget of "transformer_ft"), so the manifest records them;
	// an empty map turns them off. Default nil.
	RowSettings map[string]map[string]string `json:"row_settings,omitempty"`
	// Preset names the preset the config was built from (Preset.Apply
	// sets it; "" when none), for the manifest. Default "".
	Preset string `json:"preset,omitempty" opt:"-"`
	// Selection, when not nil, is how the rows were chosen (see
	// selectDefaultRows): the backend, the estimate and the rows left out,
	// which RunConfig reports as skipped. Default nil (rows as given).
	Selection *RowSelection `json:"selection,omitempty"`
	// CheckpointDir, when not empty, keeps each (round, encoder) result
	// there as it is computed (round-R/NAME.json, with its pair scores);
	// a rerun with the same data and settings loads them instead of
	// recomputing, so an interrupted run resumes. Encoders also get
	// round-R/NAME.work as EncoderOptions.WorkDir. Default "" (none).
	CheckpointDir string `json:"-"`
	// KeepScores keeps every test set's pair scores in the result
	// (EncoderRound.Scores), so that ROC curves can be drawn from a cached
	// result; the report files then hold them too. Default false.
	KeepScores bool `json:"keep_scores,omitempty"`
	// Transfer adds the transfer table: leave-one-corpus-out folds over
	// the inputs' corpora, every fine-tuned row trained on the other
	// corpora and evaluated on the held-out one (TransferPlan), and the
	// run's verifier bundle calibrated on the folds' held-out scores.
	// Resolve resolves the folds; RunConfig ignores it. Default false.
	Transfer bool `json:"transfer,omitempty"`
	// Logf receives notes (skipped encoders, resumed checkpoints). Nil
	// discards them.
	Logf func(format string, args ...any) `json:"-"`
	// Progress receives progress: stage names the round, encoder and step
	// ("round 2/3 tfidf embed"); done/total count its work. Nil discards it.
	Progress func(stage string, done, total int) `json:"-"`
}

// DefaultConfig returns the paper's protocol with the CPU-cheap
// encoders (see each field of Config). It is the same on every
// machine; configFor(selectDefaultRows(...)) adds what this
// machine can afford, as `roleprint reproduce` does.
func DefaultConfig() Config {
	return Config{
		Encoders:    slices.Clone(DefaultEncoders),
		Mixed:       append([]string(nil), DefaultMixedParts...),
		Rounds:      3,
		Seed:        1,
		Criterion:   stats.MaxAccuracy,
		SkipMissing: true,
	}
}

// Validate checks the config and returns the list of encoders to compute
// (Encoders, then Mixed parts not among them), without duplicates.
func (c *Config) Validate() ([]string, error) {
	if c.Rounds < 1 {
		return nil, fmt.Errorf("rounds = %d: need at least 1", c.Rounds)
	}
	if _, err := stats.ParseCriterion(string(c.Criterion)); err != nil {
		return nil, err
	}
	var run []string
	seen := map[string]bool{}
	add := func(n string) error {
		n = strings.TrimSpace(n)
		if n == "" || seen[n] {
			return nil
		}
		if n == MixedName {
			return fmt.Errorf("encoder %q: the mixed row is configured by Mixed, not listed as an encoder", n)
		}
		if base, _ := sv.SplitFineTuned(n); !registered(base) {
			return fmt.Errorf("unknown encoder %q (known: %s)", n, strings.Join(sv.EncoderNames(), ", "))
		}
		seen[n] = true
		run = append(run, n)
		return nil
	}
	for _, n := range c.Encoders {
		if err := add(n); err != nil {
			return nil, err
		}
	}
	for _, n := range c.Mixed {
		if err := add(n); err != nil {
			return nil, fmt.Errorf("mixed features: %w", err)
		}
	}
	if len(run) == 0 {
		return nil, fmt.Errorf("no encoders to run")
	}
	if err := c.checkSettings(run); err != nil {
		return nil, err
	}
	return run, nil
}

func registered(name string) bool { return sv.IsRegistered(name) }

// EncoderOptions returns the options for encoder name in a round with the
// given seed: the config's backend, cache and batch size, and settings
// from lowest to highest precedence: RowSettings (for "x_ft", those of x
// and then of x_ft), the global settings that the encoder has (all of them
// for an encoder without registered options), then "name.key" settings
// (for "x_ft", "x.key" and then "x_ft.key").
func (c *Config) EncoderOptions(name string, seed int64) sv.EncoderOptions {
	base, _ := sv.SplitFineTuned(name)
	o := sv.EncoderOptions{Backend: c.Backend, CacheDir: c.CacheDir, Seed: seed, BatchSize: c.BatchSize, Logf: c.Logf}
	o.Settings = map[string]string{}
	for k, v := range c.RowSettingsFor(name) {
		o.Settings[k] = v
	}
	keys := make([]string, 0, len(c.Settings))
	for k := range c.Settings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	scoped := func(prefix string) {
		for _, k := range keys {
			if row, key, ok := SplitRowSetting(k); ok && row == prefix && key != "" {
				o.Settings[key] = c.Settings[k]
			}
		}
	}
	for _, k := range keys {
		if enc, _, ok := SplitRowSetting(k); ok && (registered(enc) || registered(strings.TrimSuffix(enc, sv.FineTunedSuffix)) || enc == MixedName) {
			continue // scoped to an encoder
		}
		if len(sv.SettingsFor(name, map[string]string{k: ""})) == 0 {
			continue // a global key this encoder does not have
		}
		o.Settings[k] = c.Settings[k]
	}
	scoped(base)
	if base != name {
		scoped(name)
	}
	return o
}

// RowSettingsNote describes the Table 2 settings of row name (its
// RowSettings, or DefaultRowSettings when RowSettings is nil) as they will
// apply in this config: "k=v" for each,
// sorted, with "k=v (--set: w)" where the config's Settings override one.
// It returns "" when the row has no registered settings.
func (c *Config) RowSettingsNote(name string) string {
	rs := c.RowSettingsFor(name)
	if c.RowSettings == nil {
		rs = DefaultRowSettings(name)
	}
	if len(rs) == 0 {
		return ""
	}
	user := (&Config{Settings: c.Settings}).EncoderOptions(name, 0).Settings
	kv := make([]string, 0, len(rs))
	for k, v := range rs {
		s := k + "=" + v
		if w, ok := user[k]; ok && w != v {
			s += " (--set: " + w + ")"
		}
		kv = append(kv, s)
	}
	sort.Strings(kv)
	return strings.Join(kv, ", ")
}

// checkSettings rejects a setting no encoder could read: "x.key" where x
// registered options without key, or a global key none of run has (when
// all of them registered options).
func (c *Config) checkSettings(run []string) error {
	keys := make([]string, 0, len(c.Settings))
	for k := range c.Settings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if enc, key, ok := SplitRowSetting(k); ok {
			if registered(strings.TrimSuffix(enc, sv.FineTunedSuffix)) {
				if err := sv.CheckScopedSetting(enc, key); err != nil {
					return err
				}
				continue
			}
			if enc == MixedName {
				continue
			}
		}
		if err := sv.CheckGlobalSetting(k, run); err != nil {
			return err
		}
	}
	return nil
}

// SplitRowSetting splits a row-scoped setting "ROW.KEY" into its row and
// key. Row names may hold dots (Hub ids such as hf:BAAI/bge-small-en-v1.5),
// so the row is the longest prefix before a dot that names a registered
// encoder (or its _ft row, or mixed); a key with no such prefix splits at
// its first dot (a row this program does not build). ok is false for a
// key without a dot (a global setting).
func SplitRowSetting(k string) (row, key string, ok bool) {
	for i := len(k) - 1; i > 0; i-- {
		if k[i] != '.' || i == len(k)-1 {
			continue
		}
		if p := k[:i]; p == MixedName || registered(p) || registered(strings.TrimSuffix(p, sv.FineTunedSuffix)) {
			return p, k[i+1:], true
		}
	}
	return strings.Cut(k, ".")
}
