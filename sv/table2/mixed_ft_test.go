package table2

import (
	"fmt"
	"github.com/roleprint/roleprint/sv"
	"math/rand/v2"
	"testing"

	"github.com/roleprint/roleprint/data/pairs"
	"github.com/roleprint/roleprint/stats"
)

// noisyScores returns cosines that separate labels with the given noise
// (sign −1 inverts them: worse than chance).
func noisyScores(rng *rand.Rand, labels []bool, noise, sign float64) []float64 {
	out := make([]float64, len(labels))
	for i, l := range labels {
		x := 0.0
		if l {
			x = 1
		}
		out[i] = sign*x + noise*rng.NormFloat64()
	}
	return out
}

func TestChooseMixedFTUsesDevOnly(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	dev := make([]bool, 400)
	for i := range dev {
		dev[i] = i%2 == 0
	}
	devCos := map[string][]float64{
		"transformer_ft": noisyScores(rng, dev, 1.0, 1),
		"tfidf":          noisyScores(rng, dev, 1.0, 1),  // independent noise: helps
		"cheat":          noisyScores(rng, dev, 1.0, -1), // bad on dev (perfect on test below)
		"mixed":          noisyScores(rng, dev, 0.1, 1),  // other mixed rows never take part
	}
	c, err := chooseMixedFT(devCos, dev)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("choice: %s", c)
	has := func(name string) bool {
		for _, p := range c.Parts {
			if p == name {
				return true
			}
		}
		return false
	}
	if c.Parts[0] != "transformer_ft" || !has("tfidf") || has("cheat") || has("mixed") {
		t.Fatalf("parts %v: want transformer_ft and tfidf, not cheat or mixed", c.Parts)
	}
	single := stats.AUC(devCos["transformer_ft"], dev)
	if !(c.DevAUC > single) {
		t.Fatalf("mixed dev AUC %.4f not above the fine-tuned row alone %.4f", c.DevAUC, single)
	}
	if _, err := chooseMixedFT(map[string][]float64{"tfidf": devCos["tfidf"]}, dev); err == nil {
		t.Fatal("no fine-tuned row: want an error")
	}
}

// mixedTestRound is a round of 200 alternating dev pairs and 100 per test
// set (the sets themselves are never read: rows come with their scores).
func mixedTestRound() (*pairs.PairCorpus, *roundRunner) {
	mk := func(n int, prefix string) []pairs.Pair {
		ps := make([]pairs.Pair, n)
		for i := range ps {
			ps[i] = pairs.Pair{ID: fmt.Sprintf("%s%d", prefix, i), A: "a", B: "b", Label: int8(1 - i%2)}
		}
		return ps
	}
	c := &pairs.PairCorpus{Dev: mk(200, "d"), Tests: map[pairs.TestKey][]pairs.Pair{}}
	for _, k := range allTestKeys() {
		c.Tests[k] = mk(100, k.String())
	}
	return c, &roundRunner{cfg: &Config{}, crit: stats.MaxAccuracy, corpus: c, round: 1, seed: 1}
}

// TestMixedFTRowIgnoresTest runs the round-level row: a part that is
// perfect on the test pairs but inverted on the dev pairs is left out, and
// the row's test scores are the dev-chosen mix.
func TestMixedFTRowIgnoresTest(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	c, rr := mixedTestRound()
	row := func(name string, devNoise, devSign, testNoise float64) *EncoderRound {
		s := &pairScores{Dev: noisyScores(rng, sv.PairLabels(c.Dev), devNoise, devSign), Tests: map[string][]float64{}}
		for _, k := range allTestKeys() {
			s.Tests[k.String()] = noisyScores(rng, sv.PairLabels(c.Tests[k]), testNoise, 1)
		}
		return &EncoderRound{Encoder: name, Dim: 4, scores: s}
	}
	rows := map[string]*EncoderRound{
		"transformer_ft": row("transformer_ft", 0.8, 1, 0.8),
		"cheat":          row("cheat", 0.8, -1, 0.01),
	}
	if got, err := rr.mixedFT(map[string]*EncoderRound{"cheat": rows["cheat"]}); err != nil || got != nil {
		t.Fatalf("without a fine-tuned row: row %v, err %v; want none", got, err)
	}
	er, err := rr.mixedFT(rows)
	if err != nil {
		t.Fatal(err)
	}
	if er.Mixed == nil || len(er.Mixed.Parts) != 1 || er.Mixed.Parts[0] != "transformer_ft" {
		t.Fatalf("choice %+v: the test-perfect, dev-inverted part must not be chosen", er.Mixed)
	}
	k := allTestKeys()[0].String()
	want := rows["transformer_ft"].scores.Tests[k]
	for i, x := range er.scores.Tests[k] {
		if x != want[i] {
			t.Fatalf("test score %d: %v, want the fine-tuned row's %v", i, x, want[i])
		}
	}
	if er.Cells[k].AUC == 0 || er.About == "" {
		t.Fatalf("row not evaluated or not described: %+v", er)
	}
}

// TestChooseMixedFTNeedsASignificantGain checks the bootstrap bar over
// 100 draws of 120 dev pairs: an untuned row that is the fine-tuned row's
// scores with a trace of noise (mixing it in cannot help on new pairs)
// often raises the dev AUC by more than the 0.001 minimum by chance, and
// is then rarely mixed in; a row with independent information is mixed in
// nearly always.
func TestChooseMixedFTNeedsASignificantGain(t *testing.T) {
	dev := make([]bool, 120)
	for i := range dev {
		dev[i] = i%2 == 0
	}
	chance, echoed, informed := 0, 0, 0
	const draws = 100
	for seed := uint64(1); seed <= draws; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		ft := noisyScores(rng, dev, 1.0, 1)
		echo := make([]float64, len(ft))
		for i, x := range ft {
			echo[i] = x + 0.3*rng.NormFloat64()
		}
		if stats.AUC(fuseCosines([][]float64{ft, echo}, []float64{1, 1}), dev) >= stats.AUC(ft, dev)+0.001 {
			chance++
		}
		c, err := chooseMixedFT(map[string][]float64{"ngram-metric_ft": ft, "echo": echo}, dev)
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Parts) > 1 {
			echoed++
		}
		c, err = chooseMixedFT(map[string][]float64{"ngram-metric_ft": ft, "tfidf": noisyScores(rng, dev, 1.0, 1)}, dev)
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Parts) == 2 {
			informed++
		}
	}
	t.Logf("of %d draws: the echo gains ≥ 0.001 by chance in %d, is mixed in %d; the informative row is mixed in %d", draws, chance, echoed, informed)
	if chance < 25 {
		t.Fatalf("the echo gained by chance in only %d draws: the test checks little", chance)
	}
	if echoed > 10 || informed < 80 {
		t.Errorf("echo mixed in %d of %d draws (want ≤ 10), the informative row %d (want ≥ 80)", echoed, draws, informed)
	}
}

// TestMixedFTFusesOwnScores checks that a fine-tuned row that scores pairs
// itself (a PairScorer: its scores are not its vectors' cosines) enters
// mixed_ft with its own scores, so mixed_ft of that row alone is the row,
// as the verifier bundle (sv/verifier scored_mixture.go) scores it.
func TestMixedFTFusesOwnScores(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	c, rr := mixedTestRound()
	s := &pairScores{Dev: noisyScores(rng, sv.PairLabels(c.Dev), 0.5, 1), Tests: map[string][]float64{},
		CosDev: noisyScores(rng, sv.PairLabels(c.Dev), 0.5, -1), CosTests: map[string][]float64{}}
	for _, k := range allTestKeys() {
		s.Tests[k.String()] = noisyScores(rng, sv.PairLabels(c.Tests[k]), 0.5, 1)
		s.CosTests[k.String()] = noisyScores(rng, sv.PairLabels(c.Tests[k]), 0.5, -1)
	}
	er, err := rr.mixedFT(map[string]*EncoderRound{"ngram-metric_ft": {Encoder: "ngram-metric_ft", Dim: 4, scores: s}})
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range er.scores.Dev {
		if x != s.Dev[i] {
			t.Fatalf("dev score %d: %v, want the row's own %v (its cosine: %v)", i, x, s.Dev[i], s.CosDev[i])
		}
	}
	k := allTestKeys()[4].String()
	for i, x := range er.scores.Tests[k] {
		if x != s.Tests[k][i] {
			t.Fatalf("%s score %d: %v, want the row's own %v", k, i, x, s.Tests[k][i])
		}
	}
}
