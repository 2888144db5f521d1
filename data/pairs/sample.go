package pairs

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// pool is a group of sets pairs may draw partners from, indexed by speaker
// and source.
type pool struct {
	all   []int32
	in    []bool // membership, by set index
	bySpk map[int32][]int32
	bySrc map[int32][]int32
	// srcSpan is each source's [lo, hi) range in all when every source's
	// sets are contiguous there (all is in set order, and set order is
	// source order); nil otherwise.
	srcSpan map[int32][2]int
}

func newPool(idx *pairIndex, sets []int32) *pool {
	p := &pool{all: sets, in: make([]bool, len(idx.sets)),
		bySpk: map[int32][]int32{}, bySrc: map[int32][]int32{}, srcSpan: map[int32][2]int{}}
	for i, s := range sets {
		p.in[s] = true
		p.bySpk[idx.setSpk[s]] = append(p.bySpk[idx.setSpk[s]], s)
		src := idx.setSrc[s]
		p.bySrc[src] = append(p.bySrc[src], s)
		if p.srcSpan == nil {
			continue
		}
		sp, ok := p.srcSpan[src]
		switch {
		case !ok:
			p.srcSpan[src] = [2]int{i, i + 1}
		case sp[1] == i:
			p.srcSpan[src] = [2]int{sp[0], i + 1}
		default:
			p.srcSpan = nil // a source's sets are not contiguous
		}
	}
	return p
}

// sources counts the sources the pool's sets come from.
func (p *pool) sources() int { return len(p.bySrc) }

// pairKey identifies an unordered pair of sets.
func pairKey(a, b int32) uint64 {
	if a > b {
		a, b = b, a
	}
	return uint64(a)<<32 | uint64(uint32(b))
}

// splitRun accumulates the pairs of one split.
type splitRun struct {
	info  SplitInfo
	rng   *rand.Rand
	used  map[uint64]struct{}
	avoid map[uint64]struct{} // keys owned by another split (may be nil)
	a, b  []int32
	label []int8
	level []Level // the negative kind each pair was made for
}

func newRun(seed int64, name string, exp Exposure, lvl Level) *splitRun {
	return &splitRun{
		info: SplitInfo{Name: name, Exposure: exp, Level: lvl},
		rng:  newRand(seed, "pairs/"+name),
		used: map[uint64]struct{}{},
	}
}

func (r *splitRun) free(a, b int32) bool {
	k := pairKey(a, b)
	if _, ok := r.used[k]; ok {
		return false
	}
	_, taken := r.avoid[k]
	return !taken
}

func (r *splitRun) add(a, b int32, label int8, lvl Level) {
	r.used[pairKey(a, b)] = struct{}{}
	r.a = append(r.a, a)
	r.b = append(r.b, b)
	r.label = append(r.label, label)
	r.level = append(r.level, lvl)
}

func (r *splitRun) len() int { return len(r.a) }

// tally sets the run's counts of pairs, positives and negatives in its
// SplitInfo from the pairs it drew.
func (r *splitRun) tally() {
	r.info.Pairs, r.info.Positives, r.info.Negatives = r.len(), 0, 0
	for _, l := range r.label {
		if l == 1 {
			r.info.Positives++
		} else {
			r.info.Negatives++
		}
	}
}

// sets returns the distinct sets of the run's pairs, in set order.
func (r *splitRun) sets() []int32 {
	var out []int32
	seen := map[int32]bool{}
	for i := range r.a {
		for _, s := range []int32{r.a[i], r.b[i]} {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	slices.Sort(out)
	return out
}

// pick draws a candidate accepted by ok, uniformly when the list is short;
// from a long list it tries random draws and then a bounded scan, so a
// nearly exhausted list may give up (the anchor is then skipped).
func pick(r *rand.Rand, cands []int32, ok func(int32) bool) (int32, bool) {
	return pickAt(r, len(cands), func(i int) int32 { return cands[i] }, ok)
}

// pickOutside is pick over all without its [lo, hi) range.
func pickOutside(r *rand.Rand, all []int32, lo, hi int, ok func(int32) bool) (int32, bool) {
	w := hi - lo
	return pickAt(r, len(all)-w, func(i int) int32 {
		if i >= lo {
			i += w
		}
		return all[i]
	}, ok)
}

// pickAt is pick over the n candidates at(0) … at(n-1).
func pickAt(r *rand.Rand, n int, at func(int) int32, ok func(int32) bool) (int32, bool) {
	if n <= 0 {
		return -1, false
	}
	if n <= 64 {
		var buf [64]int32
		valid := buf[:0]
		for i := range n {
			if c := at(i); ok(c) {
				valid = append(valid, c)
			}
		}
		if len(valid) == 0 {
			return -1, false
		}
		return valid[r.IntN(len(valid))], true
	}
	for range 32 {
		if c := at(r.IntN(n)); ok(c) {
			return c, true
		}
	}
	start := r.IntN(n)
	for i := range min(n, 4096) {
		if c := at((start + i) % n); ok(c) {
			return c, true
		}
	}
	return -1, false
}

// sampler draws partners for anchors.
type sampler struct {
	idx *pairIndex
	// crossBase makes Base negatives come from another source than the
	// anchor's (PairConfig.BaseNegatives), where the pool has two sources.
	crossBase bool
}

// positive draws another set of the anchor's speaker from p.
func (s sampler) positive(run *splitRun, a int32, p *pool) (int32, bool) {
	return pick(run.rng, p.bySpk[s.idx.setSpk[a]], func(c int32) bool {
		return c != a && run.free(a, c)
	})
}

// otherPerson reports whether sets a and b belong to speakers that are
// surely two people: two speakers, and not namesakes of one corpus (the
// same name in two sources may be one person: Falstaff of Henry IV parts
// 1 and 2). Negative pairs are drawn only from such sets.
func (s sampler) otherPerson(a, b int32) bool {
	sa, sb := s.idx.setSpk[a], s.idx.setSpk[b]
	return sa != sb && s.idx.speakers[sa].name != s.idx.speakers[sb].name
}

// negative draws a set of another speaker from p: of another source than
// the anchor's (Base, with crossBase and a pool of two or more sources;
// else any), of the anchor's source (Hard), or of the anchor's
// conversation (Harder).
func (s sampler) negative(run *splitRun, a int32, p *pool, lvl Level) (int32, bool) {
	ok := func(c int32) bool { return p.in[c] && s.otherPerson(a, c) && run.free(a, c) }
	switch lvl {
	case Base:
		if !s.crossBase {
			return pick(run.rng, p.all, ok)
		}
		if p.sources() < 2 {
			run.info.BaseAnySource = true
			return pick(run.rng, p.all, ok)
		}
		src := s.idx.setSrc[a]
		if sp, in := p.srcSpan[src]; in {
			return pickOutside(run.rng, p.all, sp[0], sp[1], ok)
		} else if p.srcSpan != nil {
			return pick(run.rng, p.all, ok) // the anchor's source is not in p
		}
		return pick(run.rng, p.all, func(c int32) bool { return s.idx.setSrc[c] != src && ok(c) })
	case Hard:
		return pick(run.rng, p.bySrc[s.idx.setSrc[a]], ok)
	default:
		return pick(run.rng, s.idx.convs[s.idx.setConv[a]].sets, ok)
	}
}

// couple adds one positive and one negative pair for anchor a, or nothing
// when either partner is missing, so every split stays exactly 1:1.
func (s sampler) couple(run *splitRun, a int32, pos, neg *pool, lvl Level) bool {
	p, ok := s.positive(run, a, pos)
	if !ok {
		run.info.NoPositive++
		return false
	}
	n, ok := s.negative(run, a, neg, lvl)
	if !ok {
		run.info.NoNegative++
		return false
	}
	run.add(a, p, 1, lvl)
	run.add(a, n, 0, lvl)
	return true
}

// shuffled returns a seeded random permutation of sets.
func shuffled(r *rand.Rand, sets []int32) []int32 {
	out := slices.Clone(sets)
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// anchored fills run with couples of the given negative levels for anchors
// in a seeded random order, rounds times over, until limit pairs.
func (s sampler) anchored(run *splitRun, anchors []int32, pos, neg *pool, levels []Level, rounds, limit int, progress func(done, total int)) {
	order := shuffled(run.rng, anchors)
	total := rounds * len(order)
	for round := range rounds {
		for i, a := range order {
			for _, lvl := range levels {
				if run.len()+2 > limit {
					run.info.Capped = true
					return
				}
				run.info.Anchors++
				s.couple(run, a, pos, neg, lvl)
			}
			if progress != nil && i%2048 == 0 {
				progress(round*len(order)+i, total)
			}
		}
	}
	if progress != nil {
		progress(total, total)
	}
}

// perSpeaker fills run with up to quota[g] couples of level lvl for each
// group g of anchors (one speaker's sets): groups in a seeded random order,
// each group's anchors in a seeded random order, tried until its quota is
// met or every anchor was tried, so a speaker whose first anchor has no
// free partner still takes part. It stops at limit pairs.
func (s sampler) perSpeaker(run *splitRun, groups [][]int32, quota []int, pos, neg *pool, lvl Level, limit int, progress func(done, total int)) {
	order := run.rng.Perm(len(groups))
	for i, g := range order {
		made := 0
		// Several passes when a quota exceeds the group's anchors.
		for pass := 0; made < quota[g] && pass < quota[g]; pass++ {
			for _, a := range shuffled(run.rng, groups[g]) {
				if made == quota[g] {
					break
				}
				if run.len()+2 > limit {
					run.info.Capped = true
					return
				}
				run.info.Anchors++
				if s.couple(run, a, pos, neg, lvl) {
					made++
				}
			}
		}
		if progress != nil && i%256 == 0 {
			progress(i, len(order))
		}
	}
	if progress != nil {
		progress(len(order), len(order))
	}
}

// codeTrain builds the training pairs of the paper's code: per anchor one
// positive and CodeTrainNegatives Hard negatives, then for every other
// training speaker of the anchor's conversation one positive and that
// Harder negative. Not balanced, by design of that code.
func (s sampler) codeTrain(run *splitRun, anchors []int32, p *pool, cfg *PairConfig) {
	for _, a := range shuffled(run.rng, anchors) {
		if run.len()+1+cfg.CodeTrainNegatives > cfg.MaxTrainPairs {
			run.info.Capped = true
			return
		}
		run.info.Anchors++
		pos, ok := s.positive(run, a, p)
		if !ok {
			run.info.NoPositive++
			continue
		}
		var negs []int32
		for range cfg.CodeTrainNegatives {
			n, ok := s.negative(run, a, p, Hard)
			if !ok || slices.Contains(negs, n) {
				continue
			}
			negs = append(negs, n)
		}
		if len(negs) == 0 {
			run.info.NoNegative++
			continue
		}
		run.add(a, pos, 1, Hard)
		for _, n := range negs {
			run.add(a, n, 0, Hard)
		}
		for _, n := range s.idx.convs[s.idx.setConv[a]].sets {
			if !p.in[n] || !s.otherPerson(a, n) || !run.free(a, n) {
				continue
			}
			if run.len()+2 > cfg.MaxTrainPairs {
				run.info.Capped = true
				return
			}
			pos, ok := s.positive(run, a, p)
			if !ok {
				break
			}
			run.add(a, pos, 1, Harder)
			run.add(a, n, 0, Harder)
		}
	}
}

// sampleOf returns, as a new run, a fraction of run's pairs made for level
// lvl, rebalanced to 1:1 by dropping the surplus class's last pairs in the
// sample's random order (the code variant's Seen-Seen tests).
func sampleOf(src *splitRun, seed int64, name string, exp Exposure, lvl Level, frac float64, limit int) *splitRun {
	out := newRun(seed, name, exp, lvl)
	var part []int
	for i := range src.a {
		if src.level[i] == lvl {
			part = append(part, i)
		}
	}
	out.rng.Shuffle(len(part), func(i, j int) { part[i], part[j] = part[j], part[i] })
	part = part[:int(float64(len(part))*frac+0.5)]
	var pos, neg []int
	for _, i := range part {
		if src.label[i] == 1 {
			pos = append(pos, i)
		} else {
			neg = append(neg, i)
		}
	}
	m := min(len(pos), len(neg), limit/2)
	for j := range m {
		for _, i := range []int{pos[j], neg[j]} {
			out.add(src.a[i], src.b[i], src.label[i], lvl)
		}
	}
	out.info.Anchors = len(part)
	out.info.Capped = m == limit/2 && m < max(len(pos), len(neg))
	return out
}

// pairs converts a run into Pair rows with IDs "<split>-000001"...
func (r *splitRun) pairs(idx *pairIndex) []Pair {
	out := make([]Pair, len(r.a))
	for i := range r.a {
		out[i] = Pair{
			ID:    fmt.Sprintf("%s-%06d", r.info.Name, i+1),
			A:     idx.sets[r.a[i]].ID,
			B:     idx.sets[r.b[i]].ID,
			Label: r.label[i],
			Level: r.level[i],
		}
	}
	return out
}
