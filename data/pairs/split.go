package pairs

import (
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strings"
)

// Speaker roles in one build.
const (
	roleSeen int8 = iota
	roleUnseen
	roleDev
)

// speakerSplit is the outcome of the seen/unseen/dev split.
type speakerSplit struct {
	role []int8 // per speaker
	// held marks conversations in which an unseen or dev speaker speaks:
	// none of their sets is trained on.
	held []bool
	// train are the seen speakers' training sets; heldOut their Seen-Unseen
	// hold-outs; parked their sets in held conversations (unused).
	train, heldOut, parked []int32
	unseen, dev            []int32 // sets of unseen and dev speakers
	datasets               []DatasetSplit
}

// DatasetSplit records the unseen and dev speakers drawn in one dataset.
type DatasetSplit struct {
	// Name is the dataset: a corpus, or a source (PairConfig.DatasetBy).
	Name string `json:"name"`
	// Speakers kept in the dataset, and Candidates among them (fewer than
	// UnseenMaxSets sets, not a main role, no namesake).
	Speakers   int `json:"speakers"`
	Candidates int `json:"candidates"`
	// Namesakes counts the speakers that share their name with a speaker
	// of another source of their corpus (Falstaff in three plays): they
	// may be one person, so they are never unseen or dev.
	Namesakes int `json:"namesakes"`
	// Unseen and Dev are the speakers drawn, as "Name (source)".
	Unseen []string `json:"unseen"`
	Dev    []string `json:"dev"`
}

// newRand returns the random stream named name for a seed: every split
// draws from its own stream, so changing one split's cap does not reshuffle
// the others.
func newRand(seed int64, name string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(name))
	return rand.New(rand.NewPCG(uint64(seed), h.Sum64()))
}

// splitSpeakers draws unseen and dev speakers per dataset, holds out their
// conversations, and picks the seen speakers' Seen-Unseen hold-out sets.
func splitSpeakers(idx *pairIndex, cfg *PairConfig) *speakerSplit {
	sp := &speakerSplit{role: make([]int8, len(idx.speakers)), held: make([]bool, len(idx.convs))}
	main := newSpeakerMatcher(cfg.MainRoles, true)

	byDataset := make([][]int32, len(idx.datasets))
	for s := range idx.speakers {
		d := idx.speakers[s].dataset
		byDataset[d] = append(byDataset[d], int32(s))
	}
	// Dataset order is by name so the draw does not depend on input order.
	order := make([]int, len(idx.datasets))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		return strings.Compare(idx.datasets[a], idx.datasets[b])
	})
	for _, d := range order {
		spks := byDataset[d]
		var cands []int32
		namesakes := 0
		for _, s := range spks {
			info := &idx.speakers[s]
			switch {
			case info.namesake:
				// Possibly one person with a speaker of another source
				// (Falstaff): holding one out would not make them unseen.
				namesakes++
			case len(info.sets) < cfg.UnseenMaxSets && !main.match(info.key.Source, info.key.Speaker):
				cands = append(cands, s)
			}
		}
		r := newRand(cfg.Seed, "unseen/"+idx.datasets[d])
		r.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
		adj := cooccurrence(idx, cands)
		nU := min(cfg.UnseenPerDataset, len(cands)/cfg.UnseenDivisor)
		srcOf := func(s int32) string { return idx.speakers[s].key.Source }
		unseen, rest := drawSpeakers(cands, nU, adj, cfg.PreferCooccurring, srcOf)
		nD := min(cfg.DevPerDataset, len(rest)/cfg.UnseenDivisor)
		dev, _ := drawSpeakers(rest, nD, adj, cfg.PreferCooccurring, srcOf)
		ds := DatasetSplit{Name: idx.datasets[d], Speakers: len(spks), Candidates: len(cands),
			Namesakes: namesakes, Unseen: []string{}, Dev: []string{}}
		for _, s := range unseen {
			sp.role[s] = roleUnseen
			ds.Unseen = append(ds.Unseen, idx.speakers[s].key.String())
		}
		for _, s := range dev {
			sp.role[s] = roleDev
			ds.Dev = append(ds.Dev, idx.speakers[s].key.String())
		}
		slices.Sort(ds.Unseen)
		slices.Sort(ds.Dev)
		sp.datasets = append(sp.datasets, ds)
	}

	for c := range idx.convs {
		for _, s := range idx.convs[c].present {
			if sp.role[s] != roleSeen {
				sp.held[c] = true
				break
			}
		}
	}

	r := newRand(cfg.Seed, "hold-out")
	for s := range idx.speakers {
		info := &idx.speakers[s]
		switch sp.role[s] {
		case roleUnseen:
			sp.unseen = append(sp.unseen, info.sets...)
			continue
		case roleDev:
			sp.dev = append(sp.dev, info.sets...)
			continue
		}
		var eligible []int32
		for _, si := range info.sets {
			if sp.held[idx.setConv[si]] {
				sp.parked = append(sp.parked, si)
			} else {
				eligible = append(eligible, si)
			}
		}
		n := cfg.HoldOut
		if len(info.sets) >= cfg.HoldOutLargeFrom {
			n = cfg.HoldOutLarge
		}
		n = max(0, min(n, len(eligible)-1))
		r.Shuffle(len(eligible), func(i, j int) { eligible[i], eligible[j] = eligible[j], eligible[i] })
		sp.heldOut = append(sp.heldOut, eligible[:n]...)
		sp.train = append(sp.train, eligible[n:]...)
	}
	for _, l := range [][]int32{sp.train, sp.heldOut, sp.parked, sp.unseen, sp.dev} {
		slices.Sort(l)
	}
	return sp
}

// cooccurrence links candidates that both have a set in one conversation.
func cooccurrence(idx *pairIndex, cands []int32) map[int32]map[int32]bool {
	isCand := map[int32]bool{}
	for _, s := range cands {
		isCand[s] = true
	}
	adj := map[int32]map[int32]bool{}
	seenConv := map[int32]bool{}
	for _, s := range cands {
		for _, si := range idx.speakers[s].sets {
			c := idx.setConv[si]
			if seenConv[c] {
				continue
			}
			seenConv[c] = true
			var here []int32
			for _, o := range idx.convs[c].sets {
				if isCand[idx.setSpk[o]] {
					here = append(here, idx.setSpk[o])
				}
			}
			for _, a := range here {
				for _, b := range here {
					if a != b {
						if adj[a] == nil {
							adj[a] = map[int32]bool{}
						}
						adj[a][b] = true
					}
				}
			}
		}
	}
	return adj
}

// drawSpeakers takes n speakers from order (already shuffled). With prefer
// it builds co-occurring pairs spread over sources, so that the unseen (and
// dev) speakers give every level: it takes the first speaker linked to a
// drawn speaker that has no drawn partner yet (Hard and Harder need two
// speakers of one source and conversation); else the first speaker of a
// source not drawn yet, preferring one with a partner left when two or more
// are still to draw (Base negatives cross sources); else, when two or more
// are still to draw, the first one linked to any remaining one; else the
// first. Without prefer it takes the first n (the paper's code).
func drawSpeakers(order []int32, n int, adj map[int32]map[int32]bool, prefer bool, srcOf func(int32) string) (drawn, rest []int32) {
	rest = slices.Clone(order)
	srcDrawn := map[string]bool{}
	for len(drawn) < n && len(rest) > 0 {
		pick := 0
		if prefer {
			pick = preferredDraw(drawn, rest, n-len(drawn), adj, srcOf, srcDrawn)
		}
		srcDrawn[srcOf(rest[pick])] = true
		drawn = append(drawn, rest[pick])
		rest = slices.Delete(rest, pick, pick+1)
	}
	return drawn, rest
}

// preferredDraw returns the index in rest of drawSpeakers' next speaker
// when it prefers co-occurring pairs spread over sources.
func preferredDraw(drawn, rest []int32, left int, adj map[int32]map[int32]bool, srcOf func(int32) string, srcDrawn map[string]bool) int {
	inDrawn := make(map[int32]bool, len(drawn))
	for _, d := range drawn {
		inDrawn[d] = true
	}
	inRest := make(map[int32]bool, len(rest))
	for _, s := range rest {
		inRest[s] = true
	}
	linked := func(s int32, in map[int32]bool) bool {
		for o := range adj[s] {
			if in[o] {
				return true
			}
		}
		return false
	}
	// A partner for a drawn speaker still alone.
	lonely := map[int32]bool{}
	for _, d := range drawn {
		if !linked(d, inDrawn) {
			lonely[d] = true
		}
	}
	if len(lonely) > 0 {
		for i, s := range rest {
			if linked(s, lonely) {
				return i
			}
		}
	}
	// A speaker of a new source, with a partner left if two are to draw.
	if left >= 2 {
		for i, s := range rest {
			if !srcDrawn[srcOf(s)] && linked(s, inRest) {
				return i
			}
		}
	}
	for i, s := range rest {
		if !srcDrawn[srcOf(s)] {
			return i
		}
	}
	if left >= 2 {
		for i, s := range rest {
			if linked(s, inRest) {
				return i
			}
		}
	}
	return 0
}
