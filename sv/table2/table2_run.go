package table2

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/roleprint/roleprint/data/assets"
	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
)

// CorpusSource returns the pair corpus of round (1-based), built with
// seed. RunConfig calls it once per round; PairsFrom makes one from
// utterances with the pair builder, and a caller may also read pair
// folders prepared beforehand.
type CorpusSource func(ctx context.Context, round int, seed int64) (*pairs.PairCorpus, error)

// EncoderRound is one encoder's results in one round.
type EncoderRound struct {
	// Round (1-based), its Seed, and the Encoder's row name.
	Round   int    `json:"round"`
	Seed    int64  `json:"seed"`
	Encoder string `json:"encoder"`
	// Backend is the compute backend a GoMLX encoder ran on (see
	// BackendNamer); empty for plain Go encoders.
	Backend string `json:"backend,omitempty"`
	// Dim is the length of the encoder's vectors (after Fit).
	Dim int `json:"dim"`
	// About is the encoder's own description (see Describer).
	About string `json:"about,omitempty"`
	// DevAUC is the AUC on the dev pairs. Threshold is the threshold
	// chosen on all of them; Thresholds holds, by level, the one each test
	// set of that level uses for ACC and F1 (DecisionRule): chosen on the
	// dev pairs of the level, or Threshold for the levels listed in
	// ThresholdFallback, whose dev pairs lack a positive or a negative.
	DevAUC            stats.Float            `json:"dev_auc"`
	Threshold         stats.Float            `json:"threshold"`
	Thresholds        map[string]stats.Float `json:"thresholds"`
	ThresholdFallback []string               `json:"threshold_fallback,omitempty"`
	// Cells holds the metrics by test set (TestKey.String()).
	Cells map[string]CellMetrics `json:"cells"`
	// Timing says where the time went.
	Timing StepTimes `json:"timing"`
	// Resumed is true when the result came from a checkpoint.
	Resumed bool `json:"resumed,omitempty"`
	// Mixed is the mixed_ft row's choice of parts and weights (dev pairs
	// only); nil for other rows.
	Mixed *MixedChoice `json:"mixed,omitempty"`

	// Scores are the pair scores of every test set (by TestKey.String())
	// when Config.KeepScores is set, so that a result decoded from
	// JSON (a notebook's cache) still draws ROC curves (TestScores);
	// absent otherwise.
	Scores map[string]TestScoreSet `json:"scores,omitempty"`

	scores *pairScores
	labels map[string][]bool // test-set pair labels, by TestKey.String() (see TestScores)
}

// TestScoreSet is one test set's pair scores in pair order and whether
// each pair is positive (same speaker).
type TestScoreSet struct {
	Scores   []float64 `json:"scores"`
	Positive []bool    `json:"positive"`
}

// StepTimes are the seconds one encoder spent in one round.
type StepTimes struct {
	// FitS fits a Fitter, TrainS fine-tunes a Trainable, EmbedS embeds the
	// dev and test sets, ScoreS scores their pairs; TotalS is all of it
	// (with building the encoder).
	FitS   float64 `json:"fit_s"`
	TrainS float64 `json:"train_s"`
	EmbedS float64 `json:"embed_s"`
	ScoreS float64 `json:"score_s"`
	TotalS float64 `json:"total_s"`
	// CPUS is the process's user+sys CPU time over TotalS (all threads;
	// other work of the process in that time counts too), and IdleS the
	// idle-equivalent seconds a calibrated sv.RowCost estimates: the smaller
	// of TotalS and CPUS spread over the machine's cores. IdleS assumes
	// the work uses every core (ONNX Runtime does); for a single-threaded
	// row (the CPU baselines) the idle time is CPUS.
	CPUS  float64 `json:"cpu_s,omitempty"`
	IdleS float64 `json:"idle_s,omitempty"`
}

// pairScores are an encoder's scores of the dev pairs and of each test
// set's pairs, in pair order.
type pairScores struct {
	Dev   []float64            `json:"dev"`
	Tests map[string][]float64 `json:"tests"`
	// CosDev and CosTests hold the cosines of the set embeddings when the
	// encoder scores pairs with its own similarity (a PairScorer such as
	// LSM): the "mixed" row is the cosine of concatenated L2-normalised
	// embeddings, so it needs every part's cosines. Nil otherwise (Dev and
	// Tests are the cosines then).
	CosDev   []float64            `json:"cos_dev,omitempty"`
	CosTests map[string][]float64 `json:"cos_tests,omitempty"`
}

// cosines returns the cosine scores of the dev pairs and of the test set
// named key: CosDev/CosTests when the encoder scores pairs itself, else
// Dev/Tests.
func (p *pairScores) cosines(key string) (dev, test []float64) {
	if p.CosTests != nil {
		return p.CosDev, p.CosTests[key]
	}
	return p.Dev, p.Tests[key]
}

// BackendNamer is implemented by encoders that run on a selectable compute
// backend (GoMLX encoders); the runner records the name in its results
// and manifest.
type BackendNamer interface {
	BackendName() string
}

// RoundInfo describes one round's pair corpus.
type RoundInfo struct {
	// Round (1-based) and the Seed its pairs were built with.
	Round int   `json:"round"`
	Seed  int64 `json:"seed"`
	// Pairs counts pairs by split: "train", "dev" and each test set, and
	// the dev pairs of each level ("dev-base", "dev-hard", "dev-harder":
	// what each level's threshold is chosen on; pairs without a level are
	// in "dev" only).
	Pairs map[string]int `json:"pairs"`
	// Sets is the number of utterance sets; EvalTexts the distinct
	// utterances of the dev and test sets (what each encoder embeds).
	Sets      int `json:"sets"`
	EvalTexts int `json:"eval_texts"`
	// PairsS is the time spent building the pairs, TotalS the round's.
	PairsS float64 `json:"pairs_s"`
	TotalS float64 `json:"total_s"`
}

// SkippedEncoder is an encoder left out of a run, and why.
type SkippedEncoder struct {
	// Encoder is the row left out; Reason why (a missing asset, the
	// default run's time budget, the --quick preset).
	Encoder string `json:"encoder"`
	Reason  string `json:"reason"`
	// Setup is the command that would enable the row ("roleprint setup
	// glove"), when one would.
	Setup string `json:"setup,omitempty"`
}

// Result is the result of a Table 2 run (Run, RunConfig).
type Result struct {
	// Rows hold mean ± std over rounds per encoder, exposure and level, in
	// the paper's order (encoders as configured, then "mixed").
	Rows []Row `json:"rows"`
	// PerRound holds every round's per-encoder results.
	PerRound []EncoderRound `json:"per_round"`
	// Rounds describes each round's pairs.
	Rounds []RoundInfo `json:"rounds"`
	// Skipped lists encoders left out: default rows the selection left
	// out (Config.Selection) and encoders whose assets are not
	// installed.
	Skipped []SkippedEncoder `json:"skipped,omitempty"`
	// Notes are things a reader should know about this run.
	Notes []string `json:"notes,omitempty"`
	// DecisionRule states how ACC and F1 decide (DecisionRule).
	DecisionRule string `json:"decision_rule"`
	// Comparisons hold, per test set, the best fine-tuned row against
	// the best untuned row with a paired bootstrap interval of their AUC
	// difference (FineTunedVsUntuned); absent without both kinds of row.
	Comparisons []Comparison `json:"comparisons,omitempty"`
	// Transfer is the transfer table (Plan.Transfer), nil without it.
	Transfer *TransferResult `json:"transfer,omitempty"`
	// Config is the resolved configuration.
	Config Config `json:"config"`
	// Components are the fully resolved options of every encoder of the
	// run that has registered options (sv.ResolveOptions with round 1's
	// EncoderOptions): each one's Default…() with the preset's and the
	// user's settings applied, so the manifest shows every value used, not
	// only the overrides. Encoders without options (liwc, lsm, pos) and
	// rows whose asset is missing are absent.
	Components map[string]any `json:"components,omitempty"`
	// Started and Seconds time the whole run.
	Started time.Time `json:"started"`
	Seconds float64   `json:"seconds"`
}

// RunConfig runs the Table 2 experiment: for each round it gets the pair
// corpus from source, then for each encoder fits it on the training texts
// (Fitter), fine-tunes it on the training pairs ("x_ft" rows, Trainable),
// embeds the dev and test sets (EmbedSets: mean pooling), scores every
// pair (ScorePair: cosine unless the encoder scores itself), chooses a
// threshold per level on the dev pairs of that level (DecisionRule) and
// measures AUC, ACC, macro-F1, best-
// threshold ACC and F1, and EER on each of the nine test sets. The
// "mixed" row fuses its parts' cosine scores by their mean, which equals the
// cosine of the concatenated L2-normalised set embeddings (see Mixed).
// Rows aggregate the rounds (aggregateRows).
//
// With cfg.CheckpointDir set, each (round, encoder) result is saved as
// soon as it is computed and reused by a later run on the same data and
// settings. The run stops with ctx.Err() when ctx is cancelled; results
// saved so far stay.
//
// RunConfig runs a configuration built by hand (DefaultConfig and
// changes) on a source of its own: it resolves what cfg leaves open (the
// canonical criterion, DefaultPreset's row settings when RowSettings is
// nil) before running. `roleprint reproduce` and the notebooks use
// Resolve and Run instead, which also choose the rows for this machine.
func RunConfig(ctx context.Context, cfg Config, source CorpusSource) (*Result, error) {
	runList, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	comps, err := cfg.ResolvedComponents(runList)
	if err != nil {
		return nil, err
	}
	return run(ctx, cfg, comps, source)
}

// run runs a resolved configuration (see Config.resolve) with the
// encoders' resolved options comps, filling in nothing.
func run(ctx context.Context, cfg Config, comps map[string]any, source CorpusSource) (*Result, error) {
	start := time.Now()
	runList, err := cfg.Validate()
	if err != nil {
		return nil, err
	}
	crit := cfg.Criterion
	logf := cfg.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	res := &Result{Config: cfg, Components: comps, Started: start.UTC(), DecisionRule: DecisionRule(crit)}
	if sel := cfg.Selection; sel != nil {
		res.Skipped = append(res.Skipped, sel.Skipped...)
		res.Notes = append(res.Notes, selectionNote(sel, cfg.Mixed))
	}
	explicit := map[string]bool{}
	for _, n := range cfg.Explicit {
		explicit[strings.TrimSpace(n)] = true
	}
	res.Notes = append(res.Notes, rowSettingsNotes(&cfg, runList)...)
	skipped := map[string]bool{}
	hasMixedFT := false
	for r := 1; r <= cfg.Rounds; r++ {
		seed := cfg.Seed + int64(r-1)
		rstart := time.Now()
		prefix := fmt.Sprintf("round %d/%d", r, cfg.Rounds)
		report(cfg.Progress, prefix+" pairs", 0, 1)
		corpus, err := source(ctx, r, seed)
		if err != nil {
			return nil, fmt.Errorf("round %d: pairs: %w", r, err)
		}
		if err := checkCorpus(corpus); err != nil {
			return nil, fmt.Errorf("round %d: %w", r, err)
		}
		report(cfg.Progress, prefix+" pairs", 1, 1)
		info := roundInfo(r, seed, corpus)
		info.PairsS = time.Since(rstart).Seconds()
		key := corpusKey(corpus)
		rr := &roundRunner{cfg: &cfg, crit: crit, corpus: corpus, round: r, seed: seed, prefix: prefix, corpusKey: key}
		byName := map[string]*EncoderRound{}
		for _, name := range runList {
			if skipped[name] {
				continue
			}
			er, err := rr.encoder(ctx, name)
			var miss *assets.MissingError
			if errors.As(err, &miss) && cfg.SkipMissing && !explicit[name] {
				skipped[name] = true
				res.Skipped = append(res.Skipped, SkippedEncoder{Encoder: name, Reason: err.Error(), Setup: "roleprint setup " + miss.Step})
				logf("skipping encoder %s: %v", name, err)
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("round %d: %w", r, err)
			}
			if er.Resumed {
				logf("%s: %s resumed from checkpoint", prefix, name)
			}
			byName[name] = er
			res.PerRound = append(res.PerRound, *er)
		}
		if len(cfg.Mixed) > 0 {
			var parts []*EncoderRound
			var names []string
			for _, n := range cfg.Mixed {
				if p := byName[strings.TrimSpace(n)]; p != nil {
					parts = append(parts, p)
					names = append(names, p.Encoder)
				}
			}
			if len(parts) > 0 {
				res.PerRound = append(res.PerRound, *rr.mixed(parts))
				if r == 1 && len(parts) < len(cfg.Mixed) {
					res.Notes = append(res.Notes, fmt.Sprintf("mixed features use %s only (other parts skipped)", strings.Join(names, "+")))
				}
			}
		}
		if ft, err := rr.mixedFT(byName); err != nil {
			return nil, fmt.Errorf("round %d: %w", r, err)
		} else if ft != nil {
			res.PerRound = append(res.PerRound, *ft)
			hasMixedFT = true
			res.Notes = append(res.Notes, fmt.Sprintf("round %d: %s = %s", r, MixedFTName, ft.Mixed))
		}
		info.TotalS = time.Since(rstart).Seconds()
		res.Rounds = append(res.Rounds, info)
	}
	if hasMixedFT {
		res.Notes = append(res.Notes, MixedFTName+" parts and weights: "+MixedFTRule)
	}
	if len(cfg.Mixed) > 0 {
		res.Notes = append(res.Notes, "mixed = cosine of the concatenated L2-normalised set embeddings (= mean of the parts' cosines) of: "+strings.Join(cfg.Mixed, ", "))
	}
	order := make([]string, 0, len(runList)+1)
	for _, n := range runList {
		if !skipped[n] {
			order = append(order, n)
		}
	}
	if len(cfg.Mixed) > 0 {
		order = append(order, MixedName)
	}
	if hasMixedFT {
		order = append(order, MixedFTName)
	}
	if cfg.KeepScores {
		for i := range res.PerRound {
			res.PerRound[i].keepScores()
		}
	}
	res.Rows = aggregateRows(res.PerRound, order, crit)
	res.Comparisons = FineTunedVsUntuned(res)
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// selectionNote says how the rows were chosen: for which backend and why,
// the estimate against the budget, the default mixed parts available
// (when mixed, the run's parts, are those) and what would add the rows
// left out.
func selectionNote(sel *RowSelection, mixed []string) string {
	note := fmt.Sprintf("rows chosen for this machine (backend %s", orUnknown(sel.Backend.Name))
	if sel.Backend.Reason != "" {
		note += ": " + sel.Backend.Reason
	}
	note += ")"
	if sel.Quick {
		note += "; --quick preset"
	} else {
		note += fmt.Sprintf("; estimated %s for %d rounds of these inputs (%s) in idle-equivalent seconds on this machine (budget %s)",
			minutes(sel.EstimatedSeconds), DefaultRounds, sel.Workload.String(), minutes(sel.BudgetSeconds))
	}
	if len(sel.Mixed) < len(DefaultMixedParts) && slices.Equal(mixed, sel.Mixed) {
		note += "; mixed features use the available default parts " + strings.Join(sel.Mixed, "+")
	}
	if sel.Setup != "" {
		note += "; `" + sel.Setup + "` adds the rows it skipped"
	}
	return note
}

// rowSettingsNotes names the Table 2 settings each row of runList runs
// with (its RowSettings, with the user's overrides).
func rowSettingsNotes(cfg *Config, runList []string) []string {
	var notes []string
	for _, n := range runList {
		if len(cfg.RowSettings[n]) == 0 {
			continue
		}
		if note := cfg.RowSettingsNote(n); note != "" {
			notes = append(notes, fmt.Sprintf("%s runs with its Table 2 settings %s (override with --set \"%s.KEY=VALUE\")", n, note, n))
		}
	}
	return notes
}

func report(p func(string, int, int), stage string, done, total int) {
	if p != nil {
		p(stage, done, total)
	}
}

// checkCorpus makes sure every pair refers to a known set and that there
// are dev pairs to choose thresholds on.
func checkCorpus(c *pairs.PairCorpus) error {
	if c == nil {
		return fmt.Errorf("no pair corpus")
	}
	check := func(split string, pairList []pairs.Pair) error {
		for i, p := range pairList {
			for _, id := range []string{p.A, p.B} {
				if c.Sets[id] == nil {
					return fmt.Errorf("%s pair %d (%s): unknown set %q", split, i, p.ID, id)
				}
			}
			if p.Label != 0 && p.Label != 1 {
				return fmt.Errorf("%s pair %d (%s): label %d, want 0 or 1", split, i, p.ID, p.Label)
			}
		}
		return nil
	}
	if err := check("train", c.Train); err != nil {
		return err
	}
	if err := check("dev", c.Dev); err != nil {
		return err
	}
	for k, ps := range c.Tests {
		if err := check(k.String(), ps); err != nil {
			return err
		}
	}
	var pos, neg int
	for _, p := range c.Dev {
		if p.Label == 1 {
			pos++
		} else {
			neg++
		}
	}
	if pos == 0 || neg == 0 {
		return fmt.Errorf("the dev split has %d positive and %d negative pairs: thresholds are chosen on dev pairs of both kinds", pos, neg)
	}
	return nil
}

func roundInfo(r int, seed int64, c *pairs.PairCorpus) RoundInfo {
	info := RoundInfo{Round: r, Seed: seed, Sets: len(c.Sets), Pairs: map[string]int{"train": len(c.Train), "dev": len(c.Dev)}}
	for _, k := range allTestKeys() {
		info.Pairs[k.String()] = len(c.Tests[k])
	}
	for _, l := range pairs.Levels {
		info.Pairs["dev-"+string(l)] = 0
	}
	for _, p := range c.Dev {
		if p.Level != "" {
			info.Pairs["dev-"+string(p.Level)]++
		}
	}
	texts := map[string]bool{}
	for _, s := range sv.EvalSets(c) {
		for _, t := range s.Texts {
			texts[t] = true
		}
	}
	info.EvalTexts = len(texts)
	return info
}

// allTestKeys lists the nine test sets in the paper's order: level-major
// (Base, Hard, Harder), exposures within.
func allTestKeys() []pairs.TestKey {
	var ks []pairs.TestKey
	for _, l := range pairs.Levels {
		for _, e := range pairs.Exposures {
			ks = append(ks, pairs.TestKey{Exposure: e, Level: l})
		}
	}
	return ks
}

// roundRunner computes the encoders of one round.
type roundRunner struct {
	cfg        *Config
	crit       stats.Criterion
	corpus     *pairs.PairCorpus
	round      int
	seed       int64
	prefix     string
	corpusKey  string
	trainTexts []string
	trainSrcs  []string // the Source of each of trainTexts
}

func (rr *roundRunner) checkpointPath(name string) string {
	if rr.cfg.CheckpointDir == "" {
		return ""
	}
	return filepath.Join(rr.cfg.CheckpointDir, fmt.Sprintf("round-%d", rr.round), name+".json")
}

// encoder computes (or resumes) one encoder's round.
func (rr *roundRunner) encoder(ctx context.Context, name string) (*EncoderRound, error) {
	opts := rr.cfg.EncoderOptions(name, rr.seed)
	key := encoderKey(rr.corpusKey, name, opts, rr.cfg.FitMaxTexts)
	ckpt := rr.checkpointPath(name)
	if ckpt != "" {
		if er, ok, err := loadCheckpoint(ckpt, key); err != nil {
			return nil, err
		} else if ok {
			rr.evaluate(er)
			return er, nil
		}
		opts.WorkDir = strings.TrimSuffix(ckpt, ".json") + ".work"
	}
	t0 := time.Now()
	m0 := startMeter()
	enc, err := sv.NewEncoder(name, opts)
	if err != nil {
		return nil, err
	}
	if c, ok := enc.(sv.Closer); ok {
		defer c.Close()
	}
	er := &EncoderRound{Round: rr.round, Seed: rr.seed, Encoder: name}
	stage := func(step string) sv.Progress {
		label := rr.prefix + " " + name + " " + step
		return func(done, total int) { report(rr.cfg.Progress, label, done, total) }
	}
	if f, ok := enc.(sv.Fitter); ok {
		t := time.Now()
		if rr.trainTexts == nil {
			rr.trainTexts, rr.trainSrcs = sv.TrainTextSources(rr.corpus, rr.cfg.FitMaxTexts)
		}
		p := stage("fit")
		p.Report(0, 1)
		if err := sv.FitWithSources(ctx, f, rr.trainTexts, rr.trainSrcs); err != nil {
			return nil, fmt.Errorf("encoder %s: fit: %w", name, err)
		}
		p.Report(1, 1)
		er.Timing.FitS = time.Since(t).Seconds()
	}
	if _, ft := sv.SplitFineTuned(name); ft {
		t := time.Now()
		if err := enc.(sv.Trainable).Train(ctx, rr.corpus, stage("train")); err != nil {
			return nil, fmt.Errorf("encoder %s: train: %w", name, err)
		}
		er.Timing.TrainS = time.Since(t).Seconds()
	}
	er.Dim = enc.Dim() // after Fit: a fitted vocabulary may set it
	if b, ok := enc.(BackendNamer); ok {
		er.Backend = b.BackendName() // after Train: a GoMLX network is built on first use
	}
	if d, ok := enc.(sv.Describer); ok {
		er.About = d.Describe()
	}
	t := time.Now()
	emb, err := sv.EmbedSets(ctx, enc, sv.EvalSets(rr.corpus), stage("embed"))
	if err != nil {
		return nil, err
	}
	er.Timing.EmbedS = time.Since(t).Seconds()
	t = time.Now()
	er.scores = rr.score(emb, func(a, b []float32) float64 { return sv.ScorePair(enc, a, b) })
	if _, own := enc.(sv.PairScorer); own {
		cos := rr.score(emb, stats.Cosine)
		er.scores.CosDev, er.scores.CosTests = cos.Dev, cos.Tests
	}
	er.Timing.ScoreS = time.Since(t).Seconds()
	er.Timing.TotalS = time.Since(t0).Seconds()
	er.Timing.CPUS = cpuSeconds() - m0.cpu
	er.Timing.IdleS = m0.seconds()
	if ckpt != "" {
		if err := saveCheckpoint(ckpt, key, er); err != nil {
			return nil, err
		}
	}
	rr.evaluate(er)
	return er, nil
}

// score scores the dev pairs and every test set's pairs with f on the
// set embeddings emb.
func (rr *roundRunner) score(emb map[string][]float32, f func(a, b []float32) float64) *pairScores {
	pairList := func(ps []pairs.Pair) []float64 {
		out := make([]float64, len(ps))
		for i, p := range ps {
			out[i] = f(emb[p.A], emb[p.B])
		}
		return out
	}
	s := &pairScores{Dev: pairList(rr.corpus.Dev), Tests: map[string][]float64{}}
	for _, k := range allTestKeys() {
		s.Tests[k.String()] = pairList(rr.corpus.Tests[k])
	}
	return s
}

// evaluate fills the metrics of er from its scores, with the thresholds
// DecisionRule chooses.
func (rr *roundRunner) evaluate(er *EncoderRound) {
	devLabels := sv.PairLabels(rr.corpus.Dev)
	er.DevAUC = stats.Float(stats.AUC(er.scores.Dev, devLabels))
	lt := chooseThresholds(er.scores.Dev, rr.corpus.Dev, rr.crit)
	er.Threshold = stats.Float(lt.all)
	er.Thresholds = map[string]stats.Float{}
	er.ThresholdFallback = nil
	for l, th := range lt.byLevel {
		er.Thresholds[string(l)] = stats.Float(th)
	}
	for _, l := range lt.fallback {
		er.ThresholdFallback = append(er.ThresholdFallback, string(l))
	}
	er.Cells = map[string]CellMetrics{}
	er.labels = map[string][]bool{}
	for _, k := range allTestKeys() {
		ps := rr.corpus.Tests[k]
		er.labels[k.String()] = sv.PairLabels(ps)
		er.Cells[k.String()] = evaluateCell(er.scores.Tests[k.String()], sv.PairLabels(ps), lt.byLevel[k.Level])
	}
}

// mixed fuses the parts' cosine scores into the mixed row: their mean is
// the cosine of the concatenated L2-normalised set embeddings (see Mixed),
// also for parts that score pairs with their own similarity (their
// cosines were kept for this, see pairScores).
func (rr *roundRunner) mixed(parts []*EncoderRound) *EncoderRound {
	t := time.Now()
	fuse := func(get func(*EncoderRound) []float64) []float64 {
		out := make([]float64, len(get(parts[0])))
		for _, p := range parts {
			for i, s := range get(p) {
				out[i] += s
			}
		}
		for i := range out {
			out[i] /= float64(len(parts))
		}
		return out
	}
	er := &EncoderRound{Round: rr.round, Seed: rr.seed, Encoder: MixedName}
	er.scores = &pairScores{Tests: map[string][]float64{}}
	er.scores.Dev = fuse(func(p *EncoderRound) []float64 { dev, _ := p.scores.cosines(""); return dev })
	for _, k := range allTestKeys() {
		ks := k.String()
		er.scores.Tests[ks] = fuse(func(p *EncoderRound) []float64 { _, test := p.scores.cosines(ks); return test })
	}
	for _, p := range parts {
		er.Dim += p.Dim
	}
	er.Timing.ScoreS = time.Since(t).Seconds()
	er.Timing.TotalS = er.Timing.ScoreS // the parts' own times are in their rows
	rr.evaluate(er)
	return er
}
