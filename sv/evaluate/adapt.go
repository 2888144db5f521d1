package evaluate

import (
	"context"
	"fmt"
	"slices"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/sv"
	"github.com/roleprint/roleprint/sv/verifier"
)

// Unsupervised adaptation of a bundle to the corpus it is evaluated on.
// A bundle trained on some shows places a set by the show it resembles
// (its n-gram parts centre a set on its predicted training corpus's mean
// and normalise its score against training sets of that corpus), which
// means nothing on a show it never saw. Adapted, its n-gram parts refit
// their vocabularies on the evaluated corpus's texts, centre every set on
// that corpus's mean and draw the s-norm cohort from chunks of its texts
// (sv.Adapter; no labels are read): within one show the corpus channel
// drops out and what remains is the speaker's style. Each corpus is
// adapted to alone, so the Hard and Harder pairs of a corpus are scored
// within its own domain; Base pairs (across corpora) by the bundle adapted
// to every evaluated text at once.

// Adaptation modes of EvalOptions.Adapt.
const (
	// EvalAdaptAuto adapts to each evaluated corpus the bundle was not
	// trained on (its name is not among Domain's corpora, or the bundle
	// records no domain); a corpus it was trained on keeps the training
	// centring and cohort, which know it.
	EvalAdaptAuto = "auto"
	// EvalAdaptAll adapts to every evaluated corpus.
	EvalAdaptAll = "all"
	// EvalAdaptNone scores with the bundle as saved.
	EvalAdaptNone = "none"
)

// EvalAdaptModes lists the modes, the default first.
func EvalAdaptModes() []string { return []string{EvalAdaptAuto, EvalAdaptAll, EvalAdaptNone} }

// evalAdaptCorpora returns the corpora of corpora the bundle is adapted
// to under mode (none for a bundle that cannot adapt: then the error
// says so only when mode asks for adaptation explicitly).
func evalAdaptCorpora(v *verifier.Verifier, mode string, corpora []string) ([]string, error) {
	if !slices.Contains(EvalAdaptModes(), mode) {
		return nil, fmt.Errorf("eval: adapt %q: want one of %v", mode, EvalAdaptModes())
	}
	if mode == EvalAdaptNone {
		return nil, nil
	}
	if _, ok := v.Encoder().(sv.Adapter); !ok || !v.CanAdapt() {
		if mode == EvalAdaptAll {
			return nil, fmt.Errorf("eval: adapt %s: the bundle %s has no part that adapts (only ngram-metric parts do)", mode, v.Spec.Name)
		}
		return nil, nil
	}
	var trained []string
	if v.Domain != nil {
		trained = v.Domain.CorpusNames()
	}
	var out []string
	for _, c := range corpora {
		if mode == EvalAdaptAll || !slices.Contains(trained, c) {
			out = append(out, c)
		}
	}
	return out, nil
}

// evalAdaptedEmbeddings embeds the sets of each corpus in adapt with the
// bundle adapted to that corpus's texts (in set order, so that the s-norm
// chunks are mostly one speaker's lines) and, when there are several
// corpora and any is adapted, every set with the bundle adapted to all
// texts (the Base level's vectors: nil otherwise). It leaves the bundle
// adapted to the last domain.
func evalAdaptedEmbeddings(ctx context.Context, v *verifier.Verifier, sets []*pairs.UtteranceSet, adapt, corpora []string, o EvalOptions) (perCorpus map[string][]float32, union map[string][]float32, err error) {
	a, ok := v.Encoder().(sv.Adapter)
	if !ok || len(adapt) == 0 {
		return nil, nil, nil
	}
	logf := o.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	perCorpus = map[string][]float32{}
	for _, c := range adapt {
		var cs []*pairs.UtteranceSet
		var texts []string
		for _, s := range sets {
			if pairs.CorpusOf(s.Source) == c {
				cs = append(cs, s)
				texts = append(texts, s.Texts...)
			}
		}
		logf("eval: adapting %s to %s (%d sets, %d texts)", v.Spec.Name, c, len(cs), len(texts))
		if err := a.Adapt(ctx, texts); err != nil {
			return nil, nil, fmt.Errorf("eval: adapt to %s: %w", c, err)
		}
		emb, err := sv.EmbedSets(ctx, v.Encoder(), cs, o.stage(v.Spec.Name+" embed ("+c+")"))
		if err != nil {
			return nil, nil, fmt.Errorf("eval: %s adapted to %s: %w", v.Spec.Name, c, err)
		}
		for id, e := range emb {
			perCorpus[id] = e
		}
	}
	if len(corpora) < 2 {
		return perCorpus, nil, nil
	}
	var texts []string
	for _, s := range sets {
		texts = append(texts, s.Texts...)
	}
	logf("eval: adapting %s to every evaluated text for the Base level (%d texts)", v.Spec.Name, len(texts))
	if err := a.Adapt(ctx, texts); err != nil {
		return nil, nil, fmt.Errorf("eval: adapt to %v: %w", corpora, err)
	}
	union, err = sv.EmbedSets(ctx, v.Encoder(), sets, o.stage(v.Spec.Name+" embed (all corpora)"))
	if err != nil {
		return nil, nil, fmt.Errorf("eval: %s adapted to every corpus: %w", v.Spec.Name, err)
	}
	return perCorpus, union, nil
}
