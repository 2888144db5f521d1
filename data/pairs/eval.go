package pairs

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/roleprint/roleprint/data"
)

// AllCorpora is EvalSplit.Corpus of the Base split, which pairs sets of
// every corpus evaluated.
const AllCorpora = "all"

// EvalPairs are the pairs a frozen verifier is evaluated on (BuildEvalPairs):
// nothing is trained, so every kept speaker is unseen. One round per seed;
// the sets are the same in every round (set IDs do not depend on the seed),
// only the pairs drawn differ.
type EvalPairs struct {
	// Sets holds every set any round's pairs refer to, by ID.
	Sets map[string]*UtteranceSet
	// Corpora are the corpora of the kept sets (CorpusOf their source),
	// sorted.
	Corpora []string
	// Rounds has one entry per seed, in the seeds' order.
	Rounds []EvalRound
	// Config is the resolved pair configuration (its Seed is the first
	// round's); Input says what its filters kept and dropped.
	Config PairConfig
	Input  InputCounts
	// Notes explain splits left out (a corpus with no conversation holding
	// two speakers' sets has no Harder split, say).
	Notes []string
}

// EvalRound is one seed's pairs.
type EvalRound struct {
	Seed   int64
	Splits []EvalSplit
}

// EvalSplit is one test set of an evaluation: the Hard or Harder pairs of
// one corpus, or the Base pairs across corpora (Corpus AllCorpora).
type EvalSplit struct {
	Corpus string
	Level  Level
	Pairs  []Pair
	Info   SplitInfo
}

// Name is the split's name, "corpus-level" ("tbbt-hard", "all-base").
func (s EvalSplit) Name() string { return s.Corpus + "-" + string(s.Level) }

// BuildEvalPairs draws the pairs on which a frozen verifier is evaluated
// on corpora it was not trained on: the paper's filters and sets (cfg's
// aliases, generic roles, set and speaker minimums), every kept speaker
// unseen (cfg's unseen/dev/hold-out settings do not apply: nothing is
// trained), and for every seed the paper's test levels:
//
//   - Hard, per corpus: each anchor set gets one positive (another set of
//     its speaker) and one negative (a set of another speaker of its
//     source);
//   - Harder, per corpus: the negative is a set of another speaker of the
//     anchor's conversation;
//   - Base, when the sets come from two or more corpora: the negative is a
//     set of a speaker of another corpus, never one of the anchor's name
//     (Sheldon of a TBBT transcript and of a role-play corpus are one
//     character), anchors from every corpus.
//
// Anchors are drawn in a seeded random order, TestPairsPerAnchor couples
// each, until MaxTestPairs pairs per split; every split is 1:1, no pair
// repeats within a split, namesakes are never negatives. A split with no
// pair is left out and noted; no split at all is an error.
func BuildEvalPairs(utts []data.Utterance, cfg PairConfig, seeds []int64) (*EvalPairs, error) {
	if len(seeds) == 0 {
		return nil, errors.New("eval pairs: no seeds")
	}
	cfg.Seed = seeds[0]
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.Progress = nil
	idx, err := buildIndex(utts, &cfg)
	if err != nil {
		return nil, err
	}
	if len(idx.sets) == 0 {
		return nil, fmt.Errorf("eval pairs: no utterance set passed the filters (%s)", describeCounts(&idx.counts, &cfg))
	}
	corpusOf := make([]int32, len(idx.sets))
	names := map[string]int32{}
	var corpora []string
	for i := range idx.sets {
		c := CorpusOf(idx.sources[idx.setSrc[i]])
		id, ok := names[c]
		if !ok {
			id = int32(len(corpora))
			names[c] = id
			corpora = append(corpora, c)
		}
		corpusOf[i] = id
	}
	bySorted := slices.Clone(corpora)
	slices.Sort(bySorted)
	perCorpus := make([][]int32, len(corpora))
	all := make([]int32, len(idx.sets))
	for i := range idx.sets {
		all[i] = int32(i)
		perCorpus[corpusOf[i]] = append(perCorpus[corpusOf[i]], int32(i))
	}
	everything := newPool(idx, all)
	s := sampler{idx: idx}
	out := &EvalPairs{Sets: map[string]*UtteranceSet{}, Corpora: bySorted, Config: cfg, Input: idx.counts}
	noted := map[string]bool{}
	for _, seed := range seeds {
		round := EvalRound{Seed: seed}
		add := func(corpus string, lvl Level, r *splitRun) {
			r.tally()
			name := corpus + "-" + string(lvl)
			if r.len() == 0 {
				if !noted[name] {
					noted[name] = true
					out.Notes = append(out.Notes, fmt.Sprintf("%s left out: %s", name, evalWhyEmpty(lvl)))
				}
				return
			}
			for i := range r.a {
				for _, x := range []int32{r.a[i], r.b[i]} {
					out.Sets[idx.sets[x].ID] = idx.sets[x]
				}
			}
			round.Splits = append(round.Splits, EvalSplit{Corpus: corpus, Level: lvl, Pairs: r.pairs(idx), Info: r.info})
		}
		if len(corpora) > 1 {
			r := newRun(seed, "eval/"+AllCorpora+"-base", UnseenUnseen, Base)
			crossCorpus := func(a int32) func(int32) bool {
				return func(c int32) bool {
					return corpusOf[c] != corpusOf[a] && s.otherPerson(a, c) && r.free(a, c) &&
						!strings.EqualFold(idx.sets[c].Speaker, idx.sets[a].Speaker)
				}
			}
			for _, a := range shuffled(r.rng, all) {
				if r.len()+2 > cfg.MaxTestPairs {
					r.info.Capped = true
					break
				}
				r.info.Anchors++
				p, ok := s.positive(r, a, everything)
				if !ok {
					r.info.NoPositive++
					continue
				}
				n, ok := pick(r.rng, all, crossCorpus(a))
				if !ok {
					r.info.NoNegative++
					continue
				}
				r.add(a, p, 1, Base)
				r.add(a, n, 0, Base)
			}
			add(AllCorpora, Base, r)
		}
		for _, name := range bySorted {
			sets := perCorpus[names[name]]
			p := newPool(idx, sets)
			for _, lvl := range []Level{Hard, Harder} {
				r := newRun(seed, "eval/"+name+"-"+string(lvl), UnseenUnseen, lvl)
				s.anchored(r, sets, p, p, []Level{lvl}, cfg.TestPairsPerAnchor, cfg.MaxTestPairs, nil)
				add(name, lvl, r)
			}
		}
		if len(round.Splits) == 0 {
			return nil, fmt.Errorf("eval pairs: no pairs: %s (%d sets of %d speakers kept)", strings.Join(out.Notes, "; "), len(idx.sets), len(idx.speakers))
		}
		out.Rounds = append(out.Rounds, round)
	}
	return out, nil
}

// evalWhyEmpty says why an evaluation split can have no pair.
func evalWhyEmpty(lvl Level) string {
	switch lvl {
	case Harder:
		return "no conversation has kept sets of two speakers"
	case Hard:
		return "no source has kept sets of two speakers with two sets each"
	}
	return "no speaker has two sets with a set of another corpus to pair against"
}
