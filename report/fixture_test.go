package report

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/sv"
	"github.com/roleprint/roleprint/sv/table2"
)

// wordCorpus is a small pair corpus: speaker k's utterances use the word
// "wK" among shared words (noise is the shared share), balanced pairs,
// every split of every test set filled.
func wordCorpus(seed int64, noise float64) *pairs.PairCorpus {
	rng := rand.New(rand.NewPCG(uint64(seed), 3))
	const speakers, setsPer, pairsPer = 6, 6, 30
	c := &pairs.PairCorpus{Sets: map[string]*pairs.UtteranceSet{}, Tests: map[pairs.TestKey][]pairs.Pair{}, Seed: seed}
	ids := make([][]string, speakers)
	for s := range speakers {
		for k := range setsPer {
			set := &pairs.UtteranceSet{ID: fmt.Sprintf("s%d-%d", s, k), Source: "fixture", ConversationID: fmt.Sprint(k), Speaker: fmt.Sprint("spk", s)}
			for range 4 {
				var w []string
				for range 6 {
					if rng.Float64() < noise {
						w = append(w, fmt.Sprint("shared", rng.IntN(15)))
					} else {
						w = append(w, fmt.Sprint("w", s))
					}
				}
				set.Texts = append(set.Texts, strings.Join(w, " "))
			}
			c.Sets[set.ID] = set
			ids[s] = append(ids[s], set.ID)
		}
	}
	n := 0
	pairList := func() []pairs.Pair {
		var ps []pairs.Pair
		for i := range pairsPer {
			a, b, label := rng.IntN(speakers), 0, int8(1)
			b = a
			if i%2 == 1 {
				label = 0
				for b == a {
					b = rng.IntN(speakers)
				}
			}
			sa, sb := ids[a][rng.IntN(setsPer)], ids[b][rng.IntN(setsPer)]
			for sb == sa {
				sb = ids[b][rng.IntN(setsPer)]
			}
			n++
			ps = append(ps, pairs.Pair{ID: fmt.Sprint("p", n), A: sa, B: sb, Label: label})
		}
		return ps
	}
	c.Train, c.Dev = pairList(), pairList()
	for _, l := range pairs.Levels {
		for _, e := range pairs.Exposures {
			c.Tests[pairs.TestKey{Exposure: e, Level: l}] = pairList()
		}
	}
	return c
}

// wordCounts embeds a text as its counts of w0..w5, plus a little noise
// that depends on the text's position and shift (so that two encoders
// differ).
type wordCounts struct {
	name  string
	shift int
}

func (w wordCounts) Name() string { return w.name }
func (w wordCounts) Dim() int     { return 6 }
func (w wordCounts) Encode(_ context.Context, texts []string, p sv.Progress) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, 6)
		for _, f := range strings.Fields(t) {
			var k int
			if _, err := fmt.Sscanf(f, "w%d", &k); err == nil && k < 6 {
				v[k]++
			}
		}
		v[(i+w.shift)%6] += 0.5 // a little noise, so that AUCs differ from 1
		out[i] = v
	}
	return out, nil
}

func init() {
	sv.RegisterEncoder("report-test-a", func(sv.EncoderOptions) (sv.Encoder, error) { return wordCounts{"report-test-a", 0}, nil })
	sv.RegisterEncoder("report-test-b", func(sv.EncoderOptions) (sv.Encoder, error) { return wordCounts{"report-test-b", 1}, nil })
}

// table2Run runs Table 2 on wordCorpus with the two test encoders and
// "liwc"'s paper counterpart registered for one of them.
func table2Run() (*table2.Result, error) {
	sv.RegisterPaperCounterpart("report-test-a", "LIWC")
	cfg := table2.DefaultConfig()
	cfg.Encoders = []string{"report-test-a", "report-test-b"}
	cfg.Mixed = []string{"report-test-a", "report-test-b"}
	cfg.Rounds = 2
	cfg.Selection = nil
	return table2.RunConfig(context.Background(), cfg, func(_ context.Context, round int, seed int64) (*pairs.PairCorpus, error) {
		return wordCorpus(seed, 0.5), nil
	})
}
