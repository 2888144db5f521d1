package pairs

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/roleprint/roleprint/data"
)

// BuildPairs turns utterances into a PairCorpus as in Yang et al.: filters,
// utterance sets, a seen/unseen/dev speaker split, training pairs, nine
// test sets (three exposures × three levels) and a dev set. The result is
// deterministic for cfg.Seed; PairCorpusInfo(c) tells how it was built.
//
// The steps (docs/pairs.md has the full account):
//
//  1. Filters. Speaker aliases are merged (Aliases); generated rows are
//     dropped unless cfg.IncludeGenerated; conversations with fewer than
//     MinConversationTurns utterances are dropped; generic roles
//     (ExcludeSpeakers) are dropped.
//  2. Sets. A set is one speaker's utterances in one conversation, in turn
//     order, kept with ≥ MinSetUtterances utterances and ≥ MinSetWords
//     words. A speaker is (Source, Speaker, AgentModel); speakers with
//     fewer than MinSpeakerSets sets are dropped. Two speakers of one name
//     in two sources of one corpus are namesakes: they may be one person
//     (Falstaff in three plays). Set IDs ("s000042") follow (source,
//     conversation, speaker) order and do not depend on the seed.
//  3. Speakers. In every dataset (a corpus, or a source: DatasetBy) the
//     candidates (fewer than UnseenMaxSets sets, not a main role, not a
//     namesake) give min(UnseenPerDataset, candidates/UnseenDivisor)
//     unseen speakers and then min(DevPerDataset, rest/UnseenDivisor) dev
//     speakers. Every
//     conversation in which an unseen or dev speaker says anything is held
//     out whole: no set from it is trained on. Each seen speaker keeps
//     HoldOut (HoldOutLarge) of its other sets out of training for the
//     Seen-Unseen tests; the rest are its training sets.
//  4. Pairs. Every split draws anchors in a seeded random order and gives
//     each anchor one positive (another set of its speaker) and one
//     negative (a set of another speaker, never a namesake: of another
//     source for Base (BaseNegatives; any source with "any"), of the
//     anchor's source for Hard, of the anchor's conversation for Harder);
//     an anchor
//     lacking either is skipped, so every split is exactly 1:1. No pair
//     repeats within a split, none pairs a set with itself, and no test
//     pair is a training pair.
//     Train: anchors and partners are training sets; one couple per level
//     in TrainLevels. Seen-Seen: the sets of the training pairs paired anew
//     (never a training pair), as many couples per seen speaker as it has
//     Seen-Unseen hold-outs (SeenSeenPerSpeaker), so both seen exposures
//     have one speaker mix. Seen-Unseen: anchors are held-out sets,
//     partners sets of the training pairs. Unseen-Unseen:
//     sets of unseen speakers only. Dev: sets of dev speakers only, a third
//     of the couples per level.
//
// An error names every split left empty and why ("unseen-unseen-harder: no
// conversation has sets of two unseen speakers"), unless AllowEmptySplits.
func BuildPairs(utts []data.Utterance, cfg PairConfig) (*PairCorpus, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.ExcludeSpeakers = slices.Clone(cfg.ExcludeSpeakers)
	cfg.Aliases = slices.Clone(cfg.Aliases)
	cfg.MainRoles = slices.Clone(cfg.MainRoles)
	cfg.TrainLevels = slices.Clone(cfg.TrainLevels)
	idx, err := buildIndex(utts, &cfg)
	if err != nil {
		return nil, err
	}
	if len(idx.sets) == 0 {
		return nil, fmt.Errorf("build pairs: no utterance set passed the filters (%s)", describeCounts(&idx.counts, &cfg))
	}
	sp := splitSpeakers(idx, &cfg)
	b := &pairBuild{idx: idx, cfg: &cfg, sp: sp, s: sampler{idx: idx, crossBase: cfg.BaseNegatives == BaseNegativesSource}}
	b.trainPool = newPool(idx, sp.train)
	b.unseenPool = newPool(idx, sp.unseen)
	b.devPool = newPool(idx, sp.dev)

	// Training pairs first; the tests then pair the sets training exposed
	// (Seen-Seen anew, Seen-Unseen against the held-out sets).
	train := newRun(cfg.Seed, "train", "", "")
	if cfg.Variant == VariantCode {
		b.s.codeTrain(train, sp.train, b.trainPool, &cfg)
	} else {
		b.s.anchored(train, sp.train, b.trainPool, b.trainPool, cfg.TrainLevels, cfg.TrainPairsPerAnchor,
			cfg.MaxTrainPairs, b.stageProgress("train"))
	}
	b.exposed = newPool(idx, train.sets())
	tests := map[TestKey]*splitRun{}
	for _, lvl := range Levels {
		k := TestKey{SeenSeen, lvl}
		switch {
		case cfg.Variant == VariantCode && lvl != Base:
			tests[k] = sampleOf(train, cfg.Seed, k.String(), SeenSeen, lvl, cfg.CodeSeenSeenFraction, cfg.MaxTestPairs)
		case cfg.SeenSeenPerSpeaker:
			tests[k] = b.seenSeenTest(k, train.used)
		default:
			tests[k] = b.test(k, b.exposed.all, b.exposed, b.exposed, train.used)
		}
		k = TestKey{SeenUnseen, lvl}
		tests[k] = b.test(k, sp.heldOut, b.exposed, b.exposed, nil)
		k = TestKey{UnseenUnseen, lvl}
		tests[k] = b.test(k, sp.unseen, b.unseenPool, b.unseenPool, nil)
	}
	dev := newRun(cfg.Seed, "dev", "", "")
	perLevel := max(2, cfg.MaxDevPairs/len(Levels))
	for _, lvl := range Levels {
		limit := min(cfg.MaxDevPairs, dev.len()+perLevel)
		b.s.anchored(dev, sp.dev, b.devPool, b.devPool, []Level{lvl}, cfg.TestPairsPerAnchor, limit, nil)
	}

	// Assemble, checking that no split is empty.
	runs := []*splitRun{train, dev}
	for _, e := range Exposures {
		for _, l := range Levels {
			runs = append(runs, tests[TestKey{e, l}])
		}
	}
	info := b.info()
	var errs []error
	for _, r := range runs {
		r.tally()
		info.Splits = append(info.Splits, r.info)
		if r.info.BaseAnySource {
			info.Notes = append(info.Notes, fmt.Sprintf("%s: its sets come from one source, so its Base negatives are of the same source (base_negatives %q needs two)",
				r.info.Name, cfg.BaseNegatives))
		}
		if r.len() == 0 {
			why := fmt.Sprintf("%s: %s", r.info.Name, b.whyEmpty(r))
			info.Notes = append(info.Notes, "empty split "+why)
			errs = append(errs, errors.New(why))
		}
	}
	if len(errs) > 0 && !cfg.AllowEmptySplits {
		return nil, fmt.Errorf("build pairs: corpus too small (%d sets of %d speakers: %d seen, %d unseen, %d dev; set allow_empty_splits to keep going):\n%w",
			len(idx.sets), len(idx.speakers), info.SpeakersSeen, info.SpeakersUnseen, info.SpeakersDev, errors.Join(errs...))
	}
	c := &PairCorpus{
		Sets:  map[string]*UtteranceSet{},
		Train: train.pairs(idx),
		Dev:   dev.pairs(idx),
		Tests: map[TestKey][]Pair{},
		Seed:  cfg.Seed,
	}
	for k, r := range tests {
		c.Tests[k] = r.pairs(idx)
	}
	for _, r := range runs {
		for i := range r.a {
			for _, s := range []int32{r.a[i], r.b[i]} {
				c.Sets[idx.sets[s].ID] = idx.sets[s]
			}
		}
	}
	setPairCorpusInfo(c, info)
	return c, nil
}

// pairBuild holds one BuildPairs call's state.
type pairBuild struct {
	idx                            *pairIndex
	cfg                            *PairConfig
	sp                             *speakerSplit
	s                              sampler
	trainPool, unseenPool, devPool *pool
	// exposed holds the sets that occur in training pairs.
	exposed *pool
}

func (b *pairBuild) progress(stage string, done, total int) {
	if b.cfg.Progress != nil {
		b.cfg.Progress(stage, done, total)
	}
}

func (b *pairBuild) stageProgress(stage string) func(done, total int) {
	if b.cfg.Progress == nil {
		return nil
	}
	return func(done, total int) { b.cfg.Progress(stage, done, total) }
}

// seenSeenTest builds a Seen-Seen test split with anchors drawn per seen
// speaker (PairConfig.SeenSeenPerSpeaker): HoldOut couples per speaker,
// HoldOutLarge for a speaker with at least HoldOutLargeFrom sets (at
// least one either way), times TestPairsPerAnchor. A speaker's sets in
// training pairs are tried as anchors in a seeded random order until its
// couples are made, so a speaker takes part as long as two of its sets
// were not already paired in training.
func (b *pairBuild) seenSeenTest(k TestKey, avoid map[uint64]struct{}) *splitRun {
	r := newRun(b.cfg.Seed, k.String(), k.Exposure, k.Level)
	r.avoid = avoid
	var groups [][]int32
	var quota []int
	for s := range b.idx.speakers {
		sets := b.exposed.bySpk[int32(s)]
		if len(sets) < 2 {
			continue
		}
		n := b.cfg.HoldOut
		if len(b.idx.speakers[s].sets) >= b.cfg.HoldOutLargeFrom {
			n = b.cfg.HoldOutLarge
		}
		groups = append(groups, sets)
		quota = append(quota, max(n, 1)*b.cfg.TestPairsPerAnchor)
	}
	b.s.perSpeaker(r, groups, quota, b.exposed, b.exposed, k.Level, b.cfg.MaxTestPairs, b.stageProgress(k.String()))
	return r
}

// test builds one test split of the paper's kind.
func (b *pairBuild) test(k TestKey, anchors []int32, pos, neg *pool, avoid map[uint64]struct{}) *splitRun {
	r := newRun(b.cfg.Seed, k.String(), k.Exposure, k.Level)
	r.avoid = avoid
	b.s.anchored(r, anchors, pos, neg, []Level{k.Level}, b.cfg.TestPairsPerAnchor, b.cfg.MaxTestPairs, b.stageProgress(k.String()))
	return r
}

// info summarises the build (splits are added by the caller).
func (b *pairBuild) info() *PairInfo {
	cfg := *b.cfg
	cfg.Progress = nil
	counts := b.idx.counts
	info := &PairInfo{
		Format: PairFormat, Version: PairFormatVersion, Variant: cfg.Variant, Seed: cfg.Seed,
		Config: &cfg, Input: &counts, Datasets: b.sp.datasets,
		TrainSets: len(b.sp.train), HeldOutSets: len(b.sp.heldOut), ParkedSets: len(b.sp.parked),
	}
	for _, r := range b.sp.role {
		switch r {
		case roleSeen:
			info.SpeakersSeen++
		case roleUnseen:
			info.SpeakersUnseen++
		default:
			info.SpeakersDev++
		}
	}
	for _, h := range b.sp.held {
		if h {
			info.HeldConversations++
		}
	}
	if cfg.Variant == VariantCode {
		info.Notes = append(info.Notes, fmt.Sprintf(
			"variant code: training pairs are 1 positive : %d Hard negatives plus 1:1 Harder couples (not balanced); seen-seen-hard and seen-seen-harder are a %.0f%% sample of the training pairs and remain in train",
			cfg.CodeTrainNegatives, 100*cfg.CodeSeenSeenFraction))
	}
	return info
}

// whyEmpty explains an empty split from the sets it could draw on.
func (b *pairBuild) whyEmpty(r *splitRun) string {
	anchors, pos, neg, who := b.exposed.all, b.exposed, b.exposed, "seen"
	switch {
	case r.info.Name == "train":
		anchors, pos, neg = b.sp.train, b.trainPool, b.trainPool
	case r.info.Name == "dev":
		anchors, pos, neg, who = b.sp.dev, b.devPool, b.devPool, "dev"
	case r.info.Exposure == SeenUnseen:
		anchors = b.sp.heldOut
	case r.info.Exposure == UnseenUnseen:
		anchors, pos, neg, who = b.sp.unseen, b.unseenPool, b.unseenPool, "unseen"
	}
	if len(anchors) == 0 {
		switch who {
		case "unseen", "dev":
			var per []string
			for _, d := range b.sp.datasets {
				per = append(per, fmt.Sprintf("%s %d", d.Name, d.Candidates))
			}
			return fmt.Sprintf("no %s speakers were drawn: each dataset draws min(%d, candidates/%d), and candidates (speakers with %d to %d sets, not main roles, no namesake in another source) per dataset are: %s",
				who, map[string]int{"unseen": b.cfg.UnseenPerDataset, "dev": b.cfg.DevPerDataset}[who], b.cfg.UnseenDivisor,
				b.cfg.MinSpeakerSets, b.cfg.UnseenMaxSets-1, strings.Join(per, ", "))
		}
		if r.info.Exposure == SeenUnseen {
			return "no held-out sets: hold_out is 0, or no seen speaker has a set to spare outside held-out conversations"
		}
		return "no training sets: every seen speaker's sets are in conversations held out for unseen or dev speakers"
	}
	levels := []Level{r.info.Level}
	if r.info.Level == "" {
		levels = b.cfg.TrainLevels
		if r.info.Name == "dev" {
			levels = Levels
		}
	}
	hasPos, hasNeg := false, false
	probe := newRun(0, "probe", "", "")
	for _, a := range anchors {
		if !hasPos {
			_, hasPos = b.s.positive(probe, a, pos)
		}
		for _, l := range levels {
			if !hasNeg {
				_, hasNeg = b.s.negative(probe, a, neg, l)
			}
		}
		if hasPos && hasNeg {
			break
		}
	}
	switch {
	case !hasPos && r.info.Exposure == SeenUnseen:
		return "no held-out set's speaker has a training set left"
	case !hasPos:
		return fmt.Sprintf("no %s speaker has two sets", who)
	case !hasNeg && len(levels) == 1 && levels[0] == Base:
		return fmt.Sprintf("all %s sets belong to one speaker", who)
	case !hasNeg && len(levels) == 1 && levels[0] == Hard:
		return fmt.Sprintf("no source has sets of two %s speakers", who)
	case !hasNeg && len(levels) == 1 && levels[0] == Harder:
		if r.info.Exposure == SeenUnseen {
			return "no held-out set shares a conversation with another seen speaker's training set"
		}
		return fmt.Sprintf("no conversation has sets of two %s speakers", who)
	case !hasNeg:
		return fmt.Sprintf("no negative partner of levels %v for any %s set", levels, who)
	}
	return fmt.Sprintf("%d anchor draws: %d found no free positive partner, %d no free negative partner",
		r.info.Anchors, r.info.NoPositive, r.info.NoNegative)
}

// describeCounts summarises the filters for an error message.
func describeCounts(n *InputCounts, cfg *PairConfig) string {
	return fmt.Sprintf("%d utterances, %d generated dropped, %d of %d conversations shorter than %d turns, %d utterances by generic roles, %d of %d candidate sets with < %d utterances or < %d words, %d of %d speakers with < %d sets",
		n.Utterances, n.GeneratedDropped, n.ConversationsShort, n.Conversations, cfg.MinConversationTurns,
		n.ExcludedUtterances, n.SetsTooSmall, n.CandidateSets, cfg.MinSetUtterances, cfg.MinSetWords,
		n.SpeakersTooFewSets, n.SpeakersWithSets, cfg.MinSpeakerSets)
}
