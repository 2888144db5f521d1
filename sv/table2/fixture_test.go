package table2

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync/atomic"

	"github.com/roleprint/roleprint/data/assets"
	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/sv"
)

// fixtureCorpus builds a small PairCorpus: nSpeakers speakers with
// setsPer sets of 5 utterances each. Speaker k's utterances mix words
// "wK" (its marker) with shared words; noise (0..1) is the share of
// shared words, so a bag-of-words encoder separates speakers well at low
// noise. Pairs are balanced and every split gets pairsPer pairs; the dev
// couples take the levels in turn (Pair.Level), the test pairs their set's.
func fixtureCorpus(seed int64, nSpeakers, setsPer, pairsPer int, noise float64) *pairs.PairCorpus {
	rng := rand.New(rand.NewPCG(uint64(seed), 7))
	c := &pairs.PairCorpus{Sets: map[string]*pairs.UtteranceSet{}, Tests: map[pairs.TestKey][]pairs.Pair{}, Seed: seed}
	bySpeaker := make([][]string, nSpeakers)
	for s := 0; s < nSpeakers; s++ {
		for k := 0; k < setsPer; k++ {
			id := fmt.Sprintf("s%d-c%d", s, k)
			set := &pairs.UtteranceSet{ID: id, Source: "fixture", ConversationID: fmt.Sprint(k), Speaker: fmt.Sprintf("spk%d", s)}
			for u := 0; u < 5; u++ {
				var words []string
				for w := 0; w < 6; w++ {
					if rng.Float64() < noise {
						words = append(words, fmt.Sprintf("shared%d", rng.IntN(20)))
					} else {
						words = append(words, fmt.Sprintf("w%d", s))
					}
				}
				set.Texts = append(set.Texts, strings.Join(words, " "))
			}
			c.Sets[id] = set
			bySpeaker[s] = append(bySpeaker[s], id)
		}
	}
	n := 0
	pairList := func(count int, level func(i int) pairs.Level) []pairs.Pair {
		var ps []pairs.Pair
		for i := 0; i < count; i++ {
			a := rng.IntN(nSpeakers)
			b := a
			label := int8(1)
			if i%2 == 1 {
				label = 0
				for b == a {
					b = rng.IntN(nSpeakers)
				}
			}
			sa := bySpeaker[a][rng.IntN(setsPer)]
			sb := bySpeaker[b][rng.IntN(setsPer)]
			for sb == sa {
				sb = bySpeaker[b][rng.IntN(setsPer)]
			}
			n++
			ps = append(ps, pairs.Pair{ID: fmt.Sprint("p", n), A: sa, B: sb, Label: label, Level: level(i)})
		}
		return ps
	}
	c.Train = pairList(pairsPer, func(int) pairs.Level { return pairs.Base })
	c.Dev = pairList(pairsPer, func(i int) pairs.Level { return pairs.Levels[(i/2)%len(pairs.Levels)] })
	for _, l := range pairs.Levels {
		for _, e := range pairs.Exposures {
			c.Tests[pairs.TestKey{Exposure: e, Level: l}] = pairList(pairsPer, func(int) pairs.Level { return l })
		}
	}
	return c
}

// fixtureSource serves fixtureCorpus per round.
func fixtureSource(noise float64) CorpusSource {
	return func(ctx context.Context, round int, seed int64) (*pairs.PairCorpus, error) {
		return fixtureCorpus(seed, 6, 6, 40, noise), nil
	}
}

// bowEncoder is a test encoder: counts of the words w0..w9 per utterance.
// It counts Encode calls so tests can tell a resumed run from a fresh one.
type bowEncoder struct {
	name    string
	calls   *atomic.Int64
	trained bool
	train   bool // Trainable: untrained it sees only w0..w2
}

var bowCalls atomic.Int64

func (b *bowEncoder) Name() string { return b.name }
func (b *bowEncoder) Dim() int     { return 10 }
func (b *bowEncoder) Encode(ctx context.Context, texts []string, p sv.Progress) ([][]float32, error) {
	b.calls.Add(1)
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		v := make([]float32, 10)
		for _, w := range strings.Fields(t) {
			var k int
			if _, err := fmt.Sscanf(w, "w%d", &k); err == nil && k < 10 {
				if b.train && !b.trained && k > 2 {
					continue
				}
				v[k]++
			}
		}
		out[i] = v
	}
	p.Report(len(texts), len(texts))
	return out, nil
}

// trainableBow is a bowEncoder that also implements Trainable.
type trainableBow struct{ bowEncoder }

func (t *trainableBow) Train(ctx context.Context, c *pairs.PairCorpus, p sv.Progress) error {
	if len(c.Train) == 0 {
		return fmt.Errorf("no training pairs")
	}
	t.trained = true
	p.Report(1, 1)
	return nil
}

// noisyEncoder gives random vectors (AUC ≈ 0.5).
type noisyEncoder struct{ seed int64 }

func (n *noisyEncoder) Name() string { return "test-noise" }
func (n *noisyEncoder) Dim() int     { return 4 }
func (n *noisyEncoder) Encode(ctx context.Context, texts []string, p sv.Progress) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		h := uint64(n.seed)
		for _, r := range t {
			h = h*131 + uint64(r)
		}
		rng := rand.New(rand.NewPCG(h, 1))
		out[i] = []float32{float32(rng.NormFloat64()), float32(rng.NormFloat64()), float32(rng.NormFloat64()), float32(rng.NormFloat64())}
	}
	return out, nil
}

func init() {
	sv.RegisterEncoder("test-bow", func(o sv.EncoderOptions) (sv.Encoder, error) {
		return &bowEncoder{name: "test-bow", calls: &bowCalls}, nil
	})
	sv.RegisterEncoder("test-trainable", func(o sv.EncoderOptions) (sv.Encoder, error) {
		return &trainableBow{bowEncoder{name: "test-trainable", calls: &bowCalls, train: true}}, nil
	})
	sv.RegisterEncoder("test-noise", func(o sv.EncoderOptions) (sv.Encoder, error) { return &noisyEncoder{seed: o.Seed}, nil })
	sv.RegisterEncoder("test-missing", func(o sv.EncoderOptions) (sv.Encoder, error) {
		return nil, &assets.MissingError{What: "test vectors", Path: "/nowhere", Step: "test"}
	})
}
