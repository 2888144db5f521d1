package evaluate

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/roleprint/roleprint/data"
	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/stats"
	"github.com/roleprint/roleprint/sv"
	"github.com/roleprint/roleprint/sv/table2"
	"github.com/roleprint/roleprint/sv/verifier"
)

// Evaluation of a verifier, its weights frozen, on corpora it was not
// trained on: the paper's test pairs drawn with every speaker unseen
// (pairs.BuildEvalPairs), scored by the bundle (as saved, or adapted
// without labels to each corpus it was not trained on: EvalOptions.Adapt,
// eval_adapt.go) and by untuned encoders fitted on the evaluated texts
// alone, on the very same pairs.

// EvalDefaultVs is the encoder a verifier is compared with by default.
const EvalDefaultVs = "tfidf"

// ECEBins is the number of equal-width probability bins of the ECE.
const ECEBins = 10

// Decision rules of EvalRow.Rule.
const (
	// RuleBundle is the bundle's own decision, frozen: same speaker when
	// its calibrated probability is at least DecisionProbability.
	RuleBundle = "bundle P(same) ≥ 0.5"
	// RuleCrossFit is an untuned encoder's: a Platt calibration fitted on
	// the other half of the split's pairs (two folds of anchor couples),
	// its slope held ≥ 0 (a higher score never means a likelier different
	// speaker), same speaker at P ≥ 0.5. It uses the evaluated pairs'
	// labels, which the bundle's rule never sees.
	RuleCrossFit = "2-fold cross-fitted P ≥ 0.5"
)

// EvalDefaultSeeds are the pair-sampling seeds of an evaluation by
// default, one round each.
func EvalDefaultSeeds() []int64 { return []int64{1, 2, 3} }

// EvalOptions configure Evaluate. Resolve fills in the defaults of the
// fields left zero; Evaluate refuses options that are not resolved.
type EvalOptions struct {
	// Seeds are the pair-sampling seeds, one round each (default
	// EvalDefaultSeeds).
	Seeds []int64
	// Pairs is the pair protocol (filters, caps; default
	// pairs.DefaultPairConfig()).
	Pairs *pairs.PairConfig
	// Vs are the encoders scored on the same pairs (default
	// EvalDefaultVs; an empty non-nil slice compares with none), fitted on
	// the evaluated texts.
	Vs []string
	// Replicates and Confidence of the paired bootstrap (defaults
	// table2.CompareReplicates, table2.CompareConfidence).
	Replicates int
	Confidence float64
	// Backend and BatchSize build the Vs encoders; Logf receives notes
	// and Progress, when set, each encoder's embedding progress (stage
	// "ENCODER embed").
	Backend   string
	BatchSize int
	// Adapt is the adaptation mode (default EvalAdaptAuto; see
	// eval_adapt.go): which evaluated corpora the bundle is adapted to,
	// without labels, before it scores their pairs.
	Adapt string
	// KeepScores keeps the verifier's pair scores of every test set and
	// round in the report (EvalReport.Scores): a caller fitting a
	// calibration on held-out corpora needs them.
	KeepScores bool
	Logf       func(string, ...any)
	Progress   func(stage string, done, total int)
}

// stage returns the sv.Progress of one stage (nil without o.Progress).
func (o EvalOptions) stage(name string) sv.Progress {
	if o.Progress == nil {
		return nil
	}
	return func(done, total int) { o.Progress(name, done, total) }
}

// EvalRow is one encoder on one test set, over the rounds.
type EvalRow struct {
	Encoder string `json:"encoder"`
	Corpus  string `json:"corpus"`
	Level   string `json:"level"`
	// LevelMetrics are over rounds, the AUC as Table 2's cells; ACC and
	// F1 are the decision rule's (Rule), ECE that of the rule's
	// probabilities. AccBestMean is the accuracy at each round's best
	// threshold (an optimistic bound, chosen on the test pairs; percent).
	table2.LevelMetrics
	AccBestMean stats.Float `json:"acc_best_mean"`
	Rule        string      `json:"rule"`
	// Scoring, on the bundle's rows, is how its scores were computed
	// (verifier.ScoringAdapted on a corpus it was adapted to and on Base
	// pairs scored adapted to every text, else verifier.ScoringAsSaved);
	// CalibrationSource and CalibrationScoring say what the calibration
	// that gave its probabilities was fitted on
	// (verifier.Spec.CalibrationFor). Empty on the Vs encoders' rows.
	Scoring            string `json:"scoring,omitempty"`
	CalibrationSource  string `json:"calibration_source,omitempty"`
	CalibrationScoring string `json:"calibration_scoring,omitempty"`
	// Pairs counts the pairs over the rounds; Rounds the rounds.
	Pairs  int `json:"pairs"`
	Rounds int `json:"rounds"`
}

// EvalComparison is the paired bootstrap difference of the verifier's
// AUC and another encoder's on one test set (table2.CompareRows; its Test
// is "unseen-unseen-LEVEL").
type EvalComparison struct {
	Corpus string `json:"corpus"`
	Level  string `json:"level"`
	table2.Comparison
}

// EvalDomain says how much of one evaluated corpus lies outside the
// bundle's Domain.
type EvalDomain struct {
	Corpus string `json:"corpus"`
	// Sets counts the corpus's sets in the pairs, OutOfDomain those
	// outside the domain; InDomain is true when at most half are.
	Sets        int  `json:"sets"`
	OutOfDomain int  `json:"out_of_domain"`
	InDomain    bool `json:"in_domain"`
}

// EvalReport is the result of Evaluate.
type EvalReport struct {
	// Verifier is the bundle folder, Name its row, TrainedOn its training
	// corpora (from its Domain; empty when it records none) and
	// Demonstration its label, if any.
	Verifier      string   `json:"verifier"`
	Name          string   `json:"name"`
	TrainedOn     []string `json:"trained_on"`
	Demonstration string   `json:"demonstration,omitempty"`
	// Corpora are the evaluated corpora; Seeds the rounds' seeds; Vs the
	// encoders compared.
	Corpora []string `json:"corpora"`
	Seeds   []int64  `json:"seeds"`
	Vs      []string `json:"vs"`
	// Replicates and Confidence are the paired bootstrap's replicates and
	// confidence level (EvalOptions).
	Replicates int     `json:"bootstrap_replicates"`
	Confidence float64 `json:"confidence"`
	// Rows has one row per (encoder, test set); Comparisons the
	// verifier against each Vs encoder on every test set.
	Rows        []EvalRow        `json:"rows"`
	Comparisons []EvalComparison `json:"comparisons"`
	// Domain is per evaluated corpus (empty when the bundle records no
	// domain).
	Domain []EvalDomain `json:"domain"`
	// Pairs is the resolved pair protocol, Input what its filters kept,
	// Splits each round's splits; Notes what a reader should know.
	Pairs  pairs.PairConfig    `json:"pairs"`
	Input  pairs.InputCounts   `json:"input"`
	Splits [][]pairs.SplitInfo `json:"splits"`
	Notes  []string            `json:"notes"`
	// Adapt is the adaptation mode; Adapted the corpora the bundle was
	// adapted to (its Hard and Harder pairs scored adapted, and the Base
	// pairs by the bundle adapted to every evaluated text when any is).
	Adapt   string   `json:"adapt"`
	Adapted []string `json:"adapted"`
	// CalibrationSource is what the bundle's P(same) was calibrated on
	// (dev pairs of its training corpora, or held-out corpora) for the
	// scores of the evaluated corpora: the adapted scores' calibration
	// when any corpus was adapted to, else the as-saved scores'.
	// Calibrations are the calibrations used, one per scoring mode
	// (verifier.Spec.CalibrationFor); each bundle row names its own
	// (EvalRow.Scoring), and its ECE measures that calibration.
	CalibrationSource string                     `json:"calibration_source"`
	Calibrations      []verifier.ModeCalibration `json:"calibrations"`
	// Scores are the verifier's pair scores (as scored: adapted where
	// Adapted says) per test set and round, with EvalOptions.KeepScores.
	Scores []EvalScores `json:"scores,omitempty"`
}

// EvalScores are the verifier's scores of one test set in one round, in
// pair order, and whether each pair is the same speaker.
type EvalScores struct {
	Corpus   string    `json:"corpus"`
	Level    string    `json:"level"`
	Round    int       `json:"round"`
	Seed     int64     `json:"seed"`
	Scores   []float64 `json:"scores"`
	Positive []bool    `json:"positive"`
}

// Resolve returns o with the defaults filled in where a field is zero:
// Seeds EvalDefaultSeeds, Pairs pairs.DefaultPairConfig(), Vs (when nil)
// EvalDefaultVs, Replicates table2.CompareReplicates, Confidence
// table2.CompareConfidence and Adapt EvalAdaptAuto. A caller resolves its
// options once, before Evaluate, and records what Resolve returned.
func (o EvalOptions) Resolve() EvalOptions {
	if len(o.Seeds) == 0 {
		o.Seeds = EvalDefaultSeeds()
	}
	if o.Pairs == nil {
		cfg := pairs.DefaultPairConfig()
		o.Pairs = &cfg
	}
	if o.Vs == nil {
		o.Vs = []string{EvalDefaultVs}
	}
	if o.Replicates == 0 {
		o.Replicates = table2.CompareReplicates
	}
	if o.Confidence == 0 {
		o.Confidence = table2.CompareConfidence
	}
	if o.Adapt == "" {
		o.Adapt = EvalAdaptAuto
	}
	return o
}

// check refuses options Resolve has not resolved, or resolved out of
// range, saying which field and what Evaluate expects.
func (o EvalOptions) check() error {
	switch {
	case len(o.Seeds) == 0:
		return fmt.Errorf("eval: no pair-sampling seeds (EvalOptions.Seeds; resolve the options with EvalOptions.Resolve)")
	case o.Pairs == nil:
		return fmt.Errorf("eval: no pair protocol (EvalOptions.Pairs; resolve the options with EvalOptions.Resolve)")
	case o.Vs == nil:
		return fmt.Errorf("eval: no compared encoders (EvalOptions.Vs nil; an empty slice compares with none; resolve the options with EvalOptions.Resolve)")
	case o.Replicates <= 0:
		return fmt.Errorf("eval: bootstrap replicates %d: want ≥ 1 (EvalOptions.Replicates; resolve the options with EvalOptions.Resolve)", o.Replicates)
	case !(o.Confidence > 0 && o.Confidence < 1):
		return fmt.Errorf("eval: bootstrap confidence %g: want a level in (0, 1) (EvalOptions.Confidence; resolve the options with EvalOptions.Resolve)", o.Confidence)
	case o.Adapt == "":
		return fmt.Errorf("eval: no adaptation mode (EvalOptions.Adapt; want one of %s; resolve the options with EvalOptions.Resolve)", strings.Join(EvalAdaptModes(), ", "))
	}
	return nil
}

// Evaluate scores the pairs of the evaluated utterances (every speaker
// unseen; pairs.BuildEvalPairs) with the verifier v (adapted to the
// corpora o.Adapt picks, which leaves v adapted to the last of them) and
// with each Vs encoder fitted on the evaluated texts, and compares them on
// the same pairs. It refuses utterances that share texts with the
// bundle's training data (CheckOverlap), and options not resolved
// (EvalOptions.Resolve): it fills in no default itself.
func Evaluate(ctx context.Context, v *verifier.Verifier, utts []data.Utterance, o EvalOptions) (*EvalReport, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	logf := o.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	seeds, cfg, vs, reps, conf := o.Seeds, *o.Pairs, o.Vs, o.Replicates, o.Confidence
	name := v.Spec.Name
	if slices.Contains(vs, name) {
		return nil, fmt.Errorf("eval: --vs %s has the verifier's own row name; compare with other encoders", name)
	}
	if err := verifier.CheckOverlap(v.Dir, utts); err != nil {
		return nil, err
	}
	ep, err := pairs.BuildEvalPairs(utts, cfg, seeds)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	ids := make([]string, 0, len(ep.Sets))
	for id := range ep.Sets {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	sets := make([]*pairs.UtteranceSet, len(ids))
	for i, id := range ids {
		sets[i] = ep.Sets[id]
	}
	rep := &EvalReport{Verifier: v.Dir, Name: name, TrainedOn: []string{}, Demonstration: v.Spec.Demonstration,
		Corpora: ep.Corpora, Seeds: seeds, Vs: vs, Replicates: reps, Confidence: conf, Pairs: ep.Config, Input: ep.Input, Notes: append([]string{}, ep.Notes...),
		Rows: []EvalRow{}, Comparisons: []EvalComparison{}, Domain: []EvalDomain{}, Calibrations: []verifier.ModeCalibration{}}
	if v.Domain != nil {
		rep.TrainedOn = v.Domain.CorpusNames()
		rep.Domain = evalDomain(v.Domain, sets)
	} else {
		rep.Notes = append(rep.Notes, "the bundle records no domain: nothing says how far the evaluated text is from its training text")
	}
	for _, r := range ep.Rounds {
		infos := make([]pairs.SplitInfo, len(r.Splits))
		for i, s := range r.Splits {
			infos[i] = s.Info
		}
		rep.Splits = append(rep.Splits, infos)
	}

	// Scores of every encoder, by set ID.
	logf("eval: %s on %d sets of %s (%d rounds)", name, len(sets), strings.Join(ep.Corpora, ", "), len(seeds))
	scorers := map[string]func(a, b string) float64{}
	adaptMode := o.Adapt
	adapt, err := evalAdaptCorpora(v, adaptMode, ep.Corpora)
	if err != nil {
		return nil, err
	}
	rep.Adapt, rep.Adapted = adaptMode, append([]string{}, adapt...)
	// The scoring mode of a test set: adapted on a corpus the bundle is
	// adapted to, and on Base pairs when they are scored by the bundle
	// adapted to every text (union, below); as saved otherwise.
	rep.CalibrationSource = v.Spec.CalibrationFor(verifier.ScoringAsSaved).Source
	if len(adapt) > 0 {
		rep.CalibrationSource = v.Spec.CalibrationFor(verifier.ScoringAdapted).Source
	}
	// The bundle as saved first (Adapt changes it), on the corpora it is
	// not adapted to.
	var frozen []*pairs.UtteranceSet
	for _, s := range sets {
		if !slices.Contains(adapt, pairs.CorpusOf(s.Source)) {
			frozen = append(frozen, s)
		}
	}
	emb, err := sv.EmbedSets(ctx, v.Encoder(), frozen, o.stage(name+" embed"))
	if err != nil {
		return nil, fmt.Errorf("eval: %s: %w", name, err)
	}
	perCorpus, union, err := evalAdaptedEmbeddings(ctx, v, sets, adapt, ep.Corpora, o)
	if err != nil {
		return nil, err
	}
	for id, e := range perCorpus {
		emb[id] = e // Hard and Harder pairs lie within one corpus
	}
	scorers[name] = func(a, b string) float64 { return sv.ScorePair(v.Encoder(), emb[a], emb[b]) }
	baseScore := scorers[name]
	if union != nil {
		baseScore = func(a, b string) float64 { return sv.ScorePair(v.Encoder(), union[a], union[b]) }
	}
	for _, vsName := range vs {
		f, done, err := evalVsScorer(ctx, vsName, sets, o)
		if err != nil {
			return nil, err
		}
		defer done()
		scorers[vsName] = f
	}

	scoringOf := func(corpus string, level pairs.Level) string {
		if level == pairs.Base && union != nil || level != pairs.Base && slices.Contains(adapt, corpus) {
			return verifier.ScoringAdapted
		}
		return verifier.ScoringAsSaved
	}
	used := map[string]bool{}

	// Cells, per test set.
	encoders := append([]string{name}, vs...)
	type key struct{ corpus, level string }
	var order []key
	perRound := map[key][]table2.EncoderRound{}
	for ri, r := range ep.Rounds {
		for _, s := range r.Splits {
			k := key{s.Corpus, string(s.Level)}
			if _, ok := perRound[k]; !ok {
				order = append(order, k)
			}
			labels := sv.PairLabels(s.Pairs)
			tk := pairs.TestKey{Exposure: pairs.UnseenUnseen, Level: s.Level}.String()
			for _, enc := range encoders {
				sc := make([]float64, len(s.Pairs))
				score := scorers[enc]
				if enc == name && s.Level == pairs.Base {
					score = baseScore
				}
				for i, p := range s.Pairs {
					sc[i] = score(p.A, p.B)
				}
				perRound[k] = append(perRound[k], table2.EncoderRound{Round: ri + 1, Seed: r.Seed, Encoder: enc,
					Scores: map[string]table2.TestScoreSet{tk: {Scores: sc, Positive: labels}}})
				if enc == name && o.KeepScores {
					rep.Scores = append(rep.Scores, EvalScores{Corpus: s.Corpus, Level: string(s.Level), Round: ri + 1, Seed: r.Seed, Scores: sc, Positive: labels})
				}
			}
		}
	}
	for _, k := range order {
		tk := pairs.TestKey{Exposure: pairs.UnseenUnseen, Level: pairs.Level(k.level)}
		for _, enc := range encoders {
			var ers []table2.EncoderRound
			for _, er := range perRound[k] {
				if er.Encoder == enc {
					ers = append(ers, er)
				}
			}
			prob := func(sc []float64, labels []bool) ([]float64, string) { return evalCrossFit(sc, labels), RuleCrossFit }
			var mc verifier.ModeCalibration
			if enc == name {
				// The calibration fitted on scores computed as these were.
				mc = v.Spec.CalibrationFor(scoringOf(k.corpus, pairs.Level(k.level)))
				if !used[mc.Scoring] {
					used[mc.Scoring] = true
					rep.Calibrations = append(rep.Calibrations, mc)
				}
				prob = func(sc []float64, _ []bool) ([]float64, string) {
					p := make([]float64, len(sc))
					for i, s := range sc {
						p[i] = mc.Calibration.Probability(s)
					}
					return p, RuleBundle
				}
			}
			row := evalRow(enc, k.corpus, k.level, tk, ers, prob)
			row.Scoring, row.CalibrationSource, row.CalibrationScoring = mc.Scoring, mc.Source, mc.FittedOn
			rep.Rows = append(rep.Rows, row)
		}
		for _, other := range vs {
			c, err := table2.CompareRows(perRound[k], name, other, tk, reps, conf, evalCompareSeed)
			if err != nil {
				rep.Notes = append(rep.Notes, fmt.Sprintf("%s-%s: %s vs %s not compared: %v", k.corpus, k.level, name, other, err))
				continue
			}
			rep.Comparisons = append(rep.Comparisons, EvalComparison{Corpus: k.corpus, Level: k.level, Comparison: c})
		}
	}
	return rep, nil
}

// evalCompareSeed seeds the comparisons' bootstrap.
const evalCompareSeed = 0x6576616c

// evalRow summarises one encoder's rounds on one test set; prob turns a
// round's scores into the decision rule's probabilities.
func evalRow(enc, corpus, level string, tk pairs.TestKey, ers []table2.EncoderRound, prob func([]float64, []bool) ([]float64, string)) EvalRow {
	row := EvalRow{Encoder: enc, Corpus: corpus, Level: level}
	var auc, acc, f1, best, eer, ece []float64
	for _, er := range ers {
		sc, labels, ok := er.TestScores(tk)
		if !ok {
			continue
		}
		row.Rounds++
		row.Pairs += len(sc)
		auc = append(auc, 100*stats.AUC(sc, labels))
		p, rule := prob(sc, labels)
		row.Rule = rule
		a, f := stats.AccuracyF1(p, labels, verifier.DecisionProbability)
		acc, f1 = append(acc, 100*a), append(f1, 100*f)
		_, c := stats.BestThreshold(sc, labels, stats.MaxAccuracy)
		best = append(best, 100*c.Accuracy())
		e, _ := stats.EER(sc, labels)
		eer = append(eer, 100*e)
		ece = append(ece, stats.ECE(p, labels, ECEBins))
	}
	m, s := stats.MeanStd(auc)
	row.AUCMean, row.AUCStd = stats.Float(m), stats.Float(s)
	row.AccMean, row.F1Mean = stats.Float(stats.Mean(acc)), stats.Float(stats.Mean(f1))
	row.AccBestMean, row.EERMean, row.ECE = stats.Float(stats.Mean(best)), stats.Float(stats.Mean(eer)), stats.Float(stats.Mean(ece))
	return row
}

// evalCrossFit returns probabilities of scores from a Platt calibration
// fitted on the other fold of anchor couples (pairs 2i and 2i+1 are one
// anchor's positive and negative; couples alternate between folds),
// constrained to a slope ≥ 0. A fold without both labels gives NaN
// probabilities.
func evalCrossFit(scores []float64, labels []bool) []float64 {
	p := make([]float64, len(scores))
	for fold := range 2 {
		var s []float64
		var l []bool
		for i := range scores {
			if (i/2)%2 != fold {
				s, l = append(s, scores[i]), append(l, labels[i])
			}
		}
		cal, err := verifier.FitPlatt(s, l)
		if err == nil && cal.A < 0 {
			// A verifier's score must rise with sameness: a fold where it
			// falls (Harder pairs, whose negatives share a conversation and
			// its topic) gets a flat calibration at the fold's share of
			// positives, not a rule that reads the score backwards.
			pos := 0.0
			for _, x := range l {
				if x {
					pos++
				}
			}
			cal = verifier.Calibration{Method: "platt", B: math.Log((pos + 1) / (float64(len(l)) - pos + 1))}
		}
		for i := range scores {
			if (i/2)%2 == fold {
				p[i] = math.NaN()
				if err == nil {
					p[i] = cal.Probability(scores[i])
				}
			}
		}
	}
	return p
}

// evalVsScorer builds encoder name, fits it on the sets' texts (with
// their sources for a SourceFitter) and returns its pair score by set ID
// and the function that releases it (after the last score).
func evalVsScorer(ctx context.Context, name string, sets []*pairs.UtteranceSet, o EvalOptions) (score func(a, b string) float64, done func(), err error) {
	if _, ft := sv.SplitFineTuned(name); ft {
		return nil, nil, fmt.Errorf("eval: --vs %s: compare with untuned encoders (a trained one is a bundle: evaluate it with --verifier)", name)
	}
	enc, err := sv.NewEncoder(name, sv.EncoderOptions{Backend: o.Backend, BatchSize: o.BatchSize, Logf: o.Logf})
	if err != nil {
		return nil, nil, fmt.Errorf("eval: --vs %s: %w", name, err)
	}
	done = func() {}
	if c, ok := enc.(sv.Closer); ok {
		done = func() { _ = c.Close() }
	}
	if f, ok := enc.(sv.Fitter); ok {
		var texts, sources []string
		for _, s := range sets {
			for _, t := range s.Texts {
				texts, sources = append(texts, t), append(sources, s.Source)
			}
		}
		if err := sv.FitWithSources(ctx, f, texts, sources); err != nil {
			done()
			return nil, nil, fmt.Errorf("eval: --vs %s: fit: %w", name, err)
		}
	}
	emb, err := sv.EmbedSets(ctx, enc, sets, o.stage(name+" embed"))
	if err != nil {
		done()
		return nil, nil, fmt.Errorf("eval: --vs %s: %w", name, err)
	}
	return func(a, b string) float64 { return sv.ScorePair(enc, emb[a], emb[b]) }, done, nil
}

// evalDomain checks every set against d, per corpus.
func evalDomain(d *verifier.Domain, sets []*pairs.UtteranceSet) []EvalDomain {
	by := map[string]*EvalDomain{}
	var out []EvalDomain
	var names []string
	for _, s := range sets {
		c := pairs.CorpusOf(s.Source)
		e, ok := by[c]
		if !ok {
			e = &EvalDomain{Corpus: c}
			by[c] = e
			names = append(names, c)
		}
		e.Sets++
		if !d.Check(s.Texts).InDomain {
			e.OutOfDomain++
		}
	}
	slices.Sort(names)
	for _, n := range names {
		e := *by[n]
		e.InDomain = 2*e.OutOfDomain <= e.Sets
		out = append(out, e)
	}
	return out
}
